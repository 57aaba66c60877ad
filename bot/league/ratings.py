"""Skill ratings: openskill's Weng-Lin Plackett-Luce model, two teams of two — or, in solo
games (games.md G2), three or four one-player teams ranked by their final scores.

Each member has a rating per server per season: a mean ``mu`` and an uncertainty ``sigma``
(openskill defaults: 25 and 25/3).  A team's strength is the sum of its two players, so
ratings follow players from partnership to partnership.  Computer players take part with a
fixed rating per level (:data:`BOT_SKILLS`) that never changes.

What players see is the *conservative* rating ``mu - 3 sigma`` (the skill the player is very
likely above), scaled by :data:`DISPLAY_SCALE`, shifted by :data:`DISPLAY_BASE` and rounded:
a new player shows 1,000 (a scale people know from chess), one loss takes them to about 940,
a steady winner climbs towards 2,000-2,400; it would take a conservative rating 25 below
the starting one to show a negative number, which openskill never gives a player of a few
games.

>>> display_rating(25.0, 25.0 / 3.0)
1000
>>> display_rating(30.0, 2.0)
1960
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce

DISPLAY_SCALE: Final = 40
DISPLAY_BASE: Final = 1000
MU: Final = 25.0
SIGMA: Final = 25.0 / 3.0
_MODEL: Final = PlackettLuce(mu=MU, sigma=SIGMA)


def conservative(mu: float, sigma: float) -> float:
    """``mu - 3 sigma``: what leaderboards sort by."""
    return mu - 3.0 * sigma


def display_rating(mu: float, sigma: float) -> int:
    """The rating players see: ``round(1000 + 40 * (mu - 3 sigma))``."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * conservative(mu, sigma))


def shown_above(shown: int) -> float:
    """The lowest conservative rating that shows more than ``shown`` (for shared ranks).

    >>> shown_above(1200)  # 1000 + 40 × 5.0125 = 1200.5
    5.0125
    """
    return (shown - DISPLAY_BASE + 0.5) / DISPLAY_SCALE


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float
    sigma: float

    @property
    def display(self) -> int:
        return display_rating(self.mu, self.sigma)


INITIAL: Final = Skill(MU, SIGMA)
# Fixed ratings of the computer players: a small sigma, so that beating them is worth little
# and they never stand in for a player's own uncertainty.
BOT_SKILLS: Final[dict[str, Skill]] = {
    "easy": Skill(16.0, 1.0),
    "normal": Skill(22.0, 1.0),
    "hard": Skill(27.0, 1.0),
}


def rate_game(skills: Sequence[Skill], fixed: Sequence[bool], winner: int) -> tuple[Skill, ...]:
    """New skills of seats N, E, S, W after ``winner`` (0 = NS, 1 = EW) won.

    Seats marked ``fixed`` (computer players) keep their skill.
    """
    if len(skills) != 4 or len(fixed) != 4:
        raise ValueError("a game has four seats")
    if winner not in (0, 1):
        raise ValueError("winner is 0 (NS) or 1 (EW)")
    ranks = [1.0, 2.0] if winner == 0 else [2.0, 1.0]
    return rate_sides(skills, fixed, ((0, 2), (1, 3)), ranks)


def rate_sides(
    skills: Sequence[Skill],
    fixed: Sequence[bool],
    sides: Sequence[Sequence[int]],
    ranks: Sequence[float],
) -> tuple[Skill, ...]:
    """New skills of every seat after a game of ``sides`` (seat indices into ``skills``)
    finished in ``ranks`` (1 = first; equal ranks are a tie).  Solo games are one seat a side.

    >>> new = rate_sides([INITIAL] * 3, [False] * 3, ((0,), (1,), (2,)), [1.0, 2.0, 3.0])
    >>> new[0].mu > new[1].mu > new[2].mu
    True
    """
    if len(skills) != len(fixed):
        raise ValueError("one fixed flag per seat")
    if len(sides) != len(ranks) or len(sides) < 2:
        raise ValueError("one rank per side, and at least two sides")
    seated = sorted(i for side in sides for i in side)
    if seated != list(range(len(skills))):
        raise ValueError("every seat plays on exactly one side")
    r = [_MODEL.rating(mu=s.mu, sigma=s.sigma) for s in skills]
    rated = _MODEL.rate([[r[i] for i in side] for side in sides], ranks=list(ranks))
    new: list[Skill] = list(skills)
    for side, players in zip(sides, rated, strict=True):
        for i, x in zip(side, players, strict=True):
            if not fixed[i]:
                new[i] = Skill(float(x.mu), float(x.sigma))
    return tuple(new)
