"""Shared machinery of the computer players: deck tables, card memory, hand goals, play policy.

Everything works on ``int`` bitmasks over card indices (see :mod:`bot.engine.cards`).  The play
policy (:func:`choose_play`) is written once and used two ways:

* by the ``normal`` player, from what its seat may know (:class:`Knowledge`, built from a
  :class:`~bot.engine.views.SeatView`): the other seats' *possible* holdings;
* by the ``hard`` player's roll-outs, on a sampled deal where every holding is exact.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from bot.engine.actions import NIL
from bot.engine.decks import DECKS, Deck
from bot.engine.rules import Rules
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


def equivalent(d: DeckInfo, i: int, j: int, in_play: int) -> bool:
    """Cards ``i`` and ``j`` win and lose the same tricks: same suit, no card still in play
    ranks between them (jokers, which score, are never equivalent)."""
    if d.suit_of[i] != d.suit_of[j] or i >= 52 or j >= 52:
        return False
    lo, hi = (i, j) if d.power[i] < d.power[j] else (j, i)
    between = d.above[lo] & ~d.above[hi] & ~(1 << hi)
    return not between & in_play


def distinct_cards(d: DeckInfo, mask: int, in_play: int) -> list[int]:
    """The cards of ``mask`` with equivalent ones merged (the lowest of each group kept)."""
    out: list[int] = []
    prev = -1
    for i in sorted(bits(mask), key=lambda x: d.power[x]):
        if prev < 0 or not equivalent(d, prev, i, in_play):
            out.append(i)
        prev = i
    return out


# --------------------------------------------------------------------------- hand goals
@dataclass(frozen=True, slots=True)
class HandSpec:
    """The static facts of a hand in play: contracts and nil bidders (by seat / team)."""

    rules: Rules
    nil: tuple[bool, bool, bool, bool]
    contract: tuple[int | None, int | None]  # None: no contract (double nil, NY first hand)
    count_nil: bool  # nil players' tricks count toward the contract
    ny: bool
    ny_first: bool
    ny_max: tuple[int, int]  # New York: most tricks that still make the bid

    @staticmethod
    def from_bids(
        rules: Rules,
        bids: tuple[int | None, ...],
        team_bids: tuple[int | None, int | None],
        hand_number: int,
    ) -> HandSpec:
        if rules.new_york:
            first = team_bids[0] is None and team_bids[1] is None and hand_number == 1
            maxes = tuple((13 if b is None or b >= 10 else b + 2) for b in team_bids)
            return HandSpec(
                rules,
                (False, False, False, False),
                team_bids,
                False,
                True,
                first,
                (maxes[0], maxes[1]),
            )
        b = [x if x is not None else 1 for x in bids]
        nil = (b[0] <= NIL, b[1] <= NIL, b[2] <= NIL, b[3] <= NIL)
        contract: list[int | None] = []
        for team in (0, 1):
            c = sum(x for x in (b[team], b[team + 2]) if x > 0)
            contract.append(c if c > 0 else None)
        return HandSpec(
            rules,
            nil,
            (contract[0], contract[1]),
            rules.nil_tricks == "contract",
            False,
            False,
            (13, 13),
        )

    def counted(self, team: int, tricks: list[int] | tuple[int, ...]) -> int:
        total = 0
        for s in (team, team + 2):
            if self.count_nil or not self.nil[s]:
                total += tricks[s]
        return total


@dataclass(slots=True)
class Mode:
    """What a seat is trying to do with the current trick."""

    me_nil: bool
    partner_nil: bool
    opp_nil: tuple[int, ...]  # seats of opponents whose nil is still alive
    want: bool  # the team wants tricks (contract, or a set worth pushing)


PUSH_SET_TRICKS: Final = 2


def mode_for(spec: HandSpec, seat: int, tricks: list[int] | tuple[int, ...], left: int) -> Mode:
    """The seat's goal given the tricks taken so far and ``left`` tricks still to play."""
    team = seat & 1
    partner = seat ^ 2
    nil = spec.nil
    me_nil = nil[seat] and tricks[seat] == 0
    p_nil = nil[partner] and tricks[partner] == 0
    opp = tuple(s for s in (team ^ 1, (team ^ 1) + 2) if nil[s] and tricks[s] == 0)
    c = spec.contract[team]
    taken = spec.counted(team, tricks)
    if spec.ny_first:
        want = True
    elif c is None:
        want = False
    else:
        want = taken < c
    if not want and not spec.ny_first:
        oc = spec.contract[team ^ 1]
        if oc is not None:
            oneed = oc - spec.counted(team ^ 1, tricks)
            # Tricks we must still take to set them.
            must = left - oneed + 1
            if oneed > 0 and 0 < must <= PUSH_SET_TRICKS:
                want = not spec.ny or (c is not None and taken + must <= spec.ny_max[team])
    return Mode(me_nil, p_nil, opp, want)


