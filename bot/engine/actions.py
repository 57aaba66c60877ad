"""The actions a seat can take, and the deal (a chance action).  Actions are small frozen values.

Every game shares :class:`Deal` and :class:`Play`; Spades adds :class:`Bid`, :class:`Look` and
:class:`PassCards`; Euchre adds :class:`Call` and :class:`Discard`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bot.engine.cards import CARDS, SUIT_SYMBOLS, Card
from bot.engine.lines import Line
from bot.engine.seats import SEATS, TEAMS, Seat, Team

__all__ = [
    "BIDS",
    "BLIND_NIL",
    "NIL",
    "PLAYS",
    "SEATS",
    "TEAMS",
    "Action",
    "Bid",
    "Call",
    "Deal",
    "Discard",
    "Look",
    "PassCards",
    "Play",
    "Seat",
    "Team",
    "bid_record",
    "bid_text",
]

# Bid values besides 1..17.
NIL: Final = 0
BLIND_NIL: Final = -1


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance action: the cards of each seat in play (indexed by seat), and the card turned
    face up: Whist's trump card (one of the dealer's) or Euchre's up-card (not dealt)."""

    hands: tuple[tuple[Card, ...], ...]
    turned: Card | None = None


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


@dataclass(frozen=True, slots=True)
class Call:
    """A Euchre call: ``"pass"``, ``"order"`` (round 1: the up-card's suit is trump) or a suit
    letter (round 2: that suit is trump).  ``alone``: the maker plays without a partner."""

    seat: Seat
    call: str
    alone: bool = False

    PASS = "pass"  # noqa: S105 - a call, not a password
    ORDER = "order"

    @property
    def text(self) -> str:
        if self.call == Call.PASS:
            return "pass"
        words = "order up" if self.call == Call.ORDER else f"call {SUIT_SYMBOLS[self.call]}"
        return words + (" alone" if self.alone else "")


@dataclass(frozen=True, slots=True)
class Discard:
    """The Euchre dealer, having taken the up-card, discards one card face down."""

    seat: Seat
    card: Card


@dataclass(frozen=True, slots=True)
class Claim:
    """games.md G1 (``renege = claim``): ``seat`` claims that the opponent ``against`` has
    reneged in this hand.  Any seat may claim at any moment of the play (not only on turn)."""

    seat: Seat
    against: Seat


@dataclass(frozen=True, slots=True)
class ClaimResult:
    """A claim as judged at once: ``after`` = plays made when it was made; ``trick`` = the
    trick (from 1) of the claimed player's first renege when ``correct``; ``counted`` = the
    first correct claim against that side (only it penalises)."""

    seat: Seat
    against: Seat
    after: int
    correct: bool
    trick: int | None = None
    counted: bool = False

    @property
    def text(self) -> Line:
        """The public announcement: "North reneged in trick 5" or why the claim fails."""
        if self.correct:
            return Line("{seat} reneged in trick {n}", seat=self.against, n=self.trick)
        return Line(
            "{seat}'s claim is wrong: {against} has not reneged this hand",
            seat=self.seat,
            against=self.against,
        )


Action = Bid | Look | PassCards | Play | Call | Discard | Claim

# Interned play actions: PLAYS[seat][card.index]
PLAYS: Final = tuple(tuple(Play(s, c) for c in CARDS) for s in SEATS)
# Interned bids that are not blind: BIDS[seat][value - BLIND_NIL], values BLIND_NIL..17
BIDS: Final = tuple(tuple(Bid(s, v) for v in range(BLIND_NIL, 18)) for s in SEATS)


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
