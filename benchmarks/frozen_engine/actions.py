"""Seats, teams and the actions a seat can take.  Actions are small frozen values."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Final

from frozen_engine.cards import CARDS, Card
from frozen_engine.scoring import BLIND_NIL, NIL


class Seat(IntEnum):
    """Clockwise: N, E, S, W.  Partners sit opposite (``seat ^ 2``)."""

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def partner(self) -> Seat:
        return Seat(self ^ 2)

    @property
    def left(self) -> Seat:
        """The next seat clockwise."""
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

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (Seat(self), Seat(self + 2))

    @property
    def other(self) -> Team:
        return Team(self ^ 1)


SEATS: Final = tuple(Seat)
TEAMS: Final = tuple(Team)


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance action: the 13 cards of each seat (indexed by seat)."""

    hands: tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]


@dataclass(frozen=True, slots=True)
class Bid:
    """A bid.  ``value`` is 1..13, ``NIL`` (0) or ``BLIND_NIL`` (-1).

    In New York partnership bidding the team's first bidder's ``Bid`` is a proposal and the
    partner's is the team's final answer; ``blind`` marks a blind team bid.
    """

    seat: Seat
    value: int
    blind: bool = False

    @property
    def text(self) -> str:
        return bid_text(self.value, self.blind)


@dataclass(frozen=True, slots=True)
class Look:
    """A seat offered blind nil (or a New York blind bid) asks to see its cards."""

    seat: Seat


@dataclass(frozen=True, slots=True)
class PassCards:
    """Blind-nil card passing: ``cards`` go face down to the partner."""

    seat: Seat
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Play:
    seat: Seat
    card: Card


Action = Bid | Look | PassCards | Play

# Interned play actions: PLAYS[seat][card.index]
PLAYS: Final = tuple(tuple(Play(s, c) for c in CARDS) for s in SEATS)


def bid_text(value: int, blind: bool = False) -> str:
    if value == NIL:
        return "nil"
    if value == BLIND_NIL:
        return "blind nil"
    return f"blind {value}" if blind else str(value)


def bid_record(value: int) -> int | str:
    """The record form of a bid value: 1..13, ``"nil"`` or ``"blind_nil"``."""
    if value == NIL:
        return "nil"
    if value == BLIND_NIL:
        return "blind_nil"
    return value
