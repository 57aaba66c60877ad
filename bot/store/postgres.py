"""The PostgreSQL backend (asyncpg): a connection pool, one transaction per write block.

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
from typing import Any

import asyncpg

from bot.store.base import Database, Row, Synchronous
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
        | asyncpg.OperatorInterventionError,
    ):
        return StoreUnavailable(str(e) or type(e).__name__)
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

    def __init__(self, pool: Any, where: str) -> None:
        super().__init__()
        self.pool = pool
        self.where = where  # host:port/database, for messages (never the password)
        self._reads = _Conn(pool)

    @classmethod
    async def connect_to(cls, where: str, synchronous: Synchronous) -> PostgresDatabase:
        return await cls.connect(where)  # durability is the server's synchronous_commit

    @classmethod
    async def connect(cls, dsn: str, *, pool_size: int = POOL_SIZE) -> PostgresDatabase:
        where = _where(dsn)
        try:
            pool = await asyncpg.create_pool(
                dsn,
                min_size=1,
                max_size=pool_size,
                timeout=CONNECT_TIMEOUT,
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
        return cls(pool, where)

    # ------------------------------------------------------------------ Database
    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[_Conn]:
        try:
            async with self.pool.acquire() as conn:
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
                self._timed_commit(started)
        except _ERRORS as e:
            raise translate(e) from e

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return await self._reads.fetch(sql, params)

    async def fetchrow(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        return await self._reads.fetchrow(sql, params)

    async def fetchval(self, sql: str, params: Sequence[Any] = ()) -> Any:
        return await self._reads.fetchval(sql, params)

    async def schema_version(self) -> int:
        if await self.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL"):
            return int(
                await self.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
            )
        return 0

    async def migrate(self) -> None:
        try:
            async with self.pool.acquire() as conn:
                await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
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
                await conn.execute(mig.sql)
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
