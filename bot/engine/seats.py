"""Seats, partnerships and who plays this hand.

Seats are the four compass points, clockwise N, E, S, W.  A game seats some of them (all four,
or N, E, S with three players) and scores them in *sides*: two partnerships (NS, EW) or every
player alone.  :class:`Seating` holds both; :func:`turn_order` is the clockwise order of the
seats that play a hand, skipping one that sits out (Euchre's lone maker's partner).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Final


class Seat(IntEnum):
    """Clockwise: N, E, S, W.  Partners sit opposite (``seat ^ 2``)."""

    N = 0
    E = 1
    S = 2
    W = 3

    # Hashed as the int it equals (Enum's own hash is a Python call on the name, paid on every
    # dict or set lookup of a seat and every tuple of seats hashed).
    __hash__ = int.__hash__

    @property
    def partner(self) -> Seat:
        return Seat(self ^ 2)

    @property
    def left(self) -> Seat:
        """The next seat clockwise of the four."""
        return Seat((self + 1) % 4)

    @property
    def team(self) -> Team:
        return Team(self & 1)

    @property
    def word(self) -> str:
        return ("North", "East", "South", "West")[self]

    @classmethod
    def parse(cls, text: str) -> Seat:
        t = text.strip().upper()
        for s in cls:
            if t in (s.name, s.word.upper()):
                return s
        raise ValueError(f"{text!r} is not a seat: use N, E, S or W")


class Team(IntEnum):
    NS = 0
    EW = 1

    __hash__ = int.__hash__  # as Seat's

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (Seat(self), Seat(self + 2))

    @property
    def other(self) -> Team:
        return Team(self ^ 1)

    @property
    def word(self) -> str:
        return ("North–South", "East–West")[self]


SEATS: Final = tuple(Seat)
TEAMS: Final = tuple(Team)


@dataclass(frozen=True, slots=True)
class Seating:
    """The seats in play (clockwise) and the sides they score for.

    ``sides[k]`` lists the seats of side ``k``; ``side_names[k]`` is its key in records
    (``"NS"``, or a seat name when every player scores alone).
    """

    seats: tuple[Seat, ...]
    sides: tuple[tuple[Seat, ...], ...]
    side_names: tuple[str, ...]

    def __reduce__(self) -> tuple[object, ...]:
        # Pickled by its fields (views cross to the players' worker processes): a frozen
        # dataclass compiled by mypyc cannot be unpickled by setting its fields.
        return (Seating, (self.seats, self.sides, self.side_names))

    def side_of(self, seat: Seat | int) -> int:
        for k, members in enumerate(self.sides):
            if seat in members:
                return k
        raise ValueError(f"{Seat(seat).name} does not play at this table")

    def after(self, seat: Seat | int) -> Seat:
        """The next seat in play clockwise (the next dealer)."""
        return SEATS[turn_order(self.seats)[seat]]


PARTNERSHIPS: Final = Seating(SEATS, (Team.NS.seats, Team.EW.seats), ("NS", "EW"))


def turn_order(seats: tuple[Seat, ...], sitting_out: Seat | None = None) -> tuple[int, ...]:
    """For every seat index 0..3, the next seat clockwise that plays (-1 for an unused index).

    A seat that sits out is skipped; its own entry still points at the next player, so the
    seat left of a sitting-out dealer can be found the same way as any other.
    """
    key = (seats, sitting_out)
    order = _TURN_ORDERS.get(key)
    if order is None:
        order = _TURN_ORDERS[key] = _turn_order(seats, sitting_out)
    return order


_TURN_ORDERS: dict[tuple[tuple[Seat, ...], Seat | None], tuple[int, ...]] = {}


def _turn_order(seats: tuple[Seat, ...], sitting_out: Seat | None) -> tuple[int, ...]:
    playing = [s for s in seats if s != sitting_out]
    nxt = [-1, -1, -1, -1]
    for s in seats:
        k = 1
        while Seat((s + k) % 4) not in playing:
            k += 1
        nxt[s] = (s + k) % 4
    return (nxt[0], nxt[1], nxt[2], nxt[3])
