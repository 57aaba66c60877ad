"""The end of the game (rules.md §8): the target, ties (an extra hand or more bags), lose_at,
New York's sets twice in a row, double blind nil events."""

from __future__ import annotations

from bot.engine import (
    Game,
    Phase,
    Rules,
    Team,
)
from tests.engine.builders import (
    play_hand,
)


def test_equal_scores_at_the_target_play_an_extra_hand() -> None:
    game = Game(Rules.from_preset("standard", target=130))
    play_hand(game, {"N": 3, "E": 4, "S": 3, "W": 3}, {"N": 3, "E": 4, "S": 3, "W": 3})
    play_hand(game, {"N": 4, "E": 3, "S": 3, "W": 3}, {"N": 4, "E": 3, "S": 3, "W": 3})
    assert game.scores == [130, 130]
    assert not game.over
    assert game.phase is Phase.DEAL
    play_hand(game, {"N": 3, "E": 4, "S": 3, "W": 3}, {"N": 3, "E": 4, "S": 3, "W": 3})
    assert game.winner == Team.EW


def test_tie_bags_gives_the_game_to_more_bags_taken_over_the_game_before_reductions() -> None:
    game = Game(Rules.from_preset("house", target=140))
    # NS take 10 bags in hand 1 (bag count back to 0 after -100); EW take none.
    play_hand(game, {"N": 1, "E": 1, "S": 1, "W": "nil"}, {"N": 6, "E": 1, "S": 6, "W": 0})
    play_hand(game, {"N": 7, "E": 1, "S": 6, "W": 1}, {"N": 7, "S": 6})
    play_hand(game, {"N": 4, "E": 3, "S": 4, "W": 2}, {"N": 4, "E": 3, "S": 4, "W": 2})
    assert game.scores == [140, 140]
    assert game.bag_counts == [0, 0]
    assert game.total_bags == [10, 0]
    assert game.winner == Team.NS


def test_tie_bags_with_equal_bags_plays_an_extra_hand() -> None:
    game = Game(Rules.from_preset("house", target=130))
    play_hand(game, {"N": 3, "E": 4, "S": 3, "W": 3}, {"N": 3, "E": 4, "S": 3, "W": 3})
    play_hand(game, {"N": 4, "E": 3, "S": 3, "W": 3}, {"N": 4, "E": 3, "S": 3, "W": 3})
    assert game.scores == [130, 130]
    assert game.total_bags == [0, 0]
    assert not game.over


def test_a_team_at_or_below_lose_at_loses() -> None:
    game = Game(Rules.from_preset("standard", lose_at=-100))
    play_hand(game, {"N": 3, "E": 2, "S": 7, "W": 2}, {"N": 4, "E": 4, "S": 1, "W": 4})
    assert game.scores[Team.NS] == -100
    assert game.winner == Team.EW
    assert game.scores[Team.EW] < game.rules.target


def test_both_teams_at_or_below_lose_at_the_higher_score_wins() -> None:
    game = Game(Rules.from_preset("standard", lose_at=-100))
    play_hand(game, {"N": 6, "E": 5, "S": 5, "W": 5}, {"N": 3, "E": 4, "S": 2, "W": 4})
    assert game.scores == [-110, -100]
    assert game.winner == Team.EW


def test_both_teams_equal_at_or_below_lose_at_play_on() -> None:
    game = Game(Rules.from_preset("standard", lose_at=-100))
    play_hand(game, {"N": 6, "E": 6, "S": 5, "W": 5}, {"N": 3, "E": 4, "S": 2, "W": 4})
    assert game.scores == [-110, -110]
    assert not game.over


def new_york_both_set_twice(third_ew_bid: int) -> Game:
    game = Game(Rules.from_preset("new-york"))
    play_hand(game, None, {"N": 4, "E": 3, "S": 3, "W": 3})  # NS 70, EW 60
    play_hand(game, {"NS": 5, "EW": 4}, {"N": 2, "E": 5, "S": 1, "W": 5})  # both set: 20, 20
    assert not game.over
    play_hand(game, {"NS": 5, "EW": third_ew_bid}, {"N": 1, "E": 6, "S": 1, "W": 5})
    assert game.set_streak == [2, 2]
    return game


def test_new_york_both_teams_set_twice_the_higher_score_wins() -> None:
    game = new_york_both_set_twice(4)
    assert game.scores == [-30, -20]
    assert game.winner == Team.EW


def test_new_york_both_teams_set_twice_with_equal_scores_play_on() -> None:
    game = new_york_both_set_twice(5)
    assert game.scores == [-30, -30]
    assert not game.over


def test_new_york_set_twice_means_two_hands_in_a_row() -> None:
    game = Game(Rules.from_preset("new-york"))
    set_ns = {"N": 1, "E": 6, "S": 1, "W": 5}  # NS 2 of 4: set; EW 11 of 9: made
    made_ns = {"N": 2, "E": 5, "S": 2, "W": 4}  # NS 4 of 4, EW 9 of 9
    play_hand(game, None, {"N": 0, "E": 7, "S": 0, "W": 6})  # the first hand is never a set
    play_hand(game, {"NS": 4, "EW": 9}, set_ns)
    play_hand(game, {"NS": 4, "EW": 9}, made_ns)
    play_hand(game, {"NS": 4, "EW": 9}, set_ns)
    assert not game.over
    play_hand(game, {"NS": 4, "EW": 9}, set_ns)
    assert game.scores[Team.EW] < game.rules.target
    assert game.winner == Team.EW


def test_double_blind_nil_events_for_both_teams_go_to_the_higher_score() -> None:
    game = Game(Rules.from_preset("guide"))
    play_hand(game, {"N": 4, "E": 3, "S": 3, "W": 3}, {"N": 4, "E": 3, "S": 3, "W": 3})
    bids = dict.fromkeys("NESW", "blind_nil")
    play_hand(game, bids, {"N": 1, "E": 6, "S": 0, "W": 6})  # both teams fail: -800 each
    assert game.scores == [70 - 800, 60 - 800]
    assert game.winner == Team.NS


def test_double_blind_nil_events_for_both_teams_with_equal_scores_play_on() -> None:
    game = Game(Rules.from_preset("guide"))
    bids = dict.fromkeys("NESW", "blind_nil")
    play_hand(game, bids, {"N": 1, "E": 6, "S": 0, "W": 6})
    assert game.scores == [-800, -800]
    assert not game.over


def test_double_blind_nil_made_against_a_failed_one_wins() -> None:
    game = Game(Rules.from_preset("guide"))
    play_hand(game, dict.fromkeys("NESW", "blind_nil"), {"E": 6, "W": 7})
    assert game.winner == Team.NS
