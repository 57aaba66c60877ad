"""Decks and how their cards rank under a trump: effective suits, powers, bowers.

A :class:`Deck` is a set of cards ranked under one trump.  The decks of :data:`DECKS` come with
their natural trump: spades in the Spades decks (where the jokers and, in ``jjdd``, the 2♦ are
spades), none in the Euchre decks, whose trump is chosen each hand.  :meth:`Deck.with_trump`
gives the same cards under another trump; in a Euchre deck the jack of trump (the right bower)
and the other jack of its colour (the left bower) become the two highest trumps, and the left
bower belongs to the trump suit for every purpose.

``suit_masks[k]`` holds the cards whose *effective* suit is ``SUITS[k]``; ``power`` orders every
card of the deck so that a trump beats every non-trump, and cards of one suit rank by ``power``.
So the winner of a trick is the card of highest power among those that follow the suit led or
are trumps.

>>> str(DECKS["euchre24"].with_trump("H").left_bower)
'J♦'
>>> DECKS["euchre24"].with_trump("H").suit_of(card("JD"))
'H'
>>> [str(c) for c in DECKS["jjdd"].trump_order()[:4]]
['Big🃏', 'Little🃏', '2♦', '2♠']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from bot.engine.cards import BY_CODE, CARDS, RANK_CHARS, SUITS, Card, card, cards_of, suit_mask
from bot.engine.errors import CardParseError

SAME_COLOUR: Final = {"S": "C", "C": "S", "H": "D", "D": "H"}
TRUMP_POWER: Final = 100  # every trump's power is above this, every other card's below


@dataclass(frozen=True, slots=True)
class Deck:
    """The cards of a deck ranked under ``trump`` (``None``: no trump)."""

    name: str
    mask: int
    trump: str | None
    suit_masks: tuple[int, int, int, int]  # effective suits S H D C
    power: tuple[int, ...]  # by card index; 0 for cards not in the deck
    trumps: int  # the trump cards (0 when there is no trump)
    bowers: bool = False  # Euchre: the jacks of the trump colour are the top trumps
    # Derived per card index, for trick play (0 for cards not in the deck): the mask of the
    # card's effective suit, and the cards that beat it when it is winning a trick (higher
    # cards of its suit; every trump if it is not one).
    lead_masks: tuple[int, ...] = field(init=False, repr=False, compare=False)
    beats: tuple[int, ...] = field(init=False, repr=False, compare=False)
    card_tuple: tuple[Card, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        lead = [0] * len(CARDS)
        beats = [0] * len(CARDS)
        for m in self.suit_masks:
            higher = 0
            for i in sorted(range(len(CARDS)), key=self.power.__getitem__, reverse=True):
                if not m >> i & 1:
                    continue
                lead[i] = m
                beats[i] = higher | (0 if self.trumps >> i & 1 else self.trumps)
                higher |= 1 << i
        object.__setattr__(self, "lead_masks", tuple(lead))
        object.__setattr__(self, "beats", tuple(beats))
        object.__setattr__(self, "card_tuple", cards_of(self.mask))

    def __reduce__(self) -> tuple[object, ...]:
        # Pickled by its fields (views cross to the players' worker processes): a frozen
        # dataclass compiled by mypyc cannot be unpickled by setting its fields.
        return (
            Deck,
            (
                self.name,
                self.mask,
                self.trump,
                self.suit_masks,
                self.power,
                self.trumps,
                self.bowers,
            ),
        )

    @property
    def spades(self) -> int:
        """The cards whose effective suit is spades (the trumps of the Spades decks)."""
        return self.suit_masks[0]

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.card_tuple

    @property
    def size(self) -> int:
        return self.mask.bit_count()

    def suit_of(self, c: Card) -> str:
        """The effective suit (jokers and, in ``jjdd``, the 2♦ are spades; a left bower is of
        the trump suit)."""
        for s, m in zip(SUITS, self.suit_masks, strict=True):
            if m >> c.index & 1:
                return s
        raise CardParseError(c.code)

    def trump_order(self) -> tuple[Card, ...]:
        """The trumps of this deck, highest first."""
        return tuple(sorted(cards_of(self.trumps), key=lambda c: -self.power[c.index]))

    @property
    def right_bower(self) -> Card | None:
        if not self.bowers or self.trump is None:
            return None
        return card("J" + self.trump)

    @property
    def left_bower(self) -> Card | None:
        if not self.bowers or self.trump is None:
            return None
        return card("J" + SAME_COLOUR[self.trump])

    def without(self, *codes: str) -> Deck:
        """This deck with some cards taken out (e.g. the 2♣ for three players)."""
        return self._restricted(self.mask & ~sum(card(c).bit for c in codes))

    def _restricted(self, mask: int) -> Deck:
        if mask == self.mask:
            return self
        gone = self.mask & ~mask
        masks = tuple(m & ~gone for m in self.suit_masks)
        power = tuple(0 if gone >> i & 1 else p for i, p in enumerate(self.power))
        return Deck(
            self.name,
            self.mask & ~gone,
            self.trump,
            (masks[0], masks[1], masks[2], masks[3]),
            power,
            self.trumps & ~gone,
            self.bowers,
        )

    def with_trump(self, trump: str | None) -> Deck:
        """These cards ranked under ``trump`` (a suit letter, or ``None`` for no trump)."""
        if trump == self.trump:
            return self
        try:
            return _ORDERS[self.name, trump]._restricted(self.mask)
        except KeyError:
            raise ValueError(
                f"the {self.name} deck cannot be played with {trump} as trump"
            ) from None


def _order(
    name: str, mask: int, trump: str | None, trumps_low_to_high: tuple[str, ...], bowers: bool
) -> Deck:
    """A deck of ``mask`` whose trumps (of suit ``trump``) are ``trumps_low_to_high``."""
    trump_bits = sum(BY_CODE[x].bit for x in trumps_low_to_high)
    masks = [suit_mask(s) & mask & ~trump_bits for s in SUITS]
    if trump is not None:
        masks[SUITS.index(trump)] = trump_bits
    power = [0] * len(CARDS)
    for c in CARDS:
        if mask >> c.index & 1:
            power[c.index] = c.rank
    for i, code in enumerate(trumps_low_to_high):
        power[BY_CODE[code].index] = TRUMP_POWER + 1 + i
    suit_masks = (masks[0], masks[1], masks[2], masks[3])
    return Deck(name, mask, trump, suit_masks, tuple(power), trump_bits, bowers)


def _suit_trumps(suit: str, lowest_rank: int) -> tuple[str, ...]:
    return tuple(r + suit for r in RANK_CHARS[lowest_rank - 2 :])


def _euchre_trumps(suit: str, lowest_rank: int) -> tuple[str, ...]:
    plain = tuple(c for c in _suit_trumps(suit, lowest_rank) if c[0] != "J")
    return (*plain, "J" + SAME_COLOUR[suit], "J" + suit)


def _mask(lowest_rank: int, removed: tuple[str, ...] = (), jokers: bool = False) -> int:
    m = sum(c.bit for c in CARDS[:52] if c.rank >= lowest_rank) & ~sum(
        BY_CODE[x].bit for x in removed
    )
    return m | (BY_CODE["LJ"].bit | BY_CODE["BJ"].bit if jokers else 0)


_SPADES = _suit_trumps("S", 2)
_STANDARD = _mask(2)
_JOKERS = _mask(2, ("2H", "2C"), jokers=True)
_ORDERS: dict[tuple[str, str | None], Deck] = {}
for _suit in SUITS:
    _ORDERS["standard", _suit] = _order("standard", _STANDARD, _suit, _suit_trumps(_suit, 2), False)
_ORDERS["standard", None] = _order("standard", _STANDARD, None, (), False)
_ORDERS["jokers", "S"] = _order("jokers", _JOKERS, "S", (*_SPADES, "LJ", "BJ"), False)
_ORDERS["jjdd", "S"] = _order("jjdd", _JOKERS, "S", (*_SPADES[1:], "2S", "2D", "LJ", "BJ"), False)
EUCHRE_DECKS: Final = {"euchre24": 9, "euchre28": 8, "euchre32": 7}  # name: lowest rank
for _name, _low in EUCHRE_DECKS.items():
    _ORDERS[_name, None] = _order(_name, _mask(_low), None, (), True)
    for _suit in SUITS:
        _ORDERS[_name, _suit] = _order(_name, _mask(_low), _suit, _euchre_trumps(_suit, _low), True)

DECKS: Final[dict[str, Deck]] = {
    "standard": _ORDERS["standard", "S"],
    "jokers": _ORDERS["jokers", "S"],
    "jjdd": _ORDERS["jjdd", "S"],
    **{name: _ORDERS[name, None] for name in EUCHRE_DECKS},
}
