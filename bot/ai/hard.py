"""Spades' ``hard`` level: every card and bid chosen by search over the deals the seat may face
(Whist's and Euchre's are in :mod:`bot.ai.trump_search`; :mod:`bot.ai.games` says which).

* Cards: determinized search (:mod:`bot.ai.search.pimc`) over worlds consistent with what the
  seat has seen (:mod:`bot.ai.search.worlds`), each candidate valued by the points the hand
  then brings its side in the game's own scoring (:mod:`bot.ai.search.spades`,
  :mod:`bot.ai.search.utility`); the last tricks solved exactly.
* Bids: from the distribution of tricks the same play-outs give for the hand
  (:mod:`bot.ai.search.bidding`), nil and blind nil included.
* Time: a clock budget per decision (``SPADES_AI_BUDGET_MS``); the search stops before it.
  ``clock`` is wall time in the bot; the arena sets the thread's CPU time, so that a busy
  machine measures the same player.

docs/ai.md explains the choices.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from bot.ai.rule_bidding import choose_bid as rules_choose_bid
from bot.ai.rule_bidding import choose_pass
from bot.ai.search import bidding
from bot.ai.search.spades_play import card_choice, search_card
from bot.engine.actions import Action
from bot.engine.game import Phase
from bot.engine.views import SeatView

DEFAULT_BUDGET_S = 0.1
MAX_BUDGET_S = 0.3


class HardPlayer:
    """Search-based bidding and card play (see the module text)."""

    level = "hard"

    def __init__(
        self,
        clock: Callable[[], float] = time.perf_counter,
        max_worlds: int = 100_000,
        search_bids: bool = True,
    ) -> None:
        self.clock = clock
        self.max_worlds = max_worlds
        self.search_bids = search_bids

    def decide(self, view: SeatView, rng: random.Random, budget_s: float) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        budget_s = min(budget_s, MAX_BUDGET_S)
        if view.phase is Phase.BID:
            if not self.search_bids:
                return rules_choose_bid(view)
            return bidding.choose_bid(view, rng, budget_s, self.clock, self.max_worlds)
        if view.phase is Phase.PASS:
            return choose_pass(view)
        return self.play(view, rng, budget_s)

    def play(self, view: SeatView, rng: random.Random, budget_s: float) -> Action:
        start = self.clock()
        choice = card_choice(view, rng)
        if len(choice.cands) == 1:
            return choice.play(choice.cands[0])
        spent = self.clock() - start
        d = search_card(choice, self.clock, budget_s - spent, self.max_worlds)
        return choice.play(d.best)
