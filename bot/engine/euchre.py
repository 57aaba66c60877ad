"""Euchre on the shared core (games.md G4 and G7, seed 001): the up-card, two rounds of calling,
the dealer's pick-up and discard, going alone, stick the dealer, bowers, and the scoring.

Four players, partners NS/EW, 5 cards each from a 24-, 28- or 32-card deck; the kitty's top card
(the **up-card**) is turned face up.  Round 1, from the dealer's left: *order up* (the up-card's
suit is trump; the dealer takes the up-card and discards one card face down) or *pass*.  Round 2
(all passed): name another suit or pass; all pass → the hand is void, or with
``stick_the_dealer`` the dealer must name a suit.  The maker may go **alone**: the partner sits
the hand out.  The trump order and the bowers are the deck's (:mod:`bot.engine.decks`); trick
play is the core's.
"""

from __future__ import annotations

from typing import Final

from bot.engine.actions import Action, Call, Deal, Discard
from bot.engine.cards import SUIT_SYMBOLS, SUITS, Card
from bot.engine.decks import EUCHRE_DECKS
from bot.engine.errors import (
    IllegalCall,
    IllegalDiscard,
    InvalidDeal,
    MustNameSuit,
    NotYourTurn,
    WrongPhase,
)
from bot.engine.game import PHASE_REFUSAL, Game, HandResult, Phase, register_game
from bot.engine.games import GameEntry, GameKind, Preset, register
from bot.engine.lines import Line
from bot.engine.scoring import ScorePart, TeamHandScore, tricks_line
from bot.engine.seats import SEATS, Seat, Team
from bot.engine.trump_part import TrumpPart

HAND: Final = 5  # cards dealt to each seat, and tricks in a hand


