"""Spades for the search: the table, the goals of the play-out policy, the value of a hand.

The value of a finished hand is computed by the engine's own scoring
(:func:`~bot.engine.scoring.score_individual`, :func:`~bot.engine.scoring.score_new_york`) and
game-end rule (:func:`~bot.engine.game.decide_game`), then turned into one number by
:mod:`bot.ai.search.utility` (the chance of winning the game, in points).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import cast

from bot.ai.rule_bidding import estimate_tricks
from bot.ai.search.layout import SPADES_LAYOUTS, Layout
from bot.ai.search.sim import SearchRules, State
from bot.ai.search.utility import Utility
from bot.engine.actions import BLIND_NIL, NIL
from bot.engine.cards import BIG_JOKER, LITTLE_JOKER
from bot.engine.game import Game
from bot.engine.lines import Line
from bot.engine.rules import Rules
from bot.engine.scoring import TeamHandScore
from bot.engine.seats import Seat, Team
from bot.engine.spades.game import SpadesGame
from bot.engine.spades.scoring import score_individual, score_new_york
from bot.engine.spades.view import SpadesPart
from bot.engine.views import SeatView

# A side that has made its bid still fights for the set this close, in the play-outs (why not
# normal's 2: bot/ai/hand_goals.py, NORMAL_PUSH_SET_TRICKS).
SEARCH_PUSH_SET_TRICKS = 4


class SpadesHand:
    """One hand of Spades as the search sees it, from a seat's view (and, for bidding,
    bids the searcher imagines)."""

    def __init__(
        self,
        view: SeatView,
        bids: Sequence[int | None] | None = None,
        team_bids: Sequence[int | None] | None = None,
    ) -> None:
        assert view.seat is not None
        rules = view.rules
        self.view = view
        self.rules = rules
        self.me = int(view.seat)
        self.layout: Layout = SPADES_LAYOUTS[rules.deck]
        self.ny = rules.new_york
        part = view.part_as(SpadesPart)
        self.bids = tuple(part.bids if bids is None else bids)
        tb = part.team_bids
        if team_bids is None:
            team_bids = (tb[0].value if tb[0] else None, tb[1].value if tb[1] else None)
        self.team_bids = tuple(team_bids)
        self.ny_blind = tuple(bool(b and b.blind) for b in tb)
        self.ny_first = self.ny and view.hand_number == 1
        b = [x if x is not None else 1 for x in self.bids]
        self.nil = tuple(not self.ny and x <= NIL for x in b)
        if self.ny:
            contract = list(self.team_bids)
            self.ny_max = tuple(13 if c is None or c >= 10 else c + 2 for c in contract)
        else:
            contract = []
            for team in (0, 1):
                c = sum(x for x in (b[team], b[team + 2]) if x > 0)
                contract.append(c if c > 0 else None)
            self.ny_max = (13, 13)
        self.contract = tuple(contract)
        self.count_nil = rules.nil_tricks == "contract"
        lay = self.layout
        bonus_cards = 0
        if rules.joker_bonus:
            self.lj = lay.to_sim[LITTLE_JOKER]
            self.bj = lay.to_sim[BIG_JOKER]
            bonus_cards = (1 << self.lj) | (1 << self.bj)
        self.table = SearchRules(
            lay,
            team_of=(0, 1, 0, 1),
            partner=(2, 3, 0, 1),
            active=(0, 1, 2, 3),
            tricks_per_hand=13,
            restrict_trump_lead=True,
            goals=self.goals,
            bonus_cards=bonus_cards,
            bonus=self.jokers,
        )
        self.utility = Utility.of_view(view)
        self._memo: dict[tuple[int | None, ...], float] = {}

    # ------------------------------------------------------------------ play-out goals
    def counted(self, team: int, tricks: Sequence[int]) -> int:
        total = 0
        for s in (team, team + 2):
            if self.count_nil or not self.nil[s]:
                total += tricks[s]
        return total

    def goals(self, tricks: Sequence[int], left: int) -> tuple[list[bool], list[bool]]:
        """Which team wants tricks (:func:`~bot.ai.hand_goals.wants_tricks` with
        ``SEARCH_PUSH_SET_TRICKS``, written out here because every trick of every play-out asks
        it; ``tests/ai/test_search.py`` checks the two agree) and which nils still stand."""
        n = self.nil
        t0, t1, t2, t3 = tricks
        nil = [n[0] and not t0, n[1] and not t1, n[2] and not t2, n[3] and not t3]
        if self.count_nil:
            taken_by = (t0 + t2, t1 + t3)
        else:
            taken_by = (
                (0 if n[0] else t0) + (0 if n[2] else t2),
                (0 if n[1] else t1) + (0 if n[3] else t3),
            )
        want = [False, False]
        for team in (0, 1):
            c = self.contract[team]
            taken = taken_by[team]
            if self.ny_first:
                w = True
            elif c is None:
                w = False
            else:
                w = taken < c
            if not w and not self.ny_first:
                oc = self.contract[team ^ 1]
                if oc is not None:
                    oneed = oc - taken_by[team ^ 1]
                    must = left - oneed + 1
                    if oneed > 0 and 0 < must <= SEARCH_PUSH_SET_TRICKS:
                        w = not self.ny or (c is not None and taken + must <= self.ny_max[team])
            want[team] = w
        return want, nil

    def jokers(self, trick: int, winner: int, seat_of: dict[int, int]) -> list[int]:
        out = [0, 0]
        for c, pts in ((self.bj, 2), (self.lj, 1)):
            if trick >> c & 1:
                out[winner & 1] += pts
                if seat_of[c] != winner:
                    out[seat_of[c] & 1] -= 2
        return out

    # ------------------------------------------------------------------ value
    def team_scores(
        self,
        tricks: Sequence[int],
        extra: Sequence[int],
        bids: Sequence[int | None] | None = None,
    ) -> tuple[TeamHandScore, TeamHandScore]:
        """The engine's score of the hand for both teams (``bids``: other individual bids than
        the hand's, for bidding)."""
        v = self.view
        if bids is None:
            bids = self.bids
        out = []
        for t in (0, 1):
            if self.ny:
                out.append(
                    score_new_york(
                        self.team_bids[t],
                        self.ny_blind[t],
                        tricks[t] + tricks[t + 2],
                        v.scores[t],
                        extra[t],
                    )
                )
            else:
                ba, bb = bids[t], bids[t + 2]
                out.append(
                    score_individual(
                        self.rules,
                        (ba if ba is not None else 1, bb if bb is not None else 1),
                        (tricks[t], tricks[t + 2]),
                        v.scores[t],
                        v.bag_counts[t],
                        extra[t],
                    )
                )
        return out[0], out[1]

    def value(self, tricks: list[int], extra: list[int]) -> float:
        """The searching seat's side's utility of a finished hand (memoised)."""
        key = (*tricks, *extra)
        v = self._memo.get(key)
        if v is None:
            v = self._value(tricks, extra)
            self._memo[key] = v
        return v

    def value_with_bids(
        self, bids: Sequence[int | None], tricks: Sequence[int], extra: Sequence[int]
    ) -> float:
        """The utility of a finished hand had the bids been ``bids`` (memoised)."""
        key = (*bids, *tricks, *extra)
        v = self._memo.get(key)
        if v is None:
            v = self._value(tricks, extra, bids)
            self._memo[key] = v
        return v

    def _value(
        self,
        tricks: Sequence[int],
        extra: Sequence[int],
        bids: Sequence[int | None] | None = None,
    ) -> float:
        res = self.team_scores(tricks, extra, bids)
        view = self.view
        streak = [0, 0]
        if view.results:
            last = view.results[-1].teams
            streak = [int(last[0].was_set), int(last[1].was_set)]
        scores = [res[0].score, res[1].score]
        total_bags = [view.total_bags[t] + res[t].bags for t in (0, 1)]
        set_streak = [streak[t] + 1 if res[t].was_set else 0 for t in (0, 1)]
        winner, _ = decide_game(self.rules, scores, res, total_bags, set_streak)
        team = self.me & 1
        return self.utility.of_scores(
            team,
            (res[0].score, res[1].score),
            (res[0].bag_count, res[1].bag_count),
            None if winner is None else int(winner),
        )

    # ------------------------------------------------------------------ states
    @staticmethod
    def layout_of(rules: Rules) -> Layout:
        return SPADES_LAYOUTS[rules.deck]

    def start(self, hands: list[int], turn: int | None = None) -> State:
        """The current position of the view with these (search-numbered) hands; with
        ``turn``, the start of the play with that seat to lead (for bidding)."""
        if turn is not None:
            return State(self.table, hands, turn, [], False, [0, 0, 0, 0], [0, 0])
        view = self.view
        lay = self.layout
        trick = [(int(s), lay.to_sim[c.index]) for s, c in view.current_trick]
        assert view.to_act is not None
        extra = [0, 0]
        if self.rules.joker_bonus:
            for t in view.completed_tricks:
                m = 0
                seat_of = {}
                for s, c in t.cards:
                    p = lay.to_sim[c.index]
                    m |= 1 << p
                    seat_of[p] = int(s)
                if m & self.table.bonus_cards:
                    for k, x in enumerate(self.jokers(m, int(t.winner), seat_of)):
                        extra[k] += x
        return State(
            self.table,
            hands,
            int(view.to_act),
            trick,
            view.part_as(SpadesPart).spades_broken,
            list(view.tricks_won),
            extra,
        )


