"""The ``normal`` card play that the frozen hard player builds on (frozen with it)."""

from __future__ import annotations

from benchmarks.prev_hard.core import HandSpec, Knowledge, PlayCtx, choose_play, mode_for
from bot.engine.actions import PLAYS, Action, Play
from bot.engine.views import SeatView


def legal_play_mask(view: SeatView) -> int:
    m = 0
    for a in view.legal:
        if isinstance(a, Play):
            m |= 1 << a.card.index
    return m


def team_bid_values(view: SeatView) -> tuple[int | None, int | None]:
    a, b = view.team_bids
    return (a.value if a else None, b.value if b else None)


def hand_spec(view: SeatView) -> HandSpec:
    return HandSpec.from_bids(view.rules, view.bids, team_bid_values(view), view.hand_number)


def normal_play(view: SeatView) -> Action:
    """The knowledge-based card play of the ``normal`` level (as it was when frozen)."""
    assert view.seat is not None
    seat = int(view.seat)
    k = Knowledge(view)
    spec = hand_spec(view)
    left = 13 - len(view.completed_tricks)
    mode = mode_for(spec, seat, view.tricks_won, left)
    trick = [(int(s), c.index) for s, c in view.current_trick]
    ctx = PlayCtx(k.d, seat, legal_play_mask(view), trick, k.holders, k.unknown, mode, False)
    return PLAYS[seat][choose_play(ctx)]
