"""The ``hard`` level: perfect-information Monte Carlo over sampled deals.

For a card decision the player samples deals of the hidden cards consistent with everything
its seat has seen (cards played, voids shown, spade leads before spades broke, cards it passed),
weighting them by how well each hand explains its owner's bid (soft evidence).  Every distinct
candidate card (touching cards are merged) is tried on every sample: the rest of the hand is
played out by the ``normal`` policy reading the sampled hands, or solved exactly by minimax when
few cards are left, and scored on the hand's real points for both teams: contract, bags (each
charged its share of the next bag penalty once the team's contract is made), nils, and a bonus
when the hand wins or loses the game.  The search's card replaces the ``normal`` policy's card
only when it is better by :data:`ANCHOR` points a deal, so sampling noise cannot overturn sound
play.

Bids come from the ``normal`` bidder, checked by simulation: the normal bid and one more and one
less are played out on sampled deals (the other seats' missing bids filled in by the normal
bidder); another bid replaces the normal one only when better by :data:`BID_MARGIN`.

The number of samples follows the time budget through a fixed cost model (no clock), so a
decision depends only on the view and the seed; a CPU-time guard at three times the budget
stops a search that runs far over its model.
"""

from __future__ import annotations

import math
import random
import time
from typing import Final

from benchmarks.prev_hard.bidding import choose_bid, choose_pass, estimate_tricks, individual_bid
from benchmarks.prev_hard.core import (
    DeckInfo,
    HandSpec,
    Knowledge,
    bits,
    distinct_cards,
    equivalent,
)
from benchmarks.prev_hard.normal import hand_spec, normal_play
from benchmarks.prev_hard.sim import SimState, solve
from bot.engine.actions import BLIND_NIL, NIL, PLAYS, Action, Bid, Play
from bot.engine.game import Phase
from bot.engine.rules import Rules
from bot.engine.scoring import WINS, TeamHandScore
from bot.engine.spades.scoring import score_individual, score_new_york
from bot.engine.views import SeatView

# Cost model (seconds) used to turn a budget into a sample count; measured on one core.
PLAY_COST_S: Final = 9e-6
SAMPLE_COST_S: Final = 150e-6
MIN_SAMPLES: Final = 6
MAX_SAMPLES: Final = 300
EXACT_CARDS: Final = 8  # solve exactly when this few cards are left in the hands
GAME_BONUS: Final = 400.0  # the value of winning (or not losing) the game with this hand
BID_SIGMA: Final = 1.3
# A searched card replaces the normal policy's only when better by this many points a deal,
# and a searched bid the normal bid by BID_MARGIN: sampling noise must not overturn sound play.
ANCHOR: Final = 5.0
BID_MARGIN: Final = 8.0


class Sampler:
    """Deals of the hidden cards consistent with a seat's knowledge, bid-weighted."""

    def __init__(self, k: Knowledge, view: SeatView, rng: random.Random) -> None:
        self.k = k
        self.rng = rng
        self.d = k.d
        self.me = k.seat
        known_all = k.known[0] | k.known[1] | k.known[2] | k.known[3]
        self.pool = bits(k.unknown & ~known_all)
        self.need = [view.cards_left[s] - k.known[s].bit_count() for s in range(4)]
        self.need[self.me] = 0
        self.eligible: list[list[int]] = []
        for i in self.pool:
            suit = self.d.suit_of[i]
            self.eligible.append(
                [s for s in range(4) if s != self.me and not k.voids[s] >> suit & 1]
            )
        order = sorted(range(len(self.pool)), key=lambda j: len(self.eligible[j]))
        self.order = order
        # Cards each seat has played this hand (to rebuild its hand as it was when bidding).
        self.played_by = [0, 0, 0, 0]
        for who, card in view.plays:
            self.played_by[who] |= 1 << card.index
        self.bids: list[int | None] = [None] * 4
        if not view.rules.new_york:
            for s in range(4):
                b = view.bids[s]
                if s != self.me and b is not None:
                    self.bids[s] = b
        self.deck = view.rules.deck
        self.received_by_partner = 0
        for c in view.passed:
            self.received_by_partner |= 1 << c.index

    def _deal_once(self) -> list[int] | None:
        rng = self.rng
        pool = self.pool
        need = self.need.copy()
        hands = [self.k.known[s] for s in range(4)]
        hands[self.me] = self.k.hand
        # Shuffle, then place the most constrained cards first.
        idx = list(range(len(pool)))
        rng.shuffle(idx)
        idx.sort(key=lambda j: len(self.eligible[j]))
        for j in idx:
            el = [s for s in self.eligible[j] if need[s] > 0]
            if not el:
                return None
            total = sum(need[s] for s in el)
            r = rng.random() * total
            pick = el[-1]
            for s in el:
                r -= need[s]
                if r < 0:
                    pick = s
                    break
            need[pick] -= 1
            hands[pick] |= 1 << pool[j]
        return hands

    def _weight(self, hands: list[int]) -> float:
        w = 1.0
        for s in range(4):
            b = self.bids[s]
            if b is None or b == BLIND_NIL:
                continue
            original = hands[s] | self.played_by[s]
            if s == self.me ^ 2:
                original &= ~self.received_by_partner
            est = estimate_tricks(self.deck, original)
            gap = max(0.0, est - 1.0) if b == NIL else est - b
            w *= math.exp(-(gap * gap) / (2 * BID_SIGMA * BID_SIGMA))
        return w

    def sample(self) -> list[int]:
        best: list[int] | None = None
        best_w = -1.0
        for _ in range(12):
            hands = self._deal_once()
            if hands is None:
                continue
            w = self._weight(hands)
            if self.rng.random() < w:
                return hands
            if w > best_w:
                best, best_w = hands, w
        if best is not None:
            return best
        return self._fallback()

    def _fallback(self) -> list[int]:
        """Ignore voids (only when the constraints could not be met by chance)."""
        pool = self.pool.copy()
        self.rng.shuffle(pool)
        hands = [self.k.known[s] for s in range(4)]
        hands[self.me] = self.k.hand
        pos = 0
        for s in range(4):
            for _ in range(self.need[s]):
                hands[s] |= 1 << pool[pos]
                pos += 1
        return hands


