"""The table service against a real SQLite database (no Discord): persistence, recovery,
failed commits, duplicates and concurrent actions."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.ai.worker import decide_view
from bot.engine import Action, Bid, Look, Play, Seat, SeatView, seat_view
from bot.engine.record import export_record as export_record_of
from bot.errors import Duplicate, NotHost, StoreFailed
from bot.store.db import Database
from bot.store.sqlite import SQLiteDatabase
from bot.tables.service import TableService
from bot.tables.state import Table

GUILD, CHANNEL = 1, 10
USERS = (101, 102, 103, 104)


async def decide(view: SeatView, level: str, seed: int, think: float) -> Action:
    return decide_view(view, level, seed)


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    async with Database.open(str(tmp_path / "t.db")) as db:
        svc = TableService(db, decide, test_seed=3, bot_delay=0)
        yield svc
        await svc.close()


async def started_table(svc: TableService, target: int = 200) -> Table:
    table = await svc.lobby.open_table(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=USERS[0],
        host_name="alice",
        preset="standard",
        target=target,
    )
    for uid, name, seat in zip(
        USERS[1:], ("bob", "carol", "dave"), (Seat.E, Seat.S, Seat.W), strict=True
    ):
        await svc.lobby.join(table, uid, name, seat)
    await svc.lobby.start(table, USERS[0])
    return table


def user_on_turn(table: Table) -> int:
    seat = table.to_act
    assert seat is not None
    uid = table.seats[seat].user_id
    assert uid is not None
    return uid


async def act_once(
    svc: TableService, table: Table, rng: random.Random, iid: int | None = None
) -> None:
    assert table.game is not None
    seat = table.to_act
    assert seat is not None
    action = decide_view(seat_view(table.game, seat), "normal", rng.randrange(1 << 30))
    uid = user_on_turn(table)
    if isinstance(action, Play):
        await svc.moves.play(table, uid, action.card, interaction_id=iid)
    elif isinstance(action, Look):
        await svc.moves.look(table, uid, interaction_id=iid)
    else:
        assert isinstance(action, Bid)
        await svc.moves.bid(table, uid, action.value, action.blind, interaction_id=iid)


async def test_state_is_rebuilt_from_the_database_after_a_restart(tmp_path: Path) -> None:
    path = str(tmp_path / "r.db")
    rng = random.Random(1)
    async with Database.open(path) as db:
        svc = TableService(db, decide, test_seed=3, bot_delay=0)
        table = await started_table(svc)
        for _ in range(30):
            await act_once(svc, table, rng)
        assert table.game is not None
        before = export_record_of(table.game)
        seats = dict(table.seats)
        await svc.close()
    async with Database.open(path) as db:
        svc = TableService(db, decide, test_seed=3, bot_delay=0)
        (restored,) = await svc.restore()
        assert restored.game is not None
        assert export_record_of(restored.game) == before
        assert restored.seats == seats
        assert restored.seq == table.seq
        await svc.close()


async def test_a_failed_commit_is_refused_and_changes_nothing(service: TableService) -> None:
    table = await started_table(service)
    rng = random.Random(2)
    for _ in range(6):
        await act_once(service, table, rng)
    assert table.game is not None
    before = export_record_of(table.game)
    seq = table.seq
    db = service.db
    assert isinstance(db, SQLiteDatabase)
    await db.on_every_connection("PRAGMA query_only = ON")  # every write now fails
    with pytest.raises(StoreFailed, match="could not save"):
        await act_once(service, table, random.Random(2))
    assert export_record_of(table.game) == before
    assert table.seq == seq
    await db.on_every_connection("PRAGMA query_only = OFF")
    await act_once(service, table, random.Random(2))
    assert table.seq == seq + 1


async def test_the_same_interaction_twice_is_applied_once(service: TableService) -> None:
    table = await started_table(service)
    rng = random.Random(4)
    for _ in range(4):
        await act_once(service, table, rng)
    seq = table.seq
    await act_once(service, table, random.Random(9), iid=555)
    with pytest.raises(Duplicate):
        await act_once(service, table, random.Random(9), iid=555)
    assert table.seq == seq + 1


async def test_simultaneous_actions_one_succeeds_one_is_refused(service: TableService) -> None:
    table = await started_table(service)
    rng = random.Random(5)
    for _ in range(4):
        await act_once(service, table, rng)
    assert table.game is not None
    seat = table.to_act
    assert seat is not None
    uid = user_on_turn(table)
    cards = [a.card for a in table.game.legal_actions(seat) if isinstance(a, Play)]
    results = await asyncio.gather(
        service.moves.play(table, uid, cards[0]),
        service.moves.play(table, uid, cards[-1]),
        return_exceptions=True,
    )
    ok = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(ok) == 1
    assert len(refused) == 1
    assert "turn" in str(refused[0])


async def test_host_only_actions_are_refused_for_others(service: TableService) -> None:
    table = await service.lobby.open_table(
        guild_id=GUILD, channel_id=CHANNEL, host_id=USERS[0], host_name="alice", preset="standard"
    )
    await service.lobby.join(table, USERS[1], "bob")
    with pytest.raises(NotHost):
        await service.lobby.start(table, USERS[1])
    with pytest.raises(NotHost):
        await service.lobby.set_rule(table, USERS[1], "target", "300")
    assert table.status == "lobby"
    assert table.rules.target == 500


async def test_when_the_last_person_leaves_the_table_closes(service: TableService) -> None:
    table = await service.lobby.open_table(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=USERS[0],
        host_name="alice",
        preset="standard",
        target=100,
    )
    for seat in (Seat.E, Seat.S, Seat.W):
        await service.lobby.add_bot(table, USERS[0], seat, "easy")
    await service.lobby.start(table, USERS[0])
    await service.lobby.leave(table, USERS[0])  # hand North to a computer: no humans, table closes
    assert table.status == "abandoned"
