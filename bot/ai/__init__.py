"""Computer players: ``easy``, ``normal`` and ``hard``, all deciding from a seat's view.

>>> from bot.ai import decide, get_player, LEVELS
>>> LEVELS
('easy', 'normal', 'hard')

* :class:`Player` – ``decide(view, rng, budget_s) -> Action`` from a
  :class:`~bot.engine.views.SeatView` only (never the hidden cards);
* :func:`get_player` – the player of a level; :func:`decide` – a convenience wrapper that
  builds the seat view of a game;
* :mod:`bot.ai.worker` – :class:`~bot.ai.worker.AIPool`, decisions off the event loop.

The arena (duplicate matches) and the player protocol are tools, not the bot: ``tools/``.
"""

from __future__ import annotations

# First, before any of this package's compiled modules: the engine chooses the build
# (bot.engine.build: compiled, or the sources under SPADES_PURE_PYTHON=1).
import bot.engine  # noqa: F401

# isort: split
import random

from bot.ai.levels import DEFAULT_BUDGET_S, LEVELS, get_player
from bot.ai.players import EasyPlayer, NormalPlayer, Player
from bot.engine.actions import Action, Seat
from bot.engine.game import Game
from bot.engine.views import seat_view


def decide(
    game: Game,
    seat: Seat,
    level: str = "normal",
    rng: random.Random | None = None,
    budget_s: float | None = None,
) -> Action:
    """The decision of a computer ``level`` for ``seat``, from that seat's view of ``game``."""
    view = seat_view(game, seat)
    budget = DEFAULT_BUDGET_S[level] if budget_s is None else budget_s
    return get_player(level).decide(view, rng or random.Random(), budget)


__all__ = [
    "DEFAULT_BUDGET_S",
    "LEVELS",
    "EasyPlayer",
    "NormalPlayer",
    "Player",
    "decide",
    "get_player",
]
