"""How a finished game rates its seats: the sides, their places, and members who left.

Teams: the winners ahead of the losers.  Solo games (games.md G2): every player a team of one,
ranked by final score with the winner first (equal scores tie).  A member who left the game in
progress (``forfeit``) is rated as having finished last, whatever the table reached; the others
keep the table's result.
"""

from __future__ import annotations

from bot.league.models import FinishedGame
from bot.league.ratings import Skill, rate_sides


def rate_finished(finished: FinishedGame, before: tuple[Skill, ...]) -> tuple[Skill, ...]:
    """The seats' skills (``before``: in seat order) after a rated game (see the module text)."""
    assert finished.winner is not None
    fixed = [s.is_bot for s in finished.seats]
    names = finished.side_names
    sides = [
        [i for i in range(len(finished.seats)) if finished.side_of(i) == k]
        for k in range(len(names))
    ]
    winner = names.index(finished.winner)
    ranks = places(finished.scores, winner) if finished.solo else [2.0] * len(names)
    ranks[winner] = 1.0
    after = rate_sides(before, fixed, sides, ranks)
    for i, sp in enumerate(finished.seats):
        side = finished.side_of(i)
        if not sp.forfeit or (ranks[side] == len(names) and ranks.count(ranks[side]) == 1):
            continue  # a forfeit is charged a loss; this side already finished alone at the bottom
        as_lost = [r if k != side else len(names) + 1.0 for k, r in enumerate(ranks)]
        after = (*after[:i], rate_sides(before, fixed, sides, as_lost)[i], *after[i + 1 :])
    return after


def places(scores: tuple[int, ...], winner: int) -> list[float]:
    """Places by final score (1 = best; equal scores share), the winner alone in first."""
    return [
        1.0 if k == winner else 2.0 + sum(o > v for j, o in enumerate(scores) if j != winner)
        for k, v in enumerate(scores)
    ]
