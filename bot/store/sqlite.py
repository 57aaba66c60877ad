"""The SQLite backend: one writer at a time, WAL, ``PRAGMA user_version``.

Reads may run at any time (in aiosqlite's thread); every write goes through
:meth:`SQLiteDatabase.transaction`, which holds one ``asyncio.Lock`` and wraps the block in
``BEGIN IMMEDIATE … COMMIT`` (``ROLLBACK`` on error), so a write is either wholly in the database
or not at all.  ``synchronous``: ``normal`` (WAL is fsynced at checkpoints: a commit survives
the process dying, and a power loss may drop the latest commits) or ``full`` (WAL fsynced at
every commit: survives a power loss too).

With ``normal``, a transaction's statements run on the event loop's own thread, on a second
connection kept for writing: a commit then writes the WAL into the page cache and never waits
for the disk, which takes less than one trip to aiosqlite's thread and back (the commit times
of each backend and setting: docs/benchmarks.md, *Store: commit latency*).  Through
the thread, each statement of a transaction (``BEGIN``, the inserts, ``COMMIT``) waited for the
loop to come round again while holding the one write lock, and at 200 tables every table's
move queued behind it: that queue was most of the bot's slowest answers (docs/benchmarks.md,
*Discord load*).  The disk work — checkpoints, which fsync — stays in aiosqlite's thread: the
writing connection never checkpoints by itself, and every :data:`CHECKPOINT_EVERY` commits a
passive checkpoint runs there.  With ``full`` (an fsync per commit) and ``:memory:`` (one
connection only) transactions run in the thread as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import os
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.base import Database, Operation, Row, Synchronous, Tx
from bot.store.errors import (
    IntegrityError,
    SetupError,
    StoreError,
    StoreUnavailable,
    UniqueViolation,
)
from bot.store.migrations import latest, migrations, newer_schema
from bot.store.sql import to_sqlite

log = logging.getLogger(__name__)
_CONSTRAINT = re.compile(r"constraint failed: (.+)$")


def translate(e: sqlite3.Error | OSError) -> StoreError:
    """The store's exception for a driver exception."""
    if isinstance(e, sqlite3.IntegrityError):
        text = str(e)
        m = _CONSTRAINT.search(text)
        constraint = m.group(1) if m else None
        if text.startswith("UNIQUE") or "PRIMARY KEY" in text:
            # "UNIQUE constraint failed: actions.table_id, actions.seq"
            names = [n.strip().split(".", 1) for n in (constraint or "").split(",")]
            table = names[0][0] if names and len(names[0]) == 2 else None
            columns = tuple(n[1] for n in names if len(n) == 2)
            return UniqueViolation(text, constraint, table=table, columns=columns)
        return IntegrityError(text, constraint)
    if isinstance(e, sqlite3.OperationalError | OSError):
        return StoreUnavailable(str(e))
    return StoreError(str(e))