class EuchreGame(Game):
    """One game of Euchre from the first deal to the end."""

    __slots__ = ("_alone", "_calls", "_discard", "_maker", "_round")
    turned_card_name = Line("up-card")

    def _cards_per_seat(self) -> int:
        return HAND

    def _reset_hand(self) -> None:
        super()._reset_hand()
        self._calls: list[Call] = []
        self._round = 0
        self._maker: Seat | None = None
        self._alone = False
        self._discard: Card | None = None

    # ------------------------------------------------------------------ queries
    @property
    def up_card(self) -> Card | None:
        return self._turned

    @property
    def calls(self) -> tuple[Call, ...]:
        return tuple(self._calls)

    @property
    def calling_round(self) -> int:
        """1 or 2 while calling, else 0."""
        return self._round if self.phase is Phase.CALL else 0

    @property
    def maker(self) -> Seat | None:
        return self._maker

    @property
    def alone(self) -> bool:
        return self._alone

    def discarded(self, seat: Seat | int) -> Card | None:
        """The card this seat discarded (only the dealer ever has one)."""
        return self._discard if seat == self.dealer else None

    def view_part(self, seat: Seat | None) -> TrumpPart:
        return TrumpPart(
            up_card=self._turned,
            calls=tuple(self._calls),
            calling_round=self.calling_round,
            maker=self._maker,
            alone=self._alone,
            discarded=None if seat is None else self.discarded(seat),
        )

    def hand_so_far(self) -> HandResult:
        return self._hand_result([])

    def _hand_result(self, teams: list[TeamHandScore]) -> HandResult:
        return self._result(
            teams,
            up_card=self._turned,
            calls=tuple(self._calls),
            discard=self._discard,
            maker=self._maker,
            alone=self._alone,
        )

    # ------------------------------------------------------------------ dealing
    def _deal_from(self, cards: list[Card]) -> Deal:
        n = len(self.seating.seats)
        dealt = n * HAND
        return Deal(tuple(tuple(cards[i:dealt:n]) for i in range(n)), cards[dealt])

    def _check_dealt(self, deal: Deal, dealt: int) -> None:
        if dealt & ~self.deck.mask:
            raise InvalidDeal(Line("The deal is not of the {deck} deck", deck=self.deck.name))
        up = deal.turned
        if up is None:
            raise InvalidDeal(Line("Euchre turns up the top card of the kitty"))
        if not self.deck.mask >> up.index & 1 or dealt >> up.index & 1:
            raise InvalidDeal(Line("The up-card is a card of the kitty, not one dealt"))

    def _begin_hand(self) -> None:
        self.phase = Phase.CALL
        self._round = 1
        self._turn = self._next[self.dealer]

    # ------------------------------------------------------------------ calling
    def _legal_decisions(self, seat: Seat) -> list[Action]:
        if seat != self._turn:
            return []
        if self.phase is Phase.DISCARD:
            return [Discard(seat, c) for c in self.hand(seat)]
        if self.phase is not Phase.CALL:
            return []
        out: list[Action] = []
        if not self._must_name(seat):
            out.append(Call(seat, Call.PASS))
        if self._round == 1:
            return [*out, Call(seat, Call.ORDER), Call(seat, Call.ORDER, True)]
        for suit in SUITS:
            if suit != self._up_suit:
                out += [Call(seat, suit), Call(seat, suit, True)]
        return out

    @property
    def _up_suit(self) -> str:
        assert self._turned is not None
        assert self._turned.suit is not None
        return self._turned.suit

    def _must_name(self, seat: Seat | int) -> bool:
        return self._round == 2 and seat == self.dealer and self.rules.stick_the_dealer

    def _check_decision(self, action: Action) -> None:
        if isinstance(action, Call):
            self._check_call(action)
        elif isinstance(action, Discard):
            self._check_discard(action)
        else:
            super()._check_decision(action)

    def _check_call(self, call: Call) -> None:
        if self.phase is not Phase.CALL:
            done = self.phase in (Phase.DISCARD, Phase.PLAY)
            raise WrongPhase(Line("Trump has been chosen") if done else PHASE_REFUSAL[self.phase])
        if call.seat != self._turn:
            raise NotYourTurn(Line("It is {seat}'s turn to call", seat=SEATS[self._turn]))
        up = SUIT_SYMBOLS[self._up_suit]
        if call.call == Call.PASS:
            if call.alone:
                raise IllegalCall(
                    Line("Only the maker goes alone: order up or name a suit to go alone")
                )
            if self._must_name(call.seat):
                raise MustNameSuit(Line("The dealer must name a suit (stick the dealer)"))
            return
        if self._round == 1:
            if call.call != Call.ORDER:
                raise IllegalCall(
                    Line(
                        "In the first round you order up {suit} (the up-card's suit) or pass",
                        suit=up,
                    )
                )
            return
        if call.call == Call.ORDER:
            raise IllegalCall(
                Line("The up-card was turned down: name a suit other than {suit}, or pass", suit=up)
            )
        if call.call not in SUITS:
            raise IllegalCall(
                Line("{call} is not a call: pass, order up, or a suit", call=repr(call.call))
            )
        if call.call == self._up_suit:
            raise IllegalCall(Line("{suit} was turned down: name another suit, or pass", suit=up))

    def _check_discard(self, discard: Discard) -> None:
        if self.phase is not Phase.DISCARD:
            raise WrongPhase(Line("Only the dealer discards, after taking the up-card"))
        if discard.seat != self.dealer:
            raise NotYourTurn(Line("The dealer ({seat}) discards", seat=self.dealer))
        if not self._hands[discard.seat] >> discard.card.index & 1:
            raise IllegalDiscard(Line("You don't hold {card}", card=str(discard.card)))

    def _apply_decision(self, action: Action) -> None:
        if isinstance(action, Call):
            self._call(action)
        elif isinstance(action, Discard):
            self._hands[action.seat] ^= action.card.bit
            self._discard = action.card
            self._begin_play(self._up_suit)

    def _call(self, call: Call) -> None:
        self._calls.append(call)
        seat = call.seat
        if call.call == Call.PASS:
            if seat != self.dealer:
                self._turn = self._next[seat]
            elif self._round == 1:
                self._round = 2
                self._turn = self._next[seat]
            else:
                self._void_hand()
            return
        self._maker = seat
        self._alone = call.alone
        if call.call == Call.ORDER:
            assert self._turned is not None
            self._hands[self.dealer] |= self._turned.bit
            self.phase = Phase.DISCARD
            self._turn = self.dealer
        else:
            self._begin_play(call.call)

    def _begin_play(self, trump: str) -> None:
        self.phase = Phase.PLAY
        assert self._maker is not None
        out = self._maker.partner if self._alone else None
        order = self.deck.with_trump(trump)
        self._begin_tricks(order, self.seating.seats, self.dealer, sitting_out=out)

    # ------------------------------------------------------------------ scoring
    def _void_hand(self) -> None:
        """Everybody passed twice: no score, and the deal passes on."""
        part = ScorePart("euchre", Line("Everybody passed: no score"), 0)
        teams = [TeamHandScore(0, 0, 0, s, 0, parts=(part,)) for s in self.scores]
        result = self._result(teams, up_card=self._turned, calls=tuple(self._calls), void=True)
        self._close_hand(teams, result)

    def _last_trick_played(self) -> None:
        assert self._maker is not None
        t = self._tricks
        by_side = [t[a] + t[b] for a, b in (team.seats for team in Team)]
        makers = self._maker & 1
        teams = score_euchre(
            self.rules.euchre_points, makers, by_side, self._alone, list(self.scores)
        )
        self._close_hand(teams, self._hand_result(teams))


