"""The computer players' levels: their names, default time budgets and players.

Kept apart from the players themselves so that the ``hard`` player may build on the
``normal`` one without an import cycle.
"""

from __future__ import annotations

from typing import Final

from bot.ai.hard import DEFAULT_BUDGET_S as HARD_BUDGET_S
from bot.ai.hard import HardPlayer
from bot.ai.players import EasyPlayer, NormalPlayer, Player
from bot.ai.variants import VariantAware

LEVELS: Final = ("easy", "normal", "hard")
DEFAULT_BUDGET_S: Final = {"easy": 0.01, "normal": 0.01, "hard": HARD_BUDGET_S}


def get_player(level: str) -> Player:
    """The computer player of a level (``easy``, ``normal`` or ``hard``), able to play every
    variant of games.md G1-G2 (:class:`~bot.ai.variants.VariantAware`)."""
    if level == "easy":
        return VariantAware(EasyPlayer(), level)
    if level == "normal":
        return VariantAware(NormalPlayer(), level)
    if level == "hard":
        return VariantAware(HardPlayer(), level)
    raise ValueError(f"Unknown level {level!r}: choose one of {', '.join(LEVELS)}")
