"""The part of a seat view that Whist and Euchre share: how trump was chosen.

Whist's ``trump_card`` (the dealer's card turned face up); Euchre's ``up_card``, ``calls``,
``calling_round`` (1 or 2 while calling, else 0), ``maker``, ``alone``, and ``discarded`` (the
dealer's own discard, in the dealer's view only).  The trump in force and the partner who sits
out are the shared trick play's, in every view.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.actions import Call
from bot.engine.cards import Card
from bot.engine.games import GamePart
from bot.engine.seats import Seat


@dataclass(frozen=True, slots=True)
class TrumpPart(GamePart):
    trump_card: Card | None = None
    up_card: Card | None = None
    calls: tuple[Call, ...] = ()
    calling_round: int = 0
    maker: Seat | None = None
    alone: bool = False
    discarded: Card | None = None

    def marks(self) -> tuple[object, ...]:
        """Euchre's calling round (the up-card turned down changes the prompt)."""
        return (self.calling_round,)
