"""Two processes serving one table (overlapping ``SHARD_IDS`` in a rolling deploy, a duplicated
container), played here as two table services on one database of each backend: every write is
conditional on the table's stored revision, so the process that writes second is refused with
a reason, changes nothing, and reloads the table — and then plays on from the other's state."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack

import pytest

from bot.engine import Seat
from bot.engine.record import export_record
from bot.errors import TableMoved
from bot.store.db import Database
from bot.tables.service import TableService
from bot.tables.state import Table
from tests.tables.test_service import CHANNEL, GUILD, USERS, act_once, decide, started_table


@pytest.fixture
async def services(database_url: str) -> AsyncIterator[tuple[TableService, TableService]]:
    async with AsyncExitStack() as stack:
        out = []
        for _ in range(2):
            db = await stack.enter_async_context(Database.open(database_url))
            svc = TableService(db, decide, test_seed=3, bot_delay=0)
            stack.push_async_callback(svc.close)
            out.append(svc)
        yield out[0], out[1]


def same_state(a: Table, b: Table) -> None:
    assert a.game is not None
    assert b.game is not None
    assert export_record(a.game) == export_record(b.game)
    assert (a.seq, a.revision, a.seats, a.status) == (b.seq, b.revision, b.seats, b.status)


async def test_the_second_writer_is_refused_and_reloads_then_plays_on(
    services: tuple[TableService, TableService],
) -> None:
    one, two = services
    table = await started_table(one)
    (copy,) = await two.restore()
    same_state(table, copy)
    rng = random.Random(5)

    await act_once(one, table, random.Random(5))  # process one moves first
    seq = copy.seq
    with pytest.raises(TableMoved, match="reloaded"):
        await act_once(two, copy, rng)  # the same move, from the stale copy
    same_state(table, copy)  # reloaded: what process one saved
    assert copy.seq == seq + 1

    # Now process two is up to date and process one is the stale one.
    await act_once(two, copy, rng)
    with pytest.raises(TableMoved):
        await act_once(one, table, rng)
    same_state(table, copy)
    for _ in range(6):  # and both go on, each in turn, from the stored state
        await act_once(one, table, rng)
        with pytest.raises(TableMoved):
            await act_once(two, copy, rng)
        await act_once(two, copy, rng)
        with pytest.raises(TableMoved):
            await act_once(one, table, rng)
    same_state(table, copy)
    actions = await one.db.fetchval("SELECT COUNT(*) FROM actions WHERE table_id = ?", (table.id,))
    assert actions == table.seq


async def test_lobby_writes_of_a_stale_process_do_not_overwrite(
    services: tuple[TableService, TableService],
) -> None:
    one, two = services
    table = await one.lobby.open_table(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=USERS[0],
        host_name="alice",
        preset="standard",
        target=200,
    )
    (copy,) = await two.restore()
    await one.lobby.join(table, USERS[1], "bob", Seat.E)
    with pytest.raises(TableMoved):
        await two.lobby.join(copy, USERS[2], "carol", Seat.E)  # East looked free to it
    assert copy.seats[Seat.E].name == "bob"
    assert two.registry.find_of_user(GUILD, USERS[1]) is copy  # members indexed anew
    assert two.registry.find_of_user(GUILD, USERS[2]) is None
    await two.lobby.join(copy, USERS[2], "carol", Seat.S)
    stored = await one.db.fetch("SELECT seat, name FROM seats WHERE table_id = ?", (table.id,))
    assert sorted((r["seat"], r["name"]) for r in stored) == [
        ("E", "bob"),
        ("N", "alice"),
        ("S", "carol"),
    ]


async def test_a_table_the_other_process_ended_is_forgotten_quietly(
    services: tuple[TableService, TableService],
) -> None:
    one, two = services
    table = await started_table(one)
    (copy,) = await two.restore()
    await one.endings.close_orphan(table, "test: the channel was deleted")
    assert not table.open
    with pytest.raises(TableMoved):
        await act_once(two, copy, random.Random(1))
    assert copy.status == "abandoned"
    assert two.registry.find_in_channel(CHANNEL) is None
    assert two.registry.find_of_user(GUILD, USERS[0]) is None
