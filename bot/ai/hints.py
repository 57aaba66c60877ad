"""A hint: the hard computer player's choice for a seat now, from the seat's view only, with
one plain sentence why and the runner-up.

    >>> h = hint_for(seat_view(game, seat), seed=1234)        # doctest: +SKIP
    >>> h.choice, h.reason, h.runner_up                        # doctest: +SKIP
    (Play(N, K♥), 'it cashes a sure winner', Play(N, 4♥))

* **The choice** is the ``hard`` player's decision (:func:`bot.ai.levels.get_player`) for the
  view, with its search bounded by a number of worlds (:data:`HINT_WORLDS`) instead of time,
  like the post-game review: the same view and seed give the same hint on any machine, busy or
  not.  It reads nothing but the view, as every computer player does.
* **The runner-up** is the same player's decision once the choice (and the cards that are the
  same in effect: touching cards of one suit) are taken away: what hard would do if it could
  not do that.
* **The reason** (:mod:`bot.ai.hint_reasons`) names what the choice does in the position:
  covers the partner's nil, cashes a sure winner, keeps the contract safe, avoids bags …

Runs in a worker process (:meth:`bot.ai.worker.AIPool.hint`): two searches of the hard player.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass
from typing import Final

from bot.ai.hint_reasons import same_in_effect, why
from bot.ai.levels import AnyGamePlayer, get_player
from bot.engine.actions import Action
from bot.engine.views import SeatView

HINT_WORLDS: Final = 48  # the hard search's worlds for a hint (the review's, CARD_WORLDS)
HINT_BUDGET_S: Final = 0.3  # the budget handed to the players that size their search by it


@dataclass(frozen=True, slots=True)
class Hint:
    choice: Action
    reason: str  # one plain sentence, without its full stop: "it cashes a sure winner"
    runner_up: Action | None  # None: every other choice is the same in effect, or none exists


def _no_clock() -> float:
    return 0.0


def hint_player() -> AnyGamePlayer:
    """The hard player as hints use it: bounded by worlds, not time (see the module text)."""
    player = AnyGamePlayer("hard", max_worlds=HINT_WORLDS)
    player.clock = _no_clock
    return player


_PLAYER: AnyGamePlayer | None = None


def _player() -> AnyGamePlayer:
    global _PLAYER
    if _PLAYER is None:
        _PLAYER = hint_player()
    return _PLAYER


def hard_choice(view: SeatView, seed: int) -> Action:
    """The hard player's decision for ``view`` as a hint gives it."""
    action = _player().decide(view, random.Random(seed), HINT_BUDGET_S)
    return action if action in view.legal else view.legal[0]


def hint_for(view: SeatView, seed: int) -> Hint:
    """The hint for the seat of ``view`` (whose turn it must be)."""
    choice = hard_choice(view, seed)
    runner = runner_up(view, choice, seed)
    return Hint(choice, why(view, choice), runner)


def runner_up(view: SeatView, choice: Action, seed: int) -> Action | None:
    """The hard player's choice without ``choice`` and what is the same in effect."""
    same = same_in_effect(view, choice)
    rest = tuple(a for a in view.legal if a not in same)
    honest = tuple(a for a in view.honest if a not in same)
    if not rest or (view.honest and not honest):
        return None
    if len(honest or rest) == 1:
        return (honest or rest)[0]
    other = dataclasses.replace(view, legal=rest, honest=honest)
    try:
        action = _player().decide(other, random.Random(seed + 1), HINT_BUDGET_S)
    except (KeyError, ValueError, IndexError, AssertionError):
        # A player that anchors its search on a choice no longer offered (Euchre's calls):
        # the normal player's choice among the rest.
        action = get_player("normal").decide(other, random.Random(seed + 1), HINT_BUDGET_S)
    return action if action in (honest or rest) else (honest or rest)[0]
