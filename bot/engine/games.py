"""Which games the engine plays: the game names as an enum.

:class:`GameKind` names a game wherever one is meant (``Rules.game``, the league's standings);
it is a :class:`~enum.StrEnum`, so it is stored, serialised and compared as the same strings
records, the database and presets have always held (``"spades"``, ``"whist"``, ``"euchre"``).
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["DEFAULT_GAME", "GameKind"]


class GameKind(StrEnum):
    """A game's name."""

    SPADES = "spades"
    WHIST = "whist"
    EUCHRE = "euchre"


#: The game of a table, a server's settings or a league page that names none.
DEFAULT_GAME = GameKind.SPADES
