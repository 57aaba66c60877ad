"""Baselines as git revisions: a built-in level served over the player protocol from this tree
and from worktrees of real revisions, before and after tools/ existed, in real arena matches."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.ai.levels import DEFAULT_BUDGET_S
from tests.tools.conftest import OLD
from tools import arena_journal, arena_players, revisions
from tools.arena import OPPONENTS, PREV_HARD, main, run_match

SERVE = "cmd:python -m tools.serve_player --level normal"


@pytest.mark.parametrize("preset", ["standard", "house", "whiz", "cutthroat-3"])
def test_the_served_normal_decides_as_the_normal_in_this_process(preset: str) -> None:
    """``normal`` decides from the view alone, so the served one, deciding from the view it
    rebuilds, plays every move as the one in the arena's process: every rebuilt view was the
    seat's real view (a wrong one is answered with an error, counted as a problem)."""
    s = run_match("normal", SERVE, deals=4, games=1, seed=5, preset=preset)
    assert s.problems == 0
    assert s.deals == 4
    assert s.diff_mean == 0.0
    # points, tricks, contracts, nils a hand: the same play (solo: A plays one seat, B three)
    a, b = ({k: v for k, v in side.items() if k not in ("side", "team_hands")} for side in s.sides)
    assert a == b


def test_a_view_that_cannot_be_rebuilt_is_answered_with_an_error_not_a_dead_server() -> None:
    line = json.dumps({"type": "decide", "seat": "N", "rules": {"preset": "standard"}})
    done = subprocess.run(
        [sys.executable, "-m", "tools.serve_player", "--level", "easy"],
        input=line + "\n" + line + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    answers = [json.loads(x) for x in done.stdout.splitlines()]
    assert len(answers) == 2
    assert all(a["error"].startswith("serve_player cannot rebuild this view") for a in answers)


def test_an_old_revision_is_served_from_its_own_worktree(baselines: Path) -> None:
    """215363d has no tools/ and its own engine and players: the server runs them."""
    spec = f"git:{OLD}:normal"
    assert arena_players.check_side(spec) == spec
    tree = baselines / revisions.resolve(OLD)[:12]
    assert (tree / "bot" / "ai" / "arena.py").exists()  # the tree of before the move
    assert not (tree / "tools").exists()
    # Its hard had a budget of 50 ms, today's another: the budget is asked of that tree.
    assert arena_players.default_budget(f"git:{OLD}:hard") == 0.05 != DEFAULT_BUDGET_S["hard"]
    s = run_match("normal", spec, deals=3, games=1, seed=2)
    assert s.problems == 0
    assert s.deals == 3
    assert s.games == 2


def test_a_revision_after_the_move_is_served_too(baselines: Path) -> None:
    s = run_match("easy", "git:HEAD:normal", deals=2, seed=3)
    assert s.problems == 0
    assert (baselines / revisions.resolve("HEAD")[:12] / "tools" / "serve_player.py").exists()


def test_the_benchmark_plays_the_previous_hard_at_its_revision(
    baselines: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert OPPONENTS["prev"] == f"git:{PREV_HARD}:hard"
    runs, out = tmp_path / "runs", tmp_path / "out.json"
    args = ["--only", "prev", "--side", "easy", "--deals", "1", "--jobs", "1"]
    args += ["--budget-b", "0.002", "--results", str(runs), "--json", str(out)]
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert f"== easy vs prev\nduplicate deals: 1   easy (A) vs git:{PREV_HARD}:hard (B)" in printed
    assert "external player problems" not in printed
    header = json.loads((runs / "prev.jsonl").read_text().splitlines()[0])
    assert header["match"] == ["easy", f"git:{PREV_HARD}:hard"]
    assert json.loads(out.read_text())["prev"]["deals"] == 1


def test_a_side_at_a_revision_is_part_of_the_journal_fingerprint(baselines: Path) -> None:
    old = arena_journal.code_fingerprint(("hard", f"git:{OLD}:hard"))
    assert old == arena_journal.code_fingerprint(("hard", f"git:{revisions.resolve(OLD)}:hard"))
    assert old != arena_journal.code_fingerprint(("hard", "git:HEAD:hard"))


def test_a_worktree_is_made_once_and_reused(baselines: Path) -> None:
    first = revisions.worktree(OLD)
    (first / "marker").write_text("kept")
    assert revisions.worktree(OLD) == first
    assert (first / "marker").exists()


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("git:no-such-rev:hard", "no commit 'no-such-rev'"),
        (f"git:{OLD}:expert", "no level 'expert'"),
    ],
)
def test_a_bad_revision_or_level_is_one_clear_line(baselines: Path, spec: str, says: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match=says):
        arena_players.check_side(spec)
