"""Shared machinery of the Whist and Euchre computer players: card tables under a trump, what a
seat knows, a card-play policy, a fast play-out simulator and a sampler of hidden hands.

Everything works on ``int`` bitmasks over card indices (:mod:`bot.engine.cards`).  The play
policy (:func:`choose_card`) is written once and used two ways, like the Spades one in
:mod:`bot.ai.play_policy`: by the ``normal`` players from a seat's knowledge (where the other seats'
holdings are only *possible*), and by the ``hard`` players' play-outs on sampled deals (where
they are exact).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from bot.ai.deck_tables import DeckInfo, bits, hand_mask, may_hold
from bot.engine.actions import Call
from bot.engine.cards import SUITS
from bot.engine.decks import DECKS
from bot.engine.seats import turn_order
from bot.engine.trump_part import TrumpPart
from bot.engine.views import SeatView


class TrumpDeck:
    """Lookups for one deck under one trump: effective suits, powers, the cards above."""

    __slots__ = ("above", "mask", "power", "suit_masks", "suit_of", "trump", "trumps")

    def __init__(self, deck: str, trump: str | None) -> None:
        d = DECKS[deck].with_trump(trump)
        info = DeckInfo(d)  # effective suits and the cards above, as the Spades players see them
        self.mask = d.mask
        self.power = d.power
        self.suit_masks = d.suit_masks
        self.trumps = d.trumps
        self.trump = SUITS.index(trump) if trump else -1
        self.suit_of: tuple[int, ...] = info.suit_of
        self.above: tuple[int, ...] = info.above

    def lowest(self, mask: int) -> int:
        return min(bits(mask), key=self.power.__getitem__)

    def highest(self, mask: int) -> int:
        return max(bits(mask), key=self.power.__getitem__)

    def beats(self, a: int, b: int, lead: int) -> bool:
        """Does card ``a`` beat card ``b`` in a trick whose led suit is ``lead``?"""
        sa, sb = self.suit_of[a], self.suit_of[b]
        if sa == sb:
            return self.power[a] > self.power[b]
        if sa == self.trump:
            return True
        return sb != self.trump and sa == lead and sb != lead

    def winner(self, trick: Sequence[tuple[int, int]]) -> int:
        """Position in ``trick`` of the card winning it so far."""
        lead = self.suit_of[trick[0][1]]
        best = 0
        for k in range(1, len(trick)):
            if self.beats(trick[k][1], trick[best][1], lead):
                best = k
        return best


@cache
def trump_deck(deck: str, trump: str | None) -> TrumpDeck:
    return TrumpDeck(deck, trump)


@dataclass(slots=True)
class Ctx:
    """Inputs of :func:`choose_card`.  ``holders[s]``: cards seat ``s`` may hold (exact in
    play-outs); ``outstanding``: every card not mine and not played (kitty included)."""

    t: TrumpDeck
    me: int
    legal: int
    trick: list[tuple[int, int]]
    holders: list[int]
    outstanding: int
    after: tuple[int, ...]  # seats still to play in this trick after me
    attack: bool  # lead trumps when holding the master trump (makers; long trumps)
    exact: bool = False  # ``holders`` are the true hands (a play-out)


def choose_card(c: Ctx) -> int:
    """The card to play: win cheaply when it matters, let a safe partner win, discard low."""
    legal = c.legal
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    if not c.trick:
        return _lead(c)
    t = c.t
    lead = t.suit_of[c.trick[0][1]]
    pos = t.winner(c.trick)
    w_seat, w_card = c.trick[pos]
    partner = c.me ^ 2
    if w_seat == partner and _safe(c, w_card, lead):
        return _throw(c, lead)
    winners = [i for i in bits(legal) if t.beats(i, w_card, lead)]
    if not winners:
        return _throw(c, lead)
    safe = [i for i in winners if _safe(c, i, lead)]
    if safe:
        return min(safe, key=t.power.__getitem__)
    if not c.after:
        return min(winners, key=t.power.__getitem__)
    # Second hand: low, unless an opponent still to play is the partner's only threat.
    if partner in c.after:
        return _throw(c, lead)
    return max(winners, key=t.power.__getitem__)


def _safe(c: Ctx, card: int, lead: int) -> bool:
    """Can no opponent still to play in this trick beat ``card``?"""
    partner = c.me ^ 2
    return not any(_beaters(c, s, card, lead) for s in c.after if s != partner)


def _beaters(c: Ctx, seat: int, card: int, lead: int) -> int:
    """The cards ``seat`` may hold that would beat ``card`` in this trick."""
    t = c.t
    held = c.holders[seat]
    follow = held & t.suit_masks[lead]
    out = follow & t.above[card] if t.suit_of[card] == lead else 0
    if not (c.exact and follow):  # the seat may be void in the suit led: it may trump
        trumps = held & t.trumps
        out |= trumps & t.above[card] if t.suit_of[card] == t.trump else trumps
    return out


def _throw(c: Ctx, lead: int) -> int:
    """A card that gives nothing away: the lowest of the suit led, else the lowest side card
    of the shortest side suit (keeping trumps and masters)."""
    t = c.t
    legal = c.legal
    follow = legal & t.suit_masks[lead]
    if follow:
        return t.lowest(follow)
    side = legal & ~t.trumps
    if not side:
        return t.lowest(legal)

    def cost(i: int) -> tuple[int, int, int]:
        suit = t.suit_of[i]
        master = not (c.outstanding & t.above[i])
        length = (legal & t.suit_masks[suit]).bit_count()
        return (master, length, t.power[i])

    return min(bits(side), key=cost)


def _lead(c: Ctx) -> int:
    t = c.t
    legal = c.legal
    mine_trumps = legal & t.trumps
    out_trumps = c.outstanding & t.trumps
    if c.attack and mine_trumps and out_trumps:
        top = t.highest(mine_trumps)
        if not (c.outstanding & t.above[top]):
            return top
    # Cash a side-suit master (an ace, or a card whose betters are all gone).
    side = legal & ~t.trumps
    masters = [i for i in bits(side) if not (c.outstanding & t.above[i])]
    if masters:
        return max(masters, key=lambda i: (_length(c, i), t.power[i]))
    if not side:
        return t.highest(legal) if c.attack else t.lowest(legal)
    # Otherwise low from the longest side suit.
    longest = max(bits(side), key=lambda i: (_length(c, i), -t.power[i]))
    return t.lowest(side & t.suit_masks[t.suit_of[longest]])


def _length(c: Ctx, i: int) -> int:
    return (c.legal & c.t.suit_masks[c.t.suit_of[i]]).bit_count()


# --------------------------------------------------------------------------- what a seat knows
class Seen:
    """One seat's knowledge of a trump game's hand in play."""

    __slots__ = ("hand", "holders", "known", "me", "need", "outstanding", "played", "t", "voids")

    def __init__(self, view: SeatView, t: TrumpDeck) -> None:
        assert view.seat is not None
        self.t = t
        self.me = int(view.seat)
        self.hand = hand = hand_mask(view)
        played = 0
        voids = [0, 0, 0, 0]
        for trick in [*(tr.cards for tr in view.completed_tricks), view.current_trick]:
            if not trick:
                continue
            lead = t.suit_of[trick[0][1].index]
            for who, card in trick:
                played |= card.bit
                if t.suit_of[card.index] != lead:
                    voids[who] |= 1 << lead
        self.played = played
        self.voids = voids
        known = [0, 0, 0, 0]
        tp = view.trumps or TrumpPart()  # a game of trick play only turns no card
        turned = tp.trump_card or (tp.up_card if tp.maker is not None else None)
        picked_up = tp.trump_card is not None or _ordered_up(tp)
        if turned is not None and picked_up and not played >> turned.index & 1:
            dealer = int(view.dealer)
            if dealer != self.me:
                known[dealer] |= turned.bit
        self.known = known
        gone = played | hand
        if tp.discarded is not None:
            gone |= tp.discarded.bit
        self.outstanding = t.mask & ~gone
        self.need = [view.cards_left[s] for s in range(4)]
        self.need[self.me] = 0
        if view.sitting_out is not None:
            self.need[int(view.sitting_out)] = 0
        holders = may_hold(self.me, hand, self.outstanding, known, voids, t.suit_masks)
        for s in range(4):
            if s != self.me and not self.need[s]:
                holders[s] = 0  # out of cards, or sitting out
        self.holders = holders


def _ordered_up(tp: TrumpPart) -> bool:
    return any(c.call == Call.ORDER for c in tp.calls)


def ctx_from(view: SeatView, seen: Seen, attack: bool) -> Ctx:
    """The play context of the seat on turn, from its view."""
    legal = 0
    for a in view.legal:
        card = getattr(a, "card", None)
        if card is not None:
            legal |= card.bit
    trick = [(int(s), c.index) for s, c in view.current_trick]
    order = turn_order(view.seats, view.sitting_out)
    size = len(view.seats) - (view.sitting_out is not None)
    after = []
    s = seen.me
    for _ in range(size - 1 - len(trick)):
        s = order[s]
        after.append(s)
    return Ctx(seen.t, seen.me, legal, trick, seen.holders, seen.outstanding, tuple(after), attack)


# --------------------------------------------------------------------------- play-outs
class Sim:
    """The rest of a hand's play with every card known (one seat may sit out)."""

    __slots__ = ("after_seat", "hands", "size", "t", "trick", "tricks", "turn")

    def __init__(
        self,
        t: TrumpDeck,
        hands: list[int],
        turn: int,
        trick: list[tuple[int, int]],
        tricks: list[int],
        order: tuple[int, ...],
        size: int,
    ) -> None:
        self.t = t
        self.hands = hands
        self.turn = turn
        self.trick = trick
        self.tricks = tricks
        self.after_seat = order
        self.size = size

    def copy(self) -> Sim:
        return Sim(
            self.t,
            self.hands.copy(),
            self.turn,
            self.trick.copy(),
            self.tricks.copy(),
            self.after_seat,
            self.size,
        )

    def legal(self) -> int:
        hand = self.hands[self.turn]
        if self.trick:
            return hand & self.t.suit_masks[self.t.suit_of[self.trick[0][1]]] or hand
        return hand

    def play(self, idx: int) -> None:
        seat = self.turn
        self.hands[seat] ^= 1 << idx
        self.trick.append((seat, idx))
        if len(self.trick) < self.size:
            self.turn = self.after_seat[seat]
            return
        winner = self.trick[self.t.winner(self.trick)][0]
        self.tricks[winner] += 1
        self.trick = []
        self.turn = winner

    def done(self) -> bool:
        h = self.hands
        return not self.trick and not (h[self.turn])

    def policy(self, attack: tuple[bool, bool]) -> int:
        seat = self.turn
        h = self.hands
        outstanding = (h[0] | h[1] | h[2] | h[3]) & ~h[seat]
        after = []
        s = seat
        for _ in range(self.size - 1 - len(self.trick)):
            s = self.after_seat[s]
            after.append(s)
        legal = self.legal()
        ctx = Ctx(
            self.t, seat, legal, self.trick, h, outstanding, tuple(after), attack[seat & 1], True
        )
        return choose_card(ctx)

    def rollout(self, attack: tuple[bool, bool]) -> None:
        while not self.done():
            self.play(self.policy(attack))


