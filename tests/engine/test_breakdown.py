"""The itemised hand score (issue 8, item 3): every ``TeamHandScore`` carries ``parts`` in plain
words that add up exactly to its ``points``, for every worked example of every preset.

Checked three ways: through the scoring functions (every row of rules.md §9), through every
hand of every frozen record (each preset's worked examples played as games), and item by item
for the situations a score sheet must explain (contract, bags, each nil, double nil, double
blind nil, bag penalty, jokers, New York).
"""

from __future__ import annotations

from functools import cache

import pytest

from bot.engine import BLIND_NIL, NIL, Game, Rules, Seat, TeamHandScore
from bot.engine.record import Replayer
from bot.engine.spades.scoring import score_individual, score_new_york
from tests.engine.scenarios import SCENARIOS
from tests.engine.test_worked_examples import INDIVIDUAL_ROWS, NEW_YORK_ROWS, Row, load
from tests.engine.trump_scenarios import SCENARIOS as TRUMP_SCENARIOS

KINDS = {
    "contract",
    "bags",
    "nil",
    "blind_nil",
    "double_nil",
    "double_blind_nil",
    "jokers",
    "bag_penalty",
    "new_york",
    "odd_tricks",  # Whist
    "euchre",
}


def assert_adds_up(score: TeamHandScore) -> None:
    assert score.parts, "a hand always explains its points"
    assert sum(p.points for p in score.parts) == score.points
    for part in score.parts:
        assert part.kind in KINDS
        assert part.label
        assert not part.label[0].islower(), part.label


def items(score: TeamHandScore) -> list[tuple[str, int]]:
    return [(p.kind, p.points) for p in score.parts]


# ---------------------------------------------------------------- every worked example
@pytest.mark.parametrize("row", INDIVIDUAL_ROWS, ids=str)
def test_breakdown_adds_up_for_the_worked_example(row: Row) -> None:
    score = score_individual(
        Rules.from_preset(row.preset),
        row.bids,
        row.tricks,
        score_before=1000,
        bag_count_before=row.bag_count_before,
        joker_points=row.joker_points,
        seats=(Seat.N, Seat.S),
    )
    assert score.points == row.points
    assert_adds_up(score)


@pytest.mark.parametrize("row", NEW_YORK_ROWS, ids=[r[0] for r in NEW_YORK_ROWS])
def test_breakdown_adds_up_for_the_new_york_worked_example(
    row: tuple[str, int | None, bool, int, int, str | None, bool],
) -> None:
    _, bid, blind, tricks, points, _, _ = row
    score = score_new_york(bid, blind, tricks, score_before=100)
    assert score.points == points
    assert_adds_up(score)
    assert [p.kind for p in score.parts] == ["new_york"]


@cache
def replayed(name: str) -> Game:
    replayer = Replayer(load(name))
    for _ in replayer.lines():
        pass
    return replayer.game


@pytest.mark.parametrize("name", sorted(SCENARIOS) + sorted(TRUMP_SCENARIOS))
def test_breakdown_adds_up_in_every_hand_of_every_preset_record(name: str) -> None:
    game = replayed(name)
    assert game.results
    for result in game.results:
        for team in result.teams:
            assert_adds_up(team)


# ---------------------------------------------------------------- item by item
def standard(**overrides: object) -> Rules:
    return Rules.from_preset("standard", **overrides)


def test_a_made_contract_and_its_bags() -> None:
    score = score_individual(standard(), (2, 3), (3, 3), 0, 0)
    assert items(score) == [("contract", 50), ("bags", 1)]
    assert [p.label for p in score.parts] == ["Contract 5 made (6 tricks)", "1 bag"]


def test_a_set_contract() -> None:
    score = score_individual(standard(), (2, 3), (2, 2), 0, 0)
    assert items(score) == [("contract", -50)]
    assert score.parts[0].label == "Contract 5 set (4 tricks)"


