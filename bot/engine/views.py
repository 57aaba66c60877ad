"""What a seat (or the channel) may know: the only thing UIs and computer players read."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.actions import SEATS, Action, Bid, Call, ClaimResult, Play, Seat, Team
from bot.engine.cards import Card
from bot.engine.game import Game, HandResult, Phase, Trick
from bot.engine.rules import Rules


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's knowledge of the game (``seat is None``: the public table view).

    ``hand`` is ``None`` in the public view and while the seat's cards are hidden: blind nil
    (or a New York blind team bid) still open to it, or — individual bidding — blind nil bid
    and the bidding not over.  A New York team that bid blind sees its cards once the
    partner's answer is in.

    The fields after ``end_reason`` serve every game: the seats in play and the tricks a hand
    has; the trump in force (``None`` while Euchre's calling goes on); Whist's turned
    ``trump_card``; Euchre's ``up_card``, ``calls``, ``calling_round``, ``maker``, ``alone``,
    the partner who ``sitting_out``, and ``discarded`` (the dealer's own discard, in the
    dealer's view only).

    games.md G1-G2: ``scores``, ``bag_counts`` and ``total_bags`` have one entry per side (two
    partnerships, or every player in solo: side k is seat k); ``winner`` is a Team, or a Seat
    in solo.  With ``renege = claim``: ``legal`` offers every card in hand (a refusal never
    says whether a card reneges), ``honest`` the plays that follow the rules (what computer
    players choose from; equal to ``legal`` otherwise), ``claims`` this hand's judged claims,
    ``claim_targets`` the opponents this seat may claim against now.
    """

    seat: Seat | None
    rules: Rules
    phase: Phase
    hand_number: int
    dealer: Seat
    to_act: Seat | None
    hand: tuple[Card, ...] | None
    hand_hidden: bool
    cards_left: tuple[int, int, int, int]
    bids: tuple[int | None, ...]
    bid_log: tuple[Bid, ...]
    team_bids: tuple[Bid | None, Bid | None]
    proposals: tuple[tuple[int, bool] | None, tuple[int, bool] | None]
    tricks_won: tuple[int, int, int, int]
    current_trick: tuple[tuple[Seat, Card], ...]
    plays: tuple[tuple[Seat, Card], ...]
    completed_tricks: tuple[Trick, ...]
    spades_broken: bool
    scores: tuple[int, ...]
    bag_counts: tuple[int, ...]
    total_bags: tuple[int, ...]
    passed: tuple[Card, ...]
    received: tuple[Card, ...]
    blind_open: bool
    legal: tuple[Action, ...]
    results: tuple[HandResult, ...]
    winner: Team | Seat | None
    end_reason: str
    seats: tuple[Seat, ...] = SEATS
    hand_tricks: int = 13
    trump: str | None = "S"
    trump_card: Card | None = None
    up_card: Card | None = None
    calls: tuple[Call, ...] = ()
    calling_round: int = 0
    maker: Seat | None = None
    alone: bool = False
    sitting_out: Seat | None = None
    discarded: Card | None = None
    side_names: tuple[str, ...] = ("NS", "EW")
    honest: tuple[Action, ...] = ()
    claims: tuple[ClaimResult, ...] = ()
    claim_targets: tuple[Seat, ...] = ()

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.to_act == self.seat


def seat_view(game: Game, seat: Seat | None) -> SeatView:
    """Build the view of ``seat`` (or the public view for ``None``)."""
    hidden = seat is not None and game.hand_hidden(seat)
    hand = None if seat is None or hidden else game.hand(seat)
    passed: tuple[Card, ...] = ()
    received: tuple[Card, ...] = ()
    if seat is not None:
        for p in game.passes:
            if p.seat == seat:
                passed += p.cards
            elif p.seat == seat.partner:
                received += p.cards
    masks = [game.hand_mask(s) for s in SEATS]
    legal = tuple(game.legal_actions(seat)) if seat is not None else ()
    honest = legal
    claims: tuple[ClaimResult, ...] = ()
    targets: tuple[Seat, ...] = ()
    if game.rules.claims:
        claims = game.claim_results
        if seat is not None:
            targets = game.claim_targets(seat)
            if legal and game.to_act == seat and any(isinstance(a, Play) for a in legal):
                mask = game.honest_mask()
                honest = tuple(a for a in legal if isinstance(a, Play) and mask >> a.card.index & 1)
    return SeatView(
        seat=seat,
        rules=game.rules,
        phase=game.phase,
        hand_number=game.hand_number,
        dealer=game.dealer,
        to_act=game.to_act,
        hand=hand,
        hand_hidden=hidden,
        cards_left=(
            masks[0].bit_count(),
            masks[1].bit_count(),
            masks[2].bit_count(),
            masks[3].bit_count(),
        ),
        bids=game.bids,
        bid_log=game.bid_log,
        team_bids=game.team_bids,
        proposals=(game.proposal(Team.NS), game.proposal(Team.EW)),
        tricks_won=game.tricks_won,
        current_trick=game.current_trick,
        plays=game.plays,
        completed_tricks=game.completed_tricks,
        spades_broken=game.spades_broken,
        scores=tuple(game.scores),
        bag_counts=tuple(game.bag_counts),
        total_bags=tuple(game.total_bags),
        passed=passed,
        received=received,
        blind_open=seat is not None and game.blind_open(seat),
        legal=legal,
        results=tuple(game.results),
        winner=game.winner,
        end_reason=game.end_reason,
        seats=game.seating.seats,
        hand_tricks=game.tricks_per_hand,
        trump=game.trump,
        trump_card=game.trump_card,
        up_card=game.up_card,
        calls=game.calls,
        calling_round=game.calling_round,
        maker=game.maker,
        alone=game.alone,
        sitting_out=game.sitting_out,
        discarded=None if seat is None else game.discarded(seat),
        side_names=game.seating.side_names,
        honest=honest,
        claims=claims,
        claim_targets=targets,
    )
