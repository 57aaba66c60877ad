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

When the game is all but decided, the chance of winning stops moving (``Phi`` of ten standard
errors is 1.0 in floating point) and every bid and card would be worth the same.  A side far
ahead would then stop playing for the target, and the game would not end: in the arena a game
against a side that bid blind nil every hand went on for 200 hands, hard's side bidding 1 each
and sliding from 487 down to −3,774 on bag penalties.  So every outcome also carries a tiebreak
of ``PROGRESS`` per point of our side's effective score, up to the target (a win: the target);
far too small to move a decision while the chance of winning moves (a point is then worth
about one unit), it keeps a decided game played for points, to its end.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from bot.engine.views import SeatView

MEAN_HAND = 60.0  # points a side scores in an average hand (measured: ~55-70 for normal/hard)
SD_HAND = 100.0  # spread of the difference of the two sides' points in one hand
PROGRESS = 0.001  # units per point of our effective score: the tiebreak of a decided game
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
        return self.k * self.win_chance(team, self.scores) + self._progress(self.scores[team])

    def _progress(self, effective: float) -> float:
        return PROGRESS * min(effective, self.target)

    def of_scores(
        self,
        team: int,
        scores: Sequence[int],
        bag_counts: Sequence[int],
        winner: int | None,
    ) -> float:
        """``team``'s utility after a hand that leaves these scores (``winner``: the side the
        engine says has won the game with it, if any)."""
        u = self.bag_unit
        eff = [scores[0] - bag_counts[0] * u, scores[1] - bag_counts[1] * u]
        if winner is not None:
            return (
                self.k + self._progress(self.target)
                if winner == team
                else self._progress(eff[team])
            )
        return self.k * self.win_chance(team, eff) + self._progress(eff[team])
