"""Trick play, written once for every game: follow suit by effective suit, trump order, the
trick winner, turn order with a sitting-out seat, and the refusals of illegal cards.

:class:`TrickPlay` is the play-phase half of :class:`~bot.engine.game.Game`.  Hands are ``int``
bitmasks over card indices, and the trump order in force (a :class:`~bot.engine.decks.Deck`
ranked under this hand's trump) is unpacked into plain attributes, so a random play-out costs
a few integer operations per card.  A game tells it three things when play begins
(:meth:`_begin_tricks`): the trump order, who sits out, and whether trumps may be led before
one has been played (Spades: not until spades are broken).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine.build import mypyc_attr
from bot.engine.cards import CARDS, SUIT_SYMBOLS, SUITS, Card, cards_of
from bot.engine.decks import Deck
from bot.engine.errors import CardNotInHand, LeadNotAllowed, MustFollowSuit, NotYourTurn
from bot.engine.lines import Line
from bot.engine.seats import SEATS, Seat, turn_order


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: who led, the cards in order, who won it."""

    leader: Seat
    cards: tuple[tuple[Seat, Card], ...]
    winner: Seat

    def __reduce__(self) -> tuple[object, ...]:
        # Pickled by its fields (views cross to the players' worker processes): a frozen
        # dataclass compiled by mypyc cannot be unpickled by setting its fields.
        return (Trick, (self.leader, self.cards, self.winner))


