"""Properties of random games in the games.md G2 presets and with renege claims (G1):
hypothesis picks the seed, the target and where to stop; a seeded ``random.Random`` picks the
actions, sometimes reneging and sometimes claiming.

Checked: each deal shares out the whole deck (51 cards, 17 each with three players); a hand
has as many tricks as cards per seat and plays every card once; bids are those the variant
allows; every score equals the independent re-scoring of the exported record
(:mod:`tests.engine.variant_reference`), and ``replay(export(game))`` reproduces every line;
score sheets add up.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import NIL, Bid, Game, Look, Phase, Play, Rules, Seat
from bot.engine.actions import BLIND_NIL, Claim
from bot.engine.record import export_record, final_line, hand_line, replay
from tests.engine.builders import deck_codes
from tests.engine.variant_reference import rescore_variant

CASES = [
    ("solo", {}),
    ("cutthroat-3", {}),
    ("suicide", {}),
    ("whiz", {}),
    ("mirror", {}),
    ("standard", {"renege": "claim"}),
    ("house", {"renege": "claim"}),
    ("solo", {"renege": "claim"}),
    ("cutthroat-3", {"renege": "claim", "renege_penalty": 250}),
    ("whiz", {"renege": "claim", "renege_penalty": 250}),
]
IDS = [p + ("+claim" if o else "") + ("-250" if o.get("renege_penalty") else "") for p, o in CASES]
MAX_HANDS = 25


def spades_in(game: Game, seat: Seat) -> int:
    return sum(1 for c in game.hand(seat) if c.code.endswith("S") or c.code in ("BJ", "LJ"))


def choose(game: Game, rng: random.Random) -> Any:
    seat = game.to_act
    assert seat is not None
    legal = game.legal_actions()
    if game.phase is Phase.BID:
        if Look(seat) in legal:
            return Bid(seat, BLIND_NIL) if rng.random() < 0.05 else Look(seat)
        bids = [a for a in legal if isinstance(a, Bid)]
        want = max(1, round(game.hand_size / 13 * (1 + spades_in(game, seat) / 4)))
        numbers = [b for b in bids if b.value > 0]
        if not numbers or (Bid(seat, NIL) in bids and rng.random() < 0.1):
            return next(b for b in bids if b.value == NIL)
        return min(numbers, key=lambda b: abs(b.value - want))
    if game.phase is Phase.PLAY and game.rules.claims and rng.random() > 0.03:
        honest = game.honest_mask()
        plays = [a for a in legal if isinstance(a, Play) and honest >> a.card.index & 1]
        return rng.choice(plays)
    return rng.choice(legal)


def play_random_game(
    case: int, seed: int, target: int | None, stop: int | None, lose_at: int | None = None
) -> Game:
    preset, overrides = CASES[case]
    overrides = {**overrides, "lose_at": lose_at}
    rng = random.Random(seed)
    if target is not None:
        overrides = {**overrides, "target": target}
    rules = Rules.from_preset(preset, **overrides)
    seats = 3 if rules.players == 3 else 4
    game = Game(rules, Seat(rng.randrange(seats)))
    stop_at = rng.randrange(1, 60) if stop is not None else None
    step = 0
    while not game.over:
        if game.phase is Phase.DEAL:
            if len(game.results) >= MAX_HANDS:
                break
            game.deal(rng)
            hands = game.deal_cards
            assert len(hands) == seats
            assert {len(h) for h in hands} == {52 // seats}
            codes = sorted(c.code for h in hands for c in h)
            expected = deck_codes(rules.deck)
            if seats == 3:
                expected = [c for c in expected if c != "2C"]
            assert codes == sorted(expected)
            step = 0
            continue
        if stop_at is not None and len(game.results) + 1 >= stop and step == stop_at:  # type: ignore[operator]
            break
        if game.rules.claims and game.phase is Phase.PLAY and game.plays and rng.random() < 0.02:
            claimant = rng.choice(game.seating.seats)
            targets = game.claim_targets(claimant)
            if targets:
                game.apply(Claim(claimant, rng.choice(targets)))
        action = choose(game, rng)
        before = len(game.results)
        game.apply(action)
        step += 1
        if len(game.results) > before:
            res = game.results[-1]
            assert len(res.plays) == len(set(res.plays)) == seats * (52 // seats)
            assert sum(res.tricks) == 52 // seats
            for team in res.teams:
                assert sum(p.points for p in team.parts) == team.points
    return game


def check_record(game: Game) -> None:
    doc = json.loads(json.dumps(export_record(game)))
    lines = list(replay(doc))
    expected = [hand_line(r, game) for r in game.results]
    if game.phase not in (Phase.DEAL, Phase.OVER):
        tricks = {s.name: game.tricks_won[s] for s in game.seating.seats}
        expected.append(
            {"hand": game.hand_number, "dealer": game.dealer.name, "tricks": tricks}
            | {"complete": False}
        )
    expected.append(final_line(game))
    assert lines == expected
    assert rescore_variant(doc) == lines


@pytest.mark.parametrize("case", range(len(CASES)), ids=IDS)
@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(
    seed=st.integers(0, 2**32 - 1),
    target=st.sampled_from([None, 150, 250]),
    stop=st.none() | st.integers(1, 3),
)
def test_random_variant_games_replay_and_rescore(
    case: int, seed: int, target: int | None, stop: int | None
) -> None:
    game = play_random_game(case, seed, target, stop)
    check_record(game)


@pytest.mark.parametrize("case", range(len(CASES)), ids=IDS)
def test_random_variant_games_reach_an_end(case: int) -> None:
    ended = 0
    for seed in range(4):
        game = play_random_game(case, seed, 150, None, lose_at=-150)
        check_record(game)
        ended += game.over
    assert ended >= 2


def test_claims_happen_in_the_random_games() -> None:
    """The claim cases do make correct and wrong claims (so the properties cover them)."""
    verdicts: set[bool] = set()
    for seed in range(6):
        game = play_random_game(5, seed, 250, None)
        verdicts |= {c.correct for r in game.results for c in r.claims}
    assert verdicts == {True, False}
