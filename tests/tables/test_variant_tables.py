"""The table service with the games.md G1-G2 variants (no Discord): computer players' renege
claims through the automatic turns; a three-player table."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot.ai.variants import proven_renege
from bot.ai.worker import decide_view
from bot.engine import Action, Bid, Card, HandResult, Look, Play, Seat, SeatView, seat_view
from bot.engine.actions import Claim
from bot.engine.game import Phase
from bot.engine.record import export_record
from bot.store.db import Database
from bot.store.tables import decode_action
from bot.tables.service import TableService
from bot.tables.state import Table

GUILD, CHANNEL, HOST = 1, 10, 101


async def decide(view: SeatView, level: str, seed: int, think: float) -> Action:
    return decide_view(view, level, seed)


class Watcher:
    """A table listener: notices, and a wake-up on every change (tests wait on it)."""

    def __init__(self) -> None:
        self.notices: list[str] = []
        self._changed = asyncio.Event()

    def changed(self, table: Table) -> None:
        self._changed.set()

    def hand_finished(self, table: Table, result: HandResult) -> None:
        self._changed.set()

    def game_finished(self, table: Table) -> None:
        self._changed.set()

    def notice(self, table: Table, text: str) -> None:
        self.notices.append(text)
        self._changed.set()

    async def until(self, done: Callable[[], bool]) -> None:
        while not done():
            self._changed.clear()
            if done():
                return
            await asyncio.wait_for(self._changed.wait(), 60)


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[tuple[TableService, Watcher]]:
    async with Database.open(str(tmp_path / "t.db")) as db:
        watcher = Watcher()
        svc = TableService(
            db, decide, listener=watcher, test_seed=5, bot_delay=0, claim=proven_renege
        )
        yield svc, watcher
        await svc.close()


async def host_with_computers(svc: TableService, preset: str, **rules: str) -> Table:
    table = await svc.lobby.open_table(
        guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, host_name="alice", preset=preset
    )
    for name, value in rules.items():
        await svc.lobby.set_rule(table, HOST, name, value)
    for _ in range(table.rules.players - 1):
        await svc.lobby.add_bot(table, HOST, None, "normal")
    await svc.lobby.start(table, HOST)
    return table


async def test_computers_claim_a_renege_they_can_prove(
    service: tuple[TableService, Watcher],
) -> None:
    """North (a person) shows out of a suit while holding it, then plays that suit: the
    computers see the proof, one of them claims at once, and the claim is stored."""
    svc, watcher = service
    table = await host_with_computers(svc, "standard", renege="claim")
    shown_out: str | None = None  # the suit North reneged in
    while not any("claims a renege" in n for n in watcher.notices):
        await watcher.until(lambda: table.to_act == Seat.N or not table.open)
        assert table.open, "the game ended before anyone claimed"
        game = table.game
        assert game is not None
        view = seat_view(game, Seat.N)
        if view.phase is Phase.PLAY:
            card = _north_card(view, shown_out)
            if view.current_trick and shown_out is None and card.suit != _led(view):
                shown_out = _led(view)
            await svc.moves.play(table, HOST, card)
            continue
        action = decide_view(view, "normal", table.seq)
        if isinstance(action, Look):
            await svc.moves.look(table, HOST)
        else:
            assert isinstance(action, Bid)
            await svc.moves.bid(table, HOST, action.value, action.blind)
    (notice,) = [n for n in watcher.notices if "claims a renege" in n]
    assert "North reneged in trick" in notice
    game = table.game
    assert game is not None
    (claim,) = game.claim_results
    assert claim.against == Seat.N
    assert claim.correct
    assert claim.seat in (Seat.E, Seat.W)
    rows = await svc.db.fetch("SELECT action FROM actions WHERE table_id = ?", (table.id,))
    assert Claim(claim.seat, Seat.N) in [decode_action(r[0]) for r in rows]


def _led(view: SeatView) -> str:
    return view.current_trick[0][1].suit


def _north_card(view: SeatView, shown_out: str | None) -> Card:
    """North's play: the first renege it can make; after that, the suit it showed out of as
    soon as it may lead or follow with it; otherwise an honest card."""
    hand = view.hand or ()
    plays = [a.card for a in view.legal if isinstance(a, Play)]
    honest = [a.card for a in view.honest if isinstance(a, Play)]
    if shown_out is None and view.current_trick:
        led = _led(view)
        if any(c.suit == led for c in hand):
            off = [c for c in plays if c.suit not in (led, "S")]
            if off:
                return off[0]
    if shown_out is not None:
        again = [c for c in plays if c.suit == shown_out]
        if again and (not view.current_trick or _led(view) == shown_out):
            return again[0]
    return honest[0]


async def test_a_three_player_table_plays_and_is_rebuilt_after_a_restart(tmp_path: Path) -> None:
    """N, E, S only: the host and two computers; the draw, the deal (17 cards each) and the
    turns never touch West, and a restart rebuilds the same game."""
    path = str(tmp_path / "three.db")
    async with Database.open(path) as db:
        watcher = Watcher()
        svc = TableService(
            db, decide, listener=watcher, test_seed=9, bot_delay=0, claim=proven_renege
        )
        table = await host_with_computers(svc, "cutthroat-3")
        assert set(table.seats) == {Seat.N, Seat.E, Seat.S}
        assert table.dealer_draw is not None
        assert all(set(d) <= {"N", "E", "S"} for d in table.dealer_draw)
        game = table.game
        assert game is not None
        assert [len(game.hand(s)) for s in (Seat.N, Seat.E, Seat.S)] == [17, 17, 17]
        for _ in range(12):  # the host's first actions, the computers' in between
            await watcher.until(lambda: table.to_act == Seat.N)
            game = table.game
            assert game is not None
            action = decide_view(seat_view(game, Seat.N), "normal", table.seq)
            if isinstance(action, Play):
                await svc.moves.play(table, HOST, action.card)
            elif isinstance(action, Look):
                await svc.moves.look(table, HOST)
            else:
                assert isinstance(action, Bid)
                await svc.moves.bid(table, HOST, action.value, action.blind)
        await watcher.until(lambda: table.to_act == Seat.N)
        assert table.game is not None
        before = export_record(table.game)
        await svc.close()
    async with Database.open(path) as db:
        svc = TableService(db, decide, test_seed=9, bot_delay=0)
        (restored,) = await svc.restore()
        assert restored.game is not None
        assert export_record(restored.game) == before
        assert set(restored.seats) == {Seat.N, Seat.E, Seat.S}
        await svc.close()
