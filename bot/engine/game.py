"""The game protocol every trick-taking game follows, and what they share beyond trick play.

``Game(rules, first_dealer)`` makes the game ``rules.game`` names (Spades, Whist, Euchre: each a
subclass declaring its :class:`~bot.engine.games.GameKind`; the game's registry entry,
:mod:`bot.engine.games`, says the rest of what it is).  Every game answers the same small API:

* :attr:`Game.phase`, :attr:`Game.to_act` (the seat the game waits for), :attr:`Game.over`;
* :meth:`Game.legal_actions` (every action a seat may take now), :meth:`Game.check` (raises a
  typed :class:`~bot.engine.errors.IllegalAction` with a reason a player can read),
  :meth:`Game.apply` (check, then change state: a refused action changes nothing);
* :meth:`Game.deal` (a chance action, :class:`~bot.engine.actions.Deal`, so a game is fully
  determined by its rules, first dealer and action list: that is what records store);
* :attr:`Game.results` (every finished hand as a :class:`HandResult`), :attr:`Game.scores`,
  :attr:`Game.winner`; :meth:`Game.clone`;
* what a seat may know is :func:`bot.engine.views.seat_view`, never the game itself.

Written here once: the hand cycle (deal → the game's own phases → trick play → scoring → next
dealer), the deal's checks, the score sheet per side, the end of the game at the target, and
copying.  Trick play itself is :class:`~bot.engine.tricks.TrickPlay`.  A game adds its phases
(``_begin_hand``, ``_legal_decisions``, ``_check_decision``, ``_apply_decision``), its scoring
(``_last_trick_played`` → ``_close_hand``), its end (``_decide``), and what a seat may know of
its phases (:meth:`Game.view_part`) and a record of its hand (:meth:`Game.hand_so_far`); the
base class knows nothing of any one game's state (docs/adding-a-game.md).
"""

from __future__ import annotations

import random
from enum import StrEnum
from typing import ClassVar, Final, NamedTuple, Self, cast

from bot.engine.actions import PLAYS, Action, Bid, Call, ClaimResult, Deal, PassCards, Play
from bot.engine.build import mypyc_attr
from bot.engine.cards import CARDS, Card, mask_of
from bot.engine.decks import DECKS, Deck
from bot.engine.errors import GameOver, IllegalAction, InvalidDeal, RulesError, WrongPhase
from bot.engine.games import GameKind, GamePart
from bot.engine.lines import Line
from bot.engine.rules import Rules
from bot.engine.scoring import REACHED_TARGET, TeamHandScore
from bot.engine.seats import PARTNERSHIPS, SEATS, Seat, Seating, Team
from bot.engine.shuffle import DEAL, shuffled
from bot.engine.tricks import Trick, TrickPlay

__all__ = ["PHASE_REFUSAL", "Game", "HandResult", "Phase", "Trick"]


class Phase(StrEnum):
    DEAL = "deal"
    BID = "bid"  # Spades
    PASS = "pass"  # noqa: S105 - Spades' blind-nil card passing, not a password
    CALL = "call"  # Euchre: ordering up or naming trump
    DISCARD = "discard"  # Euchre: the dealer's discard after taking the up-card
    PLAY = "play"
    OVER = "over"


# The phases as module names for the hot paths: reading a member from an Enum class goes
# through the enum metaclass's __getattr__ hook (about a microsecond in CPython 3.11).
_DEAL: Final = Phase.DEAL
_PLAY: Final = Phase.PLAY
_OVER: Final = Phase.OVER

# Why an action of another phase is refused now.
PHASE_REFUSAL: Final = {
    Phase.DEAL: Line("The cards have not been dealt yet"),
    Phase.BID: Line("Bidding is not over yet"),
    Phase.PASS: Line("Cards are being passed"),
    Phase.CALL: Line("Trump has not been chosen yet"),
    Phase.DISCARD: Line("The dealer is discarding"),
    Phase.PLAY: Line("Bidding is over"),
    Phase.OVER: Line("The game is over"),
}


class HandResult(NamedTuple):
    """A finished hand: everything a record needs, and its score per side.

    The fields after ``teams`` belong to some games only: Whist's ``trump_card``, Euchre's
    ``up_card``, ``calls``, ``discard``, ``maker``, ``alone`` and ``void`` (all passed: no play).
    Immutable like every engine value; a named tuple because every hand makes one (a frozen
    dataclass of this size costs a random play-out several per cent of its speed).
    """

    number: int
    dealer: Seat
    deal: tuple[tuple[Card, ...], ...]
    bids: tuple[Bid, ...]  # Spades: every bid as made; New York: each team's final bid
    passes: tuple[PassCards, ...]
    plays: tuple[Card, ...]
    tricks: tuple[int, int, int, int]
    teams: tuple[TeamHandScore, ...]  # by side
    trump: str | None = "S"
    trump_card: Card | None = None
    up_card: Card | None = None
    calls: tuple[Call, ...] = ()
    discard: Card | None = None
    maker: Seat | None = None
    alone: bool = False
    void: bool = False
    claims: tuple[ClaimResult, ...] = ()  # games.md G1: the hand's renege claims, in order


