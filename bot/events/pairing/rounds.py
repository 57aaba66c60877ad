"""What happens next in a tournament, decided from its stored state alone (no I/O): the games
of the next round, the next game of an unfinished best-of match, the final places.

The draws (partners of members who came alone, the order of equal seeds) come from generators
keyed on the tournament's stored secret (:func:`draw`): nobody can work them out before the
start — not from the tournament's id, not from the sign-up order — and a restarted bot draws
the same."""

from __future__ import annotations

import dataclasses
import random
from collections import defaultdict

from bot.events.pairing import duplicate, elimination, swiss
from bot.events.pairing.model import Entry, EntryStatus, GameSlot, SlotStatus, Tournament
from bot.i18n import later


def draw(t: Tournament, what: str) -> random.Random:
    """The generator of one of the tournament's draws (``partners``, ``seeding``): seeded
    with the HMAC of its name under the tournament's secret."""
    return random.Random(t.derived(f"draw:{what}"))


def seed_rank(t: Tournament) -> dict[int, int]:
    """Entry → seed (0 is the top seed): league rating, ties in the tournament's secret
    random order."""
    ratings = {e.id: e.rating for e in t.entries.values()}
    return {e: i for i, e in enumerate(elimination.seeded(ratings, draw(t, "seeding")))}


def order(t: Tournament) -> list[int]:
    """The entries still playing in standings order (before round 1: by seed)."""
    playing = t.playing()
    if t.settings.format == "duplicate" and t.round > 0:
        return [e for e, _ in duplicate.standings(playing, t.games)]
    if t.round == 0:
        rank = seed_rank(t)
        return sorted(playing, key=lambda e: rank[e])
    return [s.entry for s in swiss.standings(playing, t.games)]


def movement_order(t: Tournament, entries: list[int]) -> list[int]:
    """A duplicate tournament's entries in the order its movement seats them: a secret draw
    made once for the tournament (the same every round, so the movement holds), never the
    sign-up order (which would let partnerships choose whom they meet)."""
    drawn = sorted(t.entries)
    draw(t, "movement").shuffle(drawn)
    place = {e: i for i, e in enumerate(drawn)}
    return sorted(entries, key=lambda e: place.get(e, len(place) + e))


def matches(t: Tournament, round_no: int) -> dict[int, list[GameSlot]]:
    out: dict[int, list[GameSlot]] = defaultdict(list)
    for g in t.round_games(round_no):
        out[g.slot].append(g)
    return dict(out)


def match_winners(t: Tournament, round_no: int) -> dict[int, int | None]:
    rank = seed_rank(t)
    return {
        slot: elimination.match_winner(
            sorted(gs, key=lambda g: g.game_no), t.settings.best_of, rank
        )
        for slot, gs in matches(t, round_no).items()
    }


def more_games(t: Tournament) -> list[GameSlot]:
    """Elimination: the next game of each match of this round still undecided whose games
    so far are all over."""
    if t.settings.format != "elimination":
        return []
    out = []
    winners = match_winners(t, t.round)
    for slot, games in matches(t, t.round).items():
        if winners[slot] is None and all(g.over for g in games):
            last = max(games, key=lambda g: g.game_no)
            out.append(GameSlot(t.round, slot, last.game_no + 1, last.entries))
    return out


def round_over(t: Tournament) -> bool:
    games = t.round_games()
    return bool(games) and all(g.over for g in games) and not more_games(t)


def shown_games(t: Tournament) -> list[GameSlot]:
    """The games whose results may be shown now: all of them — but in a duplicate
    tournament, none of a round until every game of it is over (its tables play the same
    boards: a score, a board's result or a standing from one would tell another table)."""
    if t.settings.format != "duplicate" or not t.open or round_over(t):
        return list(t.games)
    return [g for g in t.games if g.round != t.round]


def total_rounds(t: Tournament) -> int:
    if t.settings.format == "elimination":
        entries = len([g for g in t.games if g.round == 1 for _ in g.entries]) or len(t.playing())
        return elimination.rounds_needed(entries)
    return t.settings.rounds


def is_final_round(t: Tournament) -> bool:
    if t.settings.format == "elimination":
        return len(matches(t, t.round)) <= 1
    return t.round >= t.settings.rounds


