"""The ``normal`` player's card play: one rule policy (:func:`choose_play`) over the cards each
seat may hold (:class:`~bot.ai.card_memory.CardMemory`) and the seat's aim for the trick
(:class:`~bot.ai.hand_goals.Mode`).  With ``exact`` holdings it reads a known deal."""

from __future__ import annotations

from bot.ai.deck_tables import SPADES, DeckInfo, bits, highest, lowest, trick_winner
from bot.ai.hand_goals import Mode


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
