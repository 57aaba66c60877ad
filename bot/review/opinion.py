"""The hard computer player's opinion of one decision, from the deciding seat's view only.

:func:`evaluate` asks the ``hard`` player's search what it would have done at that moment and
what every choice was worth to it: for a card, each distinct playable card is tried on the same
sampled deals of the hidden cards (deals consistent with what the seat had seen), the rest of
the hand played out (or solved exactly near its end) and valued in points for the seat's team;
for a bid, the hard player's candidate bids and the bid made are played out the same way.  The
preferred choice is the hard player's own (its rule that a searched card must beat the
``normal`` policy's by a margin included), so the review says what ``hard`` really would do.

This mirrors :meth:`bot.ai.hard.HardPlayer.play` and ``.bid`` with the values kept; it moves
onto the hard player's public evaluation once that exists (see the notice board).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from bot.ai.bidding import choose_bid, estimate_tricks, individual_bid
from bot.ai.core import DeckInfo, HandSpec, Knowledge, bits, distinct_cards, equivalent
from bot.ai.hard import (
    ANCHOR,
    BID_MARGIN,
    EXACT_CARDS,
    MAX_SAMPLES,
    MIN_SAMPLES,
    HandValue,
    Sampler,
    _sim_base,
    sample_count,
)
from bot.ai.players import hand_spec, normal_play
from bot.ai.sim import SimState, solve
from bot.engine import NIL, PLAYS, Action, Bid, Play, SeatView
from bot.engine.game import Phase


@dataclass(frozen=True, slots=True)
class Evaluation:
    """The search's view of one decision: per distinct choice, the expected points a deal
    for the seat's team (and, for cards, the team's expected tricks)."""

    preferred: Action
    points: dict[Action, float]
    tricks: dict[Action, float] | None
    samples: int

    def loss(self, actual: Action) -> tuple[float, float | None]:
        """(points, tricks) the actual choice is expected to cost against the preferred one."""
        key = self._class_of(actual)
        lost = self.points[self.preferred] - self.points[key]
        if self.tricks is None:
            return lost, None
        return lost, self.tricks[self.preferred] - self.tricks[key]

    def _class_of(self, actual: Action) -> Action:
        if actual in self.points:
            return actual
        raise KeyError(actual)


def evaluate(
    view: SeatView, actual: Action, rng: random.Random, budget_s: float
) -> Evaluation | None:
    """The hard player's evaluation of the decision ``view.seat`` faced, with ``actual`` (the
    choice made) among the choices valued; ``None`` when there was nothing to choose (a
    forced card, a hidden hand, a team bid)."""
    if view.seat is None or not view.my_turn or view.rules.game != "spades":
        return None  # the hard player's search knows Spades only
    if view.phase is Phase.PLAY and isinstance(actual, Play):
        return _evaluate_play(view, actual, rng, budget_s)
    if view.phase is Phase.BID and isinstance(actual, Bid):
        return _evaluate_bid(view, actual, rng, budget_s)
    return None


def _evaluate_play(
    view: SeatView, actual: Play, rng: random.Random, budget_s: float
) -> Evaluation | None:
    assert view.seat is not None
    k = Knowledge(view)
    d = k.d
    me = k.seat
    legal = 0
    for a in view.legal:
        if isinstance(a, Play):
            legal |= 1 << a.card.index
    in_play = k.hand | k.unknown
    for _, c in view.current_trick:
        in_play |= 1 << c.index
    cands = distinct_cards(d, legal, in_play)
    if len(cands) == 1:
        return None
    spec = hand_spec(view)
    value = HandValue(view, spec, me & 1)
    base = _sim_base(view, d, spec)
    plays_left = sum(view.cards_left)
    n = sample_count(budget_s, len(cands), plays_left, MIN_SAMPLES, MAX_SAMPLES)
    exact = plays_left <= EXACT_CARDS
    sampler = Sampler(k, view, rng)
    totals = [0.0] * len(cands)
    tricks = [0.0] * len(cands)
    deadline = time.thread_time() + 3 * budget_s
    done = 0
    team = me & 1
    for _ in range(n):
        hands = sampler.sample()
        done += 1
        for j, idx in enumerate(cands):
            st = base.copy()
            st.hands = hands.copy()
            st.play(idx)
            if exact:
                totals[j] += solve(st, team, value)
            st.rollout()
            if not exact:
                totals[j] += value(st.tricks, st.jokers)
            tricks[j] += st.tricks[team] + st.tricks[team + 2]
        if time.thread_time() > deadline:
            break
    best = max(range(len(cands)), key=lambda j: (totals[j], -j))
    pick = normal_play(view)
    assert isinstance(pick, Play)
    for j, idx in enumerate(cands):
        if idx == pick.card.index or equivalent(d, idx, pick.card.index, in_play):
            if totals[best] - totals[j] < ANCHOR * done:
                best = j
            break
    choices: list[Action] = [PLAYS[me][idx] for idx in cands]
    points = {a: totals[j] / done for j, a in enumerate(choices)}
    expected = {a: tricks[j] / done for j, a in enumerate(choices)}
    # The card played is valued as its group of touching cards (the search tries the lowest).
    stands_for = PLAYS[me][_group_of(d, legal, in_play, actual.card.index)]
    points[actual] = points[stands_for]
    expected[actual] = expected[stands_for]
    return Evaluation(choices[best], points, expected, done)


def _group_of(d: DeckInfo, legal: int, in_play: int, index: int) -> int:
    """The card standing for ``index`` among the distinct cards of ``legal``: the lowest of
    its run of equivalent cards (as :func:`bot.ai.core.distinct_cards` merges them)."""
    head = prev = -1
    for i in sorted(bits(legal), key=lambda x: d.power[x]):
        if prev < 0 or not equivalent(d, prev, i, in_play):
            head = i
        if i == index:
            return head
        prev = i
    raise ValueError("the card played was not playable")


def _evaluate_bid(
    view: SeatView, actual: Bid, rng: random.Random, budget_s: float
) -> Evaluation | None:
    assert view.seat is not None
    if view.rules.new_york or view.hand_hidden or view.hand is None or actual.blind:
        return None
    normal = choose_bid(view)
    if not isinstance(normal, Bid):
        return None
    seat = int(view.seat)
    rules = view.rules
    nb = normal.value
    values = {a.value for a in view.legal if isinstance(a, Bid) and not a.blind}
    k = Knowledge(view)
    if nb == NIL:
        cands = [NIL, max(1, int(estimate_tricks(rules.deck, k.hand) + 0.5))]
    else:
        cands = [nb, *(v for v in (nb - 1, nb + 1) if v >= 1 and v in values)]
    hard_count = len(cands)
    n = sample_count(budget_s, hard_count, 52, MIN_SAMPLES, MAX_SAMPLES)
    if actual.value not in cands:
        cands.append(actual.value)
    sampler = Sampler(k, view, rng)
    order = [(int(view.dealer) + 1 + j) & 3 for j in range(4)]
    totals = [0.0] * len(cands)
    deadline = time.thread_time() + 3 * budget_s
    done = 0
    for _ in range(n):
        hands = sampler.sample()
        done += 1
        for j, cb in enumerate(cands):
            bids: list[int | None] = list(view.bids)
            bids[seat] = cb
            prev = 0
            for s in order:
                b = bids[s]
                if b is None:
                    b = individual_bid(rules, hands[s], bids[s ^ 2], prev)
                    bids[s] = b
                if b > 0:
                    prev += b
            full = tuple(bids)
            spec = HandSpec.from_bids(rules, full, (None, None), view.hand_number)
            st = SimState(k.d, spec, hands.copy(), order[0], [], False, [0, 0, 0, 0], [0, 0])
            st.rollout()
            totals[j] += HandValue(view, spec, seat & 1, full)(st.tricks, st.jokers)
        if time.thread_time() > deadline:
            break
    best = max(range(hard_count), key=lambda j: (totals[j], -j))
    if totals[best] - totals[0] < BID_MARGIN * max(1, done):
        best = 0
    choices: list[Action] = [Bid(view.seat, v) for v in cands]
    return Evaluation(
        choices[best], {a: totals[j] / done for j, a in enumerate(choices)}, None, done
    )
