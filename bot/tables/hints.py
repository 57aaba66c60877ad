"""Hints at practice tables (``/spades rule hints on``): who may ask for one now, from which
view, and how many each seat took.

The hint itself is the hard computer player's decision for the seat (:mod:`bot.ai.hints`),
computed by the Discord layer's worker pool from the seat's view only: the table service never
decides anything for a player.  Here a hint request is checked (the player's own seat, their
turn, a choice to make) and its view handed out; once the hint has been shown, the seat's count
is stored with the table's settings (:mod:`bot.tables.options`), so the game-over message can
say how many hints each player took, restart or not.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from bot.engine import Seat, SeatView, seat_view
from bot.errors import Refusal, StaleButton
from bot.i18n import _
from bot.tables.context import ServiceContext
from bot.tables.moves import Moves
from bot.tables.persistence import rules_doc
from bot.tables.state import Table

COUNTED_KEPT = 10_000  # positions remembered so that a hint asked twice counts once


@dataclass(frozen=True, slots=True)
class HintRequest:
    """What a hint is computed from: the seat's view now, the table's move count (a hint for
    a state that has moved on is not counted) and a seed (the same state, the same hint)."""

    seat: Seat
    view: SeatView
    seq: int
    seed: int


class Hints:
    def __init__(self, ctx: ServiceContext, moves: Moves) -> None:
        self.ctx = ctx
        self.moves = moves
        self.persistence = ctx.persistence
        # (table, seat) → the position (table.seq) whose hint was counted last
        self._counted: dict[tuple[str, Seat], int] = {}

    def request(
        self, table: Table, user_id: int, seat: Seat | None = None, hand: int | None = None
    ) -> HintRequest:
        """Check a hint request (``seat``/``hand``: the button's) and give its view."""
        mine = self.moves.seat_for(table, user_id, seat, hand)
        if table.arranged:  # a tournament's game: never a hint
            raise Refusal(_("There are no hints in a tournament game."))
        if not table.options.hints:
            raise Refusal(_("This table plays without hints (the host sets `/spades rule hints`)."))
        game = table.game
        assert game is not None  # seat_for: the game is on
        if game.to_act != mine:
            raise Refusal(_("A hint is for your turn: ask again when it is your turn."))
        view = seat_view(game, mine)
        if len(view.legal) < 2:
            raise Refusal(_("You have only one choice now: there is nothing to weigh."))
        seed = zlib.crc32(f"hint:{table.id}:{table.seq}:{mine.name}".encode())
        return HintRequest(mine, view, table.seq, seed)

    async def taken(self, table: Table, request: HintRequest) -> int:
        """Count a hint shown to ``request.seat`` (stored before the answer); the seat's
        hints so far.  Refused when the game moved on while the hint was worked out.  Asking
        again in the same position shows the same hint and counts once."""
        async with table.lock:
            if not table.open or table.seq != request.seq:
                raise StaleButton(_("The game moved on meanwhile: ask again for a fresh hint."))
            key = (table.id, request.seat)
            if self._counted.get(key) == request.seq:
                return table.hints_taken.get(request.seat, 0)
            counts = dict(table.hints_taken)
            counts[request.seat] = counts.get(request.seat, 0) + 1
            async with self.persistence.write(table) as conn:
                await self.persistence.store.update_table(
                    conn, table.id, rules=rules_doc(table, hints_taken=counts)
                )
            table.hints_taken = counts
            self._counted[key] = request.seq
            if len(self._counted) > COUNTED_KEPT:
                self._counted.pop(next(iter(self._counted)))
            return counts[request.seat]
