"""The computer players' levels: their names, default time budgets and players.

Kept apart from the players themselves so that the ``hard`` player may build on the
``normal`` one without an import cycle.  A level's player plays every game: it hands each
decision to that game's player of the level (:mod:`bot.ai.games`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from bot.ai.games import ai_of
from bot.ai.hard import DEFAULT_BUDGET_S as HARD_BUDGET_S
from bot.ai.hard import HardPlayer
from bot.ai.players import Player
from bot.ai.variants import VariantAware
from bot.engine.actions import Action
from bot.engine.views import SeatView

LEVELS: Final = ("easy", "normal", "hard")
DEFAULT_BUDGET_S: Final = {"easy": 0.01, "normal": 0.01, "hard": HARD_BUDGET_S}


class AnyGamePlayer:
    """One level's player for every game: each decision goes to its game's player."""

    def __init__(self, level: str, *, max_worlds: int | None = None) -> None:
        self.level = level
        self._players: dict[str, Player] = {}
        self._clock: Callable[[], float] | None = None
        # The Spades hard search's bound in worlds (None: its own); with a clock that never
        # runs out, the search is then the same on any machine (hints, reviews).
        self.max_worlds = max_worlds

    @property
    def clock(self) -> Callable[[], float] | None:
        """The searchers' clock (the arena sets the thread's CPU clock); None: their own."""
        return self._clock

    @clock.setter
    def clock(self, clock: Callable[[], float] | None) -> None:
        self._clock = clock
        for player in self._players.values():
            _give_clock(player, clock)

    def decide(self, view: SeatView, rng: random.Random, budget_s: float) -> Action:
        game = view.rules.game
        player = self._players.get(game)
        if player is None:
            player = self._players[game] = ai_of(game).players(self.level)
            _give_clock(player, self._clock, self.max_worlds)
        return player.decide(view, rng, budget_s)


def _give_clock(
    player: Player, clock: Callable[[], float] | None, max_worlds: int | None = None
) -> None:
    """Hand a clock (and a bound in worlds) to a player that searches to one (the Spades
    ``hard``)."""
    inner = player.inner if isinstance(player, VariantAware) else player
    if not isinstance(inner, HardPlayer):
        return
    if clock is not None:
        inner.clock = clock
    if max_worlds is not None:
        inner.max_worlds = max_worlds


def get_player(level: str) -> Player:
    """The computer player of a level (``easy``, ``normal`` or ``hard``), for any game."""
    if level not in LEVELS:
        raise ValueError(f"Unknown level {level!r}: choose one of {', '.join(LEVELS)}")
    return AnyGamePlayer(level)
