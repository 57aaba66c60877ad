"""Swiss rounds: standings with tie-breaks, and the pairing of the next round.

Points: a win 2, a draw 1, a loss 0; a bye counts as a win (with no points difference).
Standings are ordered by points, then **Buchholz** (the sum of the points of every opponent
met), then **head-to-head** (among entries still level, points won in the games between
them), then **points difference** (game score for minus against, summed over games; with more
than two entries a table, against is the mean of the others'), then the entry number (sign-up
order).  A game still unfinished counts for nothing.

Pairing: entries are taken in standings order and grouped (two partnerships a table, or every
solo player of a table) so that no two who already met sit together again while that can be
avoided; only when it cannot is the smallest number of rematches accepted.  When the entries
do not divide into tables, the lowest-ranked entries who have not had a bye yet get one (byes
rotate: nobody gets a second bye before everyone has had one)."""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.events.pairing.model import DRAW_POINTS, WIN_POINTS, GameSlot, SlotStatus

SEARCH_STEPS = 200_000  # backtracking steps before settling for the fewest rematches


@dataclass(frozen=True, slots=True)
class Standing:
    entry: int
    points: int
    buchholz: int
    head_to_head: int
    difference: int
    played: int
    wins: int
    byes: int


def points_of(game: GameSlot, entry: int) -> int:
    if game.status == SlotStatus.BYE:
        return WIN_POINTS
    if game.status != SlotStatus.DONE:
        return 0
    if game.winner is None:
        return DRAW_POINTS
    return WIN_POINTS if game.winner == entry else 0


def difference_of(game: GameSlot, entry: int) -> int:
    if game.status != SlotStatus.DONE or game.scores is None:
        return 0
    mine = game.score_of(entry)
    others = [game.score_of(e) for e in game.entries if e != entry]
    return round(mine - sum(others) / len(others)) if others else 0


def met(games: Iterable[GameSlot]) -> set[frozenset[int]]:
    """Every pair of entries that sat at a table together (a bye meets nobody)."""
    pairs: set[frozenset[int]] = set()
    for g in games:
        if g.status != SlotStatus.BYE:
            pairs.update(frozenset(p) for p in itertools.combinations(g.entries, 2))
    return pairs


def standings(entries: Sequence[int], games: Sequence[GameSlot]) -> list[Standing]:
    """``entries`` (ids, every one still ranked) in standings order."""
    points: dict[int, int] = defaultdict(int)
    diff: dict[int, int] = defaultdict(int)
    played: dict[int, int] = defaultdict(int)
    wins: dict[int, int] = defaultdict(int)
    byes: dict[int, int] = defaultdict(int)
    opponents: dict[int, list[int]] = defaultdict(list)
    for g in games:
        for e in g.entries:
            points[e] += points_of(g, e)
            diff[e] += difference_of(g, e)
            if g.status == SlotStatus.BYE:
                byes[e] += 1
            elif g.status == SlotStatus.DONE:
                played[e] += 1
                wins[e] += g.winner == e
                opponents[e].extend(o for o in g.entries if o != e)
    buchholz = {e: sum(points[o] for o in opponents[e]) for e in entries}
    level: dict[tuple[int, int], list[int]] = defaultdict(list)
    for e in entries:
        level[(points[e], buchholz[e])].append(e)
    h2h = dict.fromkeys(entries, 0)
    for group in level.values():
        if len(group) < 2:
            continue
        members = set(group)
        for g in games:
            if g.status == SlotStatus.DONE and len(members.intersection(g.entries)) >= 2:
                for e in members.intersection(g.entries):
                    h2h[e] += points_of(g, e)
    rows = [
        Standing(e, points[e], buchholz[e], h2h[e], diff[e], played[e], wins[e], byes[e])
        for e in entries
    ]
    rows.sort(key=lambda s: (-s.points, -s.buchholz, -s.head_to_head, -s.difference, s.entry))
    return rows


def choose_byes(order: Sequence[int], byes: dict[int, int], per_table: int) -> list[int]:
    """The entries sitting out this round: as many as do not fill a table, lowest-ranked
    first among those with the fewest byes so far."""
    count = len(order) % per_table
    if count == 0:
        return []
    rank = {e: i for i, e in enumerate(order)}
    return sorted(order, key=lambda e: (byes.get(e, 0), -rank[e]))[:count]


def pair_round(
    order: Sequence[int],
    games: Sequence[GameSlot],
    per_table: int = 2,
) -> tuple[list[tuple[int, ...]], list[int]]:
    """The tables of the next round (each a tuple of entries, better-ranked first) and the
    entries given a bye.  ``order``: the entries still playing, in standings order."""
    bye_count: dict[int, int] = defaultdict(int)
    for g in games:
        if g.status == SlotStatus.BYE:
            for e in g.entries:
                bye_count[e] += 1
    byes = choose_byes(order, bye_count, per_table)
    rest = [e for e in order if e not in byes]
    seen = met(games)
    tables = _group(rest, seen, per_table, allowed=0)
    if tables is None:  # rematches cannot be avoided: as few as possible
        for allowed in range(1, len(rest) + 1):
            tables = _group(rest, seen, per_table, allowed)
            if tables is not None:
                break
    assert tables is not None
    return tables, byes


def rematches(table: Sequence[int], seen: set[frozenset[int]]) -> int:
    return sum(frozenset(p) in seen for p in itertools.combinations(table, 2))


def _group(
    rest: list[int], seen: set[frozenset[int]], per_table: int, allowed: int
) -> list[tuple[int, ...]] | None:
    """Backtracking: the first grouping (in standings order) with at most ``allowed``
    rematches; ``None`` if there is none (or the search ran out of steps, when ``allowed``
    is below the number of entries — the last try always succeeds greedily)."""
    steps = 0
    out: list[tuple[int, ...]] = []

    def place(left: list[int], budget: int) -> bool:
        nonlocal steps
        if not left:
            return True
        steps += 1
        if steps > SEARCH_STEPS and budget < len(rest):
            return False
        head, others = left[0], left[1:]
        for partners in itertools.combinations(others, per_table - 1):
            table = (head, *partners)
            cost = rematches(table, seen)
            if cost > budget:
                continue
            out.append(table)
            if place([e for e in others if e not in partners], budget - cost):
                return True
            out.pop()
            if steps > SEARCH_STEPS and budget < len(rest):
                return False
        return False

    return list(out) if place(list(rest), allowed) else None
