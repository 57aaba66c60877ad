"""What the service tells the Discord layer after a commit (the table message, a hand's summary
with its deal picture, the players' live hands) is isolated: a listener that raises is logged
and noticed on the table, and the game goes on — the computer players keep playing.  The
table service against a real SQLite database; the listener is the Discord layer's seam."""

from __future__ import annotations

import logging
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.engine import HandResult, Seat
from bot.store.db import Database
from bot.tables import context
from bot.tables.service import TableService
from bot.tables.state import Table
from tests.tables.test_commit_failures import make, next_move, to_the_final_move, whist_to_one
from tests.tables.test_integrity import Notices
from tests.tables.test_service import CHANNEL, GUILD, USERS, decide

FAILED_NOTICE = "went wrong showing"


class Broken(Notices):
    """The Discord layer with one of its parts failing every time (``part``)."""

    def __init__(self, part: str) -> None:
        super().__init__()
        self.part = part
        self.failures = 0

    def _fail(self, part: str) -> None:
        if part == self.part:
            self.failures += 1
            raise RuntimeError(f"{part} is broken")

    def changed(self, table: Table) -> None:
        super().changed(table)
        self._fail("changed")

    def hand_finished(self, table: Table, result: HandResult) -> None:
        super().hand_finished(table, result)
        self.event.set()
        self._fail("hand_finished")  # e.g. the deal picture cannot be drawn

    def game_finished(self, table: Table) -> None:
        super().game_finished(table)
        self._fail("game_finished")


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    async with Database.open(str(tmp_path / "t.db")) as database:
        yield database


async def alone_with_computers(svc: TableService, preset: str, target: int) -> Table:
    table = await svc.lobby.open_table(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=USERS[0],
        host_name="alice",
        preset=preset,
        target=target,
    )
    for _ in range(3):
        await svc.lobby.add_bot(table, USERS[0], None, "normal")
    await svc.lobby.start(table, USERS[0])
    return table


@pytest.mark.parametrize("part", ["hand_finished", "changed"])
async def test_a_listener_that_raises_does_not_stop_the_computers(
    db: Database, part: str, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice (North) plays with three computers; the hand's last card is hers (seeded).
    Whatever part of the Discord layer fails, her moves are answered and the computers play
    on into the second hand, up to her turn there."""
    monkeypatch.setattr(context, "TROUBLE_NOTICE_EVERY_S", 3600.0)  # however slow the run
    listener = Broken(part)
    svc = TableService(db, decide, listener=listener, test_seed=5, bot_delay=0)
    try:
        table = await alone_with_computers(svc, "standard", 200)
        game = table.game
        assert game is not None
        rng = random.Random(1)
        ended_by_her = False
        while table.game is not None and table.game.hand_number < 2:
            await listener.wait(lambda: table.to_act is Seat.N)
            hands = len(table.game.results)
            uid, action, _ = next_move(table, rng)
            await make(svc, table, uid, action)  # answered: nothing raised
            ended_by_her = ended_by_her or len(table.game.results) > hands
        assert ended_by_her, "her card ends the first hand (seeded)"
        # The computers go on in the new hand: they bid up to her turn.
        await listener.wait(lambda: table.to_act is Seat.N)
        assert table.game.hand_number == 2
        assert table.open
        assert listener.failures >= 1
        failed = [
            r
            for r in caplog.records
            if r.levelno == logging.ERROR
            and r.exc_info is not None
            and str(r.exc_info[1]) == f"{part} is broken"
        ]
        assert failed, "the failure is logged, with its traceback"
        assert "the game goes on" in failed[0].message
        notices = [t for t in listener.texts if FAILED_NOTICE in t]
        assert len(notices) == 1, "noticed on the table, not at every failure"
    finally:
        await svc.close()


async def test_a_failing_game_over_still_ends_the_game_cleanly(db: Database) -> None:
    """The final card is answered, and the table is closed, its channel and players free,
    even though the game-over post fails."""
    listener = Broken("game_finished")
    svc = TableService(db, decide, listener=listener, test_seed=5, bot_delay=0)
    try:
        table = await whist_to_one(svc)
        uid, final = await to_the_final_move(svc, table)
        await make(svc, table, uid, final)  # answered: nothing raised
        assert table.status == "finished"
        assert listener.failures == 1
        assert svc.registry.find_in_channel(CHANNEL) is None, "the channel is free"
        assert all(svc.registry.find_of_user(GUILD, u) is None for u in USERS), "its players too"
        assert any(FAILED_NOTICE in t for t in listener.texts)
    finally:
        await svc.close()