# --------------------------------------------------------------------------- card memory
class Knowledge:
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
        hand = 0
        for c in view.hand or ():
            hand |= 1 << c.index
        self.hand = hand
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
        for c in view.passed:
            known[partner] |= 1 << c.index
        known[partner] &= ~played
        self.known = known
        unknown = d.mask & ~hand & ~played
        self.unknown = unknown
        holders = [0, 0, 0, 0]
        others_known = known[0] | known[1] | known[2] | known[3]
        for s in range(4):
            if s == self.seat:
                holders[s] = hand
                continue
            m = unknown & ~others_known
            for suit in range(4):
                if voids[s] >> suit & 1:
                    m &= ~d.suit_masks[suit]
            holders[s] = m | known[s]
        self.holders = holders


# --------------------------------------------------------------------------- play policy
class PlayCtx:
    """Inputs of :func:`choose_play`; ``exact`` means ``holders`` are the true hands."""

    __slots__ = ("d", "exact", "holders", "legal", "me", "mode", "trick", "unknown")

    def __init__(
        self,
        d: DeckInfo,
        me: int,
        legal: int,
        trick: list[tuple[int, int]] | tuple[tuple[int, int], ...],
        holders: list[int],
        unknown: int,
        mode: Mode,
        exact: bool,
    ) -> None:
        self.d = d
        self.me = me
        self.legal = legal
        self.trick = trick
        self.holders = holders
        self.unknown = unknown
        self.mode = mode
        self.exact = exact


def _maybe_void(c: PlayCtx, seat: int, suit: int) -> bool:
    held = c.holders[seat] & c.d.suit_masks[suit]
    if c.exact:
        return held == 0
    if held == 0:
        return True
    return (c.unknown & c.d.suit_masks[suit]).bit_count() <= 2


def _can_beat(c: PlayCtx, seat: int, lead: int, best: int) -> bool:
    """Might ``seat`` (still to play) beat card ``best`` in a trick led in suit ``lead``?"""
    d = c.d
    h = c.holders[seat]
    follow = h & d.suit_masks[lead]
    if follow & d.above[best]:
        return True
    if c.exact and follow:
        return False
    if lead != SPADES and _maybe_void(c, seat, lead):
        spades = h & d.spades
        if d.suit_of[best] == SPADES:
            spades &= d.above[best]
        return spades != 0
    return False


def _opps_can_beat(c: PlayCtx, seats: list[int], lead: int, best: int) -> bool:
    return any(_can_beat(c, s, lead, best) for s in seats)


def _dump(c: PlayCtx, mask: int) -> int:
    """A cheap card to throw away from ``mask`` (low, from short non-spade suits)."""
    d = c.d
    hand = c.holders[c.me]
    side = mask & ~d.spades
    if not side:
        return lowest(d, mask)
    best = -1
    key = (1 << 30, 0)
    for i in bits(side):
        suit_len = (hand & d.suit_masks[d.suit_of[i]]).bit_count()
        k = (d.power[i] * 2 + suit_len, i)
        if k < key:
            key = k
            best = i
    return best


def _sure_lead(c: PlayCtx, i: int) -> bool:
    """Would card ``i`` win the trick if led now (no opponent can beat it)?"""
    suit = c.d.suit_of[i]
    me = c.me
    return not any(_can_beat(c, s, suit, i) for s in (me ^ 1, me ^ 3))


def _danger(c: PlayCtx, i: int) -> int:
    """How many cards out there can beat card ``i`` (more = safer to lose with)."""
    return (c.unknown & c.d.above[i]).bit_count()


def choose_play(c: PlayCtx) -> int:
    """The card index to play."""
    legal = c.legal
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    if not c.trick:
        return _lead(c)
    return _follow(c)


