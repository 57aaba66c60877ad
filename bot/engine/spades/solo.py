"""Solo Spades ("cutthroat", games.md G2): every player bids and scores alone.

``partnerships = off`` seats four players (N, E, S, W) or, with ``players = 3``, three (N, E,
S) who share the 51 cards left when the 2♣ is taken out: 17 each, 17 tricks.  Each player's
bid is their contract (§5 for one player), with their own score and bag count.  There is no
double nil, double blind nil or card passing; blind nil needs the player to trail the leader
by the minimum.  The game ends when a player reaches the target (or falls to ``lose_at``):
the highest score wins, and equal highest scores follow the ``tie`` rule.

Side ``k`` is seat ``k`` (N, E, S, W), so ``scores[seat]`` is that player's score and a winner
is a :class:`~bot.engine.seats.Seat`.
"""

from __future__ import annotations

from typing import Final

from bot.engine.build import mypyc_attr
from bot.engine.decks import DECKS, Deck
from bot.engine.game import Phase
from bot.engine.lines import Line
from bot.engine.rules import RESTRICTED_BIDDING
from bot.engine.scoring import REACHED_TARGET, TeamHandScore
from bot.engine.seats import SEATS, Seat, Seating, Team
from bot.engine.spades.bidrules import blind_allowed
from bot.engine.spades.game import SpadesGame
from bot.engine.spades.scoring import score_player

THREE_SEATS: Final = (Seat.N, Seat.E, Seat.S)
SOLO_FOUR: Final = Seating(SEATS, tuple((s,) for s in SEATS), tuple(s.name for s in SEATS))
SOLO_THREE: Final = Seating(
    THREE_SEATS, tuple((s,) for s in THREE_SEATS), tuple(s.name for s in THREE_SEATS)
)
THREE_PLAYER_DECK: Final = DECKS["standard"].without("2C")


# Compiled, and a base of bot.engine.spades.variants' classes, which are not (mypyc compiles
# no class of two bases).
@mypyc_attr(allow_interpreted_subclasses=True)
class SoloSpadesGame(SpadesGame):
    """Spades with every player alone (three or four of them)."""

    __slots__ = ()

    def _seating(self) -> Seating:
        return SOLO_THREE if self.rules.players == 3 else SOLO_FOUR

    def _make_deck(self) -> Deck:
        return THREE_PLAYER_DECK if self.rules.players == 3 else DECKS[self.rules.deck]

    def _reset_hand(self) -> None:
        super()._reset_hand()
        self._joker_points = [0] * len(self.seating.sides)

    def deficit(self, team: Team | int) -> int:
        """How far this player trails the leader among the others (negative: leads)."""
        s = self.scores
        return max(v for k, v in enumerate(s) if k != team) - s[team]

    def blind_open(self, seat: Seat | int) -> bool:
        if self.phase is not Phase.BID or self._looked[seat]:
            return False
        r = self.rules
        if not r.blind_nil or self._bids[seat] is not None:
            return False
        if r.bidding in RESTRICTED_BIDDING and not blind_allowed(r.bidding, None):
            return False
        need = r.blind_nil_min_deficit
        return not need or self.deficit(seat) >= need

    def _blind_nil_refusal(self, seat: Seat) -> Line:
        r = self.rules
        if r.blind_nil and not self._looked[seat] and r.bidding not in RESTRICTED_BIDDING:
            need = r.blind_nil_min_deficit
            return Line("Blind nil needs you at least {n} points behind the leader", n=need)
        return super()._blind_nil_refusal(seat)

    def _partner_bid(self, seat: Seat | int) -> int | None:
        return None  # no partner

    def _passing_steps(self) -> list[tuple[int, int]]:
        return []  # no partner to pass to

    def _trick_won(self, trick: list[tuple[int, int]], winner: int) -> None:
        if not self.rules.joker_bonus:
            return
        for s, i in trick:
            if i == 53:
                self._joker_points[winner] += 2
            elif i == 52:
                self._joker_points[winner] += 1
            else:
                continue
            if s != winner:
                self._joker_points[s] -= 2

    def _score_sides(self) -> list[TeamHandScore]:
        t = self._tricks
        out = []
        for seat in self.seating.seats:
            bid = self._bids[seat]
            assert bid is not None
            out.append(
                score_player(
                    self.rules,
                    bid,
                    t[seat],
                    self.scores[seat],
                    self.bag_counts[seat],
                    self._joker_points[seat],
                    seat,
                )
            )
        return out

    def _decide(self, teams: list[TeamHandScore]) -> tuple[Team | Seat | None, Line | None]:
        """G2/G7: a player at the target (or at ``lose_at``) ends the game; the highest score
        wins; equal highest follow ``tie`` (``bags``: more overtricks this game)."""
        s = self.scores
        lose_at = self.rules.lose_at
        if max(s) >= self.rules.target:
            why = REACHED_TARGET
        elif lose_at is not None and min(s) <= lose_at:
            why = Line(
                "a player fell to {n} or below (mercy rule); the highest score wins", n=lose_at
            )
        else:
            return None, None
        top = max(s)
        leaders = [k for k, v in enumerate(s) if v == top]
        if len(leaders) == 1:
            return SEATS[leaders[0]], why
        if self.rules.tie == "bags":
            most = max(self.total_bags[k] for k in leaders)
            ahead = [k for k in leaders if self.total_bags[k] == most]
            if len(ahead) == 1:
                return SEATS[ahead[0]], Line(
                    "tied for the lead; the player with more bags over the game wins"
                )
        return None, None
