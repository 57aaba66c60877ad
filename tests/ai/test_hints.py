"""Hints (bot/ai/hints.py): the hard player's decision for the seat's view, from that view
only, with the runner-up and one sentence why."""

from __future__ import annotations

import random

import pytest

from bot.ai.hint_reasons import same_in_effect, why
from bot.ai.hints import HINT_BUDGET_S, HINT_WORLDS, hint_for
from bot.ai.levels import AnyGamePlayer
from bot.engine import Deal, Game, Play, Rules, Seat, SeatView, card, seat_view
from bot.engine.actions import Action
from bot.tables.defaults import default_rules
from tests.ai.helpers import position

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
PRESETS = ("standard", "suicide", "solo", "whist", "euchre", "new-york", "cutthroat-3")


def _no_clock() -> float:
    return 0.0


def the_hard_player() -> AnyGamePlayer:
    """The hard player as the bot's computers play it, its search bounded by worlds."""
    player = AnyGamePlayer("hard", max_worlds=HINT_WORLDS)
    player.clock = _no_clock
    return player


def positions(preset: str, seed: int, count: int) -> list[SeatView]:
    """``count`` decisions of a random game (normal players): the deciding seat's views."""
    rng = random.Random(seed)
    rules = default_rules(preset)
    game = Game(rules, rules.seats[0])
    normal = AnyGamePlayer("normal")
    out = []
    while len(out) < count and not game.over:
        seat = game.to_act
        if seat is None:
            game.apply(game.random_deal(rng))
            continue
        view = seat_view(game, seat)
        if len(view.legal) > 1 and rng.random() < 0.15:
            out.append(view)
        game.apply(normal.decide(view, rng, 0.01))
    return out


@pytest.mark.parametrize("preset", PRESETS)
def test_a_hint_is_the_hard_players_decision_for_that_seat_view(preset: str) -> None:
    hard = the_hard_player()
    for k, view in enumerate(positions(preset, seed=11, count=4)):
        hint = hint_for(view, seed=k)
        assert hint.choice == hard.decide(view, random.Random(k), HINT_BUDGET_S)
        assert hint.choice in view.legal
        assert hint.reason
        assert hint.reason[0].islower()
        assert not hint.reason.endswith(".")
        if hint.runner_up is not None:
            assert hint.runner_up in view.legal
            assert hint.runner_up not in same_in_effect(view, hint.choice)


def swapped_deal(deal: Deal, a: Seat, b: Seat, keep: set[str]) -> Deal | None:
    """``deal`` with one card of ``a`` and one of ``b`` of the same suit swapped (none of
    ``keep``): the hidden cards differ, what anyone has played stays legal."""
    hands = [list(h) for h in deal.hands]
    for x in hands[a]:
        for y in hands[b]:
            if x.suit == y.suit and x != y and x.code not in keep and y.code not in keep:
                hands[a][hands[a].index(x)] = y
                hands[b][hands[b].index(y)] = x
                return Deal(tuple(tuple(h) for h in hands), deal.turned)
    return None


def test_a_hint_reads_the_seats_view_only() -> None:
    """Two games that differ only in cards North cannot see (East's and West's, swapped
    within a suit) give North the same view, so the same hint."""
    rng = random.Random(5)
    rules = Rules.from_preset("standard")
    checked = 0
    for _ in range(20):
        first = Game(rules, W)  # North bids first
        deal = first.random_deal(rng)
        first.apply(deal)
        actions: list[Action] = []
        normal = AnyGamePlayer("normal")
        while first.to_act != N or len(seat_view(first, N).legal) < 2 or not first.plays:
            seat = first.to_act
            assert seat is not None
            action = normal.decide(seat_view(first, seat), rng, 0.01)
            first.apply(action)
            actions.append(action)
        played = {c.code for _, c in first.plays}
        other = swapped_deal(deal, E, W, played)
        if other is None:
            continue
        second = Game(rules, W)
        second.apply(other)
        for action in actions:
            second.apply(action)
        assert seat_view(second, E) != seat_view(first, E), "the hidden cards differ"
        assert seat_view(second, N) == seat_view(first, N)
        assert hint_for(seat_view(second, N), 3) == hint_for(seat_view(first, N), 3)
        checked += 1
        if checked == 3:
            return
    raise AssertionError("no deal to swap")


def test_touching_cards_are_the_same_choice() -> None:
    """K♥ and Q♥ in one hand do the same, and with the J♥ played the 10♥ joins them."""
    view = position(
        N,
        "KH QH TH 2H 3C",
        [(E, "4H")],
        {S: "AH 5C 6C 7C 8C", E: "9H 9C TC JC", W: "3H AC KC QC 4C"},
        {N: 3, E: 3, S: 3, W: 3},
        (2, 2, 2, 2),
    )
    assert card("JH") in {c for _, c in view.plays}
    same = {a.card.code for a in same_in_effect(view, Play(N, card("KH"))) if isinstance(a, Play)}
    assert same == {"KH", "QH", "TH"}
    assert {a.card.code for a in same_in_effect(view, Play(N, card("2H")))} == {"2H"}


def reason(view: SeatView, code: str) -> str:
    assert view.seat is not None
    return why(view, Play(view.seat, card(code)))


def test_the_reasons_name_what_a_card_does() -> None:
    # South bid nil and has not taken a trick; West led, South played under: North's king
    # takes the trick over South's card.
    covers = position(
        N,
        "KD 2C 3C",
        [(W, "9D"), (S, "TD")],
        {E: "AD 4C 5C", S: "6C 7C", W: "8C 9C"},
        {N: 4, E: 3, S: 0, W: 3},
        (4, 3, 0, 3),
    )
    assert "covers your partner's nil" in reason(covers, "KD")
    # North bid nil: a low diamond under the nine keeps it.
    keeps = position(
        N,
        "2D KD 3C",
        [(W, "9D")],
        {E: "AD 4C 5C", S: "6C 7C 8C", W: "TC JC"},
        {N: 0, E: 3, S: 4, W: 3},
        (0, 3, 4, 3),
    )
    assert "keeps your nil" in reason(keeps, "2D")
    # The ace of spades, led when every other spade is gone: a sure winner.
    sure = position(
        N,
        "AS 2C 3C",
        [],
        {E: "4C 5C 6C", S: "7C 8C 9C", W: "TC JC QC"},
        {N: 4, E: 3, S: 3, W: 3},
        (4, 3, 3, 0),
    )
    assert reason(sure, "AS") == "it cashes a sure winner"
    # North–South bid 6 and have taken 7: a low card that loses the trick avoids a bag.
    bags = position(
        N,
        "2D KD 3C",
        [(W, "9D")],
        {E: "AD 4C 5C", S: "6C 7C 8C", W: "TC JC"},
        {N: 3, E: 3, S: 3, W: 3},
        (4, 3, 3, 0),
    )
    assert reason(bags, "2D") == "it avoids bags: your side has its contract already"
