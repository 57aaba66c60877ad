"""Baselines are git revisions, not copies: the tree of a named revision, checked out once as a
``git worktree`` and reused, so that a benchmark runs an old engine or player from the code as
it was, in a process of its own (``benchmarks/engine.py --baseline REV``, the arena's
``git:REV:LEVEL`` sides).

The worktrees live in ``.baselines/`` at the top of this checkout (ignored by git), one folder
per commit, or under the folder ``SPADES_BASELINES`` names; ``git worktree remove`` (or
:func:`remove`) deletes one, and a deleted folder is checked out again when next asked for.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
from pathlib import Path

_HERE = Path(__file__).resolve().parent


class RevisionError(Exception):
    """No git history here, or no such revision: the message is the operator's one line."""


def _git(*args: str, cwd: Path = _HERE) -> str:
    try:
        done = subprocess.run(  # noqa: S603 - git with our own arguments
            ["git", *args],  # noqa: S607 - git from PATH, as a developer runs it
            cwd=cwd,
            capture_output=True,
            text=True,
            check=False,
        )
    except OSError as e:
        raise RevisionError(f"git cannot be run: {e}") from None
    if done.returncode:
        reason = done.stderr.strip().splitlines()
        raise RevisionError(f"git {args[0]}: {reason[-1] if reason else 'failed'}")
    return done.stdout.strip()


def repository() -> Path:
    """The top of the git checkout this code runs from."""
    try:
        return Path(_git("rev-parse", "--show-toplevel"))
    except RevisionError:
        raise RevisionError(
            f"{_HERE.parent} is not a git checkout: baselines need its history"
        ) from None


def resolve(rev: str) -> str:
    """The full commit id ``rev`` names (a hash, a tag, ``HEAD~3``)."""
    if not rev or rev.startswith("-"):
        raise RevisionError(f"{rev!r} is not a revision")
    repository()
    try:
        return _git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    except RevisionError:
        raise RevisionError(f"no commit {rev!r} in this repository's history") from None


def baselines_dir() -> Path:
    """Where the worktrees of baselines are kept."""
    named = os.environ.get("SPADES_BASELINES")
    return Path(named) if named else repository() / ".baselines"


def worktree(rev: str, under: Path | None = None) -> Path:
    """The tree of ``rev``, checked out (once) as a detached worktree; safe to call from
    several processes at once."""
    commit = resolve(rev)
    base = under if under is not None else baselines_dir()
    base.mkdir(parents=True, exist_ok=True)
    path = base / commit[:12]
    with (base / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not _checked_out(path, commit):
            shutil.rmtree(path, ignore_errors=True)  # a stale or half-made checkout
            _git("worktree", "prune")
            _git("worktree", "add", "--detach", "--force", "--quiet", str(path), commit)
    return path


def _checked_out(path: Path, commit: str) -> bool:
    if not (path / ".git").exists():
        return False
    try:
        return _git("rev-parse", "HEAD", cwd=path) == commit
    except RevisionError:
        return False


def remove(path: Path) -> None:
    """Delete a baseline's worktree."""
    _git("worktree", "remove", "--force", str(path))