_GAMES: dict[str, type[Game]] = {}  # kind -> the class that plays it: register_game()


@mypyc_attr(allow_interpreted_subclasses=True)
class Game(TrickPlay):
    """One game from the first deal to the end; ``Game(rules)`` is the game of ``rules.game``."""

    #: What the game calls the card its deal turns face up, if it turns one (Whist's trump
    #: card, Euchre's up-card): the words of a verification that finds it changed.
    turned_card_name: ClassVar[Line] = Line("turned card")

    __slots__ = (
        "_deal",
        "_hand_size",
        "_turned",
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
        "seating",
        "total_bags",
        "winner",
    )

    def __new__(cls, rules: Rules, first_dealer: Seat = Seat.N) -> Game:
        """``Game(rules)`` makes the game's own class; ``__init__`` then sets it up.  (Only the
        class itself is allocated here: mypyc's compiled classes are made by their own
        ``__new__``, never by ``object.__new__`` of another class.)"""
        if cls is Game:
            try:
                game = _GAMES[rules.game]
            except KeyError:
                raise RulesError(
                    Line("There is no game {name}", name=repr(rules.game)), "game"
                ) from None
            return Game.__new__(game._variant_class(rules), rules, first_dealer)
        return super().__new__(cls)

    @classmethod
    def _variant_class(cls, rules: Rules) -> type[Game]:
        """The class that plays ``rules`` (Spades: its solo and renege-claim variants)."""
        return cls

    def __init__(self, rules: Rules, first_dealer: Seat = Seat.N) -> None:
        self.rules = rules
        self.seating: Seating = self._seating()
        self.deck = self._make_deck()
        self._hand_size = self._cards_per_seat()
        self.first_dealer = Seat(first_dealer)
        self.dealer = self.first_dealer
        self.hand_number = 1
        self.phase = Phase.DEAL
        sides = len(self.seating.sides)
        self.scores = [0] * sides
        self.bag_counts = [0] * sides
        self.total_bags = [0] * sides
        # A partnership (Team) wins; in solo games a player (Seat: side k is seat k).
        self.winner: Team | Seat | None = None
        self.end_reason: Line | None = None  # why the game ended, once it has
        self.results: list[HandResult] = []
        self._reset_hand()

    def _seating(self) -> Seating:
        """Who plays and who scores together (default: four players in two partnerships)."""
        return PARTNERSHIPS

    def _make_deck(self) -> Deck:
        """The deck dealt (default: the rules' deck under its natural trump)."""
        return DECKS[self.rules.deck]

    def _reset_hand(self) -> None:
        """Forget the hand in progress (games extend this with their own per-hand state)."""
        self._deal: tuple[tuple[Card, ...], ...] = ()
        self._turned: Card | None = None
        self._reset_tricks(self.deck, self.seating.seats)

    # ------------------------------------------------------------------ queries
    @property
    def title(self) -> str:
        """The game's name (its registry entry's title)."""
        return self.rules.title

    @property
    def over(self) -> bool:
        return self.phase is _OVER

    @property
    def to_act(self) -> Seat | None:
        """The seat whose decision the game waits for (``None`` while dealing or when over)."""
        phase = self.phase
        if phase is _DEAL or phase is _OVER:
            return None
        return SEATS[self._turn]

    @property
    def deal_cards(self) -> tuple[tuple[Card, ...], ...]:
        """The hands as dealt this hand (by seat)."""
        return self._deal

    @property
    def hand_size(self) -> int:
        """Cards dealt to each seat."""
        return self._hand_size

    @property
    def tricks_per_hand(self) -> int:
        return self._hand_size

    def _cards_per_seat(self) -> int:
        """Cards dealt to each seat (default: the whole deck, shared out)."""
        return self.deck.size // len(self.seating.seats)

    def honest_mask(self) -> int:
        """The cards the seat on turn may play without reneging (= the legal ones when
        reneges are prevented)."""
        return self.legal_mask()

    def view_part(self, seat: Seat | None) -> GamePart | None:
        """What ``seat`` (``None``: the public) may know of the game's own phases — bids,
        calls, the turned card — as the game's part of a seat view (none: trick play only)."""
        return None

    def hand_so_far(self) -> HandResult:
        """The hand in progress as a record holds it: the deal, the game's own actions so far
        and the plays (no score yet)."""
        return self._result([])

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self, seat: Seat | int | None = None) -> list[Action]:
        """Every action the seat (default: the one on turn) may take now."""
        if self.phase is _PLAY:
            # legal_mask(), inlined: this is the hottest call of a play-out.
            turn = self._turn
            if seat is not None and seat != turn:
                return []
            hand = self._hands[turn]
            mask = hand & (self._lead_mask if self._trick else ~self._lead_block) or hand
            plays = PLAYS[turn]
            out: list[Action] = []
            while mask:
                low = mask & -mask
                out.append(plays[low.bit_length() - 1])
                mask ^= low
            return out
        if seat is None:
            seat = self.to_act
            if seat is None:
                return []
        return self._legal_decisions(SEATS[seat])

    def _legal_decisions(self, seat: Seat) -> list[Action]:
        """The game's own actions (bids, calls, passes) open to ``seat`` now."""
        return []

    def is_legal(self, action: Action) -> bool:
        try:
            self.check(action)
        except IllegalAction:
            return False
        return True

    # ------------------------------------------------------------------ checking
    def check(self, action: Action | Deal) -> None:
        """Raise a typed :class:`IllegalAction` with a reason unless ``action`` is legal now."""
        if self.phase is _OVER:
            raise GameOver(PHASE_REFUSAL[_OVER])
        if isinstance(action, Play):
            if self.phase is not _PLAY:
                raise WrongPhase(PHASE_REFUSAL[self.phase])
            self._check_play(action.seat, action.card)
        elif isinstance(action, Deal):
            self._check_deal(action)
        else:
            self._check_decision(action)

    def _check_decision(self, action: Action) -> None:
        """Check one of the game's own actions; a game without it refuses it."""
        raise IllegalAction(
            Line(
                "There is no {action} in {game}",
                action=type(action).__name__.lower(),
                game=self.rules.game,
            )
        )

    def _check_deal(self, deal: Deal) -> None:
        if self.phase is not _DEAL:
            raise WrongPhase(Line("The cards have been dealt"))
        size = self.hand_size
        if len(deal.hands) != len(self.seating.seats) or any(len(h) != size for h in deal.hands):
            raise InvalidDeal(Line("Each seat is dealt {n} cards", n=size))
        union = 0
        for h in deal.hands:
            m = mask_of(h)
            if m & union or m.bit_count() != size:
                raise InvalidDeal(Line("A card is dealt twice"))
            union |= m
        self._check_dealt(deal, union)

    def _check_dealt(self, deal: Deal, dealt: int) -> None:
        """The game's own deal checks (default: the whole deck dealt, no card turned up)."""
        if dealt != self.deck.mask:
            raise InvalidDeal(Line("The deal is not the {deck} deck", deck=self.deck.name))
        if deal.turned is not None:
            raise InvalidDeal(Line("No card is turned up in {game}", game=self.rules.game))

    # ------------------------------------------------------------------ applying
    def apply(self, action: Action | Deal) -> None:
        """Apply a legal action; raise :class:`IllegalAction` (state unchanged) otherwise."""
        if type(action) is Play:
            # The common case, tested inline; anything doubtful gets the full check, which
            # raises the reason of a refusal.
            seat = action.seat
            idx = action.card.index
            hand = self._hands[seat]
            bit = 1 << idx
            if (
                self.phase is not _PLAY
                or seat != self._turn
                or not hand & bit
                or (
                    not bit & self._lead_mask and hand & self._lead_mask
                    if self._trick
                    else bit & self._lead_block
                )
            ):
                self.check(action)
            self._play(seat, idx)
            return
        self.check(action)
        if isinstance(action, Deal):
            self._start_hand(action)
        else:
            self._apply_decision(action)

    def _apply_decision(self, action: Action) -> None:
        """Apply one of the game's own (checked) actions."""
        raise NotImplementedError

    def deal(self, rng: random.Random) -> Deal:
        """Shuffle with ``rng`` and apply the deal (``secrets.SystemRandom()`` in real play)."""
        deal = self.random_deal(rng)
        if self.phase is not _DEAL:
            self.check(deal)  # the refusal of a deal now
        self._start_hand(deal)  # the game's own deal of its deck: nothing else to check
        return deal

    def random_deal(self, rng: random.Random) -> Deal:
        """A deal of the deck shuffled with ``rng``, not yet applied."""
        cards = list(self.deck.cards)
        rng.shuffle(cards)
        return self._deal_from(cards)

    def seeded_deal(self, seed: bytes) -> Deal:
        """This hand's deal derived from the game's ``seed`` (docs/verifiable-deals.md: the
        deck in card order, shuffled by the stream ``deal``/hand number), not yet applied."""
        return self._deal_from(shuffled(seed, DEAL, self.hand_number, self.deck.cards))

    def _deal_from(self, cards: list[Card]) -> Deal:
        """The deal of a shuffled deck (default: every card, round the table)."""
        n = len(self.seating.seats)
        return Deal(tuple(tuple(cards[i::n]) for i in range(n)))

    def _start_hand(self, deal: Deal) -> None:
        # The hand's state is fresh: a game enters Phase.DEAL only new or from _close_hand.
        self._deal = tuple(tuple(h) for h in deal.hands)
        self._turned = deal.turned
        for seat, h in zip(self.seating.seats, deal.hands, strict=True):
            self._hands[seat] = mask_of(h)
        self._begin_hand()

    def _begin_hand(self) -> None:
        """The cards are dealt: enter the game's first phase of the hand."""
        raise NotImplementedError

    # ------------------------------------------------------------------ ending a hand
    def _result(
        self,
        teams: list[TeamHandScore],
        *,
        trump_card: Card | None = None,
        up_card: Card | None = None,
        bids: tuple[Bid, ...] = (),
        passes: tuple[PassCards, ...] = (),
        calls: tuple[Call, ...] = (),
        discard: Card | None = None,
        maker: Seat | None = None,
        alone: bool = False,
        void: bool = False,
        claims: tuple[ClaimResult, ...] = (),
    ) -> HandResult:
        """The :class:`HandResult` of the hand in progress, with the game's own parts."""
        t = self._tricks
        return HandResult(
            self.hand_number,
            SEATS[self.dealer],
            self._deal,
            bids,
            passes,
            tuple([CARDS[i] for i in self._plays]),
            (t[0], t[1], t[2], t[3]),
            tuple(teams),
            trump=self.trump,
            trump_card=trump_card,
            up_card=up_card,
            calls=calls,
            discard=discard,
            maker=maker,
            alone=alone,
            void=void,
            claims=claims,
        )

    def _close_hand(self, teams: list[TeamHandScore], result: HandResult) -> None:
        """Book the hand's scores, then end the game or move the deal on."""
        for side, res in enumerate(teams):
            self.scores[side] = res.score
            self.bag_counts[side] = res.bag_count
            self.total_bags[side] += res.bags
        self.results.append(result)
        winner, reason = self._decide(teams)
        if winner is not None:
            self.winner = winner
            self.end_reason = reason
            self.phase = _OVER
            return
        self.dealer = self.seating.after(self.dealer)
        self.hand_number += 1
        self.phase = _DEAL
        self._reset_hand()

    def _decide(self, teams: list[TeamHandScore]) -> tuple[Team | Seat | None, Line | None]:
        """Is the game over after this hand: the winner and why?  Default: the higher score at
        or above the target wins; equal scores play another hand."""
        return self._target_reached()

    def _target_reached(self) -> tuple[Team | None, Line | None]:
        s = self.scores
        top = max(s)
        if top >= self.rules.target and s.count(top) == 1:
            return Team(s.index(top)), REACHED_TARGET
        return None, None

    # ------------------------------------------------------------------ copying
    def clone(self) -> Self:
        # Allocated, not set up: every slot is copied.
        g = cast(Self, Game.__new__(type(self), self.rules))
        for name in _slots(type(self)):
            v = getattr(self, name)
            setattr(g, name, v.copy() if type(v) is list else v)
        return g


def register_game(kind: GameKind, cls: type[Game]) -> None:
    """``Game(rules)`` makes a ``cls`` for the game ``kind`` (each game module registers its
    class; an explicit call, since a compiled class does not run ``__init_subclass__``)."""
    _GAMES[kind] = cls


_SLOTS: dict[type, tuple[str, ...]] = {}


def _slots(cls: type) -> tuple[str, ...]:
    """Every slot of ``cls`` and its bases (a class compiled by mypyc lists its attributes
    in ``__mypyc_attrs__``, its own and its bases', instead of ``__slots__``)."""
    names = _SLOTS.get(cls)
    if names is None:
        found = (
            n
            for klass in cls.__mro__
            for attrs in ("__slots__", "__mypyc_attrs__")
            for n in klass.__dict__.get(attrs, ())
            if n != "__dict__"
        )
        names = tuple(dict.fromkeys(found))
        _SLOTS[cls] = names
    return names
