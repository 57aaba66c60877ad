"""The SQLite database: one connection, WAL, numbered migrations by ``PRAGMA user_version``.

Reads may run at any time; every write goes through :meth:`Database.transaction`, which holds
one ``asyncio.Lock`` and wraps the work in ``BEGIN IMMEDIATE … COMMIT`` (``ROLLBACK`` on error),
so a write is either wholly in the database or not at all.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Iterable
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

log = logging.getLogger(__name__)
_MIGRATION_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")


def migrations() -> list[tuple[int, str, str]]:
    """(version, file name, SQL) of every migration shipped in ``bot/store/migrations``."""
    out = []
    for entry in resources.files("bot.store.migrations").iterdir():
        m = _MIGRATION_NAME.match(entry.name)
        if m:
            out.append((int(m.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    out.sort()
    for i, (version, name, _) in enumerate(out, start=1):
        if version != i:
            raise RuntimeError(f"migration {name} is out of sequence (expected {i:03d})")
    return out


class Database:
    """An open database.  Use ``async with Database.open(path) as db``."""

    def __init__(self, conn: aiosqlite.Connection, path: str) -> None:
        self.conn = conn
        self.path = path
        self._write_lock = asyncio.Lock()

    @classmethod
    @contextlib.asynccontextmanager
    async def open(cls, path: str) -> AsyncIterator[Database]:
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(path, isolation_level=None)
        conn.row_factory = aiosqlite.Row
        try:
            await conn.execute("PRAGMA journal_mode=WAL")
            await conn.execute("PRAGMA synchronous=NORMAL")
            await conn.execute("PRAGMA foreign_keys=ON")
            await conn.execute("PRAGMA busy_timeout=5000")
            db = cls(conn, path)
            await db.migrate()
            yield db
        finally:
            await conn.close()

    async def user_version(self) -> int:
        async with self.conn.execute("PRAGMA user_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def migrate(self) -> None:
        """Apply every migration newer than ``user_version``, each in its own transaction."""
        current = await self.user_version()
        for version, name, sql in migrations():
            if version <= current:
                continue
            log.info("applying migration %s", name)
            async with self._write_lock:
                # executescript would commit implicitly; the script itself is wrapped so that
                # the schema change and the version bump land together or not at all.
                script = f"BEGIN IMMEDIATE;\n{sql}\nPRAGMA user_version = {version:d};\nCOMMIT;"
                try:
                    await self.conn.executescript(script)
                except Exception:
                    if self.conn.in_transaction:
                        await self.conn.execute("ROLLBACK")
                    raise

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT`` under the single writer lock."""
        async with self._write_lock:
            await self.conn.execute("BEGIN IMMEDIATE")
            try:
                yield self.conn
            except BaseException:
                await self.conn.execute("ROLLBACK")
                raise
            else:
                await self.conn.execute("COMMIT")

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[aiosqlite.Row]:
        async with self.conn.execute(sql, tuple(params)) as cur:
            return list(await cur.fetchall())

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Row | None:
        async with self.conn.execute(sql, tuple(params)) as cur:
            return await cur.fetchone()
