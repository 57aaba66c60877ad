"""The store's one interface to a database, whichever backend holds it (import it from
``bot.store.db``, which also loads the backends).

The table service and the league see only :class:`Database` and :class:`Tx`::

    async with Database.open("sqlite:///data/spades.db") as db:   # or postgresql://…
        async with db.transaction() as tx:                          # BEGIN … COMMIT
            await tx.execute("INSERT INTO meta (key, value) VALUES (?, ?)", ("k", "v"))
        row = await db.fetchrow("SELECT value FROM meta WHERE key = ?", ("k",))

Every write runs inside :meth:`Database.transaction`: the block's statements commit together
when it ends, or none of them if it raises.  Its ``operation`` (what the transaction writes:
:data:`OPERATIONS`) labels its commit's latency and its failures in the metrics.  Queries are
written once in the portable dialect of ``bot/store/sql.py``; rows answer ``row[0]`` and
``row["name"]`` on both backends.  Failures arrive as the exceptions of
``bot/store/errors.py``, never as a driver's own.
"""

from __future__ import annotations

import abc
import contextlib
import time
from collections import deque
from collections.abc import AsyncIterator, Iterable, Sequence
from typing import Any, ClassVar, Literal, Protocol, get_args

from bot import metrics
from bot.store.errors import IntegrityError, StoreError
from bot.store.url import parse_database_url

Synchronous = Literal["normal", "full"]
# What a transaction writes, for the metrics (bot.metrics.COMMIT_SECONDS).
Operation = Literal["table", "tournament", "league", "review", "settings", "meta", "other"]
OPERATIONS: tuple[Operation, ...] = get_args(Operation)


class Row(Protocol):
    """A result row: by position or by column name."""

    def __getitem__(self, key: Any, /) -> Any: ...


class Queries(Protocol):
    """Reads, on a database (outside any transaction) or inside a transaction."""

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    async def fetchrow(self, sql: str, params: Sequence[Any] = ()) -> Row | None: ...

    async def fetchval(self, sql: str, params: Sequence[Any] = ()) -> Any: ...


class Tx(Queries, Protocol):
    """An open transaction: reads see its own writes; it commits when its block ends."""

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None: ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...


class Database(abc.ABC):
    """An open database.  Use ``async with Database.open(url_or_path) as db``."""

    #: ``"sqlite"`` or ``"postgresql"``: for logs and tests, never for choosing SQL.
    backend: str
    #: The backends by name, each registered by its module (``bot.store.db`` imports them).
    backends: ClassVar[dict[str, type[Database]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        Database.backends[cls.backend] = cls

    #: Seconds each of the latest commits took (``COMMIT`` round trip), newest last.
    commit_seconds: deque[float]

    def __init__(self) -> None:
        # The latest 20,000 (~0.6 MB once full; 100,000 made 3 MB that the soak of finished
        # games in docs/benchmarks.md counted): enough for the shutdown line's percentiles.
        self.commit_seconds = deque(maxlen=20_000)

    @classmethod
    @contextlib.asynccontextmanager
    async def open(
        cls,
        target: str,
        *,
        synchronous: Synchronous = "normal",
        migrate: bool = True,
    ) -> AsyncIterator[Database]:
        """Open ``target`` — a ``sqlite:///path`` or ``postgresql://…`` URL, or a plain file
        path — and (unless ``migrate=False``) bring its schema up to date.

        ``synchronous`` applies to SQLite only (docs/operations.md, "Durability").  Raises
        :class:`~bot.store.errors.SetupError` with a one-line reason when it cannot.
        """
        url = parse_database_url(target)
        db = await cls.backends[url.backend].connect_to(url.path or url.dsn, synchronous)
        try:
            if migrate:
                await db.migrate()
            yield db
        finally:
            await db.close()

    # ------------------------------------------------------------------ the interface
    @classmethod
    @abc.abstractmethod
    async def connect_to(cls, where: str, synchronous: Synchronous) -> Database:
        """Connect (no migration): ``where`` is a SQLite file or a PostgreSQL URL."""

    @abc.abstractmethod
    def transaction(
        self, operation: Operation = "other"
    ) -> contextlib.AbstractAsyncContextManager[Tx]:
        """``BEGIN`` … ``COMMIT`` (``ROLLBACK`` if the block raises)."""

    @abc.abstractmethod
    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    @abc.abstractmethod
    async def fetchrow(self, sql: str, params: Sequence[Any] = ()) -> Row | None: ...

    @abc.abstractmethod
    async def fetchval(self, sql: str, params: Sequence[Any] = ()) -> Any: ...

    @abc.abstractmethod
    async def schema_version(self) -> int:
        """The number of the last migration applied to this database."""

    @abc.abstractmethod
    async def migrate(self) -> None:
        """Apply every migration newer than :meth:`schema_version`, each in its own
        transaction; refuse (:class:`SetupError`) a database migrated by a newer version."""

    @abc.abstractmethod
    async def close(self) -> None: ...

    # ------------------------------------------------------------------ helpers
    def _timed_commit(self, started: float, operation: Operation) -> None:
        seconds = time.perf_counter() - started
        self.commit_seconds.append(seconds)
        metrics.commit(self.backend, operation, seconds)

    def _refused(self, error: BaseException, operation: Operation) -> None:
        """Count a transaction the database refused (a broken constraint is the data's
        answer, not the database failing)."""
        if isinstance(error, StoreError) and not isinstance(error, IntegrityError):
            metrics.commit_failed(self.backend, operation)
