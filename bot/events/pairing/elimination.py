"""Single elimination: seeding, the bracket with byes to the top seeds, and who advances.

Entries are seeded by league rating (highest first; equal ratings in random order, drawn by
the caller's generator).  The bracket has the next power of two of slots; seeds sit in the
usual order (1 v 16, 8 v 9, … so that the top two can meet only in the final), and the slots
without an entry are byes, which fall to the top seeds.  A match is best of N games; its
winner is the first to win more than half of them.  A game decided by the round deadline goes
to the higher score; an equal score to the better seed."""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.events.pairing.model import GameSlot, SlotStatus


def seeded(ratings: dict[int, float], rng: random.Random) -> list[int]:
    """Entry ids by seed: rating, highest first; ties in random order."""
    ids = sorted(ratings)
    rng.shuffle(ids)
    return sorted(ids, key=lambda e: -ratings[e])  # stable: the shuffle breaks ties


def bracket_size(n: int) -> int:
    size = 1
    while size < n:
        size *= 2
    return max(size, 2)


def seed_positions(size: int) -> list[int]:
    """Seed numbers (1-based) in bracket order: 1, 16, 8, 9, 4, 13, … for 16 slots."""
    order = [1]
    while len(order) < size:
        total = len(order) * 2 + 1
        order = [x for s in order for x in (s, total - s)]
    return order


def first_round(seeds: Sequence[int]) -> list[tuple[int, ...]]:
    """The first round's matches in bracket order: two entries, or one (a bye)."""
    size = bracket_size(len(seeds))
    positions = seed_positions(size)
    slots = [seeds[p - 1] if p <= len(seeds) else None for p in positions]
    return [tuple(e for e in (slots[i], slots[i + 1]) if e is not None) for i in range(0, size, 2)]


def rounds_needed(n: int) -> int:
    return bracket_size(n).bit_length() - 1


def match_winner(games: Sequence[GameSlot], best_of: int, seed_rank: dict[int, int]) -> int | None:
    """The winner of one match (its games so far), or ``None`` while it goes on."""
    if not games:
        return None
    if games[0].status == SlotStatus.BYE:
        return games[0].entries[0]
    need = best_of // 2 + 1
    wins: dict[int, int] = dict.fromkeys(games[0].entries, 0)
    for g in games:
        if g.status != SlotStatus.DONE:
            continue
        w = g.winner if g.winner is not None else tiebreak(g, seed_rank)
        wins[w] = wins.get(w, 0) + 1
    for e, n in wins.items():
        if n >= need:
            return e
    done = sum(g.status == SlotStatus.DONE for g in games)
    if done >= best_of:  # cannot happen with an odd best_of; kept total for safety
        return max(wins, key=lambda e: (wins[e], -seed_rank.get(e, 0)))
    return None


def tiebreak(game: GameSlot, seed_rank: dict[int, int]) -> int:
    """A drawn elimination game goes to the better seed."""
    return min(game.entries, key=lambda e: seed_rank.get(e, 1_000_000))


def next_round(winners: Sequence[int]) -> list[tuple[int, ...]]:
    """The next round's matches: the winners of matches 1 and 2 meet, 3 and 4, …"""
    return [tuple(winners[i : i + 2]) for i in range(0, len(winners), 2)]
