"""Bids from the search's own model: the tricks the play-outs give for this hand.

For a bid, the hard player draws worlds (the other hands, weighted by the bids already made)
and plays each out with the play-out policy, the missing bids filled in by the ``normal``
bidder on the imagined hands (the partner knowing ours).  That gives, per world, the tricks each
seat takes — at three contract levels around the hand's trick estimate, since a side plays
differently for 5 than for 7 — and, when nil may be bid, the tricks of a play-out with this
seat on nil.  Every bid is then valued by the game's utility on the same worlds (the trick
counts of the nearest level), and the best mean is bid.  No margin, no veto.

Blind nil (before looking): worlds deal this seat's cards too; blind nil (with its card
passing) is played out against looking and bidding normally, and the better mean wins.
New York team bids still come from the ``normal`` bidder (docs/ai.md).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bot.ai.rule_bidding import choose_bid as rules_choose_bid
from bot.ai.rule_bidding import estimate_tricks, individual_bid
from bot.ai.search.layout import Layout
from bot.ai.search.spades import SpadesHand, bid_weight
from bot.ai.search.worlds import Sampler, SearchKnowledge
from bot.engine.actions import BLIND_NIL, NIL, Action, Bid, Look
from bot.engine.spades.view import SpadesPart
from bot.engine.views import SeatView

MIN_WORLDS = 8
NIL_BIDS = True
# Play-outs where every seat sees every card rate a nil too safe, so each nil world is charged
# this much to calibrate: 30 since the search decides the cards (the arena runs that chose it,
# and the nils made: docs/benchmarks.md, *Nil calibration 30*).
NIL_CALIBRATION = 30.0


def choose_bid(
    view: SeatView,
    rng: random.Random,
    budget_s: float,
    clock: Callable[[], float],
    max_worlds: int,
) -> Action:
    t0 = clock()
    assert view.seat is not None
    if view.rules.new_york:
        return rules_choose_bid(view)
    if view.hand_hidden or view.hand is None:
        return _blind_or_look(view, rng, budget_s, clock, max_worlds, t0)
    return _bid(view, rng, budget_s, clock, max_worlds, t0)


def _order(view: SeatView) -> list[int]:
    d = int(view.dealer)
    return [(d + 1 + j) & 3 for j in range(4)]


def _fill_bids(
    view: SeatView, lay: Layout, hands: Sequence[int], mine: int
) -> tuple[int | None, ...]:
    """The bids of the hand with ours ``mine`` and the missing ones by the normal bidder."""
    assert view.seat is not None
    me = int(view.seat)
    bids: list[int | None] = list(view.part_as(SpadesPart).bids)
    bids[me] = mine
    prev = 0
    for s in _order(view):
        b = bids[s]
        if b is None:
            b = individual_bid(view.rules, lay.engine_mask(hands[s]), bids[s ^ 2], prev)
            bids[s] = b
        if b > 0:
            prev += b
    return tuple(bids)


def _play_out(view: SeatView, hands: list[int], bids: tuple[int | None, ...]) -> float:
    """Our side's utility when the hand is played out from the start with these bids."""
    game = SpadesHand(view, bids=bids)
    st = game.start(hands, turn=_order(view)[0])
    st.run()
    return game.value(st.tricks, st.extra)


@dataclass
class BidEstimate:
    """What the play-outs say of each bid: the mean utility of the worlds (nil with its
    calibration charged), how often the nil was kept, our side's mean tricks in the play-outs
    a bid is valued on, the worlds."""

    means: dict[int, float] = field(default_factory=dict)
    nil_kept: float | None = None
    tricks: dict[int, float] = field(default_factory=dict)  # our side's, per bid
    worlds: int = 0

    def best(self) -> int:
        """The bid to make: the best mean.  (Bidding a trick below it, as hard did until
        2026-11-24, lost points against ``normal``: docs/benchmarks.md, *Bids at the best
        mean*.)"""
        return max(self.means, key=lambda b: self.means[b])


def estimate_bids(
    view: SeatView,
    rng: random.Random,
    budget_s: float,
    clock: Callable[[], float],
    max_worlds: int,
    t0: float | None = None,
) -> BidEstimate:
    """Play the hand out on worlds of the hidden hands and value every legal bid on them."""
    if t0 is None:
        t0 = clock()
    assert view.seat is not None
    assert view.hand is not None
    me = int(view.seat)
    rules = view.rules
    lay = SpadesHand.layout_of(rules)
    values = {a.value for a in view.legal if isinstance(a, Bid) and not a.blind}
    engine_hand = sum(c.bit for c in view.hand)
    est = estimate_tricks(rules.deck, engine_hand)
    base = max(1, min(13, int(est + 0.5)))
    levels = [b for b in (base - 1, base, base + 1) if 1 <= b <= 13]
    cands = sorted(v for v in values if v > 0)
    nil = NIL_BIDS and NIL in values
    totals = dict.fromkeys(([NIL] if nil else []) + cands, 0.0)
    kept = 0
    level_tricks = dict.fromkeys(levels, 0)
    nil_tricks = 0
    k = SearchKnowledge(lay, me, lay.sim_mask(engine_hand), [], view.cards_left, True)
    sampler = Sampler(k, rng, bid_weight(view, lay))
    scorer = SpadesHand(view)
    lead = _order(view)[0]
    n = 0
    last = 0.0
    while n < max_worlds:
        now = clock()
        if n >= MIN_WORLDS and now - t0 + last > budget_s:
            break
        hands = sampler.sample()
        by_level: dict[int, tuple[list[int], list[int], tuple[int | None, ...]]] = {}
        for lv in levels:
            bids = _fill_bids(view, lay, hands, lv)
            st = SpadesHand(view, bids=bids).start(hands.copy(), turn=lead)
            st.run()
            by_level[lv] = (st.tricks, st.extra, bids)
            level_tricks[lv] += st.tricks[me] + st.tricks[me ^ 2]
        for b in cands:
            tricks, extra, bids = by_level[_nearest(levels, b)]
            mine = list(bids)
            mine[me] = b
            totals[b] += scorer.value_with_bids(mine, tricks, extra)
        if nil:
            bids = _fill_bids(view, lay, hands, NIL)
            game = SpadesHand(view, bids=bids)
            st = game.start(hands.copy(), turn=lead)
            st.run()
            kept += st.tricks[me] == 0
            nil_tricks += st.tricks[me] + st.tricks[me ^ 2]
            totals[NIL] += game.value(st.tricks, st.extra) - NIL_CALIBRATION
        n += 1
        last = clock() - now
    div = max(1, n)
    side_tricks = {b: level_tricks[_nearest(levels, b)] / div for b in cands}
    if nil:
        side_tricks[NIL] = nil_tricks / div
    return BidEstimate(
        {b: t / div for b, t in totals.items()}, kept / div if nil else None, side_tricks, n
    )


