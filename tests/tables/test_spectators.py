"""The spectators' part of the table service (bot/tables/spectators.py) with a recording editor
in place of Discord: who may watch, one rendering per round for all of a table's spectators,
a message Discord no longer takes forgotten, a spectator who sits down no spectator any more,
the end shown and then everyone forgotten, and the count the table message shows."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from bot.engine import Game, Rules, Seat
from bot.errors import Refusal
from bot.tables.live import Edit
from bot.tables.options import TableOptions
from bot.tables.spectators import Frame, Spectators, watch_key
from bot.tables.state import Occupant, Table, TableStatus

PLAYERS = {Seat.N: 1, Seat.E: 2, Seat.S: 3, Seat.W: 4}


def playing_table(**options: Any) -> Table:
    game = Game(Rules.from_preset("standard"), Seat.N)
    game.apply(game.random_deal(random.Random(1)))
    table = Table(
        id="t1",
        guild_id=1,
        channel_id=2,
        host_id=1,
        rules=game.rules,
        status=TableStatus.PLAYING,
        game=game,
        options=TableOptions(**options),
    )
    for seat, uid in PLAYERS.items():
        table.seats[seat] = Occupant(uid, f"p{uid}")
    return table


class Recorder:
    """A SpectatorEditor that answers every edit with ``result`` and notes what it was asked."""

    def __init__(self) -> None:
        self.renders = 0
        self.edits: list[tuple[Any, Any]] = []  # (handle, the state the frame showed)
        self.result = Edit.SHOWN
        self.edited = asyncio.Event()

    def render(self, table: Table) -> Frame:
        self.renders += 1
        return Frame(watch_key(table))

    async def edit(self, handle: Any, table: Table, frame: Frame, with_picture: bool) -> Edit:
        self.edits.append((handle, frame.payload))
        self.edited.set()
        return self.result


def watching(spectators: Spectators, table: Table, uid: int) -> None:
    """``uid`` presses Watch: answered with the view of now (their handle: ``h<uid>``)."""
    Spectators().check(table, uid)
    with spectators.answering(table, uid) as answer:
        answer.shown(f"h{uid}", watch_key(table), None)


async def until(condition: Any, turns: int = 10_000) -> None:
    """Let the event loop run until ``condition()`` holds (a bounded number of turns)."""
    for _ in range(turns):
        if condition():
            return
        await asyncio.sleep(0)
    raise AssertionError("the condition never held")


def test_who_may_watch() -> None:
    table = playing_table()
    for uid in PLAYERS.values():
        with pytest.raises(Refusal, match="you cannot watch it"):
            Spectators().check(table, uid)
    table.seats[Seat.E] = Occupant(2, "p2", "normal", left=True)  # left the game: still refused
    with pytest.raises(Refusal, match="you cannot watch it"):
        Spectators().check(table, 2)
    Spectators().check(table, 99)
    with pytest.raises(Refusal, match="closed this table to spectators"):
        Spectators().check(playing_table(spectators="off"), 99)
    table.status = TableStatus.LOBBY
    with pytest.raises(Refusal, match="not started"):
        Spectators().check(table, 99)
    table.status = TableStatus.FINISHED
    with pytest.raises(Refusal, match="has ended"):
        Spectators().check(table, 99)


async def test_one_rendering_a_round_for_every_spectator_of_a_table() -> None:
    recorder = Recorder()
    counted: list[int] = []
    spectators = Spectators(
        editor=recorder, recounted=lambda t: counted.append(t.watching), interval=0
    )
    table = playing_table()
    for uid in (10, 11, 12):
        watching(spectators, table, uid)
    assert table.watching == 3
    assert counted == [1, 2, 3]
    table.version += 1  # the game moved
    spectators.changed(table)
    await until(lambda: len(recorder.edits) == 3)
    assert recorder.renders == 1, "rendered once for the three"
    assert sorted(h for h, _ in recorder.edits) == ["h10", "h11", "h12"]
    assert {shown for _, shown in recorder.edits} == {watch_key(table)}
    await spectators.close()


async def test_a_message_discord_no_longer_takes_is_forgotten() -> None:
    recorder = Recorder()
    spectators = Spectators(editor=recorder, interval=0)
    table = playing_table()
    watching(spectators, table, 10)
    recorder.result = Edit.GONE  # dismissed, or its token expired
    table.version += 1
    spectators.changed(table)
    await until(lambda: spectators.dropped == 1)
    assert spectators.count(table) == 0
    assert table.watching == 0
    await spectators.close()


async def test_an_expired_token_is_not_tried() -> None:
    recorder = Recorder()
    spectators = Spectators(editor=recorder, interval=0, token_lifetime=0.0)
    table = playing_table()
    watching(spectators, table, 10)
    table.version += 1
    spectators.changed(table)
    await until(lambda: spectators.dropped == 1)
    assert recorder.edits == [], "a token past its 15 minutes is not used"
    await spectators.close()


async def test_a_spectator_who_sits_down_is_no_spectator() -> None:
    spectators = Spectators(editor=Recorder(), interval=0)
    table = playing_table()
    watching(spectators, table, 10)
    table.seats[Seat.W] = Occupant(10, "p10")  # takes a seat (a computer's, say)
    table.version += 1
    spectators.changed(table)
    assert spectators.count(table) == 0
    assert table.watching == 0
    await spectators.close()


async def test_the_end_is_shown_then_everyone_is_forgotten() -> None:
    recorder = Recorder()
    # a round a minute: the end does not wait for it
    spectators = Spectators(editor=recorder, interval=60.0)
    table = playing_table()
    watching(spectators, table, 10)
    table.version += 1
    spectators.changed(table)
    await until(lambda: len(recorder.edits) == 1)
    table.status = TableStatus.FINISHED
    table.version += 1
    spectators.closed(table)
    await until(lambda: len(recorder.edits) == 2)
    assert recorder.edits[-1][1] == (table.version, TableStatus.FINISHED)
    await until(lambda: spectators.count(table) == 0)
    assert table.watching == 0
    await spectators.close()


async def test_stop_watching() -> None:
    recorder = Recorder()
    spectators = Spectators(editor=recorder, interval=0)
    table = playing_table()
    watching(spectators, table, 10)
    watching(spectators, table, 11)
    assert spectators.stop(table, 10)
    assert not spectators.stop(table, 10)
    assert table.watching == 1
    table.version += 1
    spectators.changed(table)
    await until(lambda: len(recorder.edits) == 1)
    assert recorder.edits[0][0] == "h11"
    await spectators.close()
