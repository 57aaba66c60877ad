"""rules.md §5 and the §10 rulings on fine points that the §9 examples do not cover."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine import BLIND_NIL, NIL, Game, Phase, Rules, Team
from bot.engine.spades.scoring import score_individual
from tests.engine.builders import play_hand


def score(preset: str, bids: tuple[int, int], tricks: tuple[int, int], bag_count: int = 0,
          **overrides: Any) -> tuple[int, int, int, int]:  # fmt: skip
    r = score_individual(Rules.from_preset(preset, **overrides), bids, tricks, 0, bag_count)
    return r.points, r.bags, r.bag_penalty, r.bag_count


def test_one_nil_and_one_blind_nil_are_scored_separately_not_as_double_nil() -> None:
    # guide scores double nil as a team (+400); nil + blind nil is each on its own.
    assert score("guide", (NIL, BLIND_NIL), (0, 0)) == (100 + 200, 0, 0, 0)
    assert score("guide", (NIL, BLIND_NIL), (1, 0)) == (-100 + 1 + 200, 1, 0, 1)


def test_one_nil_and_one_blind_nil_are_not_double_blind_nil() -> None:
    assert score("house", (NIL, BLIND_NIL), (0, 0)) == (100 + 200, 0, 0, 0)
    assert score("house", (BLIND_NIL, NIL), (0, 2)) == (200 - 100, 0, 0, 0)


def test_double_nil_as_a_team_earns_no_bags_whatever_nil_tricks_says() -> None:
    assert Rules.from_preset("guide").nil_tricks == "bags"
    assert score("guide", (NIL, NIL), (3, 2)) == (-400, 0, 0, 0)


def test_double_blind_nil_earns_no_bags_whatever_nil_tricks_says() -> None:
    assert score("house", (BLIND_NIL, BLIND_NIL), (3, 0), nil_tricks="bags") == (-150, 0, 0, 0)


def test_nil_tricks_contract_count_toward_the_partners_contract() -> None:
    # nil takes 1, partner 2 of 3: the contract is made with the nil's trick.
    assert score("standard", (NIL, 3), (1, 2), nil_tricks="contract") == (30 - 100, 0, 0, 0)
    assert score("standard", (NIL, 3), (2, 3), nil_tricks="contract") == (30 + 2 - 100, 2, 0, 2)


def test_nil_tricks_contract_without_a_non_nil_bidder_count_for_nothing() -> None:
    assert score("standard", (NIL, NIL), (2, 0), nil_tricks="contract") == (-100 + 100, 0, 0, 0)


def test_nil_tricks_none_count_for_nothing() -> None:
    assert score("house", (NIL, 3), (2, 3)) == (30 - 100, 0, 0, 0)
    assert score("house", (NIL, 3), (2, 1)) == (-30 - 100, 0, 0, 0)


def test_nil_tricks_bags_are_bags_even_when_the_contract_is_set() -> None:
    assert score("standard", (NIL, 5), (2, 3)) == (-50 - 100 + 2, 2, 0, 2)


def test_a_set_contract_gives_no_bags() -> None:
    assert score("standard", (3, 4), (3, 3), bag_count=4) == (-70, 0, 0, 4)


@pytest.mark.parametrize("overrides", [{"bag_penalty": 0}, {"bag_limit": None}])
def test_without_a_bag_penalty_or_limit_the_bag_count_only_grows(
    overrides: dict[str, Any],
) -> None:
    assert score("standard", (1, 1), (4, 4), bag_count=8, **overrides) == (20 + 6, 6, 0, 14)


def test_the_bag_penalty_repeats_while_the_count_reaches_the_limit() -> None:
    points = 20 + 11 - 2 * 100
    assert score("standard", (1, 1), (6, 7), bag_limit=5) == (points, 11, 200, 1)


def test_set_penalty_zero_scores_a_failed_contract_0() -> None:
    assert score("no-set", (5, 5), (2, 2)) == (0, 0, 0, 0)


def test_no_cap_on_a_teams_total_bid() -> None:
    game = Game(Rules.from_preset("standard"))
    result = play_hand(game, {"N": 13, "E": 1, "S": 13, "W": 1}, {"N": 7, "S": 6})
    assert result.teams[Team.NS].points == -10 * 26
    assert result.teams[Team.EW].points == -10 * 2


def test_a_joker_under_the_partners_big_joker_still_costs_two() -> None:
    # Trick 12 holds K♠ A♠ LJ BJ: E wins it with BJ, W (E's partner) plays LJ.
    game = Game(Rules.from_preset("joker"))
    result = play_hand(
        game, {"N": 4, "E": 3, "S": 3, "W": 3}, winners="NESWNESWNWSEN", seconds={11: "W"}
    )
    assert result.tricks == (4, 3, 3, 3)
    assert result.teams[Team.EW].points == 10 * 6 + 2 + 1 - 2
    assert result.teams[Team.NS].points == 10 * 7
    assert result.teams[Team.EW].bags == 0


def test_joker_points_need_joker_bonus() -> None:
    game = Game(Rules.from_preset("joker", joker_bonus=False))
    result = play_hand(
        game, {"N": 4, "E": 3, "S": 3, "W": 3}, winners="NESWNESWNWSEN", seconds={11: "N"}
    )
    assert [t.points for t in result.teams] == [10 * 7, 10 * 6]


def test_new_york_first_hand_is_never_a_boston_or_a_set() -> None:
    game = Game(Rules.from_preset("new-york"))
    result = play_hand(game, None, {"N": 7, "S": 6})
    assert result.teams[Team.NS].points == 10 * 13
    assert result.teams[Team.EW].points == 0
    assert game.phase is Phase.DEAL
    assert game.set_streak == [0, 0]


def test_new_york_has_no_bags() -> None:
    game = Game(Rules.from_preset("new-york"))
    play_hand(game, None, {"N": 7, "S": 6})
    result = play_hand(game, {"NS": 4, "EW": 4}, {"N": 3, "E": 3, "S": 3, "W": 4})
    for team in result.teams:
        assert (team.bags, team.bag_penalty, team.bag_count) == (0, 0, 0)
    assert game.total_bags == [0, 0]