def _nearest(levels: list[int], bid: int) -> int:
    """The contract level whose play-outs value ``bid``."""
    return min(levels, key=lambda x: (abs(x - bid), x))


def _bid(
    view: SeatView,
    rng: random.Random,
    budget_s: float,
    clock: Callable[[], float],
    max_worlds: int,
    t0: float,
) -> Action:
    assert view.seat is not None
    return Bid(view.seat, estimate_bids(view, rng, budget_s, clock, max_worlds, t0).best())


def _blind_or_look(
    view: SeatView,
    rng: random.Random,
    budget_s: float,
    clock: Callable[[], float],
    max_worlds: int,
    t0: float,
) -> Action:
    assert view.seat is not None
    seat = view.seat
    blind = Bid(seat, BLIND_NIL)
    if blind not in view.legal:
        return Look(seat)
    e = estimate_blind(view, rng, budget_s, clock, max_worlds, t0)
    return blind if e.blind > e.look else Look(seat)


@dataclass
class BlindEstimate:
    """Blind nil against looking: each one's mean utility over the same worlds."""

    blind: float
    look: float
    worlds: int


def estimate_blind(
    view: SeatView,
    rng: random.Random,
    budget_s: float,
    clock: Callable[[], float],
    max_worlds: int,
    t0: float | None = None,
) -> BlindEstimate:
    """Play out blind nil (with its card passing) and looking then bidding normally on worlds
    that deal this seat's cards too."""
    if t0 is None:
        t0 = clock()
    assert view.seat is not None
    me = int(view.seat)
    rules = view.rules
    lay = SpadesHand.layout_of(rules)
    # Nothing of ours is known: deal all four hands.
    k = SearchKnowledge(lay, me, 0, [], view.cards_left, True)
    k.need[me] = view.cards_left[me]
    k.forbidden[me] = 0
    sampler = Sampler(k, rng, bid_weight(view, lay))
    n_pass = rules.blind_nil_pass
    partner_bid = view.part_as(SpadesPart).bids[me ^ 2]
    made_before = _made_before(view)
    total_blind = 0.0
    total_look = 0.0
    n = 0
    last = 0.0
    while n < max_worlds:
        now = clock()
        if n >= MIN_WORLDS and now - t0 + last > budget_s:
            break
        hands = sampler.sample()
        # Looking: the normal bid of the hand dealt.
        look_bid = individual_bid(rules, lay.engine_mask(hands[me]), partner_bid, made_before)
        if look_bid == NIL and not rules.nil:
            look_bid = 1
        total_look += _play_out(view, hands.copy(), _fill_bids(view, lay, hands, look_bid))
        passed = _passed(lay, hands, me, n_pass) if n_pass else hands
        total_blind += _play_out(view, passed, _fill_bids(view, lay, passed, BLIND_NIL))
        n += 1
        last = clock() - now
    div = max(1, n)
    return BlindEstimate(total_blind / div, total_look / div, n)


def _made_before(view: SeatView) -> int:
    return sum(b for b in view.part_as(SpadesPart).bids if b is not None and b > 0)


def _passed(lay: Layout, hands: list[int], me: int, n: int) -> list[int]:
    """The hands after blind-nil passing: our ``n`` highest cards to the partner, the
    partner's ``n`` lowest (side suits first) back."""
    out = hands.copy()
    mine = hands[me]
    give = 0
    for _ in range(n):
        best = max(
            (c for c in range(lay.n) if (mine & ~give) >> c & 1),
            key=lambda c: (c >= lay.n - lay.trump.bit_count(), lay.rank[c]),
        )
        give |= 1 << best
    p = me ^ 2
    theirs = hands[p]
    back = 0
    for _ in range(n):
        best = min(
            (c for c in range(lay.n) if (theirs & ~back) >> c & 1),
            key=lambda c: ((1 << c) & lay.trump != 0, lay.rank[c]),
        )
        back |= 1 << best
    out[me] = (mine & ~give) | back
    out[p] = (theirs & ~back) | give
    return out
