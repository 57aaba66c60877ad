"""The PostgreSQL backend (asyncpg): a connection pool, one transaction per write block.

Every call has a time limit, so a hung connection, a lock held elsewhere or a server that stops
answering refuses one action (:class:`~bot.store.errors.StoreUnavailable`) instead of freezing a
table: a pooled connection must be had within ``acquire`` seconds, the server cancels a
statement after ``statement_timeout`` (and a lock wait after ``lock_timeout``) and ends a
transaction left idle after ``idle_in_transaction_session_timeout``, and the client gives up on
any call after ``command`` seconds even if the server never answers (:class:`Timeouts`).  The
server-side ones yield to the same names in ``DATABASE_URL``'s query
(``postgresql://…/spades?statement_timeout=20000``, in milliseconds).

The schema version lives in the database (``schema_migrations``, one row per applied
migration).  Migrating takes a session advisory lock first, so when several bot processes
start together against an empty database one of them migrates and the others wait for it and
then find nothing left to do.
"""

from __future__ import annotations

import contextlib
import logging
import re
import time
import urllib.parse
from collections.abc import AsyncIterator, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import asyncpg

from bot.store.base import Database, Operation, Row, Synchronous
from bot.store.errors import (
    IntegrityError,
    SetupError,
    StoreError,
    StoreUnavailable,
    UniqueViolation,
)
from bot.store.migrations import latest, migrations, newer_schema
from bot.store.sql import to_postgresql

log = logging.getLogger(__name__)

#: ``pg_advisory_lock`` key of the migration lock (any constant; "spades" in ASCII).
MIGRATION_LOCK = 0x737061646573
POOL_SIZE = 10
_KEY = re.compile(r"^Key \(([^)]*)\)=")
CONNECT_TIMEOUT = 10.0
#: A migration may wait for another process's migration and run long statements.
MIGRATION_TIMEOUT = 3600.0


@dataclass(frozen=True, slots=True)
class Timeouts:
    """Seconds each kind of wait may last (see the module's docstring)."""

    acquire: float = 5.0  # a connection from the pool (all busy, or a hung one not returned)
    command: float = 15.0  # the client's limit on any call, whatever the server does
    statement: float = 10.0  # the server cancels a statement (``statement_timeout``)
    lock: float = 3.0  # ... or its wait for a lock held by another session (``lock_timeout``)
    idle_in_transaction: float = 30.0  # the server ends a transaction left open and idle

    def server_settings(self, dsn: str) -> dict[str, str]:
        """The server-side limits, in milliseconds, except those ``dsn``'s query sets."""
        given = urllib.parse.parse_qs(urllib.parse.urlsplit(dsn).query)
        limits = {
            "statement_timeout": self.statement,
            "lock_timeout": self.lock,
            "idle_in_transaction_session_timeout": self.idle_in_transaction,
        }
        return {k: str(round(v * 1000)) for k, v in limits.items() if k not in given}


def translate(e: BaseException) -> StoreError:
    if isinstance(e, asyncpg.UniqueViolationError):
        # detail: "Key (table_id, seq)=(t1, 2) already exists."
        m = _KEY.match(getattr(e, "detail", None) or "")
        columns = tuple(c.strip() for c in m.group(1).split(",")) if m else ()
        return UniqueViolation(
            str(e),
            getattr(e, "constraint_name", None),
            table=getattr(e, "table_name", None),
            columns=columns,
        )
    if isinstance(e, asyncpg.IntegrityConstraintViolationError):
        return IntegrityError(str(e), getattr(e, "constraint_name", None))
    if isinstance(
        e,
        OSError
        | TimeoutError
        | asyncpg.InterfaceError
        | asyncpg.ConnectionDoesNotExistError
        | asyncpg.CannotConnectNowError
        | asyncpg.PostgresConnectionError
        | asyncpg.InsufficientResourcesError
        | asyncpg.OperatorInterventionError
        | asyncpg.LockNotAvailableError
        | asyncpg.IdleInTransactionSessionTimeoutError,
    ):
        # OperatorInterventionError includes QueryCanceledError (statement_timeout).
        return StoreUnavailable(
            str(e) or f"{type(e).__name__}: the database did not answer in time"
        )
    return StoreError(str(e))


_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError)