class HandValue:
    """The value of a finished hand for one team: its points minus the opponents', plus the
    game it wins or loses; memoised on the tricks taken."""

    def __init__(
        self,
        view: SeatView,
        spec: HandSpec,
        team: int,
        bids: tuple[int | None, ...] | None = None,
    ) -> None:
        self.rules: Rules = view.rules
        self.spec = spec
        self.team = team
        self.scores = view.scores
        self.bag_counts = view.bag_counts
        self.bids = view.bids if bids is None else bids
        self.team_bids = view.team_bids
        self.prev_set = [False, False]
        if view.results:
            last = view.results[-1]
            self.prev_set = [last.teams[0].was_set, last.teams[1].was_set]
        self.memo: dict[tuple[int, ...], float] = {}
        # Bags are charged their share of the next penalty only once a team's contract is made:
        # before that, an overtrick is a trick toward the contract.
        self.bag_cost = [0.0, 0.0]
        if self.rules.bag_limit and self.rules.bag_penalty and not spec.ny:
            for t in (0, 1):
                c = spec.contract[t]
                if c is None or spec.counted(t, view.tricks_won) >= c:
                    self.bag_cost[t] = self.rules.bag_penalty / self.rules.bag_limit

    def __call__(self, tricks: list[int], jokers: list[int]) -> float:
        key = (*tricks, *jokers)
        v = self.memo.get(key)
        if v is None:
            v = self._value(tricks, jokers)
            self.memo[key] = v
        return v

    def _value(self, tricks: list[int], jokers: list[int]) -> float:
        r = self.rules
        res = []
        for t in (0, 1):
            if r.new_york:
                tb = self.team_bids[t]
                res.append(
                    score_new_york(
                        tb.value if tb else None,
                        tb.blind if tb else False,
                        tricks[t] + tricks[t + 2],
                        self.scores[t],
                        jokers[t],
                    )
                )
            else:
                ba = self.bids[t]
                bb = self.bids[t + 2]
                res.append(
                    score_individual(
                        r,
                        (ba if ba is not None else 1, bb if bb is not None else 1),
                        (tricks[t], tricks[t + 2]),
                        self.scores[t],
                        self.bag_counts[t],
                        jokers[t],
                    )
                )
        me, opp = res[self.team], res[self.team ^ 1]
        value = float(me.points - opp.points)
        t = self.team
        # A bag brings the next penalty nearer: amortise it (bag_penalty / bag_limit each).
        value -= self.bag_cost[t] * (me.bag_count - self.bag_counts[t])
        value += self.bag_cost[t ^ 1] * (opp.bag_count - self.bag_counts[t ^ 1])
        win = self._winner(res)
        if win is not None:
            value += GAME_BONUS if win == self.team else -GAME_BONUS
        return value

    def _winner(self, res: list[TeamHandScore]) -> int | None:
        claims = set()
        scores = []
        for t, x in enumerate(res):
            scores.append(x.score)
            if x.event == WINS:
                claims.add(t)
            elif x.event is not None:
                claims.add(t ^ 1)
            if self.rules.new_york and x.was_set and self.prev_set[t]:
                claims.add(t ^ 1)
        if len(claims) == 1:
            return claims.pop()
        lose_at = self.rules.lose_at
        if lose_at is not None:
            down = [t for t in (0, 1) if scores[t] <= lose_at]
            if len(down) == 1:
                return down[0] ^ 1
        if max(scores) >= self.rules.target and scores[0] != scores[1]:
            return 0 if scores[0] > scores[1] else 1
        return None


def _sim_base(view: SeatView, d: DeckInfo, spec: HandSpec) -> SimState:
    jokers = [0, 0]
    if view.rules.joker_bonus:
        for t in view.completed_tricks:
            w = int(t.winner)
            for s, c in t.cards:
                if c.index == 53:
                    jokers[w & 1] += 2
                elif c.index == 52:
                    jokers[w & 1] += 1
                else:
                    continue
                if int(s) != w:
                    jokers[int(s) & 1] -= 2
    assert view.to_act is not None
    return SimState(
        d,
        spec,
        [0, 0, 0, 0],
        int(view.to_act),
        [(int(s), c.index) for s, c in view.current_trick],
        view.spades_broken,
        list(view.tricks_won),
        jokers,
    )


