"""The computer players' registry: each game's players, keyed by its
:class:`~bot.engine.GameKind` — the AI side of the game's registry entry (the engine must not
know its computer players).

A game registered in the engine without players of its own is played by the generic trick
players of :mod:`bot.ai.whist` (card play by card memory; any other decision: the first legal
action), at every level.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final

from bot.ai.euchre import EuchreEasy, EuchreNormal
from bot.ai.hard import HardPlayer
from bot.ai.players import EasyPlayer, NormalPlayer, Player
from bot.ai.trump_search import EuchreHard, WhistHard
from bot.ai.variants import VariantAware
from bot.ai.whist import TrickEasy, TrickNormal
from bot.engine import GameKind, Rules
from bot.per_game import PerGame


@dataclass(frozen=True, slots=True)
class AiGame:
    """A game's computer players: ``players(level)`` makes a new one of a level (``easy``,
    ``normal``, ``hard``).  ``judges``: the hard player's search judges this game's decisions
    (a review's opinions) — in partnership games."""

    players: Callable[[str], Player]
    judges: bool = False


def by_level(classes: Mapping[str, Callable[[], Player]]) -> Callable[[str], Player]:
    """Players made by level from a table of classes."""
    return lambda level: classes[level]()


_SPADES: Final[dict[str, Callable[[], Player]]] = {
    "easy": EasyPlayer,
    "normal": NormalPlayer,
    "hard": HardPlayer,
}


def _spades(level: str) -> Player:
    """Spades' player of a level plays every variant of games.md G1-G2
    (:class:`~bot.ai.variants.VariantAware`)."""
    return VariantAware(_SPADES[level](), level)


GENERIC: Final = AiGame(by_level({"easy": TrickEasy, "normal": TrickNormal, "hard": TrickNormal}))
_GAMES: Final = PerGame[AiGame](
    GENERIC,
    {
        GameKind.SPADES: AiGame(_spades, judges=True),
        GameKind.WHIST: AiGame(
            by_level({"easy": TrickEasy, "normal": TrickNormal, "hard": WhistHard})
        ),
        GameKind.EUCHRE: AiGame(
            by_level({"easy": EuchreEasy, "normal": EuchreNormal, "hard": EuchreHard})
        ),
    },
)
ai_of = _GAMES.of  # the computer players of a game (the generic ones if it has none)
unregister_ai = _GAMES.unregister


def register_ai(kind: GameKind, ai: AiGame) -> None:
    """Give a game its own computer players (a game added at run time: a test's)."""
    _GAMES.register(kind, ai)


def judges(rules: Rules) -> bool:
    """Does the hard player judge the decisions of a game of these rules (reviews)?  Its
    search values partnership games of a game it knows."""
    return ai_of(rules.game).judges and not rules.solo
