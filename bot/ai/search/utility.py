"""What a hand's result is worth: the chance of winning the game, expressed in points.

A side's running score is worth less than it shows when it carries bags: each bag brings the
next penalty nearer, so the *effective* score is ``score - bags * penalty / limit`` (it does not
jump when the penalty is paid).  The chance of winning from effective scores ``a`` and ``b`` is
modelled as a race: with about ``n = (target - max(a, b)) / MEAN_HAND`` hands to go and hands
whose score difference varies by ``SD_HAND``, ``P(win) = Phi((a - b) / (SD_HAND * sqrt(n)))``;
a hand that ends the game (the engine's own :func:`~bot.engine.game.decide_game`) gives 1 or 0.

The utility is ``K * P(win)`` with ``K`` chosen so that, in a close game far from the end, one
point is worth one unit: the search then maximises points when the game is young and level,
and the chance of winning when it is not (risk when far behind, safety when far ahead).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from bot.engine.views import SeatView

MEAN_HAND = 60.0  # points a side scores in an average hand (measured: ~55-70 for normal/hard)
SD_HAND = 100.0  # spread of the difference of the two sides' points in one hand
_SQRT_2PI = math.sqrt(2 * math.pi)


def phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


class Utility:
    """The value of a finished hand's scores for one side (see the module text)."""

    __slots__ = ("bag_unit", "k", "scores", "target")

    def __init__(self, target: int, bag_unit: float, scores: Sequence[float]) -> None:
        self.target = target
        self.bag_unit = bag_unit
        self.scores = tuple(scores)  # effective, before the hand
        n0 = self._hands_left(scores)
        self.k = SD_HAND * math.sqrt(n0) * _SQRT_2PI

    @classmethod
    def of_view(cls, view: SeatView) -> Utility:
        r = view.rules
        unit = 0.0
        if not r.new_york and r.bag_limit and r.bag_penalty:
            unit = r.bag_penalty / r.bag_limit
        eff = [view.scores[t] - view.bag_counts[t] * unit for t in (0, 1)]
        return cls(r.target, unit, eff)

    def _hands_left(self, eff: Sequence[float]) -> float:
        return max(1.0, (self.target - max(eff)) / MEAN_HAND)

    def win_chance(self, team: int, eff: Sequence[float]) -> float:
        n = self._hands_left(eff)
        return phi((eff[team] - eff[team ^ 1]) / (SD_HAND * math.sqrt(n)))

    def before(self, team: int) -> float:
        """``team``'s utility before the hand: subtracted from a hand's value, what the hand
        brings in points (in a young, level game: its points less the opponents')."""
        return self.k * self.win_chance(team, self.scores)

    def of_scores(
        self,
        team: int,
        scores: Sequence[int],
        bag_counts: Sequence[int],
        winner: int | None,
    ) -> float:
        """``team``'s utility after a hand that leaves these scores (``winner``: the side the
        engine says has won the game with it, if any)."""
        if winner is not None:
            return self.k if winner == team else 0.0
        u = self.bag_unit
        eff = [scores[0] - bag_counts[0] * u, scores[1] - bag_counts[1] * u]
        return self.k * self.win_chance(team, eff)
