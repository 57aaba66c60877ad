"""Per-deck lookup tables of the rule players and card helpers on ``int`` bitmasks over card
indices (see :mod:`bot.engine.cards`): suits, powers, the cards above each card, lowest/highest
card of a mask, the winner of a trick."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.engine.decks import DECKS, Deck
from bot.engine.views import SeatView

SPADES: Final = 0


class DeckInfo:
    """Per-deck lookup tables, built once per deck."""

    __slots__ = (
        "above",
        "deck",
        "has_jokers",
        "mask",
        "power",
        "spades",
        "suit_masks",
        "suit_of",
        "trump_order",
    )

    def __init__(self, deck: Deck) -> None:
        self.deck = deck
        self.mask = deck.mask
        self.suit_masks = deck.suit_masks
        self.spades = deck.suit_masks[0]
        self.power = deck.power
        self.has_jokers = bool(deck.mask >> 52)
        suit_of = [-1] * 54
        for s, m in enumerate(deck.suit_masks):
            for i in bits(m):
                suit_of[i] = s
        self.suit_of: tuple[int, ...] = tuple(suit_of)
        above = [0] * 54
        for i in bits(deck.mask):
            m = deck.suit_masks[suit_of[i]]
            above[i] = sum(1 << j for j in bits(m) if deck.power[j] > deck.power[i])
        self.above: tuple[int, ...] = tuple(above)
        # Trumps from the highest down.
        self.trump_order: tuple[int, ...] = tuple(
            sorted(bits(self.spades), key=lambda j: -deck.power[j])
        )


def bits(mask: int) -> list[int]:
    """The card indices of a mask, lowest index first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def hand_mask(view: SeatView) -> int:
    """The mask of the cards in the seat's hand (0 when it sees none)."""
    m = 0
    for c in view.hand or ():
        m |= 1 << c.index
    return m


def may_hold(
    me: int,
    hand: int,
    unknown: int,
    known: Sequence[int],
    voids: Sequence[int],
    suit_masks: Sequence[int],
) -> list[int]:
    """The cards each seat may hold, as ``me`` sees them: ``me`` its ``hand``; another seat the
    ``unknown`` cards nobody is known to hold, of the suits it has not shown void in
    (``voids``: bit s, suit s), and the cards it is known to hold."""
    holders = [0, 0, 0, 0]
    all_known = known[0] | known[1] | known[2] | known[3]
    for s in range(4):
        if s == me:
            holders[s] = hand
            continue
        m = unknown & ~all_known
        for suit in range(4):
            if voids[s] >> suit & 1:
                m &= ~suit_masks[suit]
        holders[s] = m | known[s]
    return holders


DECK_INFO: Final[dict[str, DeckInfo]] = {name: DeckInfo(d) for name, d in DECKS.items()}


def lowest(d: DeckInfo, mask: int) -> int:
    """The card of lowest power in a non-empty mask."""
    power = d.power
    best = -1
    bp = 1 << 30
    while mask:
        low = mask & -mask
        i = low.bit_length() - 1
        if power[i] < bp:
            bp = power[i]
            best = i
        mask ^= low
    return best


def highest(d: DeckInfo, mask: int) -> int:
    """The card of highest power in a non-empty mask."""
    power = d.power
    best = -1
    bp = -1
    while mask:
        low = mask & -mask
        i = low.bit_length() - 1
        if power[i] > bp:
            bp = power[i]
            best = i
        mask ^= low
    return best


def trick_winner(d: DeckInfo, trick: list[tuple[int, int]] | tuple[tuple[int, int], ...]) -> int:
    """Index into ``trick`` of the card currently winning it."""
    lead = d.suit_masks[d.suit_of[trick[0][1]]] | d.spades
    power = d.power
    best = 0
    bp = -1
    for k, (_, i) in enumerate(trick):
        if (1 << i) & lead and power[i] > bp:
            bp = power[i]
            best = k
    return best
