"""Spades on the shared core: bidding (individual or New York), blind nil and its card
passing, spades broken, the joker bonus, scoring and the end of the game (rules.md §3–§8, §10).

Trick play (follow suit, trick winner, turn order) is :class:`~bot.engine.tricks.TrickPlay`;
what Spades adds there is only that spades may not be led before they are broken, and the
joker bonus counted after each trick.
"""

from __future__ import annotations

import itertools
from typing import ClassVar, Final

from bot.engine.actions import (
    BIDS,
    BLIND_NIL,
    NIL,
    Action,
    Bid,
    Claim,
    ClaimResult,
    Look,
    PassCards,
)
from bot.engine.build import mypyc_attr
from bot.engine.cards import Card, cards_of, mask_of
from bot.engine.errors import (
    BlindNilNotAllowed,
    IllegalAction,
    IllegalBid,
    IllegalPass,
    MustLookFirst,
    NotYourTurn,
    SpadesNotBroken,
    WrongPhase,
)
from bot.engine.game import PHASE_REFUSAL, Game, HandResult, Phase, register_game
from bot.engine.games import GameKind
from bot.engine.lines import Line
from bot.engine.rules import RESTRICTED_BIDDING, Rules
from bot.engine.scoring import TeamHandScore
from bot.engine.seats import SEATS, Seat, Team
from bot.engine.spades.bidrules import (
    allowed_bids,
    blind_allowed,
    blind_nil_refusal,
    depends_on_spades,
    new_york_blind_refusal,
    range_refusal,
    refusal,
    unseen_bids,
    unseen_refusal,
)
from bot.engine.spades.scoring import decide_partnerships, score_individual, score_new_york
from bot.engine.spades.view import SpadesPart

NEW_YORK_BLIND_DEFICIT: Final = 100
NEW_YORK_BIDS: Final = range(4, 11)
# Phases as module names for the hot paths (see bot.engine.game).
_BID: Final = Phase.BID
_PASS: Final = Phase.PASS
_PLAY: Final = Phase.PLAY


