"""The hand-by-hand state machine of a Spades game.

``Game`` holds mutable state behind a small API: :meth:`Game.legal_actions`,
:meth:`Game.check` (raises a typed :class:`~bot.engine.errors.IllegalAction` with a reason),
:meth:`Game.apply` (check, then change state; a refused action changes nothing), and
:meth:`Game.view` (what one seat may know).  Dealing is a chance action (:class:`Deal`) so a game
is fully determined by its rules, first dealer and action list: that is what records store.
Hands are ``int`` bitmasks over card indices, which keeps random play-outs fast.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from enum import StrEnum

from frozen_engine.actions import PLAYS, SEATS, Action, Bid, Deal, Look, PassCards, Play, Seat, Team
from frozen_engine.cards import CARDS, DECKS, SUIT_SYMBOLS, SUITS, Card, cards_of, mask_of
from frozen_engine.errors import (
    BlindNilNotAllowed,
    CardNotInHand,
    GameOver,
    IllegalAction,
    IllegalBid,
    IllegalPass,
    InvalidDeal,
    MustFollowSuit,
    MustLookFirst,
    NotYourTurn,
    SpadesNotBroken,
    WrongPhase,
)
from frozen_engine.rules import Rules
from frozen_engine.scoring import (
    BLIND_NIL,
    LOSES,
    NIL,
    WINS,
    TeamHandScore,
    score_individual,
    score_new_york,
)

NEW_YORK_BLIND_DEFICIT = 100
NEW_YORK_BIDS = range(4, 11)


class Phase(StrEnum):
    DEAL = "deal"
    BID = "bid"
    PASS = "pass"
    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Trick:
    leader: Seat
    cards: tuple[tuple[Seat, Card], ...]
    winner: Seat


@dataclass(frozen=True, slots=True)
class HandResult:
    """A finished hand: everything a record needs, and its score per team."""

    number: int
    dealer: Seat
    deal: tuple[tuple[Card, ...], ...]
    bids: tuple[Bid, ...]  # individual: every bid as made; New York: each team's final bid
    passes: tuple[PassCards, ...]
    plays: tuple[Card, ...]
    tricks: tuple[int, int, int, int]
    teams: tuple[TeamHandScore, TeamHandScore]


class Game:
    """One game of Spades from the first deal to the end."""

    __slots__ = (
        "_bid_log",
        "_bid_seq",
        "_bid_step",
        "_bids",
        "_broken",
        "_deal",
        "_hands",
        "_joker_points",
        "_lead_mask",
        "_looked",
        "_pass_step",
        "_pass_steps",
        "_passes",
        "_plays",
        "_proposals",
        "_team_bids",
        "_trick",
        "_tricks",
        "_tricks_history",
        "_turn",
        "bag_counts",
        "dealer",
        "deck",
        "end_reason",
        "first_dealer",
        "hand_number",
        "phase",
        "results",
        "rules",
        "scores",
        "set_streak",
        "total_bags",
        "winner",
    )

    def __init__(self, rules: Rules, first_dealer: Seat = Seat.N) -> None:
        self.rules = rules
        self.deck = DECKS[rules.deck]
        self.first_dealer = Seat(first_dealer)
        self.dealer = self.first_dealer
        self.hand_number = 1
        self.phase = Phase.DEAL
        self.scores = [0, 0]
        self.bag_counts = [0, 0]
        self.total_bags = [0, 0]
        self.set_streak = [0, 0]
        self.winner: Team | None = None
        self.end_reason = ""
        self.results: list[HandResult] = []
        self._reset_hand()

    def _reset_hand(self) -> None:
        self._hands = [0, 0, 0, 0]
        self._deal: tuple[tuple[Card, ...], ...] = ()
        self._looked = [False] * 4
        self._bids: list[int | None] = [None] * 4
        self._bid_seq: tuple[int, ...] = ()
        self._bid_step = 0
        self._proposals: list[tuple[int, bool] | None] = [None, None]
        self._team_bids: list[Bid | None] = [None, None]
        self._pass_steps: list[tuple[int, int]] = []
        self._pass_step = 0
        self._passes: list[PassCards] = []
        self._turn = (self.dealer + 1) % 4
        self._trick: list[tuple[int, int]] = []
        self._lead_mask = 0
        self._broken = False
        self._tricks = [0, 0, 0, 0]
        self._plays: list[int] = []
        self._tricks_history: list[tuple[list[tuple[int, int]], int]] = []
        self._joker_points = [0, 0]
        self._bid_log: list[Bid] = []

    # ------------------------------------------------------------------ queries
    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def to_act(self) -> Seat | None:
        """The seat whose decision the game waits for (``None`` while dealing or when over)."""
        phase = self.phase
        if phase is Phase.PLAY or phase is Phase.BID:
            return SEATS[self._turn]
        if phase is Phase.PASS:
            return SEATS[self._pass_steps[self._pass_step][0]]
        return None

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        """The seat's cards (engine-internal: UIs and players use :meth:`view`)."""
        return cards_of(self._hands[seat])

    def hand_mask(self, seat: Seat) -> int:
        return self._hands[seat]

    @property
    def spades_broken(self) -> bool:
        return self._broken

    @property
    def current_trick(self) -> tuple[tuple[Seat, Card], ...]:
        return tuple((SEATS[s], CARDS[i]) for s, i in self._trick)

    @property
    def tricks_won(self) -> tuple[int, int, int, int]:
        t = self._tricks
        return (t[0], t[1], t[2], t[3])

    @property
    def completed_tricks(self) -> tuple[Trick, ...]:
        return tuple(
            Trick(SEATS[t[0][0]], tuple((SEATS[s], CARDS[i]) for s, i in t), SEATS[w])
            for t, w in self._tricks_history
        )

    @property
    def plays(self) -> tuple[tuple[Seat, Card], ...]:
        """Every card played this hand, in order, with its seat."""
        out = []
        for t, _ in self._tricks_history:
            out.extend(t)
        out.extend(self._trick)
        return tuple((SEATS[s], CARDS[i]) for s, i in out)

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
    def deal_cards(self) -> tuple[tuple[Card, ...], ...]:
        return self._deal

    def deficit(self, team: Team | int) -> int:
        """Opponents' score minus this team's, before the hand."""
        return self.scores[team ^ 1] - self.scores[team]

    def blind_open(self, seat: Seat | int) -> bool:
        """May this seat still bid blind (blind nil, or a New York blind team bid)?"""
        if self.phase is not Phase.BID or self._looked[seat]:
            return False
        team = seat & 1
        r = self.rules
        if r.new_york:
            return (
                self.hand_number > 1
                and self._team_bids[team] is None
                and not self._looked[seat ^ 2]
                and self.deficit(team) >= NEW_YORK_BLIND_DEFICIT
            )
        if not r.blind_nil or self._bids[seat] is not None:
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
        if self.phase is not Phase.BID:
            return False
        if not self.rules.new_york and self._bids[seat] == BLIND_NIL:
            return True
        return self.blind_open(seat)

    def legal_mask(self) -> int:
        """The cards the seat on turn may play (PLAY phase only)."""
        hand = self._hands[self._turn]
        if self._trick:
            follow = hand & self._lead_mask
            return follow or hand
        if self._broken:
            return hand
        return (hand & ~self.deck.suit_masks[0]) or hand

    def legal_actions(self, seat: Seat | int | None = None) -> list[Action]:
        """Every action the seat (default: the one on turn) may take now."""
        phase = self.phase
        if phase is Phase.PLAY:
            if seat is not None and seat != self._turn:
                return []
            turn = self._turn
            plays = PLAYS[turn]
            out: list[Action] = []
            hand = self._hands[turn]
            if self._trick:
                mask = hand & self._lead_mask or hand
            elif self._broken:
                mask = hand
            else:
                mask = hand & ~self.deck.suit_masks[0] or hand
            while mask:
                low = mask & -mask
                out.append(plays[low.bit_length() - 1])
                mask ^= low
            return out
        if seat is None:
            seat = self.to_act
            if seat is None:
                return []
        seat = SEATS[seat]
        if phase is Phase.BID:
            return self._legal_bids(seat)
        if phase is Phase.PASS:
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
        if self.rules.new_york:
            if blind:
                return [*(Bid(seat, v, True) for v in NEW_YORK_BIDS), Look(seat)]
            return [Bid(seat, v) for v in NEW_YORK_BIDS]
        if blind:
            return [Bid(seat, BLIND_NIL), Look(seat)]
        out: list[Action] = [Bid(seat, NIL)] if self.rules.nil else []
        out.extend(Bid(seat, v) for v in range(1, 14))
        return out

    def is_legal(self, action: Action) -> bool:
        try:
            self.check(action)
        except IllegalAction:
            return False
        return True

    # ------------------------------------------------------------------ checking
    def check(self, action: Action | Deal) -> None:
        """Raise a typed :class:`IllegalAction` with a reason unless ``action`` is legal now."""
        if self.phase is Phase.OVER:
            raise GameOver("The game is over")
        if isinstance(action, Play):
            self._check_play(action.seat, action.card)
        elif isinstance(action, Bid):
            self._check_bid(action)
        elif isinstance(action, Look):
            self._check_look(action.seat)
        elif isinstance(action, PassCards):
            self._check_pass(action)
        elif isinstance(action, Deal):
            self._check_deal(action)
        else:  # pragma: no cover - typing makes this unreachable
            raise IllegalAction(f"Unknown action {action!r}")

    def _check_turn(self, seat: Seat | int, what: str) -> None:
        if seat != self._turn:
            raise NotYourTurn(f"It is {Seat(self._turn).word}'s turn to {what}")

    def _check_play(self, seat: Seat, card: Card) -> None:
        if self.phase is not Phase.PLAY:
            raise WrongPhase(_PHASE_REFUSAL[self.phase])
        self._check_turn(seat, "play")
        hand = self._hands[seat]
        bit = 1 << card.index
        if not hand & bit:
            raise CardNotInHand(f"You don't hold {card}")
        if self._trick:
            if not bit & self._lead_mask and hand & self._lead_mask:
                suit = SUITS[self.deck.suit_masks.index(self._lead_mask)]
                raise MustFollowSuit(f"You must follow {SUIT_SYMBOLS[suit]}", suit)
        elif not self._broken and bit & self.deck.suit_masks[0] and hand & ~self.deck.suit_masks[0]:
            raise SpadesNotBroken("Spades are not broken yet")

    def _check_bid(self, bid: Bid) -> None:
        if self.phase is not Phase.BID:
            raise WrongPhase(_PHASE_REFUSAL[self.phase])
        self._check_turn(bid.seat, "bid")
        r = self.rules
        blind_open = self.blind_open(bid.seat)
        if r.new_york:
            if bid.value not in NEW_YORK_BIDS:
                raise IllegalBid("A team bid is 4 to 10 tricks")
            if bid.blind and not blind_open:
                raise BlindNilNotAllowed(self._ny_blind_refusal(bid.seat))
            if not bid.blind and blind_open:
                raise MustLookFirst("Look at your cards before making a bid that is not blind")
            return
        if bid.blind:
            raise IllegalBid("Only New York bids are blind; bid blind nil instead")
        if bid.value == BLIND_NIL:
            if not blind_open:
                raise BlindNilNotAllowed(self._blind_nil_refusal(bid.seat))
            return
        if blind_open:
            raise MustLookFirst("Look at your cards first (or bid blind nil)")
        if bid.value == NIL:
            if not r.nil:
                raise IllegalBid("Nil is not allowed at this table")
        elif not 1 <= bid.value <= 13:
            raise IllegalBid("A bid is 1 to 13 tricks" + (", or nil" if r.nil else ""))

    def _blind_nil_refusal(self, seat: Seat) -> str:
        r = self.rules
        if not r.blind_nil:
            return "Blind nil is not allowed at this table"
        if self._looked[seat]:
            return "You have looked at your cards, so you cannot bid blind nil"
        if self._bids[seat ^ 2] == BLIND_NIL:
            if r.double_blind_nil == "off":
                return "Your partner bid blind nil; double blind nil is not allowed here"
            need = max(r.blind_nil_min_deficit, r.double_blind_nil_min_deficit)
            return f"Double blind nil needs your team {need} points behind"
        return f"Blind nil needs your team at least {r.blind_nil_min_deficit} points behind"

    def _ny_blind_refusal(self, seat: Seat) -> str:
        if self.hand_number == 1:
            return "There is no blind bid in the first hand"
        if self._looked[seat] or self._looked[seat ^ 2]:
            return "A blind bid is made before either partner looks at their cards"
        return f"A blind bid needs your team {NEW_YORK_BLIND_DEFICIT} points behind"

    def _check_look(self, seat: Seat) -> None:
        if self.phase is not Phase.BID:
            raise WrongPhase("You can already see your cards")
        if not self.blind_open(seat):
            if not self.rules.new_york and self._bids[seat] == BLIND_NIL:
                raise IllegalAction("You bid blind nil: your cards show when bidding ends")
            raise IllegalAction("You can already see your cards")

    def _check_pass(self, action: PassCards) -> None:
        if self.phase is not Phase.PASS:
            raise WrongPhase(_PHASE_REFUSAL[self.phase])
        giver = self._pass_steps[self._pass_step][0]
        if action.seat != giver:
            raise NotYourTurn(f"It is {Seat(giver).word}'s turn to pass cards")
        n = self.rules.blind_nil_pass
        if len(action.cards) != n or len(set(action.cards)) != n:
            raise IllegalPass(f"Pass exactly {n} different card{'s' if n > 1 else ''}")
        for c in action.cards:
            if not self._hands[action.seat] >> c.index & 1:
                raise IllegalPass(f"You don't hold {c}")

    def _check_deal(self, deal: Deal) -> None:
        if self.phase is not Phase.DEAL:
            raise WrongPhase("The cards have been dealt")
        if len(deal.hands) != 4 or any(len(h) != 13 for h in deal.hands):
            raise InvalidDeal("Each seat is dealt 13 cards")
        union = 0
        for h in deal.hands:
            m = mask_of(h)
            if m & union or m.bit_count() != 13:
                raise InvalidDeal("A card is dealt twice")
            union |= m
        if union != self.deck.mask:
            raise InvalidDeal(f"The deal is not the {self.deck.name} deck")

    # ------------------------------------------------------------------ applying
    def apply(self, action: Action | Deal) -> None:
        """Apply a legal action; raise :class:`IllegalAction` (state unchanged) otherwise."""
        if type(action) is Play:
            if self.phase is not Phase.PLAY:
                self.check(action)
            seat = action.seat
            idx = action.card.index
            hand = self._hands[seat]
            if seat != self._turn or not hand >> idx & 1:
                self._check_play(seat, action.card)
            elif self._trick:
                lead = self._lead_mask
                if not (1 << idx) & lead and hand & lead:
                    self._check_play(seat, action.card)
            elif not self._broken and (1 << idx) & self.deck.suit_masks[0]:
                self._check_play(seat, action.card)
            self._play(seat, idx)
            return
        self.check(action)
        if isinstance(action, Bid):
            self._bid(action)
        elif isinstance(action, Look):
            self._looked[action.seat] = True
        elif isinstance(action, PassCards):
            self._pass(action)
        elif isinstance(action, Deal):
            self._start_hand(action)

    def deal(self, rng: random.Random) -> Deal:
        """Shuffle with ``rng`` and apply the deal (``secrets.SystemRandom()`` in real play)."""
        cards = list(self.deck.cards)
        rng.shuffle(cards)
        deal = Deal(
            (tuple(cards[0::4]), tuple(cards[1::4]), tuple(cards[2::4]), tuple(cards[3::4]))
        )
        self.apply(deal)
        return deal

    def _start_hand(self, deal: Deal) -> None:
        self._reset_hand()
        self._deal = tuple(tuple(h) for h in deal.hands)
        self._hands = [mask_of(h) for h in deal.hands]
        d = self.dealer
        if self.rules.new_york:
            self._bid_seq = ((d + 1) % 4, (d + 3) % 4, (d + 2) % 4, d)
        else:
            self._bid_seq = ((d + 1) % 4, (d + 2) % 4, (d + 3) % 4, d)
        if self.rules.new_york and self.hand_number == 1:
            self._begin_play()
        else:
            self.phase = Phase.BID
            self._turn = self._bid_seq[0]

    def _bid(self, bid: Bid) -> None:
        self._bid_log.append(bid)
        if self.rules.new_york:
            team = bid.seat & 1
            if self._proposals[team] is None:
                self._proposals[team] = (bid.value, bid.blind)
            else:
                self._team_bids[team] = bid
        else:
            self._bids[bid.seat] = bid.value
        self._bid_step += 1
        if self._bid_step < 4:
            self._turn = self._bid_seq[self._bid_step]
            return
        steps: list[tuple[int, int]] = []
        if self.rules.blind_nil_pass:
            for b in self._bid_log:
                if b.value == BLIND_NIL and self._bids[b.seat ^ 2] != BLIND_NIL:
                    steps += [(b.seat, b.seat ^ 2), (b.seat ^ 2, b.seat)]
        if steps:
            self._pass_steps = steps
            self._pass_step = 0
            self.phase = Phase.PASS
        else:
            self._begin_play()

    def _pass(self, action: PassCards) -> None:
        m = mask_of(action.cards)
        self._hands[action.seat] &= ~m
        self._hands[action.seat ^ 2] |= m
        self._passes.append(action)
        self._pass_step += 1
        if self._pass_step == len(self._pass_steps):
            self._begin_play()

    def _begin_play(self) -> None:
        self.phase = Phase.PLAY
        self._turn = (self.dealer + 1) % 4

    def _play(self, seat: int, idx: int) -> None:
        bit = 1 << idx
        self._hands[seat] ^= bit
        self._plays.append(idx)
        trick = self._trick
        masks = self.deck.suit_masks
        if not trick:
            for m in masks:
                if m & bit:
                    self._lead_mask = m
                    break
        if bit & masks[0]:
            self._broken = True
        trick.append((seat, idx))
        if len(trick) < 4:
            self._turn = (seat + 1) % 4
            return
        power = self.deck.power
        follow = self._lead_mask | masks[0]
        best = -1
        winner = 0
        for s, i in trick:
            if (1 << i) & follow and power[i] > best:
                best = power[i]
                winner = s
        self._tricks[winner] += 1
        if self.rules.joker_bonus:
            self._score_jokers(trick, winner)
        self._tricks_history.append((trick, winner))
        self._trick = []
        self._turn = winner
        if len(self._plays) == 52:
            self._finish_hand()

    def _score_jokers(self, trick: list[tuple[int, int]], winner: int) -> None:
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
    def _finish_hand(self) -> None:
        t = self._tricks
        results: list[TeamHandScore] = []
        for team in (0, 1):
            a, b = team, team + 2
            if self.rules.new_york:
                tb = self._team_bids[team]
                results.append(
                    score_new_york(
                        tb.value if tb else None,
                        tb.blind if tb else False,
                        t[a] + t[b],
                        self.scores[team],
                        self._joker_points[team],
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
                        self.scores[team],
                        self.bag_counts[team],
                        self._joker_points[team],
                    )
                )
        for team, res in enumerate(results):
            self.scores[team] = res.score
            self.bag_counts[team] = res.bag_count
            self.total_bags[team] += res.bags
            self.set_streak[team] = self.set_streak[team] + 1 if res.was_set else 0
        if self.rules.new_york:
            bids = tuple(b for b in (self._team_bids[(self.dealer + 1) % 2],) if b) + tuple(
                b for b in (self._team_bids[self.dealer % 2],) if b
            )
        else:
            bids = tuple(self._bid_log)
        self.results.append(
            HandResult(
                self.hand_number,
                Seat(self.dealer),
                self._deal,
                bids,
                tuple(self._passes),
                tuple(CARDS[i] for i in self._plays),
                (t[0], t[1], t[2], t[3]),
                (results[0], results[1]),
            )
        )
        winner, reason = self._decide(results)
        if winner is not None:
            self.winner = winner
            self.end_reason = reason
            self.phase = Phase.OVER
            return
        self.dealer = Seat((self.dealer + 1) % 4)
        self.hand_number += 1
        self.phase = Phase.DEAL
        self._reset_hand()

    def _decide(self, results: list[TeamHandScore]) -> tuple[Team | None, str]:
        """rules.md §6 and §10: events, then lose_at, then target and ties."""
        s = self.scores
        claims: set[int] = set()
        reasons: dict[int, str] = {}
        for team, res in enumerate(results):
            other = team ^ 1
            if res.event == WINS:
                claims.add(team)
                reasons[team] = "Boston" if self.rules.new_york else "double blind nil made"
            elif res.event == LOSES:
                claims.add(other)
                reasons[other] = "double blind nil failed"
            if self.rules.new_york and self.set_streak[team] >= 2:
                claims.add(other)
                reasons[other] = f"{Team(team).name} set twice in a row"
        if len(claims) == 1:
            team = claims.pop()
            return Team(team), reasons[team]
        if len(claims) == 2 and s[0] != s[1]:
            return Team(0 if s[0] > s[1] else 1), "both teams claimed the game; higher score"
        lose_at = self.rules.lose_at
        if lose_at is not None:
            down = [team for team in (0, 1) if s[team] <= lose_at]
            if len(down) == 1:
                return Team(down[0] ^ 1), f"{Team(down[0]).name} fell to {lose_at} or below"
            if len(down) == 2 and s[0] != s[1]:
                return Team(0 if s[0] > s[1] else 1), "both teams fell to lose_at; higher score"
        if max(s) >= self.rules.target:
            if s[0] != s[1]:
                return Team(0 if s[0] > s[1] else 1), "reached the target"
            if self.rules.tie == "bags" and self.total_bags[0] != self.total_bags[1]:
                more = 0 if self.total_bags[0] > self.total_bags[1] else 1
                return Team(more), "tied at the target; more bags over the game"
        return None, ""

    # ------------------------------------------------------------------ copying
    def clone(self) -> Game:
        g = Game.__new__(Game)
        for name in Game.__slots__:
            v = getattr(self, name)
            setattr(g, name, v.copy() if isinstance(v, list) else v)
        return g


_PHASE_REFUSAL = {
    Phase.DEAL: "The cards have not been dealt yet",
    Phase.BID: "Bidding is not over yet",
    Phase.PASS: "Cards are being passed",
    Phase.PLAY: "Bidding is over",
    Phase.OVER: "The game is over",
}