def score_euchre(
    euchre_points: str, makers: int, tricks: list[int], alone: bool, scores: list[int]
) -> list[TeamHandScore]:
    """Both sides' scores for a played hand (G4): ``makers`` is the makers' side index."""
    parts: list[list[ScorePart]] = [[], []]
    if euchre_points == "per_trick":
        for side in (0, 1):
            parts[side].append(ScorePart("euchre", tricks_line(tricks[side]), tricks[side]))
            if tricks[side] == HAND:
                parts[side].append(ScorePart("euchre", ALL_FIVE, 1))
    else:
        took = tricks[makers]
        defenders = makers ^ 1
        kept = tricks[defenders]
        if took == HAND:
            label, points = (ALONE_MARCH, 4) if alone else (MARCH, 2)
            parts[makers].append(ScorePart("euchre", label, points))
        elif took >= 3:
            parts[makers].append(ScorePart("euchre", _made_it(took), 1))
        else:
            parts[makers].append(ScorePart("euchre", _euchred(took), 0))
            parts[defenders].append(ScorePart("euchre", _euchred_the_makers(kept), 2))
        if not parts[defenders]:
            parts[defenders].append(ScorePart("euchre", _defended(kept), 0))
    out = []
    for side in (0, 1):
        points = sum(p.points for p in parts[side])
        out.append(TeamHandScore(points, 0, 0, scores[side] + points, 0, parts=tuple(parts[side])))
    return out


ALL_FIVE: Final = Line("All five tricks")
MARCH: Final = Line("March: all 5 tricks")
ALONE_MARCH: Final = Line("Alone march: all 5 tricks")


def _made_it(k: int) -> Line:
    return Line("Made it: {k} tricks", k=k)  # 3 or more


def _euchred(k: int) -> Line:
    return Line("Euchred: {k} trick", k=k) if k == 1 else Line("Euchred: {k} tricks", k=k)


def _euchred_the_makers(k: int) -> Line:
    if k == 1:
        return Line("Euchred the makers ({k} trick)", k=k)
    return Line("Euchred the makers ({k} tricks)", k=k)


def _defended(k: int) -> Line:
    return Line("Defended: {k} trick", k=k) if k == 1 else Line("Defended: {k} tricks", k=k)


EUCHRE = register(
    GameEntry(
        kind=GameKind.EUCHRE,
        title="Euchre",
        presets=(  # games.md G4
            Preset(
                "euchre",
                "Euchre",
                "Euchre: 24 cards, bowers, to 10",
                {"target": 10, "deck": "euchre24"},
            ),
        ),
        options=("target", "deck", "stick_the_dealer", "euchre_points"),
        decks=tuple(EUCHRE_DECKS),
        actions=frozenset({Call, Discard}),
        part=TrumpPart,
    )
)


register_game(GameKind.EUCHRE, EuchreGame)
