"""benchmarks/engine.py measures an old engine from a git worktree of its revision, in a
process of its own with that tree first on PYTHONPATH, beside today's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from benchmarks import engine, engine_hands
from tests.tools.conftest import OLD
from tools import revisions


def test_an_engine_runs_from_its_own_tree(baselines: Path) -> None:
    tree = revisions.worktree(OLD)
    assert (tree / "bot" / "engine" / "scoring.py").exists()  # the engine before the core
    old = engine.Engine(tree)  # refuses to run if bot.engine came from elsewhere
    try:
        got = old.hands("standard", {}, 0.05, 1)
    finally:
        old.close()
    assert got["hands"] > 0
    assert got["cpu"] > 0


def test_the_benchmark_compares_today_with_a_named_revision(
    baselines: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--games", "spades", "--baseline", "HEAD", "--baseline", OLD]
    assert engine.main([*args, "--seconds", "0.05", "--runs", "1", "--states", "200"]) == 0
    out = capsys.readouterr().out
    head = revisions.resolve("HEAD")[:12]
    assert f"baseline HEAD: {head}, run from {baselines / head}" in out
    for name in ("spades @HEAD", f"spades @{OLD}", "spades "):
        assert re.search(rf"^run 1 {re.escape(name.strip())}: \d+ hands", out, re.M), name
    assert re.search(r"^spades new/HEAD \(median per CPU second\): \d+\.\d+×$", out, re.M)
    assert re.search(rf"^spades new/{OLD} \(median per CPU second\): \d+\.\d+×$", out, re.M)
    # The floor beside it, and OpenSpiel when it is installed (an optional package).
    assert re.search(r"^run 1 bare loop: \d+ hands", out, re.M)
    assert re.search(r"^spades / bare loop \(median per CPU second\): \d+\.\d+×$", out, re.M)
    if engine.has_openspiel():
        assert re.search(r"^spades / openspiel \(median per CPU second\): \d+\.\d+×$", out, re.M)
    else:
        assert "openspiel: not installed" in out


def test_the_bare_loop_plays_whole_hands() -> None:
    """The floor's hands are complete: every card of the deal played, a hand each time."""
    got = engine_hands.bare_hands(0.05, 3)
    assert got["hands"] > 0
    assert got["cpu"] > 0


def test_an_unknown_revision_is_one_line(
    baselines: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        engine.main(["--games", "spades", "--baseline", "no-such-rev"])
    assert "no commit 'no-such-rev'" in capsys.readouterr().err
