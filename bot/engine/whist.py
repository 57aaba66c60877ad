"""Whist on the shared core (games.md G3, seed 001): the dealer's last card names trump, no
bidding, and the side with more than six tricks scores.

Four players, partners NS/EW, 52 cards, 13 each.  The last card dealt — the dealer's — is
turned face up; its suit is trump, and everyone may see it until the dealer plays it.  The seat
left of the dealer leads; trick play is the core's.  ``whist_points``: ``odd_tricks`` (one point
a trick over six) or ``one_per_hand`` (the side with more tricks scores 1).  First side to
``target`` wins.
"""

from __future__ import annotations

from bot.engine.actions import Deal
from bot.engine.cards import Card
from bot.engine.errors import InvalidDeal
from bot.engine.game import Game, HandResult, Phase, register_game
from bot.engine.games import GameEntry, GameKind, Preset, register
from bot.engine.lines import Line
from bot.engine.scoring import ScorePart, TeamHandScore
from bot.engine.seats import Seat, Team
from bot.engine.trump_part import TrumpPart

BOOK = 6  # tricks a side must take before its tricks score


class WhistGame(Game):
    """One game of Whist from the first deal to the end."""

    __slots__ = ()
    turned_card_name = Line("trump card")

    @property
    def trump_card(self) -> Card | None:
        """The dealer's card turned face up, which names trump (for the whole hand)."""
        return self._turned

    def view_part(self, seat: Seat | None) -> TrumpPart:
        return TrumpPart(trump_card=self._turned)

    def hand_so_far(self) -> HandResult:
        return self._result([], trump_card=self._turned)

    def _deal_from(self, cards: list[Card]) -> Deal:
        hands = super()._deal_from(cards).hands
        # Dealt one at a time from the dealer's left, the last card is the dealer's.
        return Deal(hands, hands[self.dealer][-1])

    def _check_dealt(self, deal: Deal, dealt: int) -> None:
        if dealt != self.deck.mask:
            raise InvalidDeal(Line("The deal is not the {deck} deck", deck=self.deck.name))
        if deal.turned is None or deal.turned not in deal.hands[self.dealer]:
            raise InvalidDeal(Line("The trump card is one of the dealer's cards, turned face up"))

    def _begin_hand(self) -> None:
        assert self._turned is not None
        assert self._turned.suit is not None
        self.phase = Phase.PLAY
        self._begin_tricks(self.deck.with_trump(self._turned.suit), self.seating.seats, self.dealer)

    def _last_trick_played(self) -> None:
        t = self._tricks
        teams = [
            score_whist(self.rules.whist_points, t[a] + t[b], self.scores[side])
            for side, (a, b) in enumerate(team.seats for team in Team)
        ]
        self._close_hand(teams, self._result(teams, trump_card=self._turned))


def score_whist(whist_points: str, tricks: int, score_before: int) -> TeamHandScore:
    """One side's hand: ``odd_tricks`` scores each trick over six; ``one_per_hand`` scores 1 for
    the side with more tricks (13 tricks: one side always has more)."""
    odd = tricks - BOOK
    if whist_points == "one_per_hand":
        part = (
            ScorePart("odd_tricks", _more_tricks(tricks), 1)
            if odd > 0
            else ScorePart("odd_tricks", _fewer_tricks(tricks), 0)
        )
    elif odd > 0:
        part = ScorePart("odd_tricks", _odd_tricks(odd, tricks), odd)
    else:
        part = ScorePart("odd_tricks", _no_odd_trick(tricks), 0)
    return TeamHandScore(part.points, 0, 0, score_before + part.points, 0, parts=(part,))


def _more_tricks(k: int) -> Line:
    return Line("More tricks ({k} tricks)", k=k)  # 7 or more


def _odd_tricks(n: int, k: int) -> Line:
    if n == 1:
        return Line("{n} odd trick ({k} tricks)", n=n, k=k)
    return Line("{n} odd tricks ({k} tricks)", n=n, k=k)


def _fewer_tricks(k: int) -> Line:
    if k == 1:
        return Line("Fewer tricks ({k} trick)", k=k)
    return Line("Fewer tricks ({k} tricks)", k=k)


def _no_odd_trick(k: int) -> Line:
    if k == 1:
        return Line("No odd trick ({k} trick)", k=k)
    return Line("No odd trick ({k} tricks)", k=k)


WHIST = register(
    GameEntry(
        kind=GameKind.WHIST,
        title="Whist",
        presets=(  # games.md G3
            Preset(
                "whist",
                "Whist",
                "Whist: the dealer's last card names trump, odd tricks score, to 7",
                {"target": 7},
            ),
            Preset(
                "short-whist",
                "Short whist",
                "Short whist: the dealer's last card names trump, odd tricks score, to 5",
                {"target": 5},
            ),
        ),
        options=("target", "whist_points"),
        part=TrumpPart,
    )
)


register_game(GameKind.WHIST, WhistGame)
