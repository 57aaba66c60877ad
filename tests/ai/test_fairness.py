"""Fairness: a decision depends on the seat's view and the seed only, never on hidden cards."""

from __future__ import annotations

import random

import pytest

from bot.ai import get_player
from bot.ai.hard import HardPlayer
from bot.ai.players import NormalPlayer
from bot.engine import Deal, Game, Rules, Seat, seat_view
from bot.engine.actions import Action
from bot.engine.game import Phase
from tests.ai.conftest import fast_hard


def _twin_games(seed: int, me: Seat, tricks: int) -> tuple[Game, Game]:
    """Two games in which ``me`` has seen exactly the same things but the other seats hold
    different cards: after ``tricks`` tricks, same-suit cards not yet played are swapped
    between the two opponents of ``me`` (their plays stay legal and identical)."""
    rules = Rules.from_preset("standard")
    rng = random.Random(seed)
    g1 = Game(rules)
    deal = g1.deal(rng)
    actions: list[Action] = []
    while g1.phase is not Phase.PLAY or len(g1.completed_tricks) < tricks:
        seat = g1.to_act
        assert seat is not None
        a = NormalPlayer().decide(seat_view(g1, seat), rng, 0.01)
        actions.append(a)
        g1.apply(a)
    a_opp, b_opp = Seat((me + 1) % 4), Seat((me + 3) % 4)
    hands = [list(h) for h in deal.hands]
    left_a = list(g1.hand(a_opp))
    left_b = list(g1.hand(b_opp))
    swapped = 0
    for ca in left_a:
        for cb in left_b:
            if ca.suit == cb.suit and swapped < 3:
                ia, ib = hands[a_opp].index(ca), hands[b_opp].index(cb)
                hands[a_opp][ia], hands[b_opp][ib] = cb, ca
                left_b.remove(cb)
                swapped += 1
                break
    assert swapped
    g2 = Game(rules)
    g2.apply(Deal((tuple(hands[0]), tuple(hands[1]), tuple(hands[2]), tuple(hands[3]))))
    for a in actions:
        g2.apply(a)
    assert g1.hand(a_opp) != g2.hand(a_opp)
    return g1, g2


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
@pytest.mark.parametrize("tricks", [0, 2, 5])
def test_same_view_same_decision(level: str, tricks: int) -> None:
    for seed in range(3):
        # Find whose turn it will be after ``tricks`` tricks by playing it out once.
        g1, _ = _twin_games(seed, Seat.N, tricks)
        me = g1.to_act
        assert me is not None
        g1, g2 = _twin_games(seed, me, tricks)
        v1, v2 = seat_view(g1, me), seat_view(g2, me)
        assert v1 == v2
        player = fast_hard() if level == "hard" else get_player(level)
        for s in range(3):
            a1 = player.decide(v1, random.Random(s), 0.01)
            a2 = player.decide(v2, random.Random(s), 0.01)
            assert a1 == a2


def test_hard_with_a_fixed_search_is_deterministic() -> None:
    """With the clock out of the way (a fixed number of worlds), the same view and seed give
    the same decision."""
    g1, g2 = _twin_games(5, Seat.N, 3)
    me = g1.to_act
    assert me is not None
    g1, g2 = _twin_games(5, me, 3)
    player = HardPlayer(clock=lambda: 0.0, max_worlds=30)
    a1 = player.decide(seat_view(g1, me), random.Random(9), 0.1)
    a2 = player.decide(seat_view(g2, me), random.Random(9), 0.1)
    assert a1 == a2