def sample_count(
    budget_s: float,
    n_moves: int,
    plays_left: int,
    lo: int = MIN_SAMPLES,
    hi: int = MAX_SAMPLES,
) -> int:
    """Samples that fit the budget by the cost model (deterministic: no clock involved)."""
    per_sample = SAMPLE_COST_S + n_moves * max(1, plays_left) * PLAY_COST_S
    return max(lo, min(hi, int(budget_s / per_sample)))


class HardPlayer:
    """Perfect-information Monte Carlo with ``normal`` roll-outs and an exact endgame."""

    level = "hard"

    def __init__(
        self,
        min_samples: int = MIN_SAMPLES,
        max_samples: int = MAX_SAMPLES,
        blind_rollouts: bool = False,
        sim_bids: bool = True,
        anchor: float = ANCHOR,
        bid_margin: float = BID_MARGIN,
    ) -> None:
        self.min_samples = min_samples
        self.max_samples = max_samples
        self.blind_rollouts = blind_rollouts
        self.sim_bids = sim_bids
        # Keep the normal policy's card unless another is better by this many points a deal.
        self.anchor = anchor
        self.bid_margin = bid_margin

    def decide(self, view: SeatView, rng: random.Random, budget_s: float) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if view.phase is Phase.BID:
            return self.bid(view, rng, budget_s)
        if view.phase is Phase.PASS:
            return choose_pass(view)
        return self.play(view, rng, budget_s)

    def bid(self, view: SeatView, rng: random.Random, budget_s: float) -> Action:
        """The normal bid, checked by simulation: the normal bid, one more, one less and (for
        a weak hand) nil are each played out on sampled deals, the other seats' missing bids
        filled in by the normal bidder, and the best on average is bid."""
        action = choose_bid(view)
        if (
            not self.sim_bids
            or view.rules.new_york
            or view.hand_hidden
            or view.hand is None
            or not isinstance(action, Bid)
            or view.seat is None
        ):
            return action
        seat = int(view.seat)
        rules = view.rules
        nb = action.value
        values = {a.value for a in view.legal if isinstance(a, Bid) and not a.blind}
        k = Knowledge(view)
        est = estimate_tricks(rules.deck, k.hand)
        if nb == NIL:
            cands = [NIL, max(1, int(est + 0.5))]
        else:
            # Nil only ever comes from the normal bidder's checklist (roll-outs where every
            # seat sees every card overrate nil).
            cands = [nb, *(v for v in (nb - 1, nb + 1) if v >= 1 and v in values)]
        n = sample_count(budget_s, len(cands), 52, self.min_samples, self.max_samples)
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
                st.blind = self.blind_rollouts
                st.rollout()
                totals[j] += HandValue(view, spec, seat & 1, full)(st.tricks, st.jokers)
            if time.thread_time() > deadline:
                break
        best = max(range(len(cands)), key=lambda j: (totals[j], -j))
        # The normal bid (first candidate) stands unless another is clearly better.
        if totals[best] - totals[0] < self.bid_margin * max(1, done):
            best = 0
        return Bid(view.seat, cands[best])

    def play(self, view: SeatView, rng: random.Random, budget_s: float) -> Action:
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
            in_play |= 1 << c.index  # cards on the table still decide this trick
        cands = distinct_cards(d, legal, in_play)
        if len(cands) == 1:
            return PLAYS[me][cands[0]]
        spec = hand_spec(view)
        value = HandValue(view, spec, me & 1)
        base = _sim_base(view, d, spec)
        base.blind = self.blind_rollouts
        plays_left = sum(view.cards_left)
        n = sample_count(budget_s, len(cands), plays_left, self.min_samples, self.max_samples)
        exact = plays_left <= EXACT_CARDS
        sampler = Sampler(k, view, rng)
        totals = [0.0] * len(cands)
        deadline = time.thread_time() + 3 * budget_s
        done = 0
        for _ in range(n):
            hands = sampler.sample()
            done += 1
            for j, idx in enumerate(cands):
                st = base.copy()
                st.hands = hands.copy()
                st.play(idx)
                if exact:
                    totals[j] += solve(st, me & 1, value)
                else:
                    st.rollout()
                    totals[j] += value(st.tricks, st.jokers)
            if time.thread_time() > deadline:
                break
        best = max(range(len(cands)), key=lambda j: (totals[j], -j))
        if self.anchor > 0 and done:
            pick = normal_play(view)
            assert isinstance(pick, Play)
            for j, idx in enumerate(cands):
                if idx == pick.card.index or equivalent(d, idx, pick.card.index, in_play):
                    if totals[best] - totals[j] < self.anchor * done:
                        best = j
                    break
        return PLAYS[me][cands[best]]
