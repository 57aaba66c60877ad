"""Duplicate matches in solo games (games.md G2: ``partnerships`` off, three or four players).

There are no partnerships to swap, so a solo deal is played once per seat with the players
rotated round the table: side A (``--ns``) plays one seat against a field of side B in the
others (A, B, B, B — or A, B, B with three players), and the rotations give A every hand of the
deal once and B each hand the other times.  The score of a deal is A's hand points minus the
mean of B's per seat played, averaged over the rotations; a full game (``--games``) is played
in every rotation too, and A wins it when A's seat wins.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from bot.engine.actions import BLIND_NIL, NIL, Deal, Seat
from bot.engine.game import Game, HandResult
from bot.engine.rules import Rules

# (rules, deal, dealer, specs by seat, seed, budgets) -> result, decision times, overtakes
# (counts by player, and each described)
PlayHand = Callable[
    ..., tuple[HandResult, dict[str, list[float]], dict[str, int], list[dict[str, Any]]]
]
# (rules, deal stream, dealer, specs by seat, seed, budgets) -> the game, decision times
PlayGame = Callable[..., tuple[Game, dict[str, list[float]]]]


def rotations(rules: Rules, a: str, b: str) -> list[tuple[str, ...]]:
    """The seatings of a solo deal: rotation ``k`` has A in seat ``k``, B in every other."""
    n = rules.players
    return [tuple(a if s == k else b for s in range(n)) for k in range(n)]


def seat_lines(
    rules: Rules, res: HandResult, a_seat: int, line: Callable[..., Any], unit: float
) -> list[Any]:
    """One line per seat (``line`` builds the arena's TeamLine; ``unit`` is a bag's share of
    the penalty): side 0 for A's seat, 1 for the field.  A seat's contract is its own bid."""
    out = []
    bids = {int(bid.seat): bid.value for bid in res.bids}
    for seat in range(rules.players):
        ts = res.teams[seat]
        bid = bids.get(seat)
        numeric = bid is not None and bid > 0
        took = res.tricks[seat]
        out.append(
            line(
                0 if seat == a_seat else 1,
                ts.points,
                took,
                ts.points - unit * ts.bag_count,
                bid if numeric else None,
                took if numeric or rules.nil_tricks == "contract" else 0,
                numeric and not ts.was_set,
                ts.was_set,
                ts.bags,
                int(bid == NIL),
                int(bid == NIL and took == 0),
                int(bid == BLIND_NIL),
                int(bid == BLIND_NIL and took == 0),
            )
        )
    return out


def play_deal(
    rules: Rules,
    deal: Deal,
    dealer: Seat,
    a: str,
    b: str,
    seed: int,
    budgets: dict[str, float],
    play_hand: PlayHand,
    line: Callable[..., Any],
    unit: float,
) -> tuple[list[Any], float, float, dict[str, list[float]]]:
    """Every rotation of one deal: the seat lines, A's lead in points and in points with bags
    charged (per rotation, mean), and the decision times."""
    lines: list[Any] = []
    times: dict[str, list[float]] = {}
    diff = diff_eff = 0.0
    seatings = rotations(rules, a, b)
    for k, specs in enumerate(seatings):
        res, t, _, _ = play_hand(rules, deal, dealer, specs, seed * len(seatings) + k, budgets)
        for key, v in t.items():
            times.setdefault(key, []).extend(v)
        mine = seat_lines(rules, res, k, line, unit)
        lines.extend(mine)
        ours = [ln for ln in mine if ln.side == 0]
        field = [ln for ln in mine if ln.side == 1]
        diff += ours[0].points - sum(ln.points for ln in field) / len(field)
        diff_eff += ours[0].effective - sum(ln.effective for ln in field) / len(field)
    return lines, diff / len(seatings), diff_eff / len(seatings), times


def play_games(
    rules: Rules,
    deals: Callable[[], Iterator[random.Random]],
    dealer: Seat,
    a: str,
    b: str,
    seed: int,
    budgets: dict[str, float],
    play_game: PlayGame,
) -> tuple[list[int], dict[str, list[float]]]:
    """A full game per rotation on the same deal stream: 0 when A's seat won, 1 when a seat
    of the field won, -1 without a winner."""
    wins = []
    times: dict[str, list[float]] = {}
    seatings = rotations(rules, a, b)
    for k, specs in enumerate(seatings):
        rng_seed = seed * len(seatings) + k
        game, t = play_game(rules, deals(), dealer, specs, rng_seed, budgets)
        for key, v in t.items():
            times.setdefault(key, []).extend(v)
        if game.winner is None:
            wins.append(-1)
        else:
            wins.append(0 if int(game.winner) == k else 1)
    return wins, times


def deal_stream(
    rules: Rules, seed: int, number: int, count: int
) -> Callable[[], Iterator[random.Random]]:
    """The same stream of deals for every rotation of one game: the shufflers of its hands
    (the arena's ``play_game`` has its game deal each hand from the next one)."""

    def stream() -> Iterator[random.Random]:
        for k in range(count):
            yield random.Random(f"{seed}:game:{number}:{k}")

    return stream
