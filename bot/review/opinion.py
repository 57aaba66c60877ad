"""The hard computer player's opinion of one decision, from the deciding seat's view only.

:func:`evaluate` asks :func:`bot.ai.evaluation.evaluate` — the ``hard`` player's own search on
the view the seat had at that moment — for the value of every choice, and keeps what a review
needs: the hard player's choice, the points a deal each choice is expected to bring the seat's
side, and for cards the side's expected tricks.  A card is valued as the lowest card of its run
of touching cards, as the search merges them.

The review has no clock: the search is bounded by a number of worlds instead of time, so the
same view and seed always give the same opinion on any machine, however busy.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from bot.ai.evaluation import evaluate as hard_evaluation
from bot.ai.games import judges
from bot.ai.variants import honest_view
from bot.engine import Action, Bid, Play, SeatView
from bot.engine.game import Phase

CARD_WORLDS: Final = 48  # worlds for a decision (the search races candidates out before that)


@dataclass(frozen=True, slots=True)
class DecisionEvaluation:
    """The search's view of one decision: per choice it valued, the expected value a deal for
    the seat's side (points), and for cards the side's expected tricks."""

    preferred: Action
    points: dict[Action, float]
    tricks: dict[Action, float] | None
    samples: int

    def loss(self, actual: Action) -> tuple[float, float | None]:
        """(points, tricks) the choice made is expected to cost against the preferred one."""
        lost = self.points[self.preferred] - self.points[actual]
        if self.tricks is None:
            return lost, None
        return lost, self.tricks[self.preferred] - self.tricks[actual]


def _no_clock() -> float:
    return 0.0


def evaluate(
    view: SeatView, actual: Action, rng: random.Random, worlds: int = CARD_WORLDS
) -> DecisionEvaluation | None:
    """The hard player's evaluation of the decision ``view.seat`` faced, ``actual`` (the
    choice made) among the choices valued; ``None`` when there was nothing to judge (a forced
    card, a hidden hand, a blind bid, a New York team bid, a game the search does not play:
    Whist, Euchre, solo Spades).  With renege claims the honest cards are the choices; a
    renege gets no opinion."""
    if view.seat is None or not view.my_turn or not judges(view.rules):
        return None
    view = honest_view(view)  # with renege claims: hard weighs only the cards that follow suit
    if len(view.legal) == 1:
        return None
    if view.phase is Phase.PLAY and isinstance(actual, Play):
        pass
    elif view.phase is Phase.BID and isinstance(actual, Bid) and not actual.blind:
        if view.rules.new_york or view.hand_hidden or view.hand is None:
            return None
    else:
        return None
    ev = hard_evaluation(view, rng, 1.0, clock=_no_clock, max_worlds=worlds)
    if not ev.actions:
        return None
    mine = ev.of(actual)  # a card touching others: its run's value
    best = ev.of(ev.chosen)
    if mine is None or best is None:
        return None
    points = {best.action: best.value, actual: mine.value}
    tricks: dict[Action, float] | None = None
    if best.tricks is not None and mine.tricks is not None:
        tricks = {best.action: best.tricks, actual: mine.tricks}
    return DecisionEvaluation(ev.chosen, points, tricks, ev.worlds)
