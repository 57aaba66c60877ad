"""Cards: the 54 card values, bitmasks of them, parsing of every input form, display.

A card is an interned :class:`Card`; its ``index`` is a bit position, so a hand is an ``int``
bitmask and suit tests are single ``&`` operations.  Index = suit * 13 + (rank - 2) for the
52 ordinary cards (suits in the order S H D C), 52 = little joker, 53 = big joker.  Decks and
their trump orders are in :mod:`bot.engine.decks`.

>>> parse_card("10♥").code
'TH'
>>> str(parse_card("ace of spades"))
'A♠'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from bot.engine.errors import CardParseError

SUITS: Final = ("S", "H", "D", "C")
SUIT_SYMBOLS: Final = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES: Final = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
RANK_CHARS: Final = "23456789TJQKA"
RANK_NAMES: Final = {
    "2": 2,
    "two": 2,
    "deuce": 2,
    "3": 3,
    "three": 3,
    "4": 4,
    "four": 4,
    "5": 5,
    "five": 5,
    "6": 6,
    "six": 6,
    "7": 7,
    "seven": 7,
    "8": 8,
    "eight": 8,
    "9": 9,
    "nine": 9,
    "t": 10,
    "10": 10,
    "ten": 10,
    "j": 11,
    "jack": 11,
    "q": 12,
    "queen": 12,
    "k": 13,
    "king": 13,
    "a": 14,
    "ace": 14,
}
LITTLE_JOKER: Final = 52
BIG_JOKER: Final = 53


@dataclass(frozen=True, slots=True)
class Card:
    """One card.  ``suit`` is ``None`` for the jokers; ``rank`` is 2..14 (jokers 15, 16)."""

    index: int
    rank: int
    suit: str | None
    code: str

    def __reduce__(self) -> tuple[object, ...]:
        # Pickled by its fields (views cross to the players' worker processes): a frozen
        # dataclass compiled by mypyc cannot be unpickled by setting its fields.
        return (Card, (self.index, self.rank, self.suit, self.code))

    @property
    def bit(self) -> int:
        return 1 << self.index

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    def __str__(self) -> str:
        if self.index == BIG_JOKER:
            return "Big🃏"
        if self.index == LITTLE_JOKER:
            return "Little🃏"
        assert self.suit is not None
        rank = "10" if self.rank == 10 else RANK_CHARS[self.rank - 2]
        return rank + SUIT_SYMBOLS[self.suit]

    @property
    def name(self) -> str:
        """Words, for screen readers and long labels: ``"queen of hearts"``."""
        if self.index == BIG_JOKER:
            return "big joker"
        if self.index == LITTLE_JOKER:
            return "little joker"
        assert self.suit is not None
        words = {11: "jack", 12: "queen", 13: "king", 14: "ace"}
        return f"{words.get(self.rank, str(self.rank))} of {SUIT_NAMES[self.suit]}"


def _make_cards() -> tuple[Card, ...]:
    cards = [
        Card(s * 13 + r - 2, r, suit, RANK_CHARS[r - 2] + suit)
        for s, suit in enumerate(SUITS)
        for r in range(2, 15)
    ]
    cards.append(Card(LITTLE_JOKER, 15, None, "LJ"))
    cards.append(Card(BIG_JOKER, 16, None, "BJ"))
    return tuple(cards)


CARDS: Final[tuple[Card, ...]] = _make_cards()
BY_CODE: Final[dict[str, Card]] = {c.code: c for c in CARDS}


def card(code: str) -> Card:
    """The card with this exact record code (``"AS"``, ``"TD"``, ``"BJ"``)."""
    try:
        return BY_CODE[code]
    except KeyError:
        raise CardParseError(code) from None


def suit_mask(suit: str) -> int:
    base = SUITS.index(suit) * 13
    return ((1 << 13) - 1) << base


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of a bitmask, in index order (by suit S H D C, low to high; jokers last)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return tuple(out)


def mask_of(cards: tuple[Card, ...] | list[Card]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c.index
    return m


_SYMBOL_TO_SUIT = {"♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C"}
_WORD_SUITS = {
    "s": "S",
    "spade": "S",
    "spades": "S",
    "h": "H",
    "heart": "H",
    "hearts": "H",
    "d": "D",
    "diamond": "D",
    "diamonds": "D",
    "c": "C",
    "club": "C",
    "clubs": "C",
}
_JOKER_WORDS = {
    "bj": "BJ",
    "big joker": "BJ",
    "big": "BJ",
    "bigjoker": "BJ",
    "lj": "LJ",
    "little joker": "LJ",
    "little": "LJ",
    "littlejoker": "LJ",
    "small joker": "LJ",
}
_COMPACT = re.compile(r"^(10|[2-9tjqka])([shdc])$")
_WORDS = re.compile(r"^(\w+)\s+(?:of\s+)?(\w+)$")


def parse_card(text: str) -> Card:
    """Parse any accepted input form: ``AS``, ``10h``, ``A♠``, ``ace of spades``, ``BJ``.

    Raises :class:`CardParseError` with the text for anything else.
    """
    raw = text.strip()
    t = raw.lower()
    for sym, suit in _SYMBOL_TO_SUIT.items():
        t = t.replace(sym, suit.lower())
    t = t.replace("\ufe0f", "").strip()
    t = " ".join(t.replace("🃏", " joker").split())
    if t in _JOKER_WORDS:
        return BY_CODE[_JOKER_WORDS[t]]
    m = _COMPACT.match(t.replace(" ", ""))
    if m:
        rank = RANK_NAMES[m.group(1)]
        return CARDS[SUITS.index(m.group(2).upper()) * 13 + rank - 2]
    m = _WORDS.match(t)
    if m and m.group(1) in RANK_NAMES and m.group(2) in _WORD_SUITS:
        rank = RANK_NAMES[m.group(1)]
        return CARDS[SUITS.index(_WORD_SUITS[m.group(2)]) * 13 + rank - 2]
    raise CardParseError(raw)


def format_cards(cards: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(str(c) for c in cards)
