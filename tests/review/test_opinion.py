"""The hard player's opinion of a decision comes from what that seat knew at that moment only,
and it is the hard player's own choice."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from bot.ai.hard import HardPlayer
from bot.engine import Play, Seat
from bot.engine.cards import BY_CODE
from bot.review.analysis import analyse_chunk, decision_seed
from bot.review.decisions import RecordedDecision, decision_views, replay_game
from bot.review.opinion import evaluate
from tests.review.helpers import record

WORLDS = 8


def swap_hidden_cards(doc: dict[str, Any], d: RecordedDecision) -> dict[str, Any]:
    """The same game up to decision ``d`` as far as ``d.seat`` can tell, with a different hidden
    layout: two cards of one suit that two other seats still hold then change hands in the
    deal (both held that suit, so every card played before ``d`` stays legal)."""
    replay = replay_game(doc)
    hand = replay.hands[d.hand - 1]
    played_before = {c.code for t in hand.tricks for s, c, i in t.plays if i < d.index}
    deal = doc["hands"][d.hand - 1]["deal"]
    others = [s for s in Seat if s != d.seat]
    for suit in "HCDS":
        holders = []
        for s in others:
            held = [c for c in deal[s.name] if c.endswith(suit) and c not in played_before]
            if held:
                holders.append((s, held[0]))
        if len(holders) >= 2:
            (a, ca), (b, cb) = holders[:2]
            out = copy.deepcopy(doc)
            new = out["hands"][d.hand - 1]["deal"]
            new[a.name] = [cb if c == ca else c for c in new[a.name]]
            new[b.name] = [ca if c == cb else c for c in new[b.name]]
            return out
    raise AssertionError("no two other seats hold a common suit")


def play_decisions(doc: dict[str, Any]) -> list[RecordedDecision]:
    return [d for d in replay_game(doc).decisions if d.is_play and d.trick in (3, 6, 9)]


@pytest.mark.parametrize("pick", [0, 7, 15])
def test_a_different_hidden_layout_with_the_same_history_gives_the_same_opinion(
    pick: int,
) -> None:
    doc = record()
    d = play_decisions(doc)[pick]
    other = swap_hidden_cards(doc, d)
    assert other["hands"] != doc["hands"], "the hidden cards really are laid out differently"
    [(d1, view1)] = decision_views(doc, {d.index})
    [(d2, view2)] = decision_views(other, {d.index})
    assert d1 == d2
    assert view1 == view2, "the seat's view holds nothing of the hidden layout"
    seed = decision_seed("game-1", d.index)
    e1 = evaluate(view1, d.action, random.Random(seed), WORLDS)
    e2 = evaluate(view2, d.action, random.Random(seed), WORLDS)
    assert e1 == e2
    c1 = analyse_chunk(doc, [d.index], "game-1", WORLDS)
    c2 = analyse_chunk(other, [d.index], "game-1", WORLDS)
    assert c1.opinions == c2.opinions


def test_the_view_given_to_the_hard_player_is_the_deciding_seats() -> None:
    doc = record()
    wanted = {d.index for d in play_decisions(doc)[:10]}
    for d, view in decision_views(doc, wanted):
        assert view.seat == d.seat
        assert view.to_act == d.seat
        assert d.action in view.legal
        assert view.hand is not None
        full_deal = {BY_CODE[c] for c in doc["hands"][d.hand - 1]["deal"][d.seat.name]}
        assert set(view.hand) <= full_deal, "its own cards only"


def test_the_preferred_choice_is_what_the_hard_player_does() -> None:
    doc = record()
    replay = replay_game(doc)
    wanted = {d.index for d in replay.decisions if d.hand == 2}
    # The hard player with the review's bound: a number of worlds and no clock.
    hard = HardPlayer(clock=lambda: 0.0, max_worlds=WORLDS)
    compared = 0
    for d, view in decision_views(doc, wanted):
        seed = decision_seed("game-9", d.index)
        ev = evaluate(view, d.action, random.Random(seed), WORLDS)
        if ev is None:
            continue
        budget = 1.0  # never reached: the clock stands still, the worlds bound the search
        assert ev.preferred == hard.decide(view, random.Random(seed), budget), d
        points, tricks = ev.loss(d.action)
        if ev.preferred == d.action:
            assert points == 0.0
        if isinstance(d.action, Play) and d.trick <= 10:
            # Tricks are counted on play-outs; the last three tricks are solved exactly.
            assert tricks is not None
        compared += 1
    assert compared >= 20