@mypyc_attr(allow_interpreted_subclasses=True)
class SpadesGame(Game):
    """One game of Spades from the first deal to the end."""

    __slots__ = (
        "_bid_log",
        "_bid_seq",
        "_bid_step",
        "_bids",
        "_joker_points",
        "_looked",
        "_new_york",
        "_pass_step",
        "_pass_steps",
        "_passes",
        "_proposals",
        "_team_bids",
        "set_streak",
    )

    def __init__(self, rules: Rules, first_dealer: Seat = Seat.N) -> None:
        self._new_york = rules.new_york  # read on every bid: a plain slot, not the property
        super().__init__(rules, first_dealer)
        self.set_streak = [0, 0]  # New York: hands set in a row, per team

    # (solo, renege claims) -> the class that plays them; filled by bot.engine.spades.variants
    VARIANTS: ClassVar[dict[tuple[bool, bool], type[SpadesGame]]] = {}

    @classmethod
    def _variant_class(cls, rules: Rules) -> type[Game]:
        """Solo and renege claims (games.md G1, G2) play in their own subclasses."""
        return SpadesGame.VARIANTS.get((rules.solo, rules.claims), SpadesGame)

    def _partner_bid(self, seat: Seat | int) -> int | None:
        """The partner's bid (``None``: not made yet, or no partner)."""
        return self._bids[seat ^ 2]

    def spade_count(self, seat: Seat | int) -> int:
        """Spades (in the follow-suit sense: jokers, jjdd's 2♦) the seat holds now."""
        return (self._hands[seat] & self.deck.trumps).bit_count()

    def _reset_hand(self) -> None:
        super()._reset_hand()
        self._looked = [False] * 4
        self._bids: list[int | None] = [None] * 4
        self._bid_seq: tuple[int, ...] = ()
        self._bid_step = 0
        self._proposals: list[tuple[int, bool] | None] = [None, None]
        self._team_bids: list[Bid | None] = [None, None]
        self._pass_steps: list[tuple[int, int]] = []
        self._pass_step = 0
        self._passes: list[PassCards] = []
        self._joker_points = [0, 0]
        self._bid_log: list[Bid] = []

    # ------------------------------------------------------------------ queries
    @property
    def bids(self) -> tuple[int | None, ...]:
        """Individual bids by seat (``None`` = not yet bid)."""
        return tuple(self._bids)

    @property
    def bid_log(self) -> tuple[Bid, ...]:
        """Bids in the order made (New York: proposals and answers)."""
        return tuple(self._bid_log)

    @property
    def team_bids(self) -> tuple[Bid | None, Bid | None]:
        """New York: each team's final bid (``None`` until answered)."""
        return (self._team_bids[0], self._team_bids[1])

    def proposal(self, team: Team) -> tuple[int, bool] | None:
        return self._proposals[team]

    @property
    def passes(self) -> tuple[PassCards, ...]:
        return tuple(self._passes)

    @property
    def claim_results(self) -> tuple[ClaimResult, ...]:
        """games.md G1: this hand's renege claims as judged (none unless ``renege = claim``)."""
        return ()

    def claim_targets(self, seat: Seat | int) -> tuple[Seat, ...]:
        """G1: the opponents ``seat`` may claim a renege against now."""
        return ()

    def view_part(self, seat: Seat | None) -> SpadesPart:
        passed: tuple[Card, ...] = ()
        received: tuple[Card, ...] = ()
        if seat is not None:
            for p in self._passes:
                if p.seat == seat:
                    passed += p.cards
                elif p.seat == seat.partner:
                    received += p.cards
        return SpadesPart(
            hand_hidden=seat is not None and self.hand_hidden(seat),
            bids=tuple(self._bids),
            bid_log=tuple(self._bid_log),
            team_bids=(self._team_bids[0], self._team_bids[1]),
            proposals=(self._proposals[0], self._proposals[1]),
            passed=passed,
            received=received,
            blind_open=seat is not None and self.blind_open(seat),
            unseen_bids=() if seat is None else self.unseen_bids(seat),
            spades_broken=self.spades_broken,
            claims=self.claim_results,
            claim_targets=() if seat is None else self.claim_targets(seat),
        )

    def hand_so_far(self) -> HandResult:
        return self._hand_result([])

    def _hand_result(self, teams: list[TeamHandScore]) -> HandResult:
        if self._new_york:
            # records.md: the team left of the dealer bid first.
            order = ((self.dealer + 1) % 2, self.dealer % 2)
            bids = tuple(x for k in order if (x := self._team_bids[k]) is not None)
        else:
            bids = tuple(self._bid_log)
        return self._result(teams, bids=bids, passes=tuple(self._passes), claims=self.claim_results)

    def deficit(self, team: Team | int) -> int:
        """Opponents' score minus this team's, before the hand."""
        return self.scores[team ^ 1] - self.scores[team]

    def blind_open(self, seat: Seat | int) -> bool:
        """May this seat still bid blind (blind nil, or a New York blind team bid)?"""
        if self.phase is not _BID or self._looked[seat]:
            return False
        team = seat & 1
        r = self.rules
        if self._new_york:
            return (
                self.hand_number > 1
                and self._team_bids[team] is None
                and not self._looked[seat ^ 2]
                and self.deficit(team) >= NEW_YORK_BLIND_DEFICIT
            )
        if not r.blind_nil or self._bids[seat] is not None:
            return False
        if r.bidding in RESTRICTED_BIDDING and not blind_allowed(
            r.bidding, self._partner_bid(seat)
        ):
            return False
        # rules.md §10: a minimum deficit of 0 means always, even when leading.
        deficit = self.deficit(team)
        if r.blind_nil_min_deficit and deficit < r.blind_nil_min_deficit:
            return False
        if self._bids[seat ^ 2] == BLIND_NIL:
            need = r.double_blind_nil_min_deficit
            return r.double_blind_nil != "off" and (not need or deficit >= need)
        return True

    def hand_hidden(self, seat: Seat | int) -> bool:
        """True while the seat must not see its cards (blind undecided, or bid blind)."""
        if self.phase is not _BID:
            return False
        if not self._new_york and self._bids[seat] == BLIND_NIL:
            return True
        return self.blind_open(seat)

    def unseen_bids(self, seat: Seat | int) -> tuple[Bid, ...]:
        """On turn with its cards face down (blind still open): the bids ``seat`` may make by
        looking first whatever its cards, all that may be offered to it before it looks."""
        if seat != self._turn or not self.blind_open(seat):
            return ()
        r = self.rules
        top, partner = self.tricks_per_hand, self._partner_bid(seat)
        values = tuple(NEW_YORK_BIDS) if self._new_york else unseen_bids(r, top, partner)
        return tuple(Bid(SEATS[seat], v) for v in values)

    def check_unseen_bid(self, bid: Bid) -> None:
        """Refuse a bid made by looking first, cards face down, whose legality depends on
        them (Whiz: a number of spades), in the same words whatever they are."""
        r = self.rules
        top, partner = self.tricks_per_hand, self._partner_bid(bid.seat)
        face_down = bid.seat == self._turn and self.blind_open(bid.seat)
        if face_down and depends_on_spades(r, top, partner, bid.value):
            raise MustLookFirst(unseen_refusal(r.bidding))

    # ------------------------------------------------------------------ legal actions
    def _legal_decisions(self, seat: Seat) -> list[Action]:
        if self.phase is _BID:
            return self._legal_bids(seat)
        if self.phase is _PASS:
            if seat != self._pass_steps[self._pass_step][0]:
                return []
            n = self.rules.blind_nil_pass
            return [
                PassCards(seat, combo)
                for combo in itertools.combinations(cards_of(self._hands[seat]), n)
            ]
        return []

    def _legal_bids(self, seat: Seat) -> list[Action]:
        blind = self.blind_open(seat)
        if seat != self._turn:
            return [Look(seat)] if blind else []
        if self._new_york:
            if blind:
                return [*(Bid(seat, v, True) for v in NEW_YORK_BIDS), Look(seat)]
            return [Bid(seat, v) for v in NEW_YORK_BIDS]
        bids = BIDS[seat]
        if blind:
            return [bids[0], Look(seat)]  # blind nil, or look
        if self.rules.bidding in RESTRICTED_BIDDING:
            values = allowed_bids(
                self.rules.bidding,
                self.tricks_per_hand,
                self.spade_count(seat),
                self._partner_bid(seat),
            )
            return [bids[v - BLIND_NIL] for v in values]
        lowest = NIL if self.rules.nil else 1
        return list(bids[lowest - BLIND_NIL : self.tricks_per_hand + 1 - BLIND_NIL])

    # ------------------------------------------------------------------ checking
    def _check_decision(self, action: Action) -> None:
        if isinstance(action, Bid):
            self._check_bid(action)
        elif isinstance(action, Look):
            self._check_look(action.seat)
        elif isinstance(action, PassCards):
            self._check_pass(action)
        elif isinstance(action, Claim):
            raise IllegalAction(Line("Reneges are prevented at this table, so there are no claims"))
        else:
            super()._check_decision(action)

    def _lead_refusal(self) -> SpadesNotBroken:
        return SpadesNotBroken(Line("Spades are not broken yet"))

    def _check_bid(self, bid: Bid) -> None:
        if self.phase is not _BID:
            raise WrongPhase(PHASE_REFUSAL[self.phase])
        if bid.seat != self._turn:
            raise NotYourTurn(Line("It is {seat}'s turn to bid", seat=SEATS[self._turn]))
        r = self.rules
        blind_open = self.blind_open(bid.seat)
        if self._new_york:
            if bid.value not in NEW_YORK_BIDS:
                raise IllegalBid(Line("A team bid is 4 to 10 tricks"))
            if bid.blind and not blind_open:
                raise BlindNilNotAllowed(self._ny_blind_refusal(bid.seat))
            if not bid.blind and blind_open:
                raise MustLookFirst(
                    Line("Look at your cards before making a bid that is not blind")
                )
            return
        if bid.blind:
            raise IllegalBid(Line("Only New York bids are blind; bid blind nil instead"))
        if bid.value == BLIND_NIL:
            if not blind_open:
                raise BlindNilNotAllowed(self._blind_nil_refusal(bid.seat))
            return
        if blind_open:
            raise MustLookFirst(Line("Look at your cards first (or bid blind nil)"))
        if r.bidding in RESTRICTED_BIDDING:
            spades, partner = self.spade_count(bid.seat), self._partner_bid(bid.seat)
            reason = refusal(r.bidding, self.tricks_per_hand, spades, partner, bid.value)
            if reason:
                raise IllegalBid(reason)
            return
        top = self.tricks_per_hand
        if bid.value == NIL:
            if not r.nil:
                raise IllegalBid(Line("Nil is not allowed at this table"))
        elif not 1 <= bid.value <= top:
            raise IllegalBid(range_refusal(top, r.nil))

    def _blind_nil_refusal(self, seat: Seat) -> Line:
        looked, partner = self._looked[seat], self._partner_bid(seat)
        return blind_nil_refusal(self.rules, looked, partner, self._bids[seat ^ 2] == BLIND_NIL)

    def _ny_blind_refusal(self, seat: Seat) -> Line:
        looked = self._looked[seat] or self._looked[seat ^ 2]
        return new_york_blind_refusal(self.hand_number == 1, looked, NEW_YORK_BLIND_DEFICIT)

    def _check_look(self, seat: Seat) -> None:
        if self.phase is not _BID:
            raise WrongPhase(Line("You can already see your cards"))
        if not self.blind_open(seat):
            if not self._new_york and self._bids[seat] == BLIND_NIL:
                raise IllegalAction(Line("You bid blind nil: your cards show when bidding ends"))
            raise IllegalAction(Line("You can already see your cards"))

    def _check_pass(self, action: PassCards) -> None:
        if self.phase is not _PASS:
            raise WrongPhase(PHASE_REFUSAL[self.phase])
        giver = self._pass_steps[self._pass_step][0]
        if action.seat != giver:
            raise NotYourTurn(Line("It is {seat}'s turn to pass cards", seat=SEATS[giver]))
        n = self.rules.blind_nil_pass
        if len(action.cards) != n or len(set(action.cards)) != n:
            if n > 1:
                raise IllegalPass(Line("Pass exactly {n} different cards", n=n))
            raise IllegalPass(Line("Pass exactly {n} different card", n=n))
        for c in action.cards:
            if not self._hands[action.seat] >> c.index & 1:
                raise IllegalPass(Line("You don't hold {card}", card=str(c)))

    # ------------------------------------------------------------------ applying
    def _apply_decision(self, action: Action) -> None:
        if isinstance(action, Bid):
            self._bid(action)
        elif isinstance(action, Look):
            self._looked[action.seat] = True
        elif isinstance(action, PassCards):
            self._pass(action)

    def _begin_hand(self) -> None:
        d = self.dealer
        if self._new_york:
            self._bid_seq = ((d + 1) % 4, (d + 3) % 4, (d + 2) % 4, d)
        else:
            order = [self._next[d]]
            while order[-1] != d:
                order.append(self._next[order[-1]])
            self._bid_seq = tuple(order)
        if self._new_york and self.hand_number == 1:
            self._begin_play()
        else:
            self.phase = _BID
            self._turn = self._bid_seq[0]

    def _bid(self, bid: Bid) -> None:
        self._bid_log.append(bid)
        if self._new_york:
            team = bid.seat & 1
            if self._proposals[team] is None:
                self._proposals[team] = (bid.value, bid.blind)
            else:
                self._team_bids[team] = bid
        else:
            self._bids[bid.seat] = bid.value
        self._bid_step += 1
        if self._bid_step < len(self._bid_seq):
            self._turn = self._bid_seq[self._bid_step]
            return
        steps = self._passing_steps()
        if steps:
            self._pass_steps = steps
            self._pass_step = 0
            self._turn = steps[0][0]
            self.phase = _PASS
        else:
            self._begin_play()

    def _passing_steps(self) -> list[tuple[int, int]]:
        """Blind-nil card passing after the bids: (giver, receiver) in order."""
        steps: list[tuple[int, int]] = []
        if self.rules.blind_nil_pass:
            for b in self._bid_log:
                if b.value == BLIND_NIL and self._bids[b.seat ^ 2] != BLIND_NIL:
                    steps += [(b.seat, b.seat ^ 2), (b.seat ^ 2, b.seat)]
        return steps

    def _pass(self, action: PassCards) -> None:
        m = mask_of(action.cards)
        self._hands[action.seat] &= ~m
        self._hands[action.seat ^ 2] |= m
        self._passes.append(action)
        self._pass_step += 1
        if self._pass_step == len(self._pass_steps):
            self._begin_play()
        else:
            self._turn = self._pass_steps[self._pass_step][0]

    def _begin_play(self) -> None:
        self.phase = _PLAY
        self._begin_tricks(self.deck, self.seating.seats, self.dealer, trumps_need_breaking=True)

    def _trick_won(self, trick: list[tuple[int, int]], winner: int) -> None:
        if not self.rules.joker_bonus:
            return
        for s, i in trick:
            if i == 53:
                self._joker_points[winner & 1] += 2
            elif i == 52:
                self._joker_points[winner & 1] += 1
            else:
                continue
            if s != winner:
                self._joker_points[s & 1] -= 2

    # ------------------------------------------------------------------ scoring
    def _last_trick_played(self) -> None:
        results = self._penalise(self._score_sides())
        for k, res in enumerate(results):
            if k < 2:
                self.set_streak[k] = self.set_streak[k] + 1 if res.was_set else 0
        self._close_hand(results, self._hand_result(results))

    def _penalise(self, results: list[TeamHandScore]) -> list[TeamHandScore]:
        """games.md G1: the renege penalties of correct claims (none without claims)."""
        return results

    def _score_sides(self) -> list[TeamHandScore]:
        """Each side's §5 (or §8) result of the hand just played."""
        t = self._tricks
        results: list[TeamHandScore] = []
        for side, (a, b) in enumerate(self.seating.sides):
            if self._new_york:
                tb = self._team_bids[side]
                results.append(
                    score_new_york(
                        tb.value if tb else None,
                        tb.blind if tb else False,
                        t[a] + t[b],
                        self.scores[side],
                        self._joker_points[side],
                    )
                )
            else:
                ba, bb = self._bids[a], self._bids[b]
                assert ba is not None
                assert bb is not None
                results.append(
                    score_individual(
                        self.rules,
                        (ba, bb),
                        (t[a], t[b]),
                        self.scores[side],
                        self.bag_counts[side],
                        self._joker_points[side],
                        seats=(a, b),
                    )
                )
        return results

    def _decide(self, teams: list[TeamHandScore]) -> tuple[Team | Seat | None, Line | None]:
        """rules.md §6 and §10: events, then lose_at, then target and ties."""
        return decide_partnerships(self.rules, self.scores, self.total_bags, self.set_streak, teams)


register_game(GameKind.SPADES, SpadesGame)
