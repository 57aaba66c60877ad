"""Spades' part of a seat view: the bidding, blind nil and its card passing, spades broken,
and the renege claims of games.md G1 — as far as one seat (or the public) may know them."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.actions import Bid, ClaimResult
from bot.engine.cards import Card
from bot.engine.games import GamePart
from bot.engine.seats import Seat


@dataclass(frozen=True, slots=True)
class SpadesPart(GamePart):
    """``hand_hidden``: the seat's cards are face down (blind nil, or a New York blind team
    bid, still open to it; or — individual bidding — blind nil bid and the bidding not over).
    A New York team that bid blind sees its cards once the partner's answer is in.

    ``bids`` are by seat (``None``: not yet); ``bid_log`` in the order made (New York:
    proposals and answers); ``team_bids`` each New York team's final bid, ``proposals`` its
    pending proposal; ``passed`` and ``received`` the blind-nil cards this seat gave and got;
    ``blind_open`` whether it may still bid blind, and ``unseen_bids`` the bids it may make by
    looking first, decided without its cards.  With ``renege = claim``: ``claims`` this hand's
    judged claims, ``claim_targets`` the opponents this seat may claim against now."""

    hand_hidden: bool
    bids: tuple[int | None, ...]
    bid_log: tuple[Bid, ...]
    team_bids: tuple[Bid | None, Bid | None]
    proposals: tuple[tuple[int, bool] | None, tuple[int, bool] | None]
    passed: tuple[Card, ...] = ()
    received: tuple[Card, ...] = ()
    blind_open: bool = False
    unseen_bids: tuple[Bid, ...] = ()
    spades_broken: bool = False
    claims: tuple[ClaimResult, ...] = ()
    claim_targets: tuple[Seat, ...] = ()

    def hides_hand(self) -> bool:
        return self.hand_hidden

    def marks(self) -> tuple[object, ...]:
        """Cards received from the partner, and whether the cards are face down."""
        return (len(self.received), self.hand_hidden)