def test_a_set_contract_without_penalty_says_so() -> None:
    score = score_individual(Rules.from_preset("no-set"), (2, 3), (2, 2), 0, 0)
    assert items(score) == [("contract", 0)]
    assert score.parts[0].label == "Contract 5 set (4 tricks): no penalty"


def test_each_nil_is_its_own_line_naming_the_player() -> None:
    score = score_individual(standard(), (NIL, 3), (1, 3), 0, 0, seats=(Seat.N, Seat.S))
    assert items(score) == [("contract", 30), ("nil", -100), ("bags", 1)]
    nil = score.parts[1]
    assert nil.seat is Seat.N
    assert nil.label == "North's nil failed (1 trick)"


def test_blind_nil_made() -> None:
    score = score_individual(standard(), (4, BLIND_NIL), (4, 0), 0, 0, seats=(Seat.E, Seat.W))
    assert items(score) == [("contract", 40), ("blind_nil", 200)]
    assert score.parts[1].label == "West's blind nil made"
    assert score.parts[1].seat is Seat.W


def test_two_nils_scored_separately_are_two_lines() -> None:
    score = score_individual(standard(), (NIL, NIL), (0, 2), 0, 0, seats=(Seat.N, Seat.S))
    assert items(score) == [("nil", 100), ("nil", -100), ("bags", 2)]


def test_double_nil_as_a_team_is_one_line() -> None:
    score = score_individual(Rules.from_preset("guide"), (NIL, NIL), (1, 0), 0, 0)
    assert items(score) == [("double_nil", -400)]
    assert score.parts[0].label == "Double nil failed (1 trick)"


@pytest.mark.parametrize(
    ("preset", "tricks", "points", "label"),
    [
        ("guide", (0, 0), 800, "Double blind nil made: the team wins the game"),
        ("guide", (0, 1), -800, "Double blind nil failed: the team loses"),
        ("house", (0, 0), 400, "Double blind nil: both made"),
        ("house", (2, 0), -150, "Double blind nil: one failed"),
        ("house", (1, 1), -250, "Double blind nil: both failed"),
    ],
)
def test_double_blind_nil_is_one_line(
    preset: str, tricks: tuple[int, int], points: int, label: str
) -> None:
    score = score_individual(Rules.from_preset(preset), (BLIND_NIL, BLIND_NIL), tricks, 0, 0)
    assert items(score) == [("double_blind_nil", points)]
    assert score.parts[0].label == label


def test_the_bag_penalty_is_its_own_line() -> None:
    score = score_individual(standard(), (2, 2), (3, 3), 0, 8)
    assert items(score) == [("contract", 40), ("bags", 2), ("bag_penalty", -100)]
    assert score.parts[-1].label == "Bag penalty (10 bags)"


def test_a_double_bag_penalty_counts_both() -> None:
    score = score_individual(standard(bag_limit=5), (1, 1), (6, 5), 0, 4)
    assert items(score) == [("contract", 20), ("bags", 9), ("bag_penalty", -200)]
    assert score.parts[-1].label == "Bag penalty (10 bags)"
    assert score.bag_count == 3


def test_joker_points_are_their_own_line() -> None:
    score = score_individual(Rules.from_preset("joker"), (3, 3), (3, 3), 0, 0, joker_points=3)
    assert items(score) == [("contract", 60), ("jokers", 3)]


@pytest.mark.parametrize(
    ("bid", "blind", "tricks", "label"),
    [
        (None, False, 8, "First hand: 10 a trick (8 tricks)"),
        (6, False, 8, "Bid 6 made (8 tricks)"),
        (6, False, 9, "Bid 6 set (9 tricks: 3 or more over)"),
        (6, False, 5, "Bid 6 set (5 tricks)"),
        (6, True, 6, "Blind bid 6 made (6 tricks), doubled"),
        (10, False, 13, "Bid 10: a Boston wins the game"),
        (10, False, 9, "Bid 10 set (9 tricks)"),
    ],
)
def test_new_york_lines_say_what_happened(
    bid: int | None, blind: bool, tricks: int, label: str
) -> None:
    (part,) = score_new_york(bid, blind, tricks, 0).parts
    assert part.label == label
