"""Card layout of the search: cards renumbered so that bit order is trick order.

The engine numbers cards by suit and rank (``suit * 13 + rank - 2``, jokers 52 and 53).  The
search renumbers them once per rule set so that every *effective* suit (the jokers and the jjdd
2♦ are spades; Euchre's left bower will be trump) is one contiguous run of bits, lowest card
first, and the trump suit is the highest run.  Then, with hands as ``int`` masks:

* the lowest / highest card of a suit in a hand is its lowest / highest set bit;
* the card winning a trick is the highest bit among the cards that follow the lead or trump;
* the cards that beat a winning card ``c`` are one precomputed mask, ``beats[c]``.

Nothing here knows a game: a :class:`Layout` is built from a list of suits (each its engine
card indices, lowest first) and which of them is trump.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from bot.engine.decks import DECKS, Deck


class Layout:
    """One deck with one trump suit, renumbered for the search (see the module text)."""

    __slots__ = (
        "_to_engine_bytes",
        "_to_sim_bytes",
        "beats",
        "n",
        "rank",
        "suit_lo",
        "suit_masks",
        "suit_of",
        "to_engine",
        "to_sim",
        "trump",
        "trump_suit",
    )

    def __init__(self, suits: Sequence[Sequence[int]], trump_suit: int | None) -> None:
        """``suits[k]``: the engine indices of effective suit ``k``, lowest card first."""
        order = [k for k in range(len(suits)) if k != trump_suit]
        if trump_suit is not None:
            order.append(trump_suit)
        to_sim = [-1] * 64
        to_engine: list[int] = []
        suit_masks = [0] * len(suits)
        suit_lo = [0] * len(suits)
        suit_of: list[int] = []
        rank: list[int] = []
        for k in order:
            suit_lo[k] = len(to_engine)
            for r, idx in enumerate(suits[k]):
                pos = len(to_engine)
                to_sim[idx] = pos
                to_engine.append(idx)
                suit_masks[k] |= 1 << pos
                suit_of.append(k)
                rank.append(r)
        self.n = len(to_engine)
        self.to_sim: tuple[int, ...] = tuple(to_sim)
        self.to_engine: tuple[int, ...] = tuple(to_engine)
        self.suit_masks: tuple[int, ...] = tuple(suit_masks)
        self.suit_lo: tuple[int, ...] = tuple(suit_lo)
        self.suit_of: tuple[int, ...] = tuple(suit_of)
        self.rank: tuple[int, ...] = tuple(rank)
        self.trump_suit = -1 if trump_suit is None else trump_suit
        self.trump = suit_masks[trump_suit] if trump_suit is not None else 0
        beats = []
        for pos in range(self.n):
            m = suit_masks[suit_of[pos]] & ~((2 << pos) - 1)  # higher in its own suit
            if suit_of[pos] != self.trump_suit:
                m |= self.trump
            beats.append(m)
        self.beats: tuple[int, ...] = tuple(beats)
        # Mask conversion a byte at a time: table[j][b] is byte b at position j converted.
        self._to_engine_bytes = _byte_tables(self.to_engine, self.n)
        self._to_sim_bytes = _byte_tables(to_sim, 64)

    @classmethod
    def of_deck(cls, deck: Deck) -> Layout:
        """A deck of the engine under its trump (effective suits from ``deck.suit_masks``,
        order from ``deck.power``, trump the suit that is ``deck.trumps``)."""
        trump_suit = next((k for k, m in enumerate(deck.suit_masks) if m == deck.trumps), None)
        suits = []
        for m in deck.suit_masks:
            idx = [i for i in range(64) if m >> i & 1]
            idx.sort(key=lambda i: deck.power[i])
            suits.append(idx)
        return cls(suits, trump_suit)

    def sim_mask(self, engine_mask: int) -> int:
        """An engine card mask in search numbering."""
        out = 0
        for table in self._to_sim_bytes:
            if not engine_mask:
                break
            out |= table[engine_mask & 255]
            engine_mask >>= 8
        return out

    def engine_mask(self, sim_mask: int) -> int:
        """A search-numbered mask in engine numbering."""
        out = 0
        for table in self._to_engine_bytes:
            if not sim_mask:
                break
            out |= table[sim_mask & 255]
            sim_mask >>= 8
        return out


def _byte_tables(mapping: Sequence[int], n: int) -> tuple[tuple[int, ...], ...]:
    """For each byte position of an ``n``-bit mask, the 256 converted masks."""
    tables = []
    for j in range(0, n, 8):
        row = []
        for b in range(256):
            out = 0
            for k in range(8):
                if b >> k & 1 and j + k < n and mapping[j + k] >= 0:
                    out |= 1 << mapping[j + k]
            row.append(out)
        tables.append(tuple(row))
    return tuple(tables)


SPADES_LAYOUTS: Final[dict[str, Layout]] = {name: Layout.of_deck(d) for name, d in DECKS.items()}