class _Rows:
    """``fetchrow``/``fetchval`` over a ``fetch``."""

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        raise NotImplementedError

    async def fetchrow(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        rows = await self.fetch(sql, params)
        return rows[0] if rows else None

    async def fetchval(self, sql: str, params: Sequence[Any] = ()) -> Any:
        row = await self.fetchrow(sql, params)
        return None if row is None else row[0]


class _Conn(_Rows):
    """The reads and writes of :class:`~bot.store.db.Tx` in aiosqlite's thread."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        try:
            await self._conn.execute(to_sqlite(sql), tuple(params))
        except (sqlite3.Error, OSError) as e:
            raise translate(e) from e

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            await self._conn.executemany(to_sqlite(sql), [tuple(r) for r in rows])
        except (sqlite3.Error, OSError) as e:
            raise translate(e) from e

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        try:
            return list(await self._conn.execute_fetchall(to_sqlite(sql), tuple(params)))
        except (sqlite3.Error, OSError) as e:
            raise translate(e) from e


class _LoopConn(_Rows):
    """The reads and writes of :class:`~bot.store.db.Tx` on the event loop's thread, over the
    writing connection (they never wait for the disk: see the module's docstring)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._writer = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        try:
            self._writer.execute(to_sqlite(sql), tuple(params))
        except (sqlite3.Error, OSError) as e:
            raise translate(e) from e

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            self._writer.executemany(to_sqlite(sql), [tuple(r) for r in rows])
        except (sqlite3.Error, OSError) as e:
            raise translate(e) from e

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        try:
            return list(self._writer.execute(to_sqlite(sql), tuple(params)).fetchall())
        except (sqlite3.Error, OSError) as e:
            raise translate(e) from e


#: How long opening waits for another process that holds a new file (seconds).
_OPEN_PATIENCE = 15.0
#: How long a transaction waits for another process's write lock (the reading connection's
#: ``busy_timeout``, 5,000 ms, the same).
_BUSY_PATIENCE = 5.0
#: Commits on the loop's connection between two passive checkpoints in aiosqlite's thread
#: (SQLite's own automatic checkpoint comes at 1,000 WAL pages; a move writes one or two).
CHECKPOINT_EVERY = 500
#: WAL pages at which a checkpoint stops the writes and starts the WAL over (see
#: :meth:`SQLiteDatabase._checkpoint_wal`): about 16 MB, four times SQLite's own threshold.
WAL_RESET_PAGES = 4000


async def _begin_on_loop(writer: sqlite3.Connection) -> None:
    """``BEGIN IMMEDIATE`` on the loop's connection without ever blocking the loop: while
    another process holds the file's write lock (a backup, the ``sqlite3`` shell) the loop
    waits for it in short sleeps, like ``busy_timeout`` would, for up to
    :data:`_BUSY_PATIENCE` seconds; meanwhile the bot answers (or defers) other clicks."""
    deadline = time.monotonic() + _BUSY_PATIENCE
    pause = 0.002
    while True:
        try:
            writer.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError as e:
            if not _is_busy(e) or time.monotonic() + pause > deadline:
                raise translate(e) from e
        except (sqlite3.Error, OSError) as e:
            raise translate(e) from e
        await asyncio.sleep(pause)
        pause = min(pause * 2, 0.05)


async def _open_writer(path: str) -> sqlite3.Connection:
    """The connection transactions run on in the loop's thread (``synchronous=normal`` only):
    it never checkpoints by itself, so a commit never waits for the disk.  It never waits for
    a lock in the loop either: while another connection holds the new file (turning it into
    WAL, migrating it), opening is tried again after short sleeps."""
    deadline = time.monotonic() + _OPEN_PATIENCE
    pause = 0.01
    while True:
        conn = sqlite3.connect(path, isolation_level=None)
        try:
            conn.row_factory = sqlite3.Row
            conn.execute("PRAGMA busy_timeout=0")  # see _begin_on_loop
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA wal_autocheckpoint=0")
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()  # reads the file
            return conn
        except sqlite3.OperationalError as e:
            conn.close()
            if not _is_busy(e) or time.monotonic() + pause > deadline:
                raise
        except BaseException:
            conn.close()
            raise
        await asyncio.sleep(pause)
        pause = min(pause * 2, 0.25)


def _is_busy(e: sqlite3.OperationalError) -> bool:
    return getattr(e, "sqlite_errorcode", None) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


async def _open_once(path: str, synchronous: Synchronous) -> aiosqlite.Connection:
    """A configured connection, or the driver's error with nothing left open."""
    conn = await aiosqlite.connect(path, isolation_level=None)
    conn.row_factory = aiosqlite.Row
    try:
        await conn.execute("PRAGMA busy_timeout=5000")
        await conn.execute("PRAGMA journal_mode=WAL")
        await conn.execute(f"PRAGMA synchronous={synchronous.upper()}")
        await conn.execute("PRAGMA foreign_keys=ON")
        # Take the write lock once: a read-only file or folder fails here, not at the
        # first move.
        await conn.execute("BEGIN IMMEDIATE")
        await conn.execute("ROLLBACK")
    except BaseException:
        await conn.close()
        raise
    return conn


class SQLiteDatabase(Database):
    backend = "sqlite"

    def __init__(
        self, conn: aiosqlite.Connection, path: str, writer: sqlite3.Connection | None = None
    ) -> None:
        super().__init__()
        #: The aiosqlite connection, for SQLite-only tools (tests, benchmarks); the store
        #: itself never uses it directly.
        self.conn = conn
        self.path = path
        self._write_lock = asyncio.Lock()
        self._queries = _Conn(conn)
        # Transactions on the loop's thread (synchronous=normal on a file), else None.
        self._writer = writer
        self._in_loop = None if writer is None else _LoopConn(writer)
        self._commits = 0  # on the writer since its last checkpoint
        self._checkpoint: asyncio.Task[None] | None = None

    @classmethod
    async def connect_to(cls, where: str, synchronous: Synchronous) -> SQLiteDatabase:
        return await cls.connect(where, synchronous=synchronous)

    @classmethod
    async def connect(cls, path: str, *, synchronous: Synchronous = "normal") -> SQLiteDatabase:
        if synchronous not in ("normal", "full"):
            raise SetupError(f"SQLITE_SYNCHRONOUS must be normal or full, not {synchronous!r}")
        if path != ":memory:":
            _prepare_folder(Path(path))
        # Turning a new file into WAL needs the file to itself, and SQLite answers "database
        # is locked" at once (no busy handler) while another process opens the same new file:
        # two bot processes started together on an empty database. Try again for a while.
        deadline = time.monotonic() + _OPEN_PATIENCE
        pause = 0.01
        while True:
            try:
                conn = await _open_once(path, synchronous)
                break
            except sqlite3.OperationalError as e:
                if not _is_busy(e) or time.monotonic() + pause > deadline:
                    raise SetupError(_open_failure(path, e)) from None
            except sqlite3.Error as e:
                raise SetupError(_open_failure(path, e)) from None
            await asyncio.sleep(pause)
            pause = min(pause * 2, 0.25)
        if synchronous != "normal" or path == ":memory:":
            return cls(conn, path)
        try:
            writer = await _open_writer(path)
        except sqlite3.Error as e:
            await conn.close()
            raise SetupError(_open_failure(path, e)) from None
        return cls(conn, path, writer)

    # ------------------------------------------------------------------ Database
    @contextlib.asynccontextmanager
    async def transaction(self, operation: Operation = "other") -> AsyncIterator[Tx]:
        async with self._write_lock:
            try:
                if self._writer is not None and self._in_loop is not None:
                    await _begin_on_loop(self._writer)
                    with self._loop_transaction(self._writer, operation):
                        yield self._in_loop
                    self._commits += 1
                    if self._commits >= CHECKPOINT_EVERY and self._checkpoint is None:
                        self._commits = 0
                        self._checkpoint = asyncio.create_task(self._checkpoint_wal())
                    return
                async with self._in_thread(operation) as queries:
                    yield queries
            except StoreError as e:
                self._refused(e, operation)
                raise

    @contextlib.asynccontextmanager
    async def _in_thread(self, operation: Operation) -> AsyncIterator[Tx]:
        """A transaction in aiosqlite's thread (``synchronous=full``, ``:memory:``)."""
        await self._run(lambda: self.conn.execute("BEGIN IMMEDIATE"))
        try:
            yield self._queries
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                await self.conn.execute("ROLLBACK")
            raise
        started = time.perf_counter()
        try:
            await self.conn.execute("COMMIT")
        except (sqlite3.Error, OSError) as e:
            with contextlib.suppress(sqlite3.Error):
                await self.conn.execute("ROLLBACK")
            raise translate(e) from e
        self._timed_commit(started, operation)

    @contextlib.contextmanager
    def _loop_transaction(self, writer: sqlite3.Connection, operation: Operation) -> Iterator[None]:
        """The rest of a transaction begun by :func:`_begin_on_loop`.  Holding SQLite's write
        lock, in WAL mode, its statements and ``COMMIT`` wait for nobody."""
        try:
            yield
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                writer.execute("ROLLBACK")
            raise
        started = time.perf_counter()
        try:
            writer.execute("COMMIT")
        except (sqlite3.Error, OSError) as e:
            with contextlib.suppress(sqlite3.Error):
                writer.execute("ROLLBACK")
            raise translate(e) from e
        self._timed_commit(started, operation)

    async def _checkpoint_wal(self) -> None:
        """Copy the WAL's committed pages into the database file, in aiosqlite's thread (a
        passive checkpoint never blocks the writer; the WAL starts over at the first write
        after one that copied every page).  Under steady writes none ever does — the loop
        commits while it runs — and the WAL grew without end (4 KB a move, a gigabyte a day
        at 200 busy tables; docs/benchmarks.md, *Click path and memory*): once it holds
        :data:`WAL_RESET_PAGES`, the next checkpoint holds the write lock (commits wait on
        the loop, a few milliseconds) and truncates it."""
        try:
            async with self.conn.execute("PRAGMA wal_checkpoint(PASSIVE)") as cursor:
                row = await cursor.fetchone()  # (busy, pages in the WAL, pages copied)
            if row is not None and row[1] >= WAL_RESET_PAGES:
                async with self._write_lock:
                    await self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except (sqlite3.Error, OSError) as e:
            log.warning("checkpointing the database's WAL failed: %s", e)
        finally:
            self._checkpoint = None

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return await self._queries.fetch(sql, params)

    async def fetchrow(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        return await self._queries.fetchrow(sql, params)

    async def fetchval(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return await self._queries.fetchval(sql, params)

    async def schema_version(self) -> int:
        return int(await self.fetchval("PRAGMA user_version") or 0)

    async def migrate(self) -> None:
        newest = latest(self.backend)
        for mig in migrations(self.backend):
            async with self._write_lock:
                try:
                    # The version is read again under the write lock, so two processes
                    # opening one new file at once apply each migration once.
                    await self.conn.execute("BEGIN IMMEDIATE")
                    current = await self.schema_version()
                    if current > newest:
                        raise SetupError(newer_schema(self.path, current, newest))
                    if mig.version <= current:
                        await self.conn.execute("ROLLBACK")
                        continue
                    log.info("applying migration %s", mig.name)
                    # Statement by statement (executescript would commit first), so that the
                    # schema change and the version bump land together or not at all.
                    for statement in _statements(mig.sql):
                        await self.conn.execute(statement)
                    await self.conn.execute(f"PRAGMA user_version = {mig.version:d}")
                    await self.conn.execute("COMMIT")
                except BaseException as e:
                    if self.conn.in_transaction:
                        await self.conn.execute("ROLLBACK")
                    if isinstance(e, sqlite3.Error | OSError):
                        raise translate(e) from e
                    raise

    async def on_every_connection(self, sql: str) -> None:
        """Run ``sql`` (a ``PRAGMA``) on the reading connection and on the writing one, if
        any: for SQLite-only tools and tests (e.g. ``PRAGMA query_only = ON``)."""
        await self.conn.execute(sql)
        if self._writer is not None:
            self._writer.execute(sql)

    async def close(self) -> None:
        if self._checkpoint is not None:
            with contextlib.suppress(Exception):
                await self._checkpoint
        if self._writer is not None:
            self._writer.close()
        await self.conn.close()

    async def _run(self, call: Callable[[], Any]) -> None:
        try:
            await call()
        except (sqlite3.Error, OSError) as e:
            raise translate(e) from e


def _statements(script: str) -> list[str]:
    """The complete SQL statements of a script, in order (``sqlite3.complete_statement`` knows
    where each ends, triggers' ``BEGIN … END`` included)."""
    out, buf = [], ""
    for line in script.splitlines(keepends=True):
        buf += line
        if sqlite3.complete_statement(buf):
            out.append(buf.strip())
            buf = ""
    if buf.strip() and not all(
        ln.strip().startswith("--") or not ln.strip() for ln in buf.splitlines()
    ):
        raise ValueError(f"incomplete SQL statement at the end of a migration: {buf.strip()!r}")
    return out


def _prepare_folder(path: Path) -> None:
    """Create the database's folder; refuse with one line when it cannot be made or written."""
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise SetupError(
            f"cannot create the database folder {folder}: {_why(e)} "
            "(set DATABASE_URL or DATABASE_PATH to a writable place, or fix the folder)"
        ) from None
    if path.is_dir():
        raise SetupError(f"the database {path} is a folder: name a file inside it instead")
    # The file and its WAL companions (-wal, -shm) are created beside it.
    if not os.access(folder, os.W_OK | os.X_OK):
        raise SetupError(
            f"cannot write the database folder {folder}: permission denied "
            f"(the bot runs as user id {os.geteuid()}: give it the folder, e.g. chown)"
        )
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        raise SetupError(
            f"cannot write the database {path}: permission denied "
            f"(the bot runs as user id {os.geteuid()}: give it the file, e.g. chown)"
        )


def _why(e: OSError) -> str:
    if e.errno in (errno.ENOTDIR, errno.EEXIST):
        return "a file is in the way of the folder"
    return e.strerror or str(e)


def _open_failure(path: str, e: sqlite3.Error) -> str:
    text = str(e)
    if isinstance(e, sqlite3.DatabaseError) and "not a database" in text:
        return (
            f"{path} is not a SQLite database (a different kind of file?): point DATABASE_URL "
            "or DATABASE_PATH at the bot's database, or at a file that does not exist yet"
        )
    if "readonly" in text or "unable to open" in text:
        return (
            f"cannot write the database {path} ({text}): the bot needs to write the file and "
            "its folder (it runs as user id %d)" % os.geteuid()
        )
    return f"cannot open the database {path}: {text}"
