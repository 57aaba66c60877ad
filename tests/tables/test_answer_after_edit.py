"""An answer to a click on a live message and the live edit of that message already on its way
(bot/tables/in_flight.py): Discord applies the two in the order they arrive, so the answer waits
for the edit to land; if it cannot wait long enough, the message is edited again through the
answer's token.  Live hands and spectators' views, each with an editor whose edit stays in
flight until the test lets it land; the database is a real SQLite file."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.engine import Seat
from bot.store.db import Database
from bot.tables.live import Edit, live_key
from bot.tables.service import TableService
from bot.tables.spectators import Frame, Spectators, watch_key
from bot.tables.state import Table
from tests.tables.test_live import Editor, settled, show_everyone
from tests.tables.test_service import act_once, decide, started_table, user_on_turn
from tests.tables.test_spectators import Recorder, playing_table, until, watching


class HeldEditor(Editor):
    """Each edit is recorded when sent, then stays in flight until ``land`` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.land = asyncio.Event()

    async def edit(self, handle: Any, table: Table, seat: Seat) -> Edit:
        result = await super().edit(handle, table, seat)
        await self.land.wait()
        return result


@pytest.fixture
def editor() -> HeldEditor:
    return HeldEditor()


@pytest.fixture
async def service(tmp_path: Path, editor: HeldEditor) -> AsyncIterator[TableService]:
    async with Database.open(str(tmp_path / "t.db")) as db:
        svc = TableService(db, decide, editor=editor, test_seed=3, bot_delay=0)
        svc.live.settle, svc.live.rate = 0, 1e6
        yield svc
        editor.land.set()
        await svc.close()


async def edit_in_flight(svc: TableService, editor: HeldEditor) -> tuple[Table, Seat]:
    """A started table whose next player's live edit (their turn) is on its way, not landed."""
    table = await started_table(svc)
    show_everyone(svc, table)
    editor.edits.clear()
    await act_once(svc, table, random.Random(7))
    seat = table.to_act
    assert seat is not None
    await until(lambda: any(e[1] == seat for e in editor.edits))
    return table, seat


async def test_an_answer_lands_after_the_live_edit_on_its_way(
    service: TableService, editor: HeldEditor
) -> None:
    service.live.answer_wait = 3600.0  # as long as it takes, here
    table, seat = await edit_in_flight(service, editor)
    with service.live.answering(table, user_on_turn(table)) as answer:
        waiting = asyncio.ensure_future(answer.after_live_edit())
        for _ in range(50):
            await asyncio.sleep(0)
        assert not waiting.done(), "the answer is not sent while the edit is on its way"
        editor.land.set()
        await waiting
        answer.shown("the answer", live_key(table, seat))
    assert answer.landing.sure
    await settled(service)
    hand = service.live._hands[(table.id, seat)]
    assert hand.shown == live_key(table, seat), "the answer, landed last, shows the hand"
    assert [e[0] for e in editor.edits if e[1] == seat] == [f"message of {seat.name}"]


async def test_an_answer_that_could_not_wait_is_followed_by_an_edit_through_its_token(
    service: TableService, editor: HeldEditor
) -> None:
    service.live.answer_wait = 0.0  # the edit never lands in time
    table, seat = await edit_in_flight(service, editor)
    with service.live.answering(table, user_on_turn(table)) as answer:
        await answer.after_live_edit()
        answer.shown("the answer", live_key(table, seat))
    assert not answer.landing.sure
    editor.land.set()  # the edit lands after the answer: the message shows the older state
    await settled(service)
    mine = [e for e in editor.edits if e[1] == seat]
    assert [e[0] for e in mine] == [f"message of {seat.name}", "the answer"]
    assert mine[-1][2], "edited again, showing the player's turn"
    assert service.live._hands[(table.id, seat)].shown == live_key(table, seat)


async def test_an_answer_with_no_edit_on_its_way_does_not_wait(
    service: TableService, editor: HeldEditor
) -> None:
    editor.land.set()
    service.live.answer_wait = 3600.0
    table, seat = await edit_in_flight(service, editor)
    await settled(service)
    with service.live.answering(table, user_on_turn(table)) as answer:
        await answer.after_live_edit()  # returns at once (the test would hang otherwise)
        answer.shown("the answer", live_key(table, seat))
    assert answer.landing.sure
    await settled(service)
    assert [e[0] for e in editor.edits if e[1] == seat] == [f"message of {seat.name}"]


class HeldRecorder(Recorder):
    """Each edit is recorded when sent, then stays in flight until ``land`` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.land = asyncio.Event()

    async def edit(self, handle: Any, table: Table, frame: Frame, with_picture: bool) -> Edit:
        result = await super().edit(handle, table, frame, with_picture)
        await self.land.wait()
        return result


async def view_in_flight(answer_wait: float) -> tuple[HeldRecorder, Spectators, Table, Any]:
    """A spectator (10) whose view's edit is on its way, not landed, and the game moved on
    since; returns the state that edit shows."""
    recorder = HeldRecorder()
    spectators = Spectators(editor=recorder, interval=0, answer_wait=answer_wait)
    table = playing_table()
    watching(spectators, table, 10)
    table.version += 1
    spectators.changed(table)
    await until(lambda: len(recorder.edits) == 1)  # on its way
    older = watch_key(table)
    table.version += 1  # the game moves; the spectator presses Refresh
    return recorder, spectators, table, older


async def test_a_spectator_answer_that_could_not_wait_is_followed_by_an_edit() -> None:
    recorder, spectators, table, older = await view_in_flight(answer_wait=0.0)
    with spectators.answering(table, 10) as answer:
        await answer.after_live_edit()
        answer.shown("the answer", watch_key(table), None)
    assert not answer.landing.sure
    recorder.land.set()  # the older view lands after the answer
    await until(lambda: len(recorder.edits) == 2)
    assert recorder.edits == [("h10", older), ("the answer", watch_key(table))]
    await spectators.close()


async def test_a_spectator_answer_waits_for_the_edit_on_its_way() -> None:
    recorder, spectators, table, _ = await view_in_flight(answer_wait=3600.0)
    with spectators.answering(table, 10) as answer:
        waiting = asyncio.ensure_future(answer.after_live_edit())
        for _ in range(50):
            await asyncio.sleep(0)
        assert not waiting.done(), "the answer is not sent while the edit is on its way"
        recorder.land.set()
        await waiting
        answer.shown("the answer", watch_key(table), None)
    assert answer.landing.sure
    for _ in range(200):
        await asyncio.sleep(0)
    assert len(recorder.edits) == 1, "the answer landed last: nothing to edit again"
    await spectators.close()
