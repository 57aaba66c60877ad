"""PostgreSQL calls have time limits: a move held up by another session's lock, by a statement
that never ends, or by a server that stops answering is refused with a reason instead of
freezing the table behind "thinking…", and the table plays on once the database is back.

Each case runs the real table service on the real PostgreSQL the tests start, with short
limits (the defaults are seconds longer).  The tests assert no duration: a limit that did not
work would leave the move waiting for ever, and the generous ``HANG`` turns that into a failure.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import urllib.parse
from collections.abc import AsyncIterator

import asyncpg
import pytest

from bot.errors import StoreFailed
from bot.store.postgres import PostgresDatabase, Timeouts
from bot.store.url import parse_database_url
from bot.tables.service import TableService
from bot.tables.state import Table
from tests.tables.test_service import act_once, decide, started_table

HANG = 60.0  # far beyond every limit below: reaching it means the move hung
LIMITS = Timeouts(acquire=1.0, command=3.0, statement=1.0, lock=0.3, idle_in_transaction=5.0)


@contextlib.asynccontextmanager
async def service(url: str) -> AsyncIterator[TableService]:
    db = await PostgresDatabase.connect(parse_database_url(url).dsn, timeouts=LIMITS)
    try:
        await db.migrate()
        svc = TableService(db, decide, test_seed=3, bot_delay=0)
        try:
            yield svc
        finally:
            await svc.close()
    finally:
        await db.close()


async def refused_then_playable(svc: TableService, table: Table, release: object) -> None:
    """The next move is refused (nothing changes); after ``release()`` it goes through."""
    rng = random.Random(3)
    seq, to_act = table.seq, table.to_act
    with pytest.raises(StoreFailed, match="nothing changed"):
        await asyncio.wait_for(act_once(svc, table, random.Random(3)), HANG)
    assert (table.seq, table.to_act) == (seq, to_act)
    await release()  # type: ignore[operator]
    await asyncio.wait_for(act_once(svc, table, rng), HANG)
    assert table.seq == seq + 1
    stored = await svc.db.fetchval("SELECT COUNT(*) FROM actions WHERE table_id = ?", (table.id,))
    assert stored == table.seq


async def test_a_lock_held_by_another_session_refuses_the_move(postgres_url: str) -> None:
    async with service(postgres_url) as svc:
        table = await started_table(svc)
        other = await asyncpg.connect(postgres_url)
        try:
            await other.execute("BEGIN; LOCK TABLE actions IN ACCESS EXCLUSIVE MODE")
            await refused_then_playable(svc, table, lambda: other.execute("ROLLBACK"))
        finally:
            await other.close()


async def test_a_statement_that_never_ends_refuses_the_move(postgres_url: str) -> None:
    async with service(postgres_url) as svc:
        table = await started_table(svc)
        admin = await asyncpg.connect(postgres_url)
        try:
            await admin.execute(
                "CREATE FUNCTION stall() RETURNS trigger LANGUAGE plpgsql AS "
                "$$ BEGIN PERFORM pg_sleep(3600); RETURN NEW; END $$; "
                "CREATE TRIGGER stall BEFORE INSERT ON actions "
                "FOR EACH ROW EXECUTE FUNCTION stall()"
            )
            await refused_then_playable(
                svc, table, lambda: admin.execute("DROP TRIGGER stall ON actions")
            )
        finally:
            await admin.close()


class FreezingProxy:
    """A loopback TCP proxy in front of PostgreSQL that can stop passing bytes (a server or
    network that hangs without closing the connection)."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.flowing = asyncio.Event()
        self.flowing.set()
        self.server: asyncio.Server | None = None
        self.tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        return int(self.server.sockets[0].getsockname()[1])

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(*self.target)
        for src, dst in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.create_task(self._pipe(src, dst))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _pipe(self, src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError, asyncio.CancelledError):
            while data := await src.read(65536):
                await self.flowing.wait()
                dst.write(data)
                await dst.drain()
        dst.close()

    async def close(self) -> None:
        self.flowing.set()
        for task in list(self.tasks):
            task.cancel()
        if self.server is not None:
            self.server.close()


async def test_a_server_that_stops_answering_refuses_the_move(postgres_url: str) -> None:
    parts = urllib.parse.urlsplit(postgres_url)
    proxy = FreezingProxy(parts.hostname or "127.0.0.1", parts.port or 5432)
    port = await proxy.start()
    via_proxy = parts._replace(netloc=f"{parts.username}:{parts.password}@127.0.0.1:{port}")
    try:
        async with service(urllib.parse.urlunsplit(via_proxy)) as svc:
            table = await started_table(svc)
            proxy.flowing.clear()  # every byte from here on waits: the server looks hung

            async def thaw() -> None:
                proxy.flowing.set()

            await refused_then_playable(svc, table, thaw)
    finally:
        await proxy.close()


async def test_the_server_limits_are_set_and_yield_to_the_database_url(postgres_url: str) -> None:
    async def shown(dsn: str) -> list[str]:
        db = await PostgresDatabase.connect(dsn, pool_size=1)
        try:
            await db.migrate()  # lifts the limits on its session; the pool restores them
            names = ("statement_timeout", "lock_timeout", "idle_in_transaction_session_timeout")
            return [str(await db.fetchval(f"SHOW {name}")) for name in names]
        finally:
            await db.close()

    dsn = parse_database_url(postgres_url).dsn
    assert await shown(dsn) == ["10s", "3s", "30s"]
    assert await shown(f"{dsn}?statement_timeout=20000") == ["20s", "3s", "30s"]
