"""Live hands in the table service (no Discord): what is edited when, who is reminded, and
that an answer in progress is never overtaken by an edit.  The Discord side is a recording
editor; the database is a real SQLite file."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.engine import Seat, seat_view
from bot.store.db import Database
from bot.tables.live import Edit, live_key
from bot.tables.service import TableService
from bot.tables.state import Table
from tests.tables.test_service import USERS, act_once, decide, started_table, user_on_turn


class Editor:
    """Records every edit: (handle, seat, whose turn it was, hand number); answers ``result``."""

    def __init__(self) -> None:
        self.edits: list[tuple[Any, Seat, bool, int]] = []
        self.result = Edit.SHOWN
        self.edited = asyncio.Event()

    async def edit(self, handle: Any, table: Table, seat: Seat) -> Edit:
        assert table.game is not None
        view = seat_view(table.game, seat)
        self.edits.append((handle, seat, view.my_turn, view.hand_number))
        self.edited.set()
        await asyncio.sleep(0)
        return self.result


@pytest.fixture
def editor() -> Editor:
    return Editor()


@pytest.fixture
def reminded() -> list[tuple[Seat, int, int]]:
    """The reminders sent: (seat, user id, the table's seq then)."""
    return []


@pytest.fixture
async def service(
    tmp_path: Path, editor: Editor, reminded: list[tuple[Seat, int, int]]
) -> AsyncIterator[TableService]:
    def remind(t: Table, seat: Seat, user_id: int) -> None:
        reminded.append((seat, user_id, t.seq))

    async with Database.open(str(tmp_path / "t.db")) as db:
        svc = TableService(db, decide, editor=editor, remind=remind, test_seed=3, bot_delay=0)
        # No waiting for a later update or for Discord's rate: these tests look at what is sent.
        svc.live.settle = 0
        svc.live.rate = 1e6
        yield svc
        await svc.close()


def show_everyone(svc: TableService, table: Table) -> dict[Seat, str]:
    """Each player is answered with their hand (handle: a name); returns the handles."""
    handles = {}
    for seat, occ in table.seats.items():
        assert occ.user_id is not None
        with svc.live.answering(table, occ.user_id) as answer:
            handles[seat] = f"message of {seat.name}"
            answer.shown(handles[seat], live_key(table, seat))
    return handles


async def settled(svc: TableService) -> None:
    """Until no edit task is running (the edits of the last change went out)."""
    for _ in range(1000):
        tasks = [h.task for h in svc.live._hands.values() if h.task is not None]
        if not tasks:
            return
        await asyncio.gather(*tasks, return_exceptions=True)
    raise AssertionError("edits never settled")


async def test_the_player_whose_turn_comes_is_edited_with_their_turn(
    service: TableService, editor: Editor
) -> None:
    table = await started_table(service)
    handles = show_everyone(service, table)
    rng = random.Random(1)
    for _ in range(12):  # the four bids and two tricks
        seat_before = table.to_act
        await act_once(service, table, rng)
        await settled(service)
        now = table.to_act
        assert now is not None
        if now != seat_before:
            mine = [e for e in editor.edits if e[1] == now]
            assert mine, f"{now.word}'s turn came and their message was not edited"
            assert mine[-1] == (handles[now], now, True, 1), "their turn, on their message"
    assert all(handles[seat] == handle for handle, seat, _, _ in editor.edits), "privacy"


async def test_a_message_that_is_gone_is_forgotten_and_its_player_reminded_once_per_turn(
    service: TableService, editor: Editor, reminded: list[tuple[Seat, int, int]]
) -> None:
    table = await started_table(service)
    show_everyone(service, table)
    reminded.clear()  # only the turns that come from here on
    editor.result = Edit.GONE
    rng = random.Random(2)
    for _ in range(8):
        await act_once(service, table, rng)
        await settled(service)
        service.live.changed(table)  # the table changes again, the turn does not (a notice…)
        await settled(service)
    assert reminded, "someone's turn came while their message could not be edited"
    turns = [(seat, seq) for seat, _, seq in reminded]
    assert len(turns) == len(set(turns)), "never twice for the same turn"
    for seat, user_id, _ in reminded:
        assert table.seats[seat].user_id == user_id
    edited_before = len(editor.edits)
    await act_once(service, table, rng)
    await settled(service)
    assert len(editor.edits) <= edited_before + 1, "forgotten messages are not tried again"


async def test_no_edit_overtakes_an_answer_and_the_answer_becomes_the_live_message(
    service: TableService, editor: Editor
) -> None:
    table = await started_table(service)
    show_everyone(service, table)
    seat = table.to_act
    assert seat is not None
    uid = user_on_turn(table)
    with service.live.answering(table, uid) as answer:
        await act_once(service, table, random.Random(3))  # the player's own move
        for _ in range(3):  # and the others' while the answer is still on its way
            if table.to_act != seat:
                await act_once(service, table, random.Random(4))
        await settled(service)
        assert all(e[1] != seat for e in editor.edits), "nothing sent while answering"
        answer.shown("the answer", live_key(table, seat))
    await settled(service)
    if table.to_act == seat:
        assert not [e for e in editor.edits if e[1] == seat], "the answer showed it already"
    await act_once(service, table, random.Random(5))
    while table.to_act != seat:
        await act_once(service, table, random.Random(6))
    await settled(service)
    assert [e[0] for e in editor.edits if e[1] == seat][-1] == "the answer"


async def test_a_finished_game_is_shown_to_everyone_then_forgotten(
    service: TableService, editor: Editor
) -> None:
    table = await started_table(service)
    show_everyone(service, table)
    await service.endings.abandon(table, USERS[0], True)
    await settled(service)
    assert not table.open
    assert {e[1] for e in editor.edits} == set(table.seats), "everyone sees the table closed"
    assert not service.live._hands, "nothing kept for a closed table"


async def test_the_live_key_is_what_the_seat_view_shows(service: TableService) -> None:
    """live_key reads the game directly (it runs for every seat after every move); it must
    agree with the seat's view at every step of a game, passes and new hands included."""
    table = await started_table(service)
    rng = random.Random(7)
    for _ in range(120):
        assert table.game is not None
        for seat in table.seats:
            view = seat_view(table.game, seat)
            assert live_key(table, seat) == (
                view.hand_number,
                view.phase,
                view.my_turn,
                len(view.completed_tricks),
                (len(view.bidding.received), view.hand_hidden),  # Spades' part
                table.open,
            )
        await act_once(service, table, rng)


async def edited(editor: Editor, done: Any) -> None:
    """Until ``done()`` holds, woken by each edit (the timeout only guards against a hang)."""
    async with asyncio.timeout(60):
        while not done():
            editor.edited.clear()
            await editor.edited.wait()


async def test_a_completed_trick_rides_along_with_the_players_turn(
    service: TableService, editor: Editor
) -> None:
    """Coalescing: what is not urgent (the end of bidding, a completed trick) waits for the
    player's turn and goes out with it, so within a hand every edit a player gets is the one
    showing their turn — one edit per turn, not one per change."""
    service.live.settle = 1e9  # a non-urgent update never goes out on its own here
    table = await started_table(service)
    show_everyone(service, table)
    assert table.game is not None
    rng = random.Random(8)
    turns = 0
    while len(table.game.completed_tricks) < 3:
        before = len(editor.edits)
        await act_once(service, table, rng)
        seat = table.to_act
        assert seat is not None
        assert table.game.hand_number == 1
        await edited(editor, lambda s=seat, n=before: any(e[1] == s for e in editor.edits[n:]))
        turns += 1
    assert turns >= 4 + 8, "the bids and two tricks"
    assert all(my_turn for _, _, my_turn, _ in editor.edits), editor.edits
    assert len(editor.edits) == turns, "exactly one edit per turn that came"
    hands = service.live._hands
    waiting = [s for s in table.seats if hands[(table.id, s)].shown != live_key(table, s)]
    assert waiting, "the others' messages still wait for their turn (the trick is on the table)"


async def test_a_players_edits_are_capped_by_their_allowance(
    service: TableService, editor: Editor
) -> None:
    """The per-player token bucket: ``burst`` edits at once, then ``rate`` a second.  With no
    refill, no player gets more than ``burst`` edits however often the game changes, and the
    change still waiting is not lost (the player's message is simply behind)."""
    service.live.rate = 1e-9  # no refill within the test
    table = await started_table(service)
    show_everyone(service, table)
    burst = int(service.live.burst)
    rng = random.Random(9)
    for _ in range(4):  # each bid makes the bidder's and the next bidder's view change
        await act_once(service, table, rng)
        await asyncio.sleep(0)
    await edited(editor, lambda: len({e[1] for e in editor.edits}) == 4)
    for _ in range(12):
        await act_once(service, table, rng)
        for _ in range(20):  # let every edit task run as far as it can
            await asyncio.sleep(0)
    per_seat = {s: sum(1 for e in editor.edits if e[1] == s) for s in table.seats}
    assert max(per_seat.values()) == burst, per_seat
    hands = service.live._hands
    behind = [s for s in table.seats if hands[(table.id, s)].shown != live_key(table, s)]
    assert behind, "changes beyond the allowance wait for it"


async def test_an_answer_follows_the_seat_its_member_plays_and_nothing_once_they_left(
    service: TableService, editor: Editor
) -> None:
    """The service, not the caller, finds the seat an answer shows: the member's own; once
    they left it, an answer to them follows nothing (its cards are no longer theirs)."""
    table = await started_table(service)
    with service.live.answering(table, USERS[1]) as answer:
        answer.shown("bob's hand", live_key(table, Seat.E))
    assert service.live._hands[(table.id, Seat.E)].handle == "bob's hand"
    await service.lobby.leave(table, USERS[1])
    assert table.seats[Seat.E].left
    assert (table.id, Seat.E) not in service.live._hands, "forgotten when he left"
    with service.live.answering(table, USERS[1]) as answer:
        answer.shown("a message after leaving", live_key(table, Seat.E))
    assert (table.id, Seat.E) not in service.live._hands, "and not followed again"
    await settled(service)
    assert all(seat != Seat.E for _, seat, _, _ in editor.edits)


async def test_edits_wait_at_the_gate_and_one_that_an_answer_overtook_is_not_sent(
    tmp_path: Path, editor: Editor
) -> None:
    """The bot's gate holds every live edit while a click is still to be answered: none is
    sent until it opens, and a player whose own answer showed the hand meanwhile gets none."""
    gate = asyncio.Event()
    async with Database.open(str(tmp_path / "g.db")) as db:
        svc = TableService(db, decide, editor=editor, live_gate=gate.wait, test_seed=3)
        svc.live.settle, svc.live.rate = 0, 1e6
        try:
            table = await started_table(svc)
            show_everyone(svc, table)
            editor.edits.clear()
            await act_once(svc, table, random.Random(7))  # the next player's turn comes
            seat = table.to_act
            assert seat is not None
            for _ in range(50):
                await asyncio.sleep(0)
            assert editor.edits == [], "nothing goes out while the gate is shut"
            # The player on turn is answered with their hand while their edit waits.
            with svc.live.answering(table, user_on_turn(table)) as answer:
                answer.shown("the answer", live_key(table, seat))
                gate.set()
                await settled(svc)
            await settled(svc)
            assert all(e[1] != seat for e in editor.edits), "the answer showed it already"
            await act_once(svc, table, random.Random(8))
            await settled(svc)
            now = table.to_act
            assert now is not None
            assert any(e[1] == now and e[2] for e in editor.edits), "the gate open: turns show"
        finally:
            await svc.close()
