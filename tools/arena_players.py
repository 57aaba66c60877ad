"""The arena's players, one per side spec and process: built-in levels (``easy``, ``normal``,
``hard``), ``cmd:COMMAND`` programs speaking docs/player-protocol.md, ``py:MODULE:CLASS``
classes importable from the working directory and ``git:REV:LEVEL``, a built-in level as it
was at a git revision (its worktree's code served over the protocol by
:mod:`tools.serve_player`, in a process of its own, on that process's CPU clock).

Players that search to a clock (``hard``) get the deciding thread's CPU clock here, so a busy
machine changes neither what they do nor what the arena measures.  With the *virtual* clock
(``--clock virtual``) they get a :class:`VirtualClock` instead: a match is then repeatable to
the card, and two versions of a player compared on the same deals differ only where the
change matters (the CPU clock gives a searching player a few more or fewer worlds each run, so
that two runs of the same code on 122 deals differed by 5 points a deal).
"""

from __future__ import annotations

import argparse
import importlib
import random
import shlex
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from bot.ai.levels import DEFAULT_BUDGET_S, LEVELS, get_player
from bot.ai.players import Player
from bot.engine.actions import Action
from bot.engine.views import SeatView
from tools import revisions
from tools.protocol import ExternalPlayer
from tools.serve_player import VirtualClock

_PLAYERS: dict[str, Player | ExternalPlayer] = {}
_GIT_BUDGETS: dict[str, float] = {}  # a git: side's default budget, asked of its revision once
CLOCKS = ("cpu", "virtual")
SERVE = Path(__file__).resolve().parent / "serve_player.py"
_clock = "cpu"


def use_clock(kind: str) -> None:
    """The clock (``cpu`` or ``virtual``) searching players of this process get from now on."""
    global _clock
    if kind not in CLOCKS:
        raise ValueError(f"unknown clock {kind!r}")
    if kind != _clock:
        close_players()
        _clock = kind


def player(spec: str) -> Player | ExternalPlayer:
    """The player of ``spec`` in this process (made once, then reused)."""
    p = _PLAYERS.get(spec)
    if p is None:
        if spec.startswith("cmd:"):
            p = ExternalPlayer(spec[4:])
        elif spec.startswith("git:"):
            p = ServedPlayer(spec, _clock)
        elif spec.startswith("py:"):
            p = import_player(spec)
        else:
            p = get_player(spec)
        if hasattr(p, "clock"):
            # search to the CPU clock of this thread, or to a virtual one
            p.clock = VirtualClock() if _clock == "virtual" else time.thread_time
        _PLAYERS[spec] = p
    return p


def import_player(spec: str) -> Player:
    """A new player of the class named by ``py:MODULE:CLASS``."""
    module, _, name = spec[3:].partition(":")
    cls = getattr(importlib.import_module(module), name)
    made: Player = cls()
    return made


class ServedPlayer(ExternalPlayer):
    """A ``git:REV:LEVEL`` side: its revision's level served over the protocol, started at the
    first decision with that decision's budget (a match's budget for a side is fixed)."""

    def __init__(self, spec: str, clock: str) -> None:
        super().__init__("")
        self.spec = spec
        self.clock_kind = clock

    def decide(self, view: SeatView, rng: random.Random, budget_s: float) -> Action:
        if not self.command:
            self.command = serve_command(self.spec, budget_s, self.clock_kind)
        return super().decide(view, rng, budget_s)

    def notify(self, message: dict[str, Any]) -> None:
        if self.command:
            super().notify(message)


def serve_command(spec: str, budget_s: float, clock: str) -> str:
    """The command line that serves the ``git:REV:LEVEL`` side from its revision's worktree."""
    _, rev, level = spec.split(":")
    root = revisions.worktree(rev)
    return (
        f"python {shlex.quote(str(SERVE))} --root {shlex.quote(str(root))} "
        f"--level {shlex.quote(level)} --budget {budget_s!r} --clock {clock}"
    )


def _git_budget(spec: str) -> float:
    """The level's default budget at that revision."""
    if spec not in _GIT_BUDGETS:
        _, rev, level = spec.split(":")
        root = revisions.worktree(rev)
        done = subprocess.run(  # noqa: S603 - our own script, its arguments checked
            [sys.executable, str(SERVE), "--root", str(root), "--level", level, "--print-budget"],
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode:
            lines = done.stderr.strip().splitlines() or ["failed"]
            raise revisions.RevisionError(lines[-1])
        _GIT_BUDGETS[spec] = float(done.stdout)
    return _GIT_BUDGETS[spec]


def default_budget(spec: str) -> float:
    """The budget a side gets unless ``--budget`` says otherwise."""
    if spec in DEFAULT_BUDGET_S:
        return DEFAULT_BUDGET_S[spec]
    if spec.startswith("git:"):
        return _git_budget(spec)
    if spec.startswith("py:"):
        return float(getattr(player(spec), "default_budget_s", 0.05))
    return 0.05


def close_players() -> None:
    for p in _PLAYERS.values():
        if isinstance(p, ExternalPlayer):
            p.close()
    _PLAYERS.clear()


def check_side(spec: str) -> str:
    if spec in LEVELS or (spec.startswith("cmd:") and spec[4:].strip()):
        return spec
    if spec.startswith("git:") and spec.count(":") == 2:
        try:
            _git_budget(spec)
        except revisions.RevisionError as e:
            raise argparse.ArgumentTypeError(f"{spec!r}: {e}") from None
        return spec
    if spec.startswith("py:") and spec.count(":") == 2:
        try:
            import_player(spec)
        except (ImportError, AttributeError, TypeError) as e:
            raise argparse.ArgumentTypeError(f"{spec!r}: {e}") from None
        return spec
    raise argparse.ArgumentTypeError(
        f"{spec!r}: a side is one of {', '.join(LEVELS)}, cmd:COMMAND, py:MODULE:CLASS "
        "or git:REV:LEVEL"
    )


def problems() -> list[str]:
    """What the external programs did wrong since the last call (and forget it)."""
    out: list[str] = []
    for p in _PLAYERS.values():
        if isinstance(p, ExternalPlayer):
            out.extend(p.problems)
            p.problems.clear()
    return out
