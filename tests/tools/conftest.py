"""Fixtures of the tools' tests: baselines checked out as git worktrees in a temporary folder."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tools import arena_players, revisions

# The revision "the previous hard" names (tools/arena.py's PREV_HARD): before tools/ existed.
OLD = "215363d"


@pytest.fixture
def baselines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """``SPADES_BASELINES`` in a temporary folder, every worktree made there removed after."""
    try:
        revisions.resolve(OLD)
    except revisions.RevisionError as e:
        pytest.skip(f"needs this repository's git history (a clone, not an export): {e}")
    folder = tmp_path / "baselines"
    monkeypatch.setenv("SPADES_BASELINES", str(folder))
    yield folder
    arena_players.close_players()
    arena_players._GIT_BUDGETS.clear()
    for path in sorted(folder.glob("*")):
        if path.is_dir():
            revisions.remove(path)
