"""The player interface and the ``easy`` and ``normal`` levels (:mod:`bot.ai.levels` maps a
level's name to its player).

A player decides from a :class:`~bot.engine.views.SeatView` only (never the game), an RNG and a
time budget, and returns one of ``view.legal``.
"""

from __future__ import annotations

import random
from typing import Protocol

from bot.ai.card_memory import CardMemory
from bot.ai.deck_tables import DECK_INFO, hand_mask, highest, lowest, trick_winner
from bot.ai.hand_goals import HandSpec, mode_for
from bot.ai.play_policy import PlayCtx, choose_play
from bot.ai.rule_bidding import BID_BIAS, choose_bid, choose_pass, estimate_tricks
from bot.engine.actions import NIL, PLAYS, Action, Bid, Look, PassCards, Play
from bot.engine.game import Phase
from bot.engine.spades.view import SpadesPart
from bot.engine.views import SeatView


class Player(Protocol):
    """Anything that can take a seat's decisions."""

    level: str

    def decide(self, view: SeatView, rng: random.Random, budget_s: float) -> Action:
        """One of ``view.legal`` for the seat of ``view`` (whose turn it is)."""
        ...


def legal_play_mask(view: SeatView) -> int:
    m = 0
    for a in view.legal:
        if isinstance(a, Play):
            m |= 1 << a.card.index
    return m


def team_bid_values(view: SeatView) -> tuple[int | None, int | None]:
    a, b = view.part_as(SpadesPart).team_bids
    return (a.value if a else None, b.value if b else None)


def hand_spec(view: SeatView) -> HandSpec:
    bids = view.part_as(SpadesPart).bids
    return HandSpec.from_bids(view.rules, bids, team_bid_values(view), view.hand_number)


def normal_play(view: SeatView) -> Action:
    """The knowledge-based card play of the ``normal`` level."""
    assert view.seat is not None
    seat = int(view.seat)
    k = CardMemory(view)
    spec = hand_spec(view)
    left = 13 - len(view.completed_tricks)
    mode = mode_for(spec, seat, view.tricks_won, left)
    trick = [(int(s), c.index) for s, c in view.current_trick]
    ctx = PlayCtx(k.d, seat, legal_play_mask(view), trick, k.holders, k.unknown, mode, False)
    return PLAYS[seat][choose_play(ctx)]


class NormalPlayer:
    """CardMemory-based bidding and card play; deterministic, fast."""

    level = "normal"

    def __init__(self, bid_bias: float = BID_BIAS) -> None:
        self.bid_bias = bid_bias

    def decide(self, view: SeatView, rng: random.Random, budget_s: float) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if view.phase is Phase.BID:
            return choose_bid(view, self.bid_bias)
        if view.phase is Phase.PASS:
            return choose_pass(view)
        return normal_play(view)


class EasyPlayer:
    """Legal, simple, a little random: a friendly opponent for new players."""

    level = "easy"

    def decide(self, view: SeatView, rng: random.Random, budget_s: float) -> Action:
        legal = view.legal
        assert view.seat is not None
        seat = view.seat
        if len(legal) == 1:
            return legal[0]
        if view.phase is Phase.BID:
            if view.hand_hidden or view.hand is None:
                look = [a for a in legal if isinstance(a, Look)]
                return look[0] if look else rng.choice(legal)
            est = estimate_tricks(view.rules.deck, hand_mask(view))
            value = round(est + rng.choice((-1.0, -0.5, 0.0, 0.0, 0.5, 1.0)))
            bids = [a for a in legal if isinstance(a, Bid) and not a.blind]
            if est < 0.7 and rng.random() < 0.3:
                nil = [a for a in bids if a.value == NIL]
                if nil:
                    return nil[0]
            positive = [a for a in bids if a.value > 0]
            return min(positive, key=lambda a: (abs(a.value - value), a.value))
        if view.phase is Phase.PASS:
            passes = [a for a in legal if isinstance(a, PassCards)]
            return rng.choice(passes)
        if rng.random() < 0.2:
            return rng.choice(legal)
        d = DECK_INFO[view.rules.deck]
        mask = legal_play_mask(view)
        me_nil = (
            view.part_as(SpadesPart).bids[int(seat)] in (NIL, -1)
            and view.tricks_won[int(seat)] == 0
        )
        if me_nil:
            return PLAYS[seat][lowest(d, mask)]
        trick = [(int(s), c.index) for s, c in view.current_trick]
        if not trick:
            return PLAYS[seat][highest(d, mask) if rng.random() < 0.5 else lowest(d, mask)]
        w_seat, w_card = trick[trick_winner(d, trick)]
        if w_seat == int(seat.partner):
            return PLAYS[seat][lowest(d, mask)]
        beat_mask = d.above[w_card] | (d.spades if d.suit_of[w_card] != 0 else 0)
        beat = mask & beat_mask
        if beat:
            return PLAYS[seat][highest(d, beat)]
        return PLAYS[seat][lowest(d, mask)]
