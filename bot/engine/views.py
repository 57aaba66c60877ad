"""What a seat (or the channel) may know: the only thing UIs and computer players read."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.actions import SEATS, Action, Bid, Call, Seat, Team
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
    scores: tuple[int, int]
    bag_counts: tuple[int, int]
    total_bags: tuple[int, int]
    passed: tuple[Card, ...]
    received: tuple[Card, ...]
    blind_open: bool
    legal: tuple[Action, ...]
    results: tuple[HandResult, ...]
    winner: Team | None
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
        scores=(game.scores[0], game.scores[1]),
        bag_counts=(game.bag_counts[0], game.bag_counts[1]),
        total_bags=(game.total_bags[0], game.total_bags[1]),
        passed=passed,
        received=received,
        blind_open=seat is not None and game.blind_open(seat),
        legal=tuple(game.legal_actions(seat)) if seat is not None else (),
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
    )
