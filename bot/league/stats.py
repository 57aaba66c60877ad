"""Per-player hand statistics of one game, computed by replaying its record.

Counted per seat over the game's completed hands (a hand cut short by abandoning is not):

- ``contract_hands`` / ``contracts_made``: hands in which the seat shared its team's contract
  (it bid a number; in New York every team bid) and whether the team made it;
- ``bid_hands`` / ``bid_sum`` / ``bid_tricks``: the seat's own numeric bids and the tricks it
  took in those hands (individual bidding only: a New York bid belongs to the team);
- ``nil_bids`` / ``nil_made``, ``blind_nil_bids`` / ``blind_nil_made``: nil attempts and those
  with no trick taken;
- ``bags``: overtricks gained by the seat's team; ``sets``: hands in which its team was set.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from bot.engine.actions import BLIND_NIL, NIL
from bot.engine.game import HandResult
from bot.engine.record import Replayer

TEAM_KEYS = ("NS", "EW")


@dataclass(frozen=True, slots=True)
class HandTotals:
    """Counts for one seat; add two together with ``+``."""

    hands: int = 0
    contract_hands: int = 0
    contracts_made: int = 0
    bid_hands: int = 0
    bid_sum: int = 0
    bid_tricks: int = 0
    nil_bids: int = 0
    nil_made: int = 0
    blind_nil_bids: int = 0
    blind_nil_made: int = 0
    bags: int = 0
    sets: int = 0

    def __add__(self, other: HandTotals) -> HandTotals:
        return HandTotals(*(a + b for a, b in zip(self.values(), other.values(), strict=True)))

    def values(self) -> tuple[int, ...]:
        """The counts in field order (the order of :func:`total_names`)."""
        return tuple(getattr(self, name) for name in _NAMES)


_NAMES: tuple[str, ...] = tuple(f.name for f in fields(HandTotals))


def total_names() -> tuple[str, ...]:
    return _NAMES


@dataclass(frozen=True, slots=True)
class GameSummary:
    """What a replayed record says: scores (NS, EW), the winner and each seat's totals."""

    hands: int
    scores: tuple[int, int]
    winner: str | None
    over: bool
    seats: tuple[HandTotals, HandTotals, HandTotals, HandTotals]


def seat_hand(result: HandResult, seat: int, new_york: bool) -> HandTotals:
    """One seat's counts for one completed hand."""
    team = seat & 1
    score = result.teams[team]
    tricks = result.tricks[seat]
    bags = score.bags
    sets = int(score.was_set)
    if new_york:
        team_bid = any(b.seat & 1 == team for b in result.bids)
        return HandTotals(
            hands=1,
            contract_hands=int(team_bid),
            contracts_made=int(team_bid and not score.was_set),
            bags=bags,
            sets=sets,
        )
    bid = next((b.value for b in result.bids if b.seat == seat), None)
    if bid is None:  # pragma: no cover - every seat bids in individual bidding
        return HandTotals(hands=1, bags=bags, sets=sets)
    if bid == NIL:
        return HandTotals(hands=1, nil_bids=1, nil_made=int(tricks == 0), bags=bags, sets=sets)
    if bid == BLIND_NIL:
        made = int(tricks == 0)
        return HandTotals(hands=1, blind_nil_bids=1, blind_nil_made=made, bags=bags, sets=sets)
    return HandTotals(
        hands=1,
        contract_hands=1,
        contracts_made=int(not score.was_set),
        bid_hands=1,
        bid_sum=bid,
        bid_tricks=tricks,
        bags=bags,
        sets=sets,
    )


def seat_totals(
    results: Sequence[HandResult], new_york: bool
) -> tuple[HandTotals, HandTotals, HandTotals, HandTotals]:
    """Each seat's counts over ``results`` (a game's completed hands)."""
    out = [HandTotals(), HandTotals(), HandTotals(), HandTotals()]
    for result in results:
        for seat in range(4):
            out[seat] = out[seat] + seat_hand(result, seat, new_york)
    return (out[0], out[1], out[2], out[3])


def summarize_record(record: Mapping[str, Any]) -> GameSummary:
    """Replay ``record`` through the engine (raises :class:`~bot.engine.RecordError` if it is
    not a legal game) and count what happened."""
    replayer = Replayer(dict(record))
    for _ in replayer.lines():
        pass
    game = replayer.game
    return GameSummary(
        hands=len(game.results),
        scores=(game.scores[0], game.scores[1]),
        winner=None if game.winner is None else TEAM_KEYS[game.winner],
        over=game.over,
        seats=seat_totals(game.results, game.rules.new_york),
    )
