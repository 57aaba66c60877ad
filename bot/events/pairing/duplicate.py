"""Duplicate rounds: every table of a round plays the same boards (deals), and each board's
result is compared with every other table that played it.

**Seating.**  The entries of a round are split into two halves; at table *t* an entry of the
first half meets one of the second, the second half moving one table each round (a Mitchell
movement, so nobody meets twice before every pairing of the halves was played).  In odd
rounds the first half sits North–South, in even rounds East–West: over two rounds each
partnership holds both directions' cards, and within a round everyone holding the same cards
is compared.

**Matchpoints.**  For each board, a partnership's score is compared with the score of every
other partnership that held the same cards (the same direction at another table): 2 points
for each it beat, 1 for each tie.  The standings are total matchpoints, then the entry number."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from bot.events.pairing.model import GameSlot, SlotStatus


@dataclass(frozen=True, slots=True)
class BoardScore:
    """What one partnership scored on one board, holding the cards of one direction."""

    board: int
    direction: str  # "NS" or "EW"
    entry: int
    points: int


def seat_round(order: Sequence[int], round_no: int) -> list[tuple[int, int]]:
    """The tables of a duplicate round: (North–South entry, East–West entry) each.
    ``order``: the entries (an even number), in sign-up or standings order."""
    half = len(order) // 2
    first, second = list(order[:half]), list(order[half:])
    shift = (round_no - 1) % half if half else 0
    moved = second[shift:] + second[:shift]
    tables = []
    for a, b in zip(first, moved, strict=True):
        tables.append((a, b) if round_no % 2 == 1 else (b, a))
    return tables


def board_scores(games: Sequence[GameSlot]) -> list[BoardScore]:
    """Every board result of the given tables (a table's ``boards``: hand by hand, the points
    of ``entries[0]`` (North–South) and ``entries[1]`` (East–West))."""
    out = []
    for g in games:
        if len(g.entries) != 2:
            continue
        ns, ew = g.entries
        for i, hand in enumerate(g.boards, start=1):
            out.append(BoardScore(i, "NS", ns, hand[0]))
            out.append(BoardScore(i, "EW", ew, hand[1]))
    return out


def matchpoints(scores: Sequence[BoardScore]) -> dict[int, int]:
    """Total matchpoints by entry: on each board and direction, 2 for every other
    partnership that scored less, 1 for every one that scored the same."""
    by_board: dict[tuple[int, str], list[BoardScore]] = defaultdict(list)
    for s in scores:
        by_board[(s.board, s.direction)].append(s)
    total: dict[int, int] = defaultdict(int)
    for s in scores:
        total[s.entry] += 0
    for group in by_board.values():
        for s in group:
            for other in group:
                if other is s:
                    continue
                if s.points > other.points:
                    total[s.entry] += 2
                elif s.points == other.points:
                    total[s.entry] += 1
    return dict(total)


def standings(entries: Sequence[int], games: Sequence[GameSlot]) -> list[tuple[int, int]]:
    """(entry, matchpoints), best first (ties: the entry number)."""
    points = matchpoints(board_scores([g for g in games if g.status == SlotStatus.DONE]))
    rows = [(e, points.get(e, 0)) for e in entries]
    rows.sort(key=lambda r: (-r[1], r[0]))
    return rows
