"""Whist computer players: card play only (:mod:`bot.ai.trumps`) — there is no bidding.

``easy`` plays the ``normal`` card most of the time and a random legal card otherwise;
``normal`` plays by card memory: it leads masters and trumps when long in them, lets a safe
partner win, wins cheaply, discards low; ``hard`` (:mod:`bot.ai.trump_search`) searches
sampled deals.
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
    """The ``normal`` card."""
    assert view.seat is not None
    assert view.trump is not None
    t = trump_deck(view.rules.deck, view.trump)
    seen = Seen(view, t)
    attack = (seen.hand & t.trumps).bit_count() >= LONG_TRUMPS
    return Play(view.seat, CARDS[choose_card(ctx_from(view, seen, attack))])


class WhistNormal:
    level = "normal"

    def decide(self, view: SeatView, rng: random.Random, budget_s: float) -> Action:
        if len(view.legal) == 1:
            return view.legal[0]
        return play(view)


class WhistEasy:
    level = "easy"

    def decide(self, view: SeatView, rng: random.Random, budget_s: float) -> Action:
        if len(view.legal) == 1 or rng.random() < 0.25:
            return rng.choice(view.legal)
        return play(view)
