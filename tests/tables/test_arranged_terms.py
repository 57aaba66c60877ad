"""A tournament's table keeps its terms across a restart, in force before any turn is played:
rated or not, its board limit, its shared deal key, who may watch and how far behind — and
only the organiser seats people there (a member comes back only to their own seat).  The
table service against a real SQLite database."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.engine import Seat
from bot.errors import Refusal
from bot.store.db import Database, Tx
from bot.tables.arranged import ArrangedSeat
from bot.tables.defaults import default_rules
from bot.tables.options import ArrangedTerms, TableOptions, TableSettings, split_rules_doc
from bot.tables.service import TableService
from bot.tables.state import Table
from tests.tables.test_service import GUILD, decide

KEY = "ab" * 32
PLAYERS = {Seat.N: 11, Seat.E: 12, Seat.S: 13}


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    async with Database.open(str(tmp_path / "t.db")) as database:
        yield database


async def claim(tx: Tx, table_id: str) -> bool:
    return True


async def arranged(svc: TableService) -> Table:
    seats = {s: ArrangedSeat(u, f"m{u}") for s, u in PLAYERS.items()}
    seats[Seat.W] = ArrangedSeat(None, "Computer (normal)", "normal")
    return await svc.arranged.open(
        guild_id=GUILD,
        channel_id=500,
        host_id=1,
        seats=seats,
        rules=default_rules("standard"),
        turn_timer=0,
        rated=False,
        claim=claim,
        hand_limit=2,
        deal_source=KEY,
        options=TableOptions("public", False, 6),
    )


def test_the_terms_read_back_what_they_wrote() -> None:
    settings = TableSettings(TableOptions("off", False, 13), {}, ArrangedTerms(False, 4, True))
    _, back = split_rules_doc({"preset": "standard", "table": settings.to_doc()})
    assert back == settings
    odd = {"arranged": {"rated": "no", "hand_limit": -3}, "delay": 999}
    assert TableSettings.from_doc(odd) == TableSettings(
        TableOptions(), {}, ArrangedTerms(True, None, False)
    )


async def test_a_restart_keeps_a_tournament_tables_terms_before_any_turn(db: Database) -> None:
    first = TableService(db, decide, test_seed=3, bot_delay=0)
    table = await arranged(first)
    await first.close()
    second = TableService(db, decide, test_seed=3, bot_delay=0)
    (back,) = await second.restore()
    assert back.id == table.id
    assert back.arranged
    assert not back.rated
    assert back.hand_limit == 2
    assert back.deal_source == KEY
    assert back.boards_withheld
    assert back.options == TableOptions("public", False, 6)
    await second.close()


async def test_only_a_member_coming_back_to_their_own_seat_sits_there(db: Database) -> None:
    svc = TableService(db, decide, test_seed=3, bot_delay=0)
    table = await arranged(svc)
    with pytest.raises(Refusal, match="only its organiser seats players here"):
        await svc.lobby.join(table, 99, "stranger")  # the computer's seat (West)
    await svc.lobby.leave(table, PLAYERS[Seat.N])
    with pytest.raises(Refusal, match="only its organiser seats players here"):
        await svc.lobby.join(table, 99, "stranger", Seat.N)
    assert await svc.lobby.join(table, PLAYERS[Seat.N], "m11") == Seat.N
    await svc.close()
