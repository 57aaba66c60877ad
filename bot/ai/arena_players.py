"""The arena's players, one per side spec and process: built-in levels (``easy``, ``normal``,
``hard``), ``cmd:COMMAND`` programs speaking docs/player-protocol.md and ``py:MODULE:CLASS``
classes importable from the working directory.

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
import time

from bot.ai.levels import DEFAULT_BUDGET_S, LEVELS, get_player
from bot.ai.players import Player
from bot.ai.protocol import ExternalPlayer

_PLAYERS: dict[str, Player | ExternalPlayer] = {}
CLOCKS = ("cpu", "virtual")
# Seconds a reading of the virtual clock costs.  The search reads it about twice a world, so a
# 100 ms budget buys about 60 worlds for a bid and 165 for a card: what the CPU clock gave hard
# on this project's 2-core test machine (a bid 52-79 worlds, a full-budget card 33-400).
BID_TICK = 0.0008
PLAY_TICK = 0.0003
_clock = "cpu"


class VirtualClock:
    """A deterministic clock for searching players: each reading advances it by ``tick``."""

    def __init__(self) -> None:
        self.now = 0.0
        self.tick = PLAY_TICK

    def __call__(self) -> float:
        self.now += self.tick
        return self.now

    def for_bid(self, bidding: bool) -> None:
        """Price the readings of the next decision (a bid's worlds cost more than a card's)."""
        self.tick = BID_TICK if bidding else PLAY_TICK


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
