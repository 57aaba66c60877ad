"""What one hand scored for one side, itemised: shared by every game.

Each game computes its own :class:`TeamHandScore` (Spades in :mod:`bot.engine.spades.scoring`,
Whist in :mod:`bot.engine.whist`, Euchre in :mod:`bot.engine.euchre`); its ``parts`` say in
plain words where every point came from, and always add up to ``points``.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from bot.engine.lines import Line
from bot.engine.seats import Seat

# Game-deciding events a hand can produce for a side.
WINS: Final = "wins"
LOSES: Final = "loses"


class ScorePart(NamedTuple):
    """One line of a hand's score sheet: ``label`` says it in words ("North's nil made"),
    ``kind`` a stable key for renderers (``contract``, ``bags``, ``nil``, ``blind_nil``,
    ``double_nil``, ``double_blind_nil``, ``jokers``, ``bag_penalty``, ``new_york``,
    ``odd_tricks``, ``euchre``, ``renege``), ``seat`` the player it is about, if one.  (A named
    tuple, not a dataclass: every hand makes several, and random play-outs must stay fast.)"""

    kind: str
    label: Line
    points: int
    seat: Seat | None = None


class TeamHandScore(NamedTuple):
    """What one hand did for one side; the fields of the replay line, the event, the parts.

    Immutable like every engine value; a named tuple because every hand makes one per side."""

    points: int  # everything scored, bag penalty included
    bags: int  # overtricks gained this hand
    bag_penalty: int  # amount subtracted for reaching the bag limit (>= 0)
    score: int  # running total after the hand
    bag_count: int  # bag counter after any penalty
    event: str | None = None  # WINS / LOSES the game at once
    was_set: bool = False  # the contract failed (for New York's set-twice)
    parts: tuple[ScorePart, ...] = ()  # sums to ``points``
    caught: bool = False  # games.md G1: a correct renege claim against this side counted

    def to_json(self) -> dict[str, int]:
        return {
            "points": self.points,
            "bags": self.bags,
            "bag_penalty": self.bag_penalty,
            "score": self.score,
            "bag_count": self.bag_count,
        }


JOKER_BONUS: Final = Line("Joker bonus")
REACHED_TARGET: Final = Line("reached the target")  # why a game ends, most often


def bags_line(k: int) -> Line:
    """``1 bag``, ``3 bags``: the bags a hand added."""
    return Line("{k} bag", k=k) if k == 1 else Line("{k} bags", k=k)


def tricks_line(k: int) -> Line:
    """``1 trick``, ``5 tricks``."""
    return Line("{k} trick", k=k) if k == 1 else Line("{k} tricks", k=k)
