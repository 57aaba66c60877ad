"""Per-player hand statistics of one game, computed by replaying its record.

Counted per seat over the game's completed hands (a hand cut short by abandoning is not):

- ``contract_hands`` / ``contracts_made``: hands in which the seat shared its team's contract
  (it bid a number; in New York every team bid) and whether the team made it;
- ``bid_hands`` / ``bid_sum`` / ``bid_tricks``: the seat's own numeric bids and the tricks it
  took in those hands (individual bidding only: a New York bid belongs to the team);
- ``nil_bids`` / ``nil_made``, ``blind_nil_bids`` / ``blind_nil_made``: nil attempts and those
  with no trick taken;
- ``bags``: overtricks gained by the seat's team; ``sets``: hands in which its team was set;
- ``tricks``: tricks the seat took (every game);
- Euchre: ``maker_hands`` / ``maker_made`` (the seat named trump, and its side made it),
  ``alone_hands`` / ``alone_made`` (it went alone), ``marches`` (as maker, its side took all
  five), ``euchres`` (as a defender, its side euchred the makers);
- ``claims`` / ``claims_won``: renege claims the seat made and those that were correct;
  ``caught``: hands in which a correct claim named the seat (games.md G1).

In a solo game (games.md G2) the seat's "team" is the seat itself.  Standings keep these per
game (Spades, Whist, Euchre); a game's counts that do not apply to it stay 0.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, Final

from bot.engine.actions import BLIND_NIL, NIL
from bot.engine.game import HandResult
from bot.engine.games import GameKind
from bot.engine.record import Replayer
from bot.engine.rules import Rules
from bot.engine.seats import Seat, Team


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
    tricks: int = 0
    maker_hands: int = 0
    maker_made: int = 0
    alone_hands: int = 0
    alone_made: int = 0
    marches: int = 0
    euchres: int = 0
    claims: int = 0
    claims_won: int = 0
    caught: int = 0

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
    """What a replayed record says: scores (NS, EW; in solo one per seat), the winner (a team
    or, in solo, a seat name) and each seat's totals."""

    hands: int
    scores: tuple[int, ...]
    winner: str | None
    over: bool
    seats: tuple[HandTotals, ...]


def seat_hand(result: HandResult, seat: int, rules: Rules) -> HandTotals:
    """One seat's counts for one completed hand."""
    totals = _seat_hand(result, seat, rules)
    if not result.claims:
        return totals
    made = [c for c in result.claims if c.seat == seat]
    return dataclasses.replace(
        totals,
        claims=len(made),
        claims_won=sum(c.correct for c in made),
        caught=int(any(c.correct and c.against == seat for c in result.claims)),
    )


def _seat_hand(result: HandResult, seat: int, rules: Rules) -> HandTotals:
    """One seat's counts, as its game counts them (tricks only, by default)."""
    return _HAND_COUNTS.get(rules.game, _tricks_hand)(result, seat, rules)


def _tricks_hand(result: HandResult, seat: int, rules: Rules) -> HandTotals:
    return HandTotals(hands=1, tricks=result.tricks[seat])


def _spades_hand(result: HandResult, seat: int, rules: Rules) -> HandTotals:
    tricks = result.tricks[seat]
    new_york = rules.new_york
    team = seat if rules.solo else seat & 1
    score = result.teams[team]
    bags = score.bags
    sets = int(score.was_set)
    if new_york:
        team_bid = any(b.seat & 1 == team for b in result.bids)  # (New York is partnerships)
        return HandTotals(
            hands=1,
            contract_hands=int(team_bid),
            contracts_made=int(team_bid and not score.was_set),
            bags=bags,
            sets=sets,
            tricks=tricks,
        )
    bid = next((b.value for b in result.bids if b.seat == seat), None)
    if bid is None:  # pragma: no cover - every seat bids in individual bidding
        return HandTotals(hands=1, bags=bags, sets=sets, tricks=tricks)
    if bid == NIL:
        made = int(tricks == 0)
        return HandTotals(hands=1, nil_bids=1, nil_made=made, bags=bags, sets=sets, tricks=tricks)
    if bid == BLIND_NIL:
        made = int(tricks == 0)
        return HandTotals(
            hands=1, blind_nil_bids=1, blind_nil_made=made, bags=bags, sets=sets, tricks=tricks
        )
    return HandTotals(
        hands=1,
        contract_hands=1,
        contracts_made=int(not score.was_set),
        bid_hands=1,
        bid_sum=bid,
        bid_tricks=tricks,
        bags=bags,
        sets=sets,
        tricks=tricks,
    )


def _euchre_hand(result: HandResult, seat: int, rules: Rules) -> HandTotals:
    maker = result.maker
    if maker is None:  # everybody passed: a void hand
        return HandTotals(hands=1)
    makers = maker & 1
    taken = result.tricks[makers] + result.tricks[makers + 2]
    made = taken >= 3
    if seat != maker:
        euchred = int(seat & 1 != makers and not made)
        return HandTotals(hands=1, tricks=result.tricks[seat], euchres=euchred)
    return HandTotals(
        hands=1,
        tricks=result.tricks[seat],
        maker_hands=1,
        maker_made=int(made),
        alone_hands=int(result.alone),
        alone_made=int(result.alone and made),
        marches=int(taken == 5),
    )


# What the league counts of a hand, per game (bids and nils; calls and marches); a game
# without an entry here counts hands and tricks.
_HAND_COUNTS: Final[dict[str, Callable[[HandResult, int, Rules], HandTotals]]] = {
    GameKind.SPADES: _spades_hand,
    GameKind.EUCHRE: _euchre_hand,
}


def seat_totals(results: Sequence[HandResult], rules: Rules) -> tuple[HandTotals, ...]:
    """Each seat's counts over ``results`` (a game's completed hands), seats N, E, S(, W)."""
    out = [HandTotals() for _ in range(rules.players)]
    for result in results:
        for seat in range(rules.players):
            out[seat] = out[seat] + seat_hand(result, seat, rules)
    return tuple(out)


def winner_key(winner: Team | Seat | None) -> str | None:
    """A game's winner as the league stores it: ``"NS"``/``"EW"``, a seat name, or None."""
    if winner is None:
        return None
    return winner.name


def summarize_record(record: Mapping[str, Any]) -> GameSummary:
    """Replay ``record`` through the engine (raises :class:`~bot.engine.RecordError` if it is
    not a legal game) and count what happened."""
    replayer = Replayer(dict(record))
    for _ in replayer.lines():
        pass
    game = replayer.game
    return GameSummary(
        hands=len(game.results),
        scores=tuple(game.scores),
        winner=winner_key(game.winner),
        over=game.over,
        seats=seat_totals(game.results, game.rules),
    )