@mypyc_attr(allow_interpreted_subclasses=True)
class TrickPlay:
    """The trick-taking state of the hand in progress (see the module docstring)."""

    __slots__ = (
        "_beats",
        "_broken",
        "_hand_tricks",
        "_hands",
        "_lead_block",
        "_lead_mask",
        "_lead_masks",
        "_next",
        "_order",
        "_plays",
        "_sitting_out",
        "_suit_masks",
        "_trick",
        "_trick_size",
        "_tricks",
        "_tricks_history",
        "_trumps",
        "_turn",
        "_win",
        "_win_seat",
    )

    _order: Deck

    def _reset_tricks(self, order: Deck, seats: tuple[Seat, ...]) -> None:
        """Empty trick state for a new hand (no cards yet)."""
        self._hands = [0, 0, 0, 0]
        self._next = turn_order(seats)
        self._turn = 0
        self._sitting_out: Seat | None = None
        self._set_order(order)
        self._lead_block = 0
        self._broken = False
        self._trick: list[tuple[int, int]] = []
        self._lead_mask = 0
        self._win = 0  # the card winning the trick in progress, and its seat
        self._win_seat = 0
        self._trick_size = len(seats)
        self._hand_tricks = 0
        self._tricks = [0, 0, 0, 0]
        self._plays: list[int] = []
        self._tricks_history: list[tuple[list[tuple[int, int]], int]] = []

    def _set_order(self, order: Deck) -> None:
        self._order = order
        self._suit_masks = order.suit_masks
        self._lead_masks = order.lead_masks
        self._beats = order.beats
        self._trumps = order.trumps

    def _begin_tricks(
        self,
        order: Deck,
        seats: tuple[Seat, ...],
        after: Seat,
        *,
        sitting_out: Seat | None = None,
        trumps_need_breaking: bool = False,
    ) -> None:
        """Start trick play: the seat after ``after`` (skipping ``sitting_out``) leads."""
        self._set_order(order)
        self._sitting_out = sitting_out
        self._next = turn_order(seats, sitting_out)
        self._trick_size = len(seats) - (sitting_out is not None)
        h = self._hands
        self._hand_tricks = max(
            h[0].bit_count(), h[1].bit_count(), h[2].bit_count(), h[3].bit_count()
        )
        self._turn = self._next[after]
        self._lead_block = self._trumps if trumps_need_breaking else 0

    # ------------------------------------------------------------------ queries
    def hand(self, seat: Seat) -> tuple[Card, ...]:
        """The seat's cards (engine-internal: UIs and players use the seat view)."""
        return cards_of(self._hands[seat])

    def hand_mask(self, seat: Seat) -> int:
        return self._hands[seat]

    @property
    def trump(self) -> str | None:
        """The trump suit in force (``None`` before it is known)."""
        return self._order.trump

    @property
    def trump_order(self) -> Deck:
        """The deck ranked under the trump in force."""
        return self._order

    @property
    def sitting_out(self) -> Seat | None:
        return self._sitting_out

    @property
    def spades_broken(self) -> bool:
        """A trump has been played this hand (in Spades: spades are broken)."""
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

    def legal_mask(self) -> int:
        """The cards the seat on turn may play (play phase only)."""
        hand = self._hands[self._turn]
        allowed = self._lead_mask if self._trick else ~self._lead_block
        return hand & allowed or hand

    # ------------------------------------------------------------------ refusals
    def _check_play(self, seat: Seat | int, card: Card) -> None:
        if seat != self._turn:
            if seat == self._sitting_out:
                raise NotYourTurn(Line("You sit this hand out: your partner plays alone"))
            raise NotYourTurn(Line("It is {seat}'s turn to play", seat=SEATS[self._turn]))
        hand = self._hands[seat]
        bit = 1 << card.index
        if not hand & bit:
            raise CardNotInHand(Line("You don't hold {card}", card=str(card)))
        if self._trick:
            lead = self._lead_mask
            if not bit & lead and hand & lead:
                suit = SUITS[self._suit_masks.index(lead)]
                raise MustFollowSuit(self._follow_reason(suit, card, hand & lead), suit)
        elif bit & self._lead_block and hand & ~self._lead_block:
            raise self._lead_refusal()

    def _follow_reason(self, suit: str, card: Card, followers: int) -> Line:
        """ "You must follow ♥", saying so when a bower is why (Euchre)."""
        led = SUIT_SYMBOLS[suit]
        left = self._order.left_bower
        trump = self._order.trump
        if left is not None and trump is not None:
            if card == left:
                return Line(
                    "You must follow {suit} — the {card} is the left bower, a {trump} now",
                    suit=led,
                    card=str(left),
                    trump=SUIT_SYMBOLS[trump],
                )
            if suit == trump and followers >> left.index & 1:
                return Line(
                    "You must follow {suit} — the left bower is a {trump} now",
                    suit=led,
                    trump=SUIT_SYMBOLS[trump],
                )
        return Line("You must follow {suit}", suit=led)

    def _lead_refusal(self) -> LeadNotAllowed:
        """The refusal of a lead the game blocks (Spades: spades not broken)."""
        return LeadNotAllowed(Line("You may not lead that suit yet"))

    # ------------------------------------------------------------------ playing
    def _play(self, seat: int, idx: int) -> None:
        bit = 1 << idx
        self._hands[seat] ^= bit
        self._plays.append(idx)
        trick = self._trick
        if not trick:
            self._lead_mask = self._lead_masks[idx]
            self._win = idx
            self._win_seat = seat
        elif bit & self._beats[self._win]:
            self._win = idx
            self._win_seat = seat
        if bit & self._trumps:
            self._broken = True
            self._lead_block = 0
        trick.append((seat, idx))
        if len(trick) < self._trick_size:
            self._turn = self._next[seat]
            return
        winner = self._win_seat
        self._tricks[winner] += 1
        self._tricks_history.append((trick, winner))
        self._trick = []
        self._turn = winner
        self._trick_won(trick, winner)
        if len(self._tricks_history) == self._hand_tricks:
            self._last_trick_played()

    def _trick_won(self, trick: list[tuple[int, int]], winner: int) -> None:
        """Called after each trick (Spades: the joker bonus)."""

    def _last_trick_played(self) -> None:
        """Called when the hand's last trick is won: the game scores the hand."""
        raise NotImplementedError
