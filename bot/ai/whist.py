"""Card play for any trick-taking game (:mod:`bot.ai.trumps`): Whist's ``easy`` and ``normal``
players — Whist has no bidding — and the players of a game without computer players of its
own (:mod:`bot.ai.games`), whose other decisions they take as the first legal one.

``easy`` plays the ``normal`` card most of the time and a random legal card otherwise;
``normal`` plays by card memory: it leads masters and trumps when long in them, lets a safe
partner win, wins cheaply, discards low.  Whist's ``hard`` (:mod:`bot.ai.trump_search`)
searches sampled deals.
"""

from __future__ import annotations

import random
from typing import Final

from bot.ai.trumps import Seen, choose_card, ctx_from, trump_deck
from bot.engine.actions import Action, Play
from bot.engine.cards import CARDS
from bot.engine.views import SeatView

LONG_TRUMPS: Final = 5  # with this many trumps, draw the opponents' trumps


def play(view: SeatView) -> Action:
    """The ``normal`` card (under the trump in force, or none)."""
    assert view.seat is not None
    t = trump_deck(view.rules.deck, view.trump)
    seen = Seen(view, t)
    attack = (seen.hand & t.trumps).bit_count() >= LONG_TRUMPS
    return Play(view.seat, CARDS[choose_card(ctx_from(view, seen, attack))])


class TrickNormal:
    level = "normal"

    def decide(self, view: SeatView, rng: random.Random, budget_s: float) -> Action:
        if len(view.legal) == 1 or not isinstance(view.legal[0], Play):
            return view.legal[0]
        return play(view)


class TrickEasy:
    level = "easy"

    def decide(self, view: SeatView, rng: random.Random, budget_s: float) -> Action:
        if len(view.legal) == 1 or rng.random() < 0.25:
            return rng.choice(view.legal)
        if not isinstance(view.legal[0], Play):
            return view.legal[0]
        return play(view)