def _lead(c: PlayCtx) -> int:
    d = c.d
    legal = c.legal
    m = c.mode
    me = c.me
    side = legal & ~d.spades
    if m.me_nil:
        pool = side or legal
        return max(bits(pool), key=lambda i: (_danger(c, i), -d.power[i]))
    if m.partner_nil:
        partner = me ^ 2
        best = -1
        key: tuple[int, ...] = ()
        for i in bits(legal):
            suit = d.suit_of[i]
            p_void = int(_maybe_void(c, partner, suit))
            k = (int(_sure_lead(c, i)), p_void, int(suit != SPADES), d.power[i])
            if k > key:
                key = k
                best = i
        return best
    if m.opp_nil:
        nil_seat = m.opp_nil[0]
        pool = 0
        for suit in range(1, 4):
            if not _maybe_void(c, nil_seat, suit) or (
                c.holders[nil_seat] & d.suit_masks[suit] and not c.exact
            ):
                pool |= legal & d.suit_masks[suit]
        pool = pool or side or legal
        return min(bits(pool), key=lambda i: (d.power[i], -_danger(c, i)))
    if m.want:
        sure_side = [i for i in bits(side) if _sure_lead(c, i)]
        if sure_side:
            return max(sure_side, key=lambda i: d.power[i])
        sp = legal & d.spades
        if sp:
            top = highest(d, sp)
            if _sure_lead(c, top):
                return top
        if side:
            hand = c.holders[me]
            best = -1
            bkey = (1 << 30, 0)
            for suit in range(1, 4):
                sm = side & d.suit_masks[suit]
                if not sm:
                    continue
                length = (hand & d.suit_masks[suit]).bit_count()
                low = lowest(d, sm)
                hi = highest(d, sm)
                # Don't lead away from a lone high card (K x, Q x x).
                guarded = _danger(c, hi) <= 2 and length <= 3 and hi != low
                lk = (int(guarded) * 100 + length, d.power[low])
                if lk < bkey:
                    bkey = lk
                    best = low
            return best
        return lowest(d, legal)
    # Duck: lead the card most likely to lose.
    pool = side or legal
    return max(bits(pool), key=lambda i: (_danger(c, i), -d.power[i]))


def _follow(c: PlayCtx) -> int:
    d = c.d
    legal = c.legal
    m = c.mode
    me = c.me
    trick = c.trick
    lead = d.suit_of[trick[0][1]]
    w = trick_winner(d, trick)
    best_seat, best = trick[w]
    n_after = 3 - len(trick)
    after = [(me + k) & 3 for k in range(1, n_after + 1)]
    opps_after = [s for s in after if (s ^ me) & 1]
    partner = me ^ 2
    beat_mask = d.above[best] | (d.spades if d.suit_of[best] != SPADES else 0)
    beat = legal & beat_mask
    lows = legal & ~beat

    if m.me_nil:
        if lows:
            return highest(d, lows)
        if after:
            return lowest(d, beat)
        return highest(d, beat)

    if m.partner_nil:
        if best_seat == partner:
            if beat:
                sure = [i for i in bits(beat) if not _opps_can_beat(c, opps_after, lead, i)]
                return min(sure, key=lambda i: d.power[i]) if sure else highest(d, beat)
        elif partner in after:
            if beat:
                if beat & d.suit_masks[lead]:
                    return highest(d, beat & d.suit_masks[lead])
                return lowest(d, beat)
            return _dump(c, legal) if not m.want else lowest(d, legal)

    if m.opp_nil:
        if best_seat in m.opp_nil:
            if lows:
                return highest(d, lows)
            return lowest(d, beat)
        nil_after = [s for s in m.opp_nil if s in after]
        if nil_after and not _maybe_void(c, nil_after[0], lead):
            # Keep the trick low so the nil bidder may have to take it.
            if lows:
                return lowest(d, lows & d.suit_masks[lead] or lows)
            return lowest(d, beat)

    if m.want:
        if best_seat == partner:
            if not _opps_can_beat(c, opps_after, lead, best):
                return _dump(c, lows) if lows else lowest(d, legal)
            sure = [i for i in bits(beat) if not _opps_can_beat(c, opps_after, lead, i)]
            if sure:
                return min(sure, key=lambda i: d.power[i])
            return _dump(c, lows) if lows else lowest(d, legal)
        if beat:
            sure = [i for i in bits(beat) if not _opps_can_beat(c, opps_after, lead, i)]
            if sure:
                return min(sure, key=lambda i: d.power[i])
            if len(after) == 2:
                if not beat & d.suit_masks[lead] or lead == SPADES:
                    return lowest(d, beat)
                return _dump(c, lows) if lows else lowest(d, beat)
            return highest(d, beat)
        return _dump(c, legal)
    # Duck.
    if lows:
        return highest(d, lows)
    lo = lowest(d, beat)
    if any(_can_beat(c, s, lead, lo) for s in after):
        return lo
    return highest(d, beat)