def next_round(t: Tournament) -> list[GameSlot]:
    """The games of round ``t.round + 1``."""
    r = t.round + 1
    fmt = t.settings.format
    if fmt == "elimination":
        if r == 1:
            pairs = elimination.first_round(order(t))
        else:
            winners = match_winners(t, t.round)
            pairs = elimination.next_round([w for _, w in sorted(winners.items()) if w is not None])
        return [_slot(r, i, p) for i, p in enumerate(pairs, start=1)]
    if fmt == "duplicate":
        seated = order(t)
        byes: list[int] = []
        if len(seated) % 2:
            byes = [seated.pop()]  # the last in the standings sits out (odd without computers)
        tables = duplicate.seat_round(movement_order(t, seated), r)
        games = [_slot(r, i, p) for i, p in enumerate(tables, start=1)]
        return games + [_slot(r, len(games) + i, (b,)) for i, b in enumerate(byes, start=1)]
    tables_, byes = swiss.pair_round(order(t), t.games, t.settings.per_table)
    games = [_slot(r, i, p) for i, p in enumerate(tables_, start=1)]
    return games + [_slot(r, len(games) + i, (b,)) for i, b in enumerate(byes, start=1)]


def _slot(round_no: int, slot: int, entries: tuple[int, ...]) -> GameSlot:
    if len(entries) == 1:
        return GameSlot(round_no, slot, 1, entries, status=SlotStatus.BYE)
    return GameSlot(round_no, slot, 1, entries)


def places(t: Tournament) -> dict[int, int]:
    """Final places (1 = winner; entries knocked out in the same round share a place)."""
    fmt = t.settings.format
    entries = [e.id for e in t.entries.values() if e.status != EntryStatus.DROPPED]
    if fmt == "swiss":
        ranked = [s.entry for s in swiss.standings(entries, t.games)]
        return {e: i for i, e in enumerate(ranked, start=1)}
    if fmt == "duplicate":
        return {e: i for i, (e, _) in enumerate(duplicate.standings(entries, t.games), start=1)}
    out: dict[int, int] = {}
    last = max((g.round for g in t.games), default=0)
    for r in range(last, 0, -1):
        for slot, w in match_winners(t, r).items():
            losers = {e for g in matches(t, r)[slot] for e in g.entries} - {w}
            for e in losers:
                out.setdefault(e, 2 ** (last - r) + 1)
            if r == last and w is not None:
                out.setdefault(w, 1)
    for e in entries:
        out.setdefault(e, len(entries))
    return out


def line_up(t: Tournament, *, check_in: bool = True) -> tuple[list[str], list[Entry]]:
    """The entries as the start leaves them, and the notes saying so: no-shows dropped (with
    a check-in window; ``check_in=False``: as if everyone came), members who came alone drawn
    into partnerships (one left over is dropped)."""
    notes: list[str] = []
    entries = list(t.entries.values())
    if check_in and t.settings.checkin_minutes:
        absent = [e for e in entries if not e.checked_in]
        if absent:
            names = ", ".join(e.md_name for e in absent)
            notes.append(later("Did not check in, so not playing: {names}.", names=names))
        entries = [
            dataclasses.replace(e, status=EntryStatus.DROPPED) if not e.checked_in else e
            for e in entries
        ]
    if t.settings.team_size == 2:
        singles = [e for e in entries if e.status == EntryStatus.IN and len(e.members) == 1]
        draw(t, "partners").shuffle(singles)
        for a, b in zip(singles[::2], singles[1::2], strict=False):
            entries.remove(b)
            i = entries.index(a)
            entries[i] = dataclasses.replace(a, members=a.members + b.members)
        if len(singles) % 2:
            left = singles[-1]
            entries[entries.index(left)] = dataclasses.replace(left, status=EntryStatus.DROPPED)
            notes.append(later("{name} found no partner, so is not playing.", name=left.md_name))
        drawn = len(singles) // 2
        if drawn:
            notes.append(
                later("{n} partnership(s) drawn from the members who came alone.", n=drawn)
            )
    return notes, entries


def with_computer_team(t: Tournament, entries: list[Entry]) -> tuple[list[Entry], str | None]:
    """An odd number of teams with ``odd: computer``: a computer team makes it even."""
    playing = [e for e in entries if e.status == EntryStatus.IN]
    if len(playing) % 2 == 0 or t.settings.per_table != 2 or t.settings.odd != "computer":
        return entries, None
    computers = Entry(max(e.id for e in entries) + 1, (), 0.0, EntryStatus.COMPUTER)
    return [*entries, computers], later("An odd number of teams: a computer team makes it even.")


def first_round_tables(t: Tournament) -> int:
    """The tables round 1 would seat if the tournament started now (as if everyone checked
    in): the threads worth making during sign-up."""
    _, entries = line_up(t, check_in=False)
    if len([e for e in entries if e.status == EntryStatus.IN]) < t.settings.per_table:
        return 0
    entries, _ = with_computer_team(t, entries)
    trial = dataclasses.replace(t, entries={e.id: e for e in entries}, games=[], round=0)
    return sum(1 for g in next_round(trial) if len(g.entries) > 1)
