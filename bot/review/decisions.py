"""A recorded game, walked action by action: what each hand's bids and tricks were, and every
decision a seat took (each bid and each card), numbered in the order they were taken.

Built on the engine's record replay, so a record is read exactly as ``python -m bot.engine
replay`` reads it.  :func:`replay_game` gives the whole game for the review's pages;
:func:`decision_views` gives, for chosen decisions, the deciding seat's view just before it
decided — everything that seat knew then and nothing else (the hard player's opinion is
computed from it).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from bot.engine import SEATS, Bid, Card, HandResult, Play, Rules, Seat, SeatView, seat_view
from bot.engine.record import Replayer


@dataclass(frozen=True, slots=True)
class RecordedDecision:
    """One bid or card: ``index`` numbers the game's decisions from 0 in the order taken."""

    index: int
    hand: int
    trick: int  # 0 for bids, else 1..13
    seat: Seat
    action: Bid | Play

    @property
    def is_play(self) -> bool:
        return isinstance(self.action, Play)


@dataclass(frozen=True, slots=True)
class TrickPlayed:
    number: int
    plays: tuple[tuple[Seat, Card, int], ...]  # (seat, card, decision index), in order
    winner: Seat | None  # None while the trick is unfinished (an abandoned game)


@dataclass(frozen=True, slots=True)
class HandPlayed:
    number: int
    dealer: Seat
    bids: tuple[RecordedDecision, ...]
    tricks: tuple[TrickPlayed, ...]
    result: HandResult | None  # None for a hand the game ended in (abandoned)


@dataclass(frozen=True, slots=True)
class GameReplay:
    rules: Rules
    players: dict[Seat, str]
    hands: tuple[HandPlayed, ...]
    decisions: tuple[RecordedDecision, ...]
    scores: tuple[int, ...]  # by side: NS, EW; one per player in solo games
    winner: str | None  # the winning side's key ("NS", "EW"; a seat's name in solo) or None


class _Stop(Exception):
    """Raised inside the replay once every wanted decision was seen."""


class _Walk(Replayer):
    """The engine's replay, watching every bid and play just before it is applied, and
    noting who won each trick."""

    def __init__(self, doc: Any, before: Callable[[RecordedDecision], None]) -> None:
        super().__init__(doc)
        self._before = before
        self.count = 0
        self.winners: dict[tuple[int, int], Seat] = {}  # (hand, trick) -> winner

    def _do(self, action: Any, kind: str, at: dict[str, Any], shown: dict[str, Any]) -> None:
        if not isinstance(action, Bid | Play):
            super()._do(action, kind, at, shown)
            return
        game = self.game
        done = len(game.completed_tricks)
        trick = 0 if isinstance(action, Bid) else done + 1
        hand = game.hand_number
        self._before(RecordedDecision(self.count, hand, trick, action.seat, action))
        self.count += 1
        super()._do(action, kind, at, shown)
        if isinstance(action, Play) and len(game.completed_tricks) > done:
            self.winners[(hand, trick)] = game.completed_tricks[-1].winner
        elif isinstance(action, Play) and game.results and game.results[-1].number == hand:
            # The hand's last card: the hand is scored and its tricks cleared at once; the
            # last trick went to the seat whose count the result has one more of.
            counts = [0, 0, 0, 0]
            for (h, _), seat in self.winners.items():
                if h == hand:
                    counts[seat] += 1
            taken = game.results[-1].tricks
            self.winners[(hand, trick)] = next(s for s in SEATS if taken[s] > counts[s])


def players_of(doc: dict[str, Any], seats: tuple[Seat, ...] = SEATS) -> dict[Seat, str]:
    players = doc.get("players") or {}
    out = {}
    for s in seats:
        p = players.get(s.name) or {}
        out[s] = str(p.get("name") or s.word)
    return out


def replay_game(doc: dict[str, Any]) -> GameReplay:
    """The whole recorded game (raises :class:`~bot.engine.RecordError` for a bad record)."""
    decisions: list[RecordedDecision] = []
    walk = _Walk(doc, decisions.append)
    for _ in walk.lines():
        pass
    game = walk.game
    by_hand: dict[int, list[RecordedDecision]] = {}
    for d in decisions:
        by_hand.setdefault(d.hand, []).append(d)
    results = {r.number: r for r in game.results}
    for number in results:  # a hand without decisions: Euchre's void hand (everybody passed)
        by_hand.setdefault(number, [])
    hands = []
    for number, made in sorted(by_hand.items()):
        result = results.get(number)
        dealer = result.dealer if result is not None else game.dealer
        hands.append(
            HandPlayed(
                number,
                dealer,
                tuple(d for d in made if not d.is_play),
                _tricks([d for d in made if d.is_play], walk.winners),
                result,
            )
        )
    sides = game.seating.side_names
    winner = None if game.winner is None else sides[int(game.winner)]
    return GameReplay(
        game.rules,
        players_of(doc, game.rules.seats),
        tuple(hands),
        tuple(decisions),
        tuple(game.scores),
        winner,
    )


def _tricks(
    plays: list[RecordedDecision], winners: dict[tuple[int, int], Seat]
) -> tuple[TrickPlayed, ...]:
    """The hand's plays by trick (four cards a trick, three when a Euchre maker goes alone)."""
    by_trick: dict[int, list[RecordedDecision]] = {}
    for d in plays:
        by_trick.setdefault(d.trick, []).append(d)
    return tuple(
        TrickPlayed(
            number,
            tuple((d.seat, _card(d), d.index) for d in chunk),
            winners.get((chunk[0].hand, number)),
        )
        for number, chunk in sorted(by_trick.items())
    )


def _card(d: RecordedDecision) -> Card:
    assert isinstance(d.action, Play)
    return d.action.card


def decision_views(
    doc: dict[str, Any], wanted: Collection[int]
) -> list[tuple[RecordedDecision, SeatView]]:
    """For each wanted decision, the deciding seat's view just before it decided."""
    out: list[tuple[RecordedDecision, SeatView]] = []
    last = max(wanted, default=-1)
    walk: _Walk

    def before(d: RecordedDecision) -> None:
        if d.index in wanted:
            out.append((d, seat_view(walk.game, d.seat)))
        if d.index >= last:
            raise _Stop

    walk = _Walk(doc, before)
    try:
        for _ in walk.lines():
            pass
    except _Stop:
        pass
    return out
