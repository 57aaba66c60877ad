"""The arena command: deterministic whatever the number of worker processes, and its summary."""

from __future__ import annotations

import pytest

from tools.arena import main, run_match


def test_arena_is_deterministic_and_uses_jobs() -> None:
    a = run_match("normal", "easy", deals=6, games=1, seed=2, jobs=2)
    b = run_match("normal", "easy", deals=6, games=1, seed=2, jobs=1)
    assert a.diff_mean == b.diff_mean
    assert a.sides == b.sides
    assert a.game_wins == b.game_wins
    assert a.games == 2
    assert a.deals == 6


def test_arena_cli_prints_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--ns", "normal", "--ew", "easy", "--deals", "3", "--seed", "4"]) == 0
    out = capsys.readouterr()
    assert "points per deal, A - B" in out.out
    assert "95% CI" in out.out
    assert "decision time" in out.out
    assert "3/3" in out.err  # the progress bar