BID_SIGMA = 1.3  # how far (in tricks) a bid strays from what its hand is worth


def bid_weight(view: SeatView, lay: Layout) -> Callable[[list[int]], float] | None:
    """How well a world's hands explain the bids made (None: no bid to explain).

    A hand's worth is the ``normal`` bidder's trick estimate of the cards it was dealt (its
    cards now plus those it played, less those it was passed); a bid ``b`` is likely to within
    ``BID_SIGMA`` tricks; a nil bid only says the hand is weak."""
    if view.rules.new_york or view.seat is None:
        return None
    me = int(view.seat)
    deck = view.rules.deck
    played = [0, 0, 0, 0]
    for s, c in view.plays:
        played[int(s)] |= 1 << lay.to_sim[c.index]
    part = view.part_as(SpadesPart)
    received = lay.sim_mask(sum(c.bit for c in part.passed))
    seats = [
        (s, b) for s, b in enumerate(part.bids) if s != me and b is not None and b != BLIND_NIL
    ]
    if not seats:
        return None
    two_sigma2 = 2 * BID_SIGMA * BID_SIGMA

    def weight(hands: list[int]) -> float:
        w = 0.0
        for s, b in seats:
            dealt = hands[s] | played[s]
            if s == me ^ 2:
                dealt &= ~received
            est = estimate_tricks(deck, lay.engine_mask(dealt))
            gap = max(0.0, est - 1.0) if b == NIL else est - b
            w += gap * gap
        return math.exp(-w / two_sigma2)

    return weight


def decide_game(
    rules: Rules,
    scores: Sequence[int],
    teams: Sequence[TeamHandScore],
    total_bags: Sequence[int],
    set_streak: Sequence[int],
) -> tuple[Team | Seat | None, Line | None]:
    """The engine's own end-of-game rule (``SpadesGame._decide``) asked of an imagined hand:
    a bare game object carrying only what that rule reads."""
    g = cast(SpadesGame, Game.__new__(SpadesGame, rules))  # allocated only
    g.rules = rules
    g.scores = list(scores)
    g.total_bags = list(total_bags)
    g.set_streak = list(set_streak)
    return SpadesGame._decide(g, list(teams))