# --------------------------------------------------------------------------- sampling
def sample_hands(seen: Seen, rng: random.Random, tries: int = 20) -> list[int] | None:
    """Hidden hands consistent with the voids and known cards; the cards left over are the
    kitty's (Euchre).  ``None`` if no consistent deal was found."""
    t = seen.t
    known = seen.known
    known_all = known[0] | known[1] | known[2] | known[3]
    pool = bits(seen.outstanding & ~known_all)
    base = [max(0, seen.need[s] - known[s].bit_count()) for s in range(4)]
    base[seen.me] = 0
    kitty0 = len(pool) - sum(base)
    if kitty0 < 0:
        return None
    for _ in range(tries):
        hands = [known[0], known[1], known[2], known[3]]
        hands[seen.me] = seen.hand
        need = base.copy()
        kitty = kitty0
        order = pool.copy()
        rng.shuffle(order)
        order.sort(key=lambda i: sum(1 for s in range(4) if _may(seen, s, i, t)))
        for i in order:
            seats = [s for s in range(4) if need[s] and _may(seen, s, i, t)]
            total = sum(need[s] for s in seats) + kitty
            if not total:
                break
            r = rng.random() * total
            for s in seats:
                r -= need[s]
                if r < 0:
                    hands[s] |= 1 << i
                    need[s] -= 1
                    break
            else:
                kitty -= 1
        else:
            return hands
    return None


def _may(seen: Seen, seat: int, i: int, t: TrumpDeck) -> bool:
    return seat != seen.me and not seen.voids[seat] >> t.suit_of[i] & 1
