"""The public evaluation of a seat's decision (for post-game reviews)."""

from __future__ import annotations

import math
import random

from bot.ai.evaluation import evaluate
from bot.engine import BLIND_NIL, NIL, Bid, Game, Look, Play, Rules, Seat, card, seat_view
from bot.engine.game import Phase
from tests.ai.conftest import fast_hard
from tests.ai.helpers import position

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def _frozen() -> float:
    return 0.0


def test_play_values_every_distinct_card_and_chooses_the_cover() -> None:
    # S bid nil and had to play the queen: N must overtake with the king.
    view = position(
        me=N,
        hand="KH 2H 5C 7D",
        current=[(E, "9H"), (S, "QH"), (W, "3H")],
        others={E: "8C 9C TC", S: "4C 6C 8D", W: "JC QC KC"},
        bids={N: 5, E: 3, S: NIL, W: 3},
        tricks_won=(4, 3, 0, 2),
    )
    ev = evaluate(view, random.Random(1), 1.0, clock=_frozen, max_worlds=30)
    assert ev.chosen == Play(N, card("KH"))
    assert {a.action for a in ev.actions} == {Play(N, card("KH")), Play(N, card("2H"))}
    best, other = ev.actions
    assert best.action == ev.chosen
    assert best.loss == 0
    assert other.loss > 50, "letting partner's nil fail costs about its 100 points"
    assert math.isclose(best.value - other.value, other.loss)
    # The search stops once one card is clearly best (racing): after its first few worlds.
    assert best.samples == ev.worlds >= other.samples >= 6


def test_a_useless_overtake_is_valued_but_not_chosen() -> None:
    view = position(
        me=S,
        hand="AH 2H 9C 5D 6D",
        current=[(N, "KH"), (E, "4H")],
        others={W: "8C TC 2D 3S 4S", N: "JC QC KC 7S", E: "7C 6C 8D 3H"},
        bids={N: 4, E: 3, S: 4, W: 2},
        tricks_won=(2, 3, 2, 1),
    )
    ev = evaluate(view, random.Random(2), 1.0, clock=_frozen, max_worlds=20)
    assert ev.chosen == Play(S, card("2H"))
    ace = ev.of(Play(S, card("AH")))
    assert ace is not None
    assert ace.samples > 0
    assert ace.tricks is not None
    # Same as the player's choice.
    assert fast_hard().decide(view, random.Random(2), 1.0) == ev.chosen


def _bidding_view(seed: int) -> object:
    g = Game(Rules.from_preset("standard"))
    g.deal(random.Random(seed))
    assert g.phase is Phase.BID
    assert g.to_act is not None
    return seat_view(g, g.to_act)


def test_bids_are_valued_on_the_same_worlds() -> None:
    view = _bidding_view(5)
    ev = evaluate(view, random.Random(3), 1.0, clock=_frozen, max_worlds=12)  # type: ignore[arg-type]
    legal = {a for a in view.legal if isinstance(a, Bid)}  # type: ignore[attr-defined]
    assert {a.action for a in ev.actions} == legal
    assert ev.chosen in legal
    assert all(a.samples == 12 == ev.worlds for a in ev.actions)
    assert all(a.tricks is not None and 0 <= a.tricks <= 13 for a in ev.actions)
    values = [a.value for a in ev.actions]
    assert values == sorted(values, reverse=True)


def test_blind_nil_against_looking() -> None:
    g = Game(Rules.from_preset("standard"))
    g.deal(random.Random(8))
    seat = g.to_act
    assert seat is not None
    g.scores = [100, 420] if int(seat) & 1 == 0 else [420, 100]  # far behind: blind nil open
    view = seat_view(g, seat)
    assert Bid(seat, BLIND_NIL) in view.legal
    ev = evaluate(view, random.Random(4), 1.0, clock=_frozen, max_worlds=10)
    kinds = {type(a.action) for a in ev.actions}
    assert kinds == {Bid, Look}
    assert ev.chosen in {a.action for a in ev.actions}


def test_touching_cards_share_one_value() -> None:
    view = position(
        me=N,
        hand="5D 6D 9C KH",
        current=[],
        others={E: "8C TC 2D 3S", S: "JC QC KC 7S", W: "7C 6C 8D 3H"},
        bids={N: 4, E: 3, S: 4, W: 2},
        tricks_won=(3, 3, 2, 1),
    )
    ev = evaluate(view, random.Random(5), 1.0, clock=_frozen, max_worlds=12)
    five, six = ev.of(Play(N, card("5D"))), ev.of(Play(N, card("6D")))
    assert five is not None
    assert five is six
    assert {a.action for a in ev.actions} == {Play(N, card(c)) for c in ("5D", "9C", "KH")}
