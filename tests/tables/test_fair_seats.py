"""A member's seat stays theirs while they are away (issue 23): the host cannot choose the
level of the computer that plays it, a leaver's forfeit survives the host's attempts, and the
level of members' stand-ins is nobody's choice — not even one stored by an older version."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.engine import Seat
from bot.errors import Refusal
from bot.league_link import finished_game
from bot.store.db import Database
from bot.tables.service import TableService
from tests.tables.test_service import USERS, decide, started_table


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    async with Database.open(str(tmp_path / "t.db")) as db:
        svc = TableService(db, decide, test_seed=3, bot_delay=0)
        yield svc
        await svc.close()


async def test_a_leavers_seat_keeps_its_forfeit_and_its_level(service: TableService) -> None:
    table = await started_table(service)
    await service.lobby.leave(table, USERS[1])
    for level in ("easy", "hard"):
        with pytest.raises(Refusal, match="not the host's to choose"):
            await service.lobby.add_bot(table, USERS[0], Seat.E, level)
    occ = table.seats[Seat.E]
    assert (occ.user_id, occ.left, occ.bot_level) == (USERS[1], True, "normal")
    assert table.handover == "normal"
    assert table.game is not None
    league_view = finished_game(table, table.game)
    assert league_view is not None
    assert [p.forfeit for p in league_view.seats] == [False, True, False, False]


async def test_no_level_changes_once_the_game_has_started(service: TableService) -> None:
    table = await started_table(service)
    with pytest.raises(Refusal, match="only a computer player's seat has a level"):
        await service.lobby.add_bot(table, USERS[0], Seat.S, "easy")
    with pytest.raises(Refusal, match="keep the level they started with"):
        await service.lobby.add_bot(table, USERS[0], None, "hard")


async def test_a_restored_table_ignores_a_stand_in_level_a_host_chose_before(
    tmp_path: Path,
) -> None:
    path = tmp_path / "t.db"
    async with Database.open(str(path)) as db:
        svc = TableService(db, decide, test_seed=3, bot_delay=0)
        table = await started_table(svc)
        await svc.close()
    with sqlite3.connect(path) as conn:  # as an older version stored a host's choice
        conn.execute("UPDATE tables SET handover = 'easy' WHERE id = ?", (table.id,))
    async with Database.open(str(path)) as db:
        again = TableService(db, decide, test_seed=3, bot_delay=0)
        (restored,) = await again.restore()
        assert restored.handover == "normal"
        text = await again.lobby.leave(restored, USERS[2])
        assert "a computer player (normal) takes over" in text
        assert restored.seats[Seat.S].bot_level == "normal"
        await again.close()
