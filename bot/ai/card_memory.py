"""The ``normal`` player's card memory: what one seat knows in the play phase (its hand, the
cards played, suits a seat has shown it lacks, cards passed to the partner) and so which cards
each other seat may hold."""

from __future__ import annotations

from bot.ai.deck_tables import DECK_INFO, SPADES, hand_mask, may_hold
from bot.engine.views import SeatView


class CardMemory:
    """What one seat knows in the play phase: its hand, played cards, voids, known cards."""

    __slots__ = (
        "d",
        "hand",
        "holders",
        "known",
        "played",
        "seat",
        "unknown",
        "voids",
    )

    def __init__(self, view: SeatView) -> None:
        assert view.seat is not None
        d = DECK_INFO[view.rules.deck]
        self.d = d
        self.seat = int(view.seat)
        self.hand = hand = hand_mask(view)
        played = 0
        voids = [0, 0, 0, 0]  # bit s: known void in suit s
        broken = False
        nonspade_suits = 0b1110
        for t in [*(tr.cards for tr in view.completed_tricks), view.current_trick]:
            if not t:
                continue
            lead_seat, lead_card = t[0]
            lead = d.suit_of[lead_card.index]
            if lead == SPADES and not broken:
                voids[lead_seat] |= nonspade_suits
            for who, c in t:
                i = c.index
                played |= 1 << i
                if d.suit_of[i] != lead:
                    voids[who] |= 1 << lead
                if d.suit_of[i] == SPADES:
                    broken = True
        self.played = played
        self.voids = voids
        known = [0, 0, 0, 0]
        partner = self.seat ^ 2
        bidding = view.bidding
        for c in bidding.passed if bidding is not None else ():
            known[partner] |= 1 << c.index
        known[partner] &= ~played
        self.known = known
        unknown = d.mask & ~hand & ~played
        self.unknown = unknown
        self.holders = may_hold(self.seat, hand, unknown, known, voids, d.suit_masks)
