"""The hard computer player's opinion of one decision, from the deciding seat's view only.

:func:`evaluate` runs the ``hard`` player's own search on the view the seat had at that
moment and keeps what the search knows about every choice:

* a card — the determinized search (:func:`bot.ai.search.pimc.choose`) over worlds consistent
  with what the seat had seen: its choice, and the mean value (points for the seat's side, in
  the game's own scoring and chance of winning) of every distinct card, the card played
  included; then the card played and the preferred card are played out again on the same
  number of worlds to count the tricks the side takes with each;
* a bid — the search's bidding model (:mod:`bot.ai.search.bidding`): every legal bid valued on
  the same play-outs; the preferred bid is the one the hard player bids (its shading included).

The review has no clock: the search is bounded by a number of worlds instead of time, so the
same view and seed always give the same opinion on any machine, however busy.  This mirrors
:meth:`bot.ai.hard.HardPlayer.play` and :func:`bot.ai.search.bidding.choose_bid` with their
values kept; it moves onto a view-level evaluation in ``bot.ai`` once there is one (notice
board).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from bot.ai.bidding import estimate_tricks
from bot.ai.search import bidding
from bot.ai.search.pimc import choose
from bot.ai.search.solver import distinct
from bot.ai.search.spades import SpadesHand, bid_weight
from bot.ai.search.worlds import Knowledge, Sampler
from bot.engine import NIL, PLAYS, Action, Bid, Play, SeatView
from bot.engine.game import Phase

CARD_WORLDS: Final = 48  # worlds for a decision (the search races candidates out before that)
TRICK_WORLDS: Final = 24  # worlds on which the card played and the preferred one are counted


@dataclass(frozen=True, slots=True)
class Evaluation:
    """The search's view of one decision: per choice it valued, the expected value a deal for
    the seat's side (points), and for cards the side's expected tricks."""

    preferred: Action
    points: dict[Action, float]
    tricks: dict[Action, float] | None
    samples: int

    def loss(self, actual: Action) -> tuple[float, float | None]:
        """(points, tricks) the choice made is expected to cost against the preferred one."""
        lost = self.points[self.preferred] - self.points[actual]
        if self.tricks is None:
            return lost, None
        return lost, self.tricks[self.preferred] - self.tricks[actual]


def _no_clock() -> float:
    return 0.0


def evaluate(
    view: SeatView, actual: Action, rng: random.Random, worlds: int = CARD_WORLDS
) -> Evaluation | None:
    """The hard player's evaluation of the decision ``view.seat`` faced, ``actual`` (the
    choice made) among the choices valued; ``None`` when there was nothing to judge (a forced
    card, a hidden hand, a New York team bid, a game the search does not play)."""
    if view.seat is None or not view.my_turn or view.rules.game != "spades":
        return None
    if len(view.legal) == 1:
        return None
    if view.phase is Phase.PLAY and isinstance(actual, Play):
        return _evaluate_play(view, actual, rng, worlds)
    if view.phase is Phase.BID and isinstance(actual, Bid):
        return _evaluate_bid(view, actual, rng, worlds)
    return None


def _evaluate_play(
    view: SeatView, actual: Play, rng: random.Random, worlds: int
) -> Evaluation | None:
    assert view.seat is not None
    me = int(view.seat)
    game = SpadesHand(view)
    lay = game.layout
    hand = lay.sim_mask(sum(c.bit for c in view.hand or ()))
    legal = 0
    for a in view.legal:
        if isinstance(a, Play):
            legal |= 1 << lay.to_sim[a.card.index]
    tricks = [[(int(s), lay.to_sim[c.index]) for s, c in tr.cards] for tr in view.completed_tricks]
    tricks.append([(int(s), lay.to_sim[c.index]) for s, c in view.current_trick])
    k = Knowledge(
        lay,
        me,
        hand,
        tricks,
        view.cards_left,
        game.table.restrict_trump_lead,
        passed=lay.sim_mask(sum(c.bit for c in view.passed)),
        partner=me ^ 2,
    )
    in_play = k.unknown | hand | k.known[me ^ 2]
    for _, c in tricks[-1]:
        in_play |= 1 << c
    cands = distinct(lay.suit_of, legal, in_play)
    if len(cands) == 1:
        return None
    sampler = Sampler(k, rng, bid_weight(view, lay))
    first = game.start(sampler.sample()).policy()  # the play-out policy's card wins ties
    rep = 0
    for j, c in enumerate(cands):
        if c <= first and lay.suit_of[c] == lay.suit_of[first]:
            rep = j
    cands.insert(0, cands.pop(rep))
    d = choose(game.start, cands, sampler, game.value, me & 1, _no_clock, 1.0, worlds)
    played = _representative(legal, lay.to_sim[actual.card.index], lay.suit_of, in_play)
    # Trick counts of the two cards that matter, on worlds of their own.
    counts = {d.best: 0.0, played: 0.0}
    for _ in range(TRICK_WORLDS):
        st = game.start(sampler.sample())
        for c in counts:
            child = st.copy()
            child.play(c)
            child.run()
            counts[c] += child.tricks[me & 1] + child.tricks[(me & 1) + 2]
    preferred: Action = PLAYS[me][lay.to_engine[d.best]]
    points: dict[Action, float] = {PLAYS[me][lay.to_engine[c]]: v for c, v in d.means.items()}
    points[actual] = d.means.get(played, min(d.means.values()))
    trick_means: dict[Action, float] = {
        preferred: counts[d.best] / TRICK_WORLDS,
        actual: counts[played] / TRICK_WORLDS,
    }
    return Evaluation(preferred, points, trick_means, d.worlds)


def _representative(legal: int, card: int, suit_of: tuple[int, ...], in_play: int) -> int:
    """The candidate standing for ``card``: the lowest of its run of touching cards, as
    :func:`bot.ai.search.solver.distinct` merges them."""
    head = prev = -1
    m = legal
    while m:
        low = m & -m
        c = low.bit_length() - 1
        touching = prev >= 0 and suit_of[prev] == suit_of[c]
        if not (touching and not in_play & ((1 << c) - (2 << prev))):
            head = c
        if c == card:
            return head
        prev = c
        m ^= low
    raise ValueError("the card played was not playable")


def _evaluate_bid(
    view: SeatView, actual: Bid, rng: random.Random, worlds: int
) -> Evaluation | None:
    """Every legal bid valued on the same worlds, as :func:`bot.ai.search.bidding.choose_bid`
    values them; the hard player's bid is the best, shaded as it shades it."""
    assert view.seat is not None
    if view.rules.new_york or view.hand_hidden or view.hand is None or actual.blind:
        return None  # team bids and blind decisions: not the bidding model's
    me = int(view.seat)
    lay = SpadesHand.layout_of(view.rules)
    values = {a.value for a in view.legal if isinstance(a, Bid) and not a.blind}
    engine_hand = sum(c.bit for c in view.hand)
    est = estimate_tricks(view.rules.deck, engine_hand)
    base = max(1, min(13, int(est + 0.5)))
    levels = [b for b in (base - 1, base, base + 1) if 1 <= b <= 13]
    cands = sorted(v for v in values if v > 0)
    nil = bidding.NIL_BIDS and NIL in values
    order = ([NIL] if nil else []) + cands
    totals = dict.fromkeys(order, 0.0)
    k = Knowledge(lay, me, lay.sim_mask(engine_hand), [], view.cards_left, True)
    sampler = Sampler(k, rng, bid_weight(view, lay))
    lead = bidding._order(view)[0]
    for _ in range(worlds):
        hands = sampler.sample()
        outcomes = {}
        for lv in levels:
            bids = bidding._fill_bids(view, lay, hands, lv)
            st = SpadesHand(view, bids=bids).start(hands.copy(), turn=lead)
            st.run()
            outcomes[lv] = (st.tricks, st.extra, bids)
        for b in cands:
            tricks, extra, bids = outcomes[min(levels, key=lambda x: (abs(x - b), x))]
            mine = list(bids)
            mine[me] = b
            totals[b] += SpadesHand(view, bids=tuple(mine)).value(tricks, extra)
        if nil:
            filled = bidding._fill_bids(view, lay, hands, NIL)
            totals[NIL] += bidding._play_out(view, hands.copy(), filled) - bidding.NIL_CALIBRATION
    best = max(order, key=lambda b: totals[b])
    if best > 0:
        best = max(min(cands), best - bidding.SHADE)
    points: dict[Action, float] = {Bid(view.seat, b): t / worlds for b, t in totals.items()}
    if actual not in points:
        return None
    return Evaluation(Bid(view.seat, best), points, None, worlds)
