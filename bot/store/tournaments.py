"""Repository for tournaments: the tournament, its entries and members, and its games.

Every write takes the caller's transaction (the tournament service commits each change in
one, together with the table it seats or ends where there is one)."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.events.pairing.model import (
    Entry,
    EntryStatus,
    GameSlot,
    Invitation,
    Member,
    NewTournament,
    SlotStatus,
    Tournament,
    TournamentSettings,
    TournamentStatus,
)
from bot.store.db import Database, Queries, Row, Tx
from bot.store.sql import in_marks

log = logging.getLogger(__name__)
_OPEN = "('signup', 'running', 'paused')"  # TournamentStatus: OPEN_STATES
_T_COLUMNS = (
    "id, guild_id, channel_id, organiser_id, name, status, settings, starts_at, round, "
    "round_deadline, round_left, message_id, created_at, ended_at, note, secret, fault"
)
_UPDATABLE = frozenset(
    {"status", "round", "round_deadline", "round_left", "message_id", "ended_at", "note", "fault"}
)
_ADD_THREAD = (
    "INSERT INTO tournament_threads (tournament_id, slot, thread_id) VALUES (?, ?, ?) "
    "ON CONFLICT (tournament_id, slot) DO NOTHING RETURNING slot"
)
_REPLACE_THREAD = (
    "INSERT INTO tournament_threads (tournament_id, slot, thread_id) VALUES (?, ?, ?) "
    "ON CONFLICT (tournament_id, slot) DO UPDATE SET thread_id = excluded.thread_id "
    "RETURNING slot"
)
_G_COLUMNS = (
    "round, slot, game_no, entries, status, thread_id, table_id, scores, winner, decided, boards"
)


def name_key(name: str) -> str:
    """A tournament name as compared for "already running": case and spacing folded."""
    return " ".join(name.casefold().split())


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """A member's tournaments in a server: played, won, best finish (1 = won)."""

    played: int
    won: int
    best: int | None


@dataclass(frozen=True, slots=True)
class PastTournament:
    id: int
    name: str
    status: TournamentStatus
    ended_at: float | None
    place: int | None
    entries: int  # the entries that played (not those dropped at the start)


@dataclass(frozen=True, slots=True)
class UnreadableTournament:
    """An open tournament whose stored rows no longer load (a setting that no longer
    validates, a damaged value): where it is, what it is called, and why not."""

    id: int
    guild_id: int
    channel_id: int
    name: str
    fault: str | None  # as stored (None: not marked yet)
    reason: str


class TournamentStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    # ------------------------------------------------------------------ writes
    async def create(self, tx: Tx, new: NewTournament, secret: str) -> int:
        """A new tournament in sign-up, with its ``secret`` (64 hex digits, never shown); a
        name already running in the server raises :class:`~bot.store.errors.UniqueViolation`."""
        value = await tx.fetchval(
            "INSERT INTO tournaments (guild_id, channel_id, organiser_id, name, name_key, "
            "status, settings, starts_at, created_at, secret) "
            "VALUES (?, ?, ?, ?, ?, 'signup', ?, ?, ?, ?) "
            "RETURNING id",
            (
                new.guild_id,
                new.channel_id,
                new.organiser_id,
                new.name,
                name_key(new.name),
                json.dumps(new.settings.to_record()),
                new.starts_at,
                time.time(),
                secret,
            ),
        )
        return int(value)

    async def update(self, tx: Tx, tournament_id: int, **fields: Any) -> None:
        bad = set(fields) - _UPDATABLE
        if bad:
            raise ValueError(f"not updatable: {sorted(bad)}")
        cols = ", ".join(f"{k} = ?" for k in fields)
        await tx.execute(
            f"UPDATE tournaments SET {cols} WHERE id = ?",  # noqa: S608 (names checked above)
            (
                *(v.value if isinstance(v, TournamentStatus) else v for v in fields.values()),
                tournament_id,
            ),
        )

    async def add_member(self, tx: Tx, tournament_id: int, m: Member, entry: int | None) -> None:
        """Sign a member up (``entry`` None: alone, drawn at the start).  A member already
        signed up raises :class:`~bot.store.errors.UniqueViolation`."""
        await tx.execute(
            "INSERT INTO tournament_members (tournament_id, user_id, entry, name, joined_at) "
            "VALUES (?, ?, ?, ?, ?)",
            (tournament_id, m.user_id, entry, m.name, time.time()),
        )

    async def set_member_entry(self, tx: Tx, tournament_id: int, user_id: int, entry: int) -> None:
        await tx.execute(
            "UPDATE tournament_members SET entry = ? WHERE tournament_id = ? AND user_id = ?",
            (entry, tournament_id, user_id),
        )

    async def remove_member(self, tx: Tx, tournament_id: int, user_id: int) -> None:
        await tx.execute(
            "DELETE FROM tournament_members WHERE tournament_id = ? AND user_id = ?",
            (tournament_id, user_id),
        )

    async def new_entry(self, tx: Tx, tournament_id: int, members: tuple[Member, ...]) -> Entry:
        """A new entry, numbered after the stored ones (not the caller's copy: two sign-ups
        at once never share a number).  The tournament's row is locked first (PostgreSQL
        holds the lock to the commit; SQLite's one writer already serialises), so sign-ups
        from several processes number their entries one after another instead of colliding:
        without it, three processes' bursts could collide on every try.  Should two
        transactions still take the same number, the second's insert raises
        :class:`~bot.store.errors.UniqueViolation`."""
        await tx.execute("UPDATE tournaments SET status = status WHERE id = ?", (tournament_id,))
        last = await tx.fetchval(
            "SELECT COALESCE(MAX(entry), 0) FROM tournament_entries WHERE tournament_id = ?",
            (tournament_id,),
        )
        entry = Entry(int(last) + 1, members)
        await tx.execute(
            "INSERT INTO tournament_entries (tournament_id, entry, rating, status, checked_in) "
            "VALUES (?, ?, ?, ?, ?)",
            (tournament_id, entry.id, entry.rating, entry.status.value, int(entry.checked_in)),
        )
        return entry

    async def put_entry(self, tx: Tx, tournament_id: int, e: Entry) -> None:
        await tx.execute(
            "INSERT INTO tournament_entries (tournament_id, entry, rating, status, checked_in) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (tournament_id, entry) DO UPDATE SET "
            "rating = excluded.rating, status = excluded.status, "
            "checked_in = excluded.checked_in",
            (tournament_id, e.id, e.rating, e.status.value, int(e.checked_in)),
        )

    async def delete_entry(self, tx: Tx, tournament_id: int, entry: int) -> None:
        await tx.execute(
            "DELETE FROM tournament_entries WHERE tournament_id = ? AND entry = ?",
            (tournament_id, entry),
        )

    async def set_places(self, tx: Tx, tournament_id: int, places: dict[int, int]) -> None:
        await tx.executemany(
            "UPDATE tournament_entries SET place = ? WHERE tournament_id = ? AND entry = ?",
            [(p, tournament_id, e) for e, p in places.items()],
        )

    async def put_game(self, tx: Tx, tournament_id: int, g: GameSlot) -> None:
        """Insert or replace one game of a round (never its ``table_id``: see
        :meth:`claim_table`)."""
        await tx.execute(
            "INSERT INTO tournament_games (tournament_id, round, slot, game_no, entries, status, "
            "thread_id, scores, winner, decided, boards) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (tournament_id, round, slot, game_no) DO UPDATE SET "
            "entries = excluded.entries, status = excluded.status, "
            "thread_id = excluded.thread_id, scores = excluded.scores, "
            "winner = excluded.winner, decided = excluded.decided, boards = excluded.boards",
            (
                tournament_id,
                g.round,
                g.slot,
                g.game_no,
                json.dumps(list(g.entries)),
                g.status.value,
                g.thread_id,
                None if g.scores is None else json.dumps(list(g.scores)),
                g.winner,
                int(g.decided),
                json.dumps([list(b) for b in g.boards]) if g.boards else None,
            ),
        )

    async def claim_table(self, tx: Tx, tournament_id: int, g: GameSlot, table_id: str) -> bool:
        """Mark a game seated at ``table_id`` — only if no table was seated for it yet (the
        caller opens the table in the same transaction and rolls back on ``False``)."""
        row = await tx.fetchrow(
            "UPDATE tournament_games SET table_id = ?, status = 'playing' "
            "WHERE tournament_id = ? AND round = ? AND slot = ? AND game_no = ? "
            "AND table_id IS NULL RETURNING slot",
            (table_id, tournament_id, g.round, g.slot, g.game_no),
        )
        return row is not None

    async def set_thread(
        self, tx: Tx, tournament_id: int, slot: int, thread_id: int, *, replace: bool
    ) -> bool:
        """Table ``slot``'s thread is ``thread_id``.  Without ``replace`` a table that has one
        keeps it (``False``: nothing stored)."""
        row = await tx.fetchrow(
            _REPLACE_THREAD if replace else _ADD_THREAD, (tournament_id, slot, thread_id)
        )
        return row is not None

    async def add_invitation(self, tx: Tx, tournament_id: int, inv: Invitation) -> None:
        """A pair waiting for the partner's answer.  A member already inviting, or already
        invited, in the tournament raises :class:`~bot.store.errors.UniqueViolation`."""
        await tx.execute(
            "INSERT INTO tournament_invitations (tournament_id, inviter_id, inviter_name, "
            "partner_id, partner_name, created_at, expires_at, message_id) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                tournament_id,
                inv.inviter.user_id,
                inv.inviter.name,
                inv.partner.user_id,
                inv.partner.name,
                inv.created_at,
                inv.expires_at,
                inv.message_id,
            ),
        )

    async def set_invitation_message(
        self, tx: Tx, tournament_id: int, inviter_id: int, message_id: int
    ) -> None:
        await tx.execute(
            "UPDATE tournament_invitations SET message_id = ? "
            "WHERE tournament_id = ? AND inviter_id = ?",
            (message_id, tournament_id, inviter_id),
        )

    async def delete_invitation(self, tx: Tx, tournament_id: int, inviter_id: int) -> bool:
        """Remove an invitation; ``False`` when it was gone already (answered meanwhile)."""
        row = await tx.fetchrow(
            "DELETE FROM tournament_invitations WHERE tournament_id = ? AND inviter_id = ? "
            "RETURNING inviter_id",
            (tournament_id, inviter_id),
        )
        return row is not None

    async def delete_invitations(self, tx: Tx, tournament_id: int) -> None:
        """Every invitation of the tournament (its sign-up closed)."""
        await tx.execute(
            "DELETE FROM tournament_invitations WHERE tournament_id = ?", (tournament_id,)
        )

    # ------------------------------------------------------------------ reads
    async def game_at_table(self, tx: Tx, table_id: str) -> tuple[int, GameSlot] | None:
        """The game being played at ``table_id`` and its tournament's id, locked until ``tx``
        ends (``None``: no tournament's game is being played there)."""
        row = await tx.fetchrow(
            f"SELECT tournament_id, {_G_COLUMNS} FROM tournament_games "  # noqa: S608
            "WHERE table_id = ? AND status = 'playing' FOR UPDATE",
            (table_id,),
        )
        return None if row is None else (int(row["tournament_id"]), _game(row))

    async def load_open(
        self, guild_filter: Callable[[int], bool] | None = None
    ) -> tuple[list[Tournament], list[UnreadableTournament]]:
        """The open tournaments (of the servers ``guild_filter`` accepts), each loaded on its
        own: one that no longer loads is logged and returned apart, the others load."""
        rows = await self.db.fetch(
            f"SELECT {_T_COLUMNS} FROM tournaments WHERE status IN {_OPEN} ORDER BY id"  # noqa: S608
        )
        out, unreadable = [], []
        for r in rows:
            if guild_filter is not None and not guild_filter(int(r["guild_id"])):
                continue
            try:
                out.append(await self._complete(self.db, r))
            except Exception as e:
                log.exception("tournament %s cannot be loaded", r["id"])
                reason = " ".join(f"{type(e).__name__}: {e}".split())[:300]
                unreadable.append(
                    UnreadableTournament(
                        int(r["id"]),
                        int(r["guild_id"]),
                        int(r["channel_id"]),
                        str(r["name"]),
                        r["fault"],
                        reason,
                    )
                )
        return out, unreadable

    async def load(self, q: Queries, tournament_id: int) -> Tournament | None:
        r = await q.fetchrow(
            f"SELECT {_T_COLUMNS} FROM tournaments WHERE id = ?",  # noqa: S608
            (tournament_id,),
        )
        return None if r is None else await self._complete(q, r)

    async def find(self, guild_id: int, name: str) -> Tournament | None:
        """The newest tournament of that name in the server (running or over)."""
        r = await self.db.fetchrow(
            f"SELECT {_T_COLUMNS} FROM tournaments WHERE guild_id = ? AND name_key = ? "  # noqa: S608
            "ORDER BY id DESC LIMIT 1",
            (guild_id, name_key(name)),
        )
        return None if r is None else await self._complete(self.db, r)

    async def names(self, guild_id: int, prefix: str, limit: int = 25) -> list[str]:
        rows = await self.db.fetch(
            "SELECT name FROM tournaments WHERE guild_id = ? AND name_key LIKE ? "
            "ORDER BY id DESC LIMIT ?",
            (guild_id, name_key(prefix).replace("%", "").replace("_", "") + "%", limit),
        )
        return list(dict.fromkeys(str(r[0]) for r in rows))

    async def record_of(self, guild_id: int, user_id: int) -> PlayerRecord:
        rows = await self.db.fetch(
            "SELECT e.place FROM tournament_members m "
            "JOIN tournaments t ON t.id = m.tournament_id "
            "JOIN tournament_entries e ON e.tournament_id = m.tournament_id AND e.entry = m.entry "
            "WHERE m.user_id = ? AND t.guild_id = ? AND t.status = 'finished' "
            "AND e.status <> 'dropped'",
            (user_id, guild_id),
        )
        places = [int(r[0]) for r in rows if r[0] is not None]
        return PlayerRecord(len(rows), places.count(1), min(places) if places else None)

    async def history_of(
        self, guild_id: int, user_id: int, limit: int = 10
    ) -> list[PastTournament]:
        rows = await self.db.fetch(
            "SELECT t.id, t.name, t.status, t.ended_at, e.place, "
            "(SELECT count(*) FROM tournament_entries x WHERE x.tournament_id = t.id "
            "AND x.status <> 'dropped') "
            "FROM tournament_members m JOIN tournaments t ON t.id = m.tournament_id "
            "LEFT JOIN tournament_entries e "
            "ON e.tournament_id = m.tournament_id AND e.entry = m.entry "
            "WHERE m.user_id = ? AND t.guild_id = ? AND t.status IN ('finished', 'cancelled') "
            "ORDER BY t.id DESC LIMIT ?",
            (user_id, guild_id, limit),
        )
        return [
            PastTournament(
                int(r[0]),
                str(r[1]),
                TournamentStatus(r[2]),
                None if r[3] is None else float(r[3]),
                None if r[4] is None else int(r[4]),
                int(r[5]),
            )
            for r in rows
        ]

    async def _complete(self, q: Queries, r: Row) -> Tournament:
        tid = int(r["id"])
        t = Tournament(
            id=tid,
            guild_id=int(r["guild_id"]),
            channel_id=int(r["channel_id"]),
            organiser_id=int(r["organiser_id"]),
            name=str(r["name"]),
            status=TournamentStatus(r["status"]),
            settings=TournamentSettings.from_record(json.loads(r["settings"])),
            starts_at=float(r["starts_at"]),
            round=int(r["round"]),
            round_deadline=None if r["round_deadline"] is None else float(r["round_deadline"]),
            round_left=None if r["round_left"] is None else float(r["round_left"]),
            message_id=None if r["message_id"] is None else int(r["message_id"]),
            created_at=float(r["created_at"]),
            ended_at=None if r["ended_at"] is None else float(r["ended_at"]),
            note=r["note"],
            secret=str(r["secret"]),
            fault=r["fault"],
        )
        members = await q.fetch(
            "SELECT user_id, entry, name FROM tournament_members WHERE tournament_id = ? "
            "ORDER BY joined_at, user_id",
            (tid,),
        )
        by_entry: dict[int, list[Member]] = {}
        for m in members:
            member = Member(int(m[0]), str(m[2]))
            if m[1] is None:
                t.singles.append(member)
            else:
                by_entry.setdefault(int(m[1]), []).append(member)
        for e in await q.fetch(
            "SELECT entry, rating, status, checked_in FROM tournament_entries "
            "WHERE tournament_id = ? ORDER BY entry",
            (tid,),
        ):
            eid = int(e[0])
            t.entries[eid] = Entry(
                eid, tuple(by_entry.get(eid, ())), float(e[1]), EntryStatus(e[2]), bool(e[3])
            )
        for g in await q.fetch(
            f"SELECT {_G_COLUMNS} FROM tournament_games WHERE tournament_id = ? "  # noqa: S608
            "ORDER BY round, slot, game_no",
            (tid,),
        ):
            t.games.append(_game(g))
        for r in await q.fetch(
            "SELECT slot, thread_id FROM tournament_threads WHERE tournament_id = ?", (tid,)
        ):
            t.threads[int(r[0])] = int(r[1])
        for r in await q.fetch(
            "SELECT inviter_id, inviter_name, partner_id, partner_name, created_at, expires_at, "
            "message_id FROM tournament_invitations WHERE tournament_id = ? ORDER BY created_at",
            (tid,),
        ):
            t.invitations[int(r[0])] = Invitation(
                Member(int(r[0]), str(r[1])),
                Member(int(r[2]), str(r[3])),
                float(r[4]),
                float(r[5]),
                None if r[6] is None else int(r[6]),
            )
        return t