class _Conn:
    """The reads and writes of :class:`~bot.store.db.Tx` on one pooled connection."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> None:
        try:
            await self._conn.execute(to_postgresql(sql), *params)
        except _ERRORS as e:
            raise translate(e) from e

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        batch = [tuple(r) for r in rows]
        if not batch:
            return
        try:
            await self._conn.executemany(to_postgresql(sql), batch)
        except _ERRORS as e:
            raise translate(e) from e

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        try:
            return list(await self._conn.fetch(to_postgresql(sql), *params))
        except _ERRORS as e:
            raise translate(e) from e

    async def fetchrow(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        try:
            row: Row | None = await self._conn.fetchrow(to_postgresql(sql), *params)
        except _ERRORS as e:
            raise translate(e) from e
        return row

    async def fetchval(self, sql: str, params: Sequence[Any] = ()) -> Any:
        try:
            return await self._conn.fetchval(to_postgresql(sql), *params)
        except _ERRORS as e:
            raise translate(e) from e


class PostgresDatabase(Database):
    backend = "postgresql"

    def __init__(self, pool: Any, where: str, timeouts: Timeouts | None = None) -> None:
        super().__init__()
        self.pool = pool
        self.where = where  # host:port/database, for messages (never the password)
        self.timeouts = timeouts or Timeouts()

    @classmethod
    async def connect_to(cls, where: str, synchronous: Synchronous) -> PostgresDatabase:
        return await cls.connect(where)  # durability is the server's synchronous_commit

    @classmethod
    async def connect(
        cls, dsn: str, *, pool_size: int = POOL_SIZE, timeouts: Timeouts | None = None
    ) -> PostgresDatabase:
        where = _where(dsn)
        timeouts = timeouts or Timeouts()
        try:
            pool = await asyncpg.create_pool(
                dsn,
                min_size=1,
                max_size=pool_size,
                timeout=CONNECT_TIMEOUT,
                command_timeout=timeouts.command,
                server_settings=timeouts.server_settings(dsn),
                statement_cache_size=512,
            )
        except (
            asyncpg.InvalidPasswordError,
            asyncpg.InvalidAuthorizationSpecificationError,
        ) as e:
            raise SetupError(
                f"PostgreSQL at {where} refused the credentials in DATABASE_URL "
                f"({_first_line(e)}): "
                "check the user name and password"
            ) from None
        except asyncpg.InvalidCatalogNameError:
            raise SetupError(
                f"PostgreSQL at {where}: the database does not exist; create it first "
                "(e.g. createdb) or fix the name in DATABASE_URL"
            ) from None
        except (OSError, TimeoutError, asyncpg.CannotConnectNowError) as e:
            raise SetupError(
                f"cannot reach PostgreSQL at {where} ({_first_line(e) or type(e).__name__}): is "
                "the server running, and are DATABASE_URL's host and port right?"
            ) from None
        except (asyncpg.PostgresError, asyncpg.InterfaceError, ValueError) as e:
            raise SetupError(
                f"PostgreSQL at {where} refused the connection: {_first_line(e)}"
            ) from None
        return cls(pool, where, timeouts)

    # ------------------------------------------------------------------ Database
    @contextlib.asynccontextmanager
    async def transaction(self, operation: Operation = "other") -> AsyncIterator[_Conn]:
        try:
            async with self.pool.acquire(timeout=self.timeouts.acquire) as conn:
                tx = conn.transaction()
                await tx.start()
                try:
                    yield _Conn(conn)
                except BaseException:
                    with contextlib.suppress(*_ERRORS):
                        await tx.rollback()
                    raise
                started = time.perf_counter()
                await tx.commit()
                self._timed_commit(started, operation)
        except _ERRORS as e:
            error = translate(e)
            self._refused(error, operation)
            raise error from e
        except StoreError as e:  # a statement of the block, translated already
            self._refused(e, operation)
            raise

    @contextlib.asynccontextmanager
    async def _reads(self) -> AsyncIterator[_Conn]:
        """A pooled connection for reads outside a transaction (had within the time limit)."""
        try:
            async with self.pool.acquire(timeout=self.timeouts.acquire) as conn:
                yield _Conn(conn)
        except _ERRORS as e:
            raise translate(e) from e

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        async with self._reads() as conn:
            return await conn.fetch(sql, params)

    async def fetchrow(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        async with self._reads() as conn:
            return await conn.fetchrow(sql, params)

    async def fetchval(self, sql: str, params: Sequence[Any] = ()) -> Any:
        async with self._reads() as conn:
            return await conn.fetchval(sql, params)

    async def schema_version(self) -> int:
        if await self.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL"):
            return int(
                await self.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
            )
        return 0

    async def migrate(self) -> None:
        try:
            async with self.pool.acquire(timeout=MIGRATION_TIMEOUT) as conn:
                # Another process may be migrating, and a migration may run long: no limits
                # on this session while it migrates (the pool resets them on release).
                await conn.execute("SET statement_timeout = 0; SET lock_timeout = 0")
                await conn.execute(
                    "SELECT pg_advisory_lock($1)", MIGRATION_LOCK, timeout=MIGRATION_TIMEOUT
                )
                try:
                    await self._migrate_locked(conn)
                finally:
                    await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)
        except _ERRORS as e:
            raise translate(e) from e

    async def _migrate_locked(self, conn: Any) -> None:
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
            " applied_at DOUBLE PRECISION NOT NULL)"
        )
        current = int(
            await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
        )
        newest = latest(self.backend)
        if current > newest:
            raise SetupError(newer_schema(self.where, current, newest))
        for mig in migrations(self.backend):
            if mig.version <= current:
                continue
            log.info("applying migration %s", mig.name)
            async with conn.transaction():
                await conn.execute(mig.sql, timeout=MIGRATION_TIMEOUT)
                await conn.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
                    mig.version,
                    mig.name,
                    time.time(),
                )

    async def close(self) -> None:
        await self.pool.close()


def _where(dsn: str) -> str:
    parts = urllib.parse.urlsplit(dsn)
    host = parts.hostname or "localhost"
    port = parts.port or 5432
    return f"{host}:{port}{parts.path or '/'}"


def _first_line(e: BaseException) -> str:
    return str(e).strip().splitlines()[0] if str(e).strip() else ""
