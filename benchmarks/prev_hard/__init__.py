"""A frozen copy of the ``hard`` level as it was before issue 12 (commit 215363d), kept only
as the "previous hard" opponent of ``benchmarks/arena.py``.  Do not improve it: its point is
to stay the same.  In the arena: ``--ew py:benchmarks.prev_hard:PrevHardPlayer`` (budget
0.05 s per decision, its default then, on its own sample-count cost model)."""

from __future__ import annotations

import random
from typing import Any

from benchmarks.prev_hard.hard import HardPlayer
from bot.engine.actions import Action
from bot.engine.views import SeatView


class FlatView:
    """Today's seat view under the names of its time: Spades' part's fields (``bids``,
    ``passed``, ``spades_broken``...) beside the shared ones, as the frozen code reads them."""

    __slots__ = ("view",)

    def __init__(self, view: SeatView) -> None:
        self.view = view

    def __getattr__(self, name: str) -> Any:
        try:
            return getattr(self.view, name)
        except AttributeError:
            return getattr(self.view.part, name)


class PrevHardPlayer(HardPlayer):
    """Today's ``hard`` before issue 12, under a name of its own."""

    level = "prev-hard"
    default_budget_s = 0.05

    def decide(self, view: SeatView, rng: random.Random, budget_s: float) -> Action:
        return super().decide(FlatView(view), rng, budget_s)  # type: ignore[arg-type]


__all__ = ["PrevHardPlayer"]
