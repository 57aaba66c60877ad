"""The arena's players, one per side spec and process: built-in levels (``easy``, ``normal``,
``hard``), ``cmd:COMMAND`` programs speaking docs/player-protocol.md and ``py:MODULE:CLASS``
classes importable from the working directory.

Players that search to a clock (``hard``) get the deciding thread's CPU clock here, so a busy
machine changes neither what they do nor what the arena measures.
"""

from __future__ import annotations

import argparse
import importlib
import time

from bot.ai.levels import DEFAULT_BUDGET_S, LEVELS, get_player
from bot.ai.players import Player
from bot.ai.protocol import ExternalPlayer

_PLAYERS: dict[str, Player | ExternalPlayer] = {}


def player(spec: str) -> Player | ExternalPlayer:
    """The player of ``spec`` in this process (made once, then reused)."""
    p = _PLAYERS.get(spec)
    if p is None:
        if spec.startswith("cmd:"):
            p = ExternalPlayer(spec[4:])
        elif spec.startswith("py:"):
            p = import_player(spec)
        else:
            p = get_player(spec)
        if hasattr(p, "clock"):
            p.clock = time.thread_time  # search to the CPU clock of this thread
        _PLAYERS[spec] = p
    return p


def import_player(spec: str) -> Player:
    """A new player of the class named by ``py:MODULE:CLASS``."""
    module, _, name = spec[3:].partition(":")
    cls = getattr(importlib.import_module(module), name)
    made: Player = cls()
    return made


def default_budget(spec: str) -> float:
    """The budget a side gets unless ``--budget`` says otherwise."""
    if spec in DEFAULT_BUDGET_S:
        return DEFAULT_BUDGET_S[spec]
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
    if spec.startswith("py:") and spec.count(":") == 2:
        try:
            import_player(spec)
        except (ImportError, AttributeError, TypeError) as e:
            raise argparse.ArgumentTypeError(f"{spec!r}: {e}") from None
        return spec
    raise argparse.ArgumentTypeError(
        f"{spec!r}: a side is one of {', '.join(LEVELS)}, cmd:COMMAND or py:MODULE:CLASS"
    )


def problems() -> list[str]:
    """What the external programs did wrong since the last call (and forget it)."""
    out: list[str] = []
    for p in _PLAYERS.values():
        if isinstance(p, ExternalPlayer):
            out.extend(p.problems)
            p.problems.clear()
    return out
