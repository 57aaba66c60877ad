"""The arena's figures: full-game pairs, their per-hand difference and win share."""

from __future__ import annotations

import math

from bot.engine import Rules
from tools.arena import Task, run_task
from tools.arena_report import TaskResult, TeamLine, format_summary, mean_ci, summarize


def _line(side: int, points: int, bags: int = 0) -> TeamLine:
    return TeamLine(side, points, 6, points - bags, 6, 6, True, False, bags, 0, 0, 0, 0)


def _pair(number: int, hands: list[tuple[int, int]], wins: list[int]) -> TaskResult:
    r = TaskResult("game", number, wins=wins)
    for a, b in hands:
        r.game_lines += [_line(0, a), _line(1, b)]
    r.game_hands = len(hands)
    return r


def test_full_game_pairs_give_points_per_hand_and_win_share() -> None:
    # Pair 0: 4 hands, A - B = +40 over them (+10 a hand), A won both games.
    # Pair 1: 2 hands, A - B = -20 (-10 a hand), one game each.
    # Pair 2: 5 hands, A - B = +5 (+1 a hand), one game A, one without a winner.
    results = [
        _pair(0, [(60, 50), (70, 60), (50, 40), (80, 70)], [0, 0]),
        _pair(1, [(40, 50), (30, 40)], [0, 1]),
        _pair(2, [(10, 5), (0, 0), (0, 0), (0, 0), (0, 0)], [0, -1]),
    ]
    s = summarize("a", "b", results)
    assert s.game_pairs == 3
    assert s.games == 6
    assert s.deals == 0
    assert s.game_wins == (4, 1)
    assert math.isclose(s.game_diff_mean, (10 - 10 + 1) / 3)
    assert s.game_diff_ci == mean_ci([10.0, -10.0, 1.0])[1]
    assert math.isclose(s.win_rate, (1.0 + 0.5 + 0.75) / 3)
    assert s.game_sides[0]["points_per_hand"] == round(340 / 11, 3)
    text = format_summary(s)
    assert "full games: 3 pairs (6 games)" in text
    assert "points per hand, A - B: +0.33" in text
    assert s.to_json()["full_game_win_rate"] == 0.75


def test_a_game_pair_records_every_hand_of_both_games() -> None:
    rules = Rules.from_preset("standard")
    r = run_task(Task("game", 0, 4, rules, "normal", "easy", (("easy", 0.0), ("normal", 0.0))))
    assert len(r.wins) == 2
    assert r.game_hands >= 2
    assert len(r.game_lines) == 2 * r.game_hands
    # Both sides play both tables: each side has a line for every hand.
    assert sum(ln.side == 0 for ln in r.game_lines) == r.game_hands
