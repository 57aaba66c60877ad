"""Euchre computer players: when to order up, call a suit or go alone, what the dealer discards,
and card play (:mod:`bot.ai.trumps`).  ``easy`` counts trumps and plays a little at random;
``normal`` weighs its hand (bowers, trump length, side aces, voids, who gets the up-card);
``hard`` (:mod:`bot.ai.trump_search`) checks those decisions on sampled deals.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from bot.ai.deck_tables import bits, hand_mask
from bot.ai.trumps import Seen, TrumpDeck, choose_card, ctx_from, trump_deck
from bot.engine.actions import Action, Call, Discard, Play
from bot.engine.cards import CARDS, SUITS
from bot.engine.game import Phase
from bot.engine.trump_part import TrumpPart
from bot.engine.views import SeatView

# Hand strength (see :func:`strength`): call at ORDER_AT, go alone at ALONE_AT.
TRUMP_VALUES: Final = (3.5, 3.0, 2.5, 2.0, 1.7, 1.5, 1.3, 1.2, 1.1)
SIDE_ACE: Final = 1.3
SIDE_KING_WITH_ACE: Final = 0.4
VOID: Final = 0.6
ORDER_AT: Final = 7.5
ALONE_AT: Final = 12.0


def trump_value(t: TrumpDeck, card: int) -> float:
    """What a trump is worth by its rank among the trumps (right bower first)."""
    if not t.trumps >> card & 1:
        return 0.0
    rank = (t.trumps & t.above[card]).bit_count()
    return TRUMP_VALUES[min(rank, len(TRUMP_VALUES) - 1)]


def strength(t: TrumpDeck, hand: int) -> float:
    """Roughly, a hand's tricks × 3 with this trump: trumps by rank, side aces, voids."""
    trumps = hand & t.trumps
    value = sum(trump_value(t, i) for i in bits(trumps))
    for suit in range(4):
        if suit == t.trump:
            continue
        cards = hand & t.suit_masks[suit]
        if not cards:
            value += VOID if trumps.bit_count() >= 2 else 0.0
            continue
        top_two = sorted(bits(t.suit_masks[suit]), key=lambda i: -t.power[i])[:2]
        if cards >> top_two[0] & 1:
            value += SIDE_ACE + (SIDE_KING_WITH_ACE if cards >> top_two[1] & 1 else 0.0)
    return value


def has_top_trump(t: TrumpDeck, hand: int) -> bool:
    trumps = hand & t.trumps
    return bool(trumps) and not (t.trumps & t.above[t.highest(trumps)])


def best_discard(t: TrumpDeck, hand: int) -> int:
    """The dealer's discard: a side card, making a void when it can, never a lone ace."""
    side = hand & ~t.trumps
    if not side:
        return t.lowest(hand)

    def cost(i: int) -> tuple[bool, int, int]:
        suit_cards = side & t.suit_masks[t.suit_of[i]]
        ace = not (t.suit_masks[t.suit_of[i]] & t.above[i])
        return (ace, suit_cards.bit_count(), t.power[i])

    return min(bits(side), key=cost)


@dataclass(frozen=True, slots=True)
class Calling:
    """What a seat considers when calling: its hand and where the up-card would go."""

    deck: str
    hand: int
    seat: int
    dealer: int
    round: int  # 1 or 2
    up: int  # the up-card's index
    stick: bool  # stick the dealer

    @property
    def up_suit(self) -> str:
        return CARDS[self.up].suit or "S"


def call_strength(c: Calling, suit: str) -> float:
    """The hand's strength with ``suit`` as trump, counting who gets the up-card in round 1."""
    t = trump_deck(c.deck, suit)
    if c.round != 1:
        return strength(t, c.hand)
    if c.seat == c.dealer:
        with_up = c.hand | 1 << c.up
        return strength(t, with_up & ~(1 << best_discard(t, with_up)))
    up_value = 0.6 * trump_value(t, c.up)
    return strength(t, c.hand) + (up_value if c.dealer == c.seat ^ 2 else -up_value)


def decide_call(c: Calling, margin: float = 0.0) -> tuple[str, bool]:
    """(call, alone): order up / the strongest suit when strong enough; alone when very
    strong and holding the top trump; pass otherwise (a stuck dealer names its best suit)."""
    suits = [c.up_suit] if c.round == 1 else [s for s in SUITS if s != c.up_suit]
    best = max(suits, key=lambda s: call_strength(c, s))
    value = call_strength(c, best)
    must = c.round == 2 and c.stick and c.seat == c.dealer
    if value < ORDER_AT + margin and not must:
        return Call.PASS, False
    hand = c.hand | (1 << c.up if c.round == 1 and c.seat == c.dealer else 0)
    alone = value >= ALONE_AT + margin and has_top_trump(trump_deck(c.deck, best), hand)
    return (Call.ORDER if c.round == 1 else best), alone


def calling(view: SeatView) -> Calling:
    assert view.seat is not None
    tp = view.part_as(TrumpPart)
    assert tp.up_card is not None
    return Calling(
        view.rules.deck,
        hand_mask(view),
        int(view.seat),
        int(view.dealer),
        tp.calling_round,
        tp.up_card.index,
        view.rules.stick_the_dealer,
    )


def normal_call(view: SeatView, margin: float = 0.0) -> Call:
    assert view.seat is not None
    name, alone = decide_call(calling(view), margin)
    return Call(view.seat, name, alone)


def play(view: SeatView) -> Action:
    """The ``normal`` card: makers lead trumps, defenders cash aces."""
    assert view.seat is not None
    assert view.trump is not None
    t = trump_deck(view.rules.deck, view.trump)
    seen = Seen(view, t)
    maker = view.part_as(TrumpPart).maker
    attack = maker is not None and (maker & 1) == (view.seat & 1)
    return Play(view.seat, CARDS[choose_card(ctx_from(view, seen, attack))])


def discard(view: SeatView) -> Action:
    assert view.seat is not None
    up = view.part_as(TrumpPart).up_card
    assert up is not None
    t = trump_deck(view.rules.deck, up.suit)
    return Discard(view.seat, CARDS[best_discard(t, hand_mask(view))])


class EuchreNormal:
    """Weighs its hand to call; plays by card memory (deterministic)."""

    level = "normal"

    def decide(self, view: SeatView, rng: random.Random, budget_s: float) -> Action:
        if len(view.legal) == 1:
            return view.legal[0]
        if view.phase is Phase.CALL:
            return normal_call(view)
        if view.phase is Phase.DISCARD:
            return discard(view)
        return play(view)


class EuchreEasy:
    """Counts trumps to call, never goes alone, and sometimes plays a careless card."""

    level = "easy"

    def decide(self, view: SeatView, rng: random.Random, budget_s: float) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        assert view.seat is not None
        if view.phase is Phase.CALL:
            call = normal_call(view, margin=rng.choice((-1.0, 0.0, 1.0, 2.0)))
            return Call(call.seat, call.call)
        if view.phase is Phase.DISCARD:
            return discard(view) if rng.random() < 0.7 else rng.choice(legal)
        if rng.random() < 0.25:
            return rng.choice(legal)
        return play(view)
