"""What a seat (or the channel) may know: the only thing UIs and computer players read."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from bot.engine.actions import SEATS, Action, ClaimResult, Play, Seat, Team
from bot.engine.cards import Card
from bot.engine.game import Game, HandResult, Phase, Trick
from bot.engine.games import GamePart
from bot.engine.lines import Line
from bot.engine.rules import Rules
from bot.engine.spades.view import SpadesPart
from bot.engine.trump_part import TrumpPart

P = TypeVar("P", bound=GamePart)


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's knowledge of the game (``seat is None``: the public table view).

    What every trick-taking game shares, and the game's own ``part`` (its
    :meth:`~bot.engine.game.Game.view_part`): :attr:`bidding` in Spades (bids, blind nil, card
    passing, renege claims), :attr:`trumps` in Whist and Euchre (the turned card, the calls);
    ``None`` in a game of trick play only.

    ``hand`` is ``None`` in the public view and while the seat's cards are face down
    (``hand_hidden``: Spades' blind nil).  ``seats`` are the seats in play and ``hand_tricks``
    the tricks a hand has; ``trump`` is the trump in force (``None`` while Euchre's calling
    goes on); ``sitting_out`` the partner of a maker who went alone.

    games.md G1-G2: ``scores``, ``bag_counts`` and ``total_bags`` have one entry per side (two
    partnerships, or every player in solo: side k is seat k); ``winner`` is a Team, or a Seat
    in solo.  With ``renege = claim``, ``legal`` offers every card in hand (a refusal never
    says whether a card reneges) and ``honest`` the plays that follow the rules (what computer
    players choose from; equal to ``legal`` otherwise).
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
    tricks_won: tuple[int, int, int, int]
    current_trick: tuple[tuple[Seat, Card], ...]
    plays: tuple[tuple[Seat, Card], ...]
    completed_tricks: tuple[Trick, ...]
    scores: tuple[int, ...]
    bag_counts: tuple[int, ...]
    total_bags: tuple[int, ...]
    legal: tuple[Action, ...]
    results: tuple[HandResult, ...]
    winner: Team | Seat | None
    end_reason: Line | None  # why the game ended (None while it goes on)
    seats: tuple[Seat, ...] = SEATS
    hand_tricks: int = 13
    trump: str | None = "S"
    sitting_out: Seat | None = None
    side_names: tuple[str, ...] = ("NS", "EW")
    honest: tuple[Action, ...] = ()
    part: GamePart | None = None

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.to_act == self.seat

    @property
    def bidding(self) -> SpadesPart | None:
        """Spades' part: the bidding, blind nil, card passing and renege claims."""
        part = self.part
        return part if isinstance(part, SpadesPart) else None

    @property
    def trumps(self) -> TrumpPart | None:
        """Whist's and Euchre's part: the turned card, the calls, the maker."""
        part = self.part
        return part if isinstance(part, TrumpPart) else None

    def part_as(self, kind: type[P]) -> P:
        """The game's part, known to be a ``kind`` (what a Spades player reads:
        ``view.part_as(SpadesPart)``); a view of another game is a programming error."""
        part = self.part
        if not isinstance(part, kind):
            raise TypeError(f"a {self.rules.title} view has no {kind.__name__}")
        return part


def public_claims(game: Game) -> tuple[ClaimResult, ...]:
    """games.md G1: this hand's renege claims as judged — public (none in a game without)."""
    part = game.view_part(None)
    return part.claims if isinstance(part, SpadesPart) else ()


def claim_targets(game: Game, seat: Seat) -> tuple[Seat, ...]:
    """G1: the opponents ``seat`` may claim a renege against now (none without claims)."""
    part = game.view_part(seat) if game.rules.claims else None
    return part.claim_targets if isinstance(part, SpadesPart) else ()


def seat_view(game: Game, seat: Seat | None) -> SeatView:
    """Build the view of ``seat`` (or the public view for ``None``)."""
    part = game.view_part(seat)
    hidden = part is not None and part.hides_hand()
    hand = None if seat is None or hidden else game.hand(seat)
    masks = [game.hand_mask(s) for s in SEATS]
    legal = tuple(game.legal_actions(seat)) if seat is not None else ()
    honest = legal
    if (
        game.rules.claims
        and legal
        and seat is not None
        and game.to_act == seat
        and any(isinstance(a, Play) for a in legal)
    ):
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
        tricks_won=game.tricks_won,
        current_trick=game.current_trick,
        plays=game.plays,
        completed_tricks=game.completed_tricks,
        scores=tuple(game.scores),
        bag_counts=tuple(game.bag_counts),
        total_bags=tuple(game.total_bags),
        legal=legal,
        results=tuple(game.results),
        winner=game.winner,
        end_reason=game.end_reason,
        seats=game.seating.seats,
        hand_tricks=game.tricks_per_hand,
        trump=game.trump,
        sitting_out=game.sitting_out,
        side_names=game.seating.side_names,
        honest=honest,
        part=part,
    )
