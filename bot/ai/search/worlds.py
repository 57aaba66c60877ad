"""Worlds: deals of the hidden cards consistent with everything a seat has seen.

Hard facts (never broken): the seat's own cards, the cards played, the cards it passed to its
partner, and the suits each seat has shown it lacks (it did not follow; or, where trump may not
be led before it is broken, it led trump then — so it held nothing else).  Soft facts weight
the worlds: how well each hand explains its owner's bid (a likelihood given by the game
adapter) and the cards it chose to play (:mod:`bot.ai.search.inference`), applied by rejection
so that every world drawn counts the same.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from bot.ai.deck_tables import bits
from bot.ai.search.layout import Layout

Weight = Callable[[list[int]], float]


class SearchKnowledge:
    """What one seat knows of the cards, in search numbering."""

    __slots__ = ("forbidden", "hand", "known", "need", "played", "seat", "unknown")

    def __init__(
        self,
        lay: Layout,
        seat: int,
        hand: int,
        tricks: Sequence[Sequence[tuple[int, int]]],
        cards_left: Sequence[int],
        restrict_trump_lead: bool,
        passed: int = 0,
        partner: int = -1,
    ) -> None:
        """``tricks``: every trick of the hand so far (the last may be unfinished), each as
        (seat, card) in search numbering, in order of play."""
        n = len(cards_left)
        self.seat = seat
        self.hand = hand
        forbidden = [0] * n
        played = 0
        broken = False
        all_cards = (1 << lay.n) - 1
        for trick in tricks:
            if not trick:
                continue
            lead_seat, lead_card = trick[0]
            lead = lay.suit_masks[lay.suit_of[lead_card]]
            if restrict_trump_lead and lead == lay.trump and not broken:
                forbidden[lead_seat] |= all_cards & ~lay.trump
            for s, c in trick:
                played |= 1 << c
                if not (1 << c) & lead:
                    forbidden[s] |= lead
                if (1 << c) & lay.trump:
                    broken = True
        self.played = played
        known = [0] * n
        if partner >= 0:
            known[partner] = passed & ~played
        self.known = known
        self.unknown = all_cards & ~hand & ~played & ~passed
        forbidden[seat] = all_cards
        self.forbidden = forbidden
        self.need = [cards_left[s] - known[s].bit_count() for s in range(n)]
        self.need[seat] = 0


class Sampler:
    """Draws worlds (every seat's hand) consistent with a :class:`SearchKnowledge`."""

    def __init__(
        self,
        k: SearchKnowledge,
        rng: random.Random,
        weight: Weight | None = None,
        tries: int = 8,
        first: Weight | None = None,
    ) -> None:
        """``weight``: the soft facts' weight of a world (at most 1); ``first``: a cheaper
        factor of it, tested first so that the worlds it rejects cost nothing more."""
        self.k = k
        self.rng = rng
        self.weight = weight
        self.first = first
        self.tries = tries
        self.pool = bits(k.unknown)
        n = len(k.need)
        # Cards grouped by the seats that may hold them, the most constrained groups first.
        by_seats: dict[tuple[int, ...], list[int]] = {}
        for c in self.pool:
            seats = tuple(s for s in range(n) if not k.forbidden[s] >> c & 1)
            by_seats.setdefault(seats, []).append(c)
        # Each group with its cards as bits, the most constrained first.
        self.groups = [
            (seats, [1 << c for c in cards])
            for seats, cards in sorted(by_seats.items(), key=lambda g: len(g[0]))
        ]
        self.base = [k.known[s] for s in range(n)]
        self.base[k.seat] = k.hand

    def deal(self) -> list[int] | None:
        """One world drawn among those meeting the hard facts (None: a dead end).  Each group
        of cards that the same seats may hold goes to a random choice of the places those
        seats still have."""
        random = self.rng.random
        need = self.k.need.copy()
        hands = self.base.copy()
        for seats, card_bits in self.groups:
            slots: list[int] = []
            for s in seats:
                if need[s] > 0:
                    slots += [s] * need[s]
            n = len(slots)
            if n < len(card_bits):
                return None
            # A partial Fisher-Yates shuffle: the first len(card_bits) places, at random.
            for i, bit in enumerate(card_bits):
                j = i + int(random() * (n - i))
                s = slots[j]
                slots[j] = slots[i]
                hands[s] |= bit
                need[s] -= 1
        return hands

    def sample(self) -> list[int]:
        """A world, weighted by the soft facts."""
        best: list[int] | None = None
        best_w = -1.0
        weight = self.weight
        first = self.first
        random = self.rng.random
        for _ in range(self.tries):
            hands = self.deal()
            if hands is None:
                continue
            w = 1.0
            if first is not None:
                w = first(hands)
                if random() >= w:
                    if w > best_w:  # the best world is judged on the first factor alone
                        best, best_w = hands, w
                    continue
            if weight is None:
                return hands
            v = weight(hands)
            if random() < v:
                return hands
            if w * v > best_w:
                best, best_w = hands, w * v
        if best is not None:
            return best
        return self._ignore_voids()

    def _ignore_voids(self) -> list[int]:
        """Only when the hard facts could not be met by chance: deal ignoring shown voids."""
        pool = self.pool.copy()
        self.rng.shuffle(pool)
        hands = self.base.copy()
        pos = 0
        for s, n in enumerate(self.k.need):
            for _ in range(n):
                hands[s] |= 1 << pool[pos]
                pos += 1
        return hands