def _game(g: Row) -> GameSlot:
    return GameSlot(
        round=int(g["round"]),
        slot=int(g["slot"]),
        game_no=int(g["game_no"]),
        entries=tuple(json.loads(g["entries"])),
        status=SlotStatus(g["status"]),
        thread_id=None if g["thread_id"] is None else int(g["thread_id"]),
        table_id=g["table_id"],
        scores=None if g["scores"] is None else tuple(json.loads(g["scores"])),
        winner=None if g["winner"] is None else int(g["winner"]),
        decided=bool(g["decided"]),
        boards=tuple(tuple(b) for b in json.loads(g["boards"])) if g["boards"] else (),
    )


async def league_ratings(
    db: Database, guild_id: int, game: str, users: Sequence[int]
) -> dict[int, float]:
    """Each member's league rating in ``game`` (their latest season's; 0 when unrated)."""
    if not users:
        return {}
    rows = await db.fetch(
        f"SELECT user_id, rating, season FROM league_standings WHERE guild_id = ? AND game = ? "  # noqa: S608
        f"AND user_id IN ({in_marks(len(users))}) ORDER BY season",
        (guild_id, game, *users),
    )
    out = dict.fromkeys(users, 0.0)
    for r in rows:
        out[int(r[0])] = float(r[1])  # later seasons overwrite earlier ones
    return out
