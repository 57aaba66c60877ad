"""Repository for tables in play: rows, seats and the action log.

Actions are stored as compact JSON in record notation::

    {"k": "deal", "h": [["AS", ...], [...], [...], [...]]}   # hands by seat N E S W
    {"k": "bid", "s": "N", "v": 3}          # v: 1..13, "nil", "blind_nil"; "b": true if blind
    {"k": "look", "s": "N"}
    {"k": "pass", "s": "N", "c": ["AS", "KD"]}
    {"k": "play", "s": "N", "c": "AS"}
    {"k": "call", "s": "N", "v": "order"}   # v: "pass", "order" or a suit; "a": true if alone
    {"k": "discard", "s": "N", "c": "9H"}
    A deal's turned-up card (Whist's trump card, Euchre's up-card) is "t": "7H".
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

from bot.engine import BLIND_NIL, NIL, Bid, Call, Deal, Discard, Look, PassCards, Play, Seat, card
from bot.engine.actions import Action, Claim
from bot.store.db import Database, Queries, Row, Tx


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: Seat
    user_id: int | None
    name: str
    bot_level: str | None = None
    timeouts: int = 0
    left: bool = False  # the member left the game in progress; a computer plays the seat


@dataclass(frozen=True, slots=True)
class TableRow:
    id: str
    guild_id: int
    channel_id: int
    host_id: int
    status: str
    rules: dict[str, Any]
    turn_timer: int
    handover: str = "normal"
    first_dealer: str | None = None
    dealer_draw: list[dict[str, str]] | None = None
    message_id: int | None = None
    deadline: float | None = None
    created_at: float = field(default_factory=time.time)
    started_at: float | None = None
    ended_at: float | None = None
    revision: int = 0  # committed writes of the table (see :meth:`TableStore.claim`)
    seed: str | None = field(default=None, repr=False)  # 64 hex digits, secret until the end
    surface: str = "channel"  # "channel" or "interaction" (migration 010)
    league: str = "server"  # "server", "group" or "none"
    # The interaction token that can edit an "interaction" table's message (a secret: never
    # in a repr; bot/ui/discord/surfaces.py).
    surface_token: str | None = field(default=None, repr=False)
    surface_token_expires: float | None = None


class ActionLog(Sequence[Action | Deal]):
    """A table's action log as stored, each action decoded when it is read: restoring the
    unfinished tables at start-up decodes a table's log only when that table is brought back
    (a slice is a tuple)."""

    __slots__ = ("_texts",)

    def __init__(self, texts: Iterable[str]) -> None:
        self._texts = tuple(texts)

    def __len__(self) -> int:
        return len(self._texts)

    @overload
    def __getitem__(self, index: int) -> Action | Deal: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Action | Deal, ...]: ...

    def __getitem__(self, index: int | slice) -> Action | Deal | tuple[Action | Deal, ...]:
        if isinstance(index, slice):
            return tuple(map(decode_action, self._texts[index]))
        return decode_action(self._texts[index])

    def __iter__(self) -> Iterator[Action | Deal]:
        return map(decode_action, self._texts)


@dataclass(frozen=True, slots=True)
class StoredTable:
    row: TableRow
    seats: tuple[SeatRow, ...]
    actions: Sequence[Action | Deal]  # an ActionLog when loaded from the database
    # Why its stored record cannot be read (then ``row`` holds only the plain columns and
    # ``seats`` and ``actions`` are empty); ``None``: read whole.
    unreadable: str | None = None


def encode_action(action: Action | Deal) -> str:
    d: dict[str, Any]
    if isinstance(action, Play):
        d = {"k": "play", "s": action.seat.name, "c": action.card.code}
    elif isinstance(action, Bid):
        v: int | str = action.value
        if action.value == NIL:
            v = "nil"
        elif action.value == BLIND_NIL:
            v = "blind_nil"
        d = {"k": "bid", "s": action.seat.name, "v": v}
        if action.blind:
            d["b"] = True
    elif isinstance(action, Look):
        d = {"k": "look", "s": action.seat.name}
    elif isinstance(action, PassCards):
        d = {"k": "pass", "s": action.seat.name, "c": [c.code for c in action.cards]}
    elif isinstance(action, Call):
        d = {"k": "call", "s": action.seat.name, "v": action.call}
        if action.alone:
            d["a"] = True
    elif isinstance(action, Discard):
        d = {"k": "discard", "s": action.seat.name, "c": action.card.code}
    elif isinstance(action, Claim):
        d = {"k": "claim", "s": action.seat.name, "a": action.against.name}
    else:
        d = {"k": "deal", "h": [[c.code for c in h] for h in action.hands]}
        if action.turned is not None:
            d["t"] = action.turned.code
    return json.dumps(d, separators=(",", ":"))


def decode_action(text: str) -> Action | Deal:
    d = json.loads(text)
    kind = d["k"]
    if kind == "deal":
        hands = tuple(tuple(card(c) for c in h) for h in d["h"])
        return Deal(hands, card(d["t"]) if "t" in d else None)
    seat = Seat[d["s"]]
    if kind == "play":
        return Play(seat, card(d["c"]))
    if kind == "bid":
        v = d["v"]
        value = NIL if v == "nil" else BLIND_NIL if v == "blind_nil" else int(v)
        return Bid(seat, value, bool(d.get("b", False)))
    if kind == "look":
        return Look(seat)
    if kind == "pass":
        return PassCards(seat, tuple(card(c) for c in d["c"]))
    if kind == "call":
        return Call(seat, d["v"], bool(d.get("a", False)))
    if kind == "discard":
        return Discard(seat, card(d["c"]))
    if kind == "claim":
        return Claim(seat, Seat[d["a"]])
    raise ValueError(f"unknown stored action {kind!r}")


_TABLE_COLUMNS = (
    "id, guild_id, channel_id, host_id, status, rules, turn_timer, handover, first_dealer, "
    "dealer_draw, message_id, deadline, created_at, started_at, ended_at, revision, seed, "
    "surface, league, surface_token, surface_token_expires"
)
_MARKS = ",".join("?" * len(_TABLE_COLUMNS.split(",")))
_UPDATABLE = frozenset(
    {
        "status",
        "rules",
        "turn_timer",
        "handover",
        "first_dealer",
        "dealer_draw",
        "message_id",
        "deadline",
        "started_at",
        "ended_at",
        "host_id",
        "seed",
        "surface_token",
        "surface_token_expires",
    }
)


def _row_to_table(r: Row) -> TableRow:
    return TableRow(
        id=r["id"],
        guild_id=r["guild_id"],
        channel_id=r["channel_id"],
        host_id=r["host_id"],
        status=r["status"],
        rules=json.loads(r["rules"]),
        turn_timer=r["turn_timer"],
        handover=r["handover"],
        first_dealer=r["first_dealer"],
        dealer_draw=json.loads(r["dealer_draw"]) if r["dealer_draw"] else None,
        message_id=r["message_id"],
        deadline=r["deadline"],
        created_at=r["created_at"],
        started_at=r["started_at"],
        ended_at=r["ended_at"],
        revision=r["revision"],
        seed=r["seed"],
        surface=r["surface"],
        league=r["league"],
        surface_token=r["surface_token"],
        surface_token_expires=r["surface_token_expires"],
    )


def _bare_row(r: Row) -> TableRow:
    """The plain columns of a table whose stored rules or record cannot be read."""
    return TableRow(
        id=r["id"],
        guild_id=r["guild_id"],
        channel_id=r["channel_id"],
        host_id=r["host_id"],
        status=r["status"],
        rules={},
        turn_timer=r["turn_timer"],
        message_id=r["message_id"],
        created_at=r["created_at"],
        surface=r["surface"],
        league=r["league"],
        surface_token=r["surface_token"],
        surface_token_expires=r["surface_token_expires"],
    )


def _seat_row(s: Row) -> SeatRow:
    return SeatRow(
        Seat[s["seat"]],
        s["user_id"],
        s["name"],
        s["bot_level"],
        s["timeouts"],
        bool(s["left_game"]),
    )


async def seed_in_play(conn: Queries, seed: str) -> bool:
    """Is a table dealing from ``seed`` (64 hex digits) still open, or is the seed held back
    (:func:`hold_seed`)?  The one answer to "may this seed be shown": a duplicate round's
    tables share one seed, and a table that ended early must not reveal it while another
    still plays the same boards — or has yet to be seated (docs/verifiable-deals.md).  It
    reads the database, so it holds across the bot's processes; the ``tables_status`` index
    keeps it to the few open rows."""
    row = await conn.fetchrow(
        "SELECT 1 FROM tables WHERE status IN ('lobby', 'playing') AND seed = ? "
        "UNION ALL SELECT 1 FROM seed_holds WHERE seed = ? LIMIT 1",
        (seed, seed),
    )
    return row is not None


async def hold_seed(tx: Tx, seed: str) -> None:
    """Hold ``seed`` back until :func:`release_seed`: whatever tables deal from it, none shows
    it (a duplicate round's key, held while any game of the round is still to be played)."""
    await tx.execute(
        "INSERT INTO seed_holds (seed, held_at) VALUES (?, ?) ON CONFLICT (seed) DO NOTHING",
        (seed, time.time()),
    )


async def release_seed(tx: Tx, seed: str) -> None:
    await tx.execute("DELETE FROM seed_holds WHERE seed = ?", (seed,))


class TableStore:
    """Reads and writes of tables.  Writes take the open transaction (``async with
    db.transaction() as tx: await store.put_seat(tx, …)``) so that the caller decides what
    commits together."""

    def __init__(self, db: Database) -> None:
        self.db = db

    @staticmethod
    async def insert_table(tx: Tx, row: TableRow) -> None:
        await tx.execute(
            f"INSERT INTO tables ({_TABLE_COLUMNS}) VALUES ({_MARKS})",  # noqa: S608 - fixed columns
            (
                row.id,
                row.guild_id,
                row.channel_id,
                row.host_id,
                row.status,
                json.dumps(row.rules),
                row.turn_timer,
                row.handover,
                row.first_dealer,
                json.dumps(row.dealer_draw) if row.dealer_draw is not None else None,
                row.message_id,
                row.deadline,
                row.created_at,
                row.started_at,
                row.ended_at,
                row.revision,
                row.seed,
                row.surface,
                row.league,
                row.surface_token,
                row.surface_token_expires,
            ),
        )

    @staticmethod
    async def claim(tx: Tx, table_id: str, revision: int) -> bool:
        """Bump the table's revision if it is still ``revision`` (the writer saw the latest
        write); ``False``: another process wrote the table since, and nothing changed.

        Run first in a write's transaction: the row stays locked until it commits, so the
        writes of one table never interleave (PostgreSQL re-checks the condition after
        waiting for another writer; SQLite has one writer at a time)."""
        bumped = await tx.fetchval(
            "UPDATE tables SET revision = revision + 1 WHERE id = ? AND revision = ? "
            "RETURNING revision",
            (table_id, revision),
        )
        return bumped is not None

    @staticmethod
    async def update_table(tx: Tx, table_id: str, **changes: Any) -> None:
        if not changes:
            return
        unknown = set(changes) - _UPDATABLE
        if unknown:
            raise ValueError(f"cannot update {sorted(unknown)}")
        values = []
        for k, v in changes.items():
            if k in ("rules", "dealer_draw") and v is not None:
                v = json.dumps(v)
            values.append(v)
        assignments = ", ".join(f"{k} = ?" for k in changes)
        await tx.execute(
            f"UPDATE tables SET {assignments} WHERE id = ?",  # noqa: S608 - names checked above
            (*values, table_id),
        )

    @staticmethod
    async def put_seat(tx: Tx, table_id: str, seat: SeatRow) -> None:
        await tx.execute(
            "INSERT INTO seats (table_id, seat, user_id, name, bot_level, timeouts, left_game) "
            "VALUES (?,?,?,?,?,?,?) ON CONFLICT (table_id, seat) DO UPDATE SET "
            "user_id = excluded.user_id, name = excluded.name, bot_level = excluded.bot_level, "
            "timeouts = excluded.timeouts, left_game = excluded.left_game",
            (
                table_id,
                seat.seat.name,
                seat.user_id,
                seat.name,
                seat.bot_level,
                seat.timeouts,
                int(seat.left),
            ),
        )

    @staticmethod
    async def delete_seat(tx: Tx, table_id: str, seat: Seat) -> None:
        await tx.execute("DELETE FROM seats WHERE table_id = ? AND seat = ?", (table_id, seat.name))

    @staticmethod
    async def append_action(
        tx: Tx,
        table_id: str,
        seq: int,
        action: Action | Deal,
        interaction_id: int | None,
    ) -> None:
        await tx.execute(
            "INSERT INTO actions (table_id, seq, action, interaction_id, created_at) "
            "VALUES (?,?,?,?,?)",
            (table_id, seq, encode_action(action), interaction_id, time.time()),
        )

    @staticmethod
    async def table_exists(conn: Queries, table_id: str) -> bool:
        """Was a table of this id ever stored (tables are never deleted)?"""
        return await conn.fetchrow("SELECT 1 FROM tables WHERE id = ?", (table_id,)) is not None

    async def load_table(self, table_id: str) -> StoredTable | None:
        """One table as the database has it now (``None``: there is no such table)."""
        row = await self.db.fetchrow(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?",  # noqa: S608 - fixed columns
            (table_id,),
        )
        return None if row is None else await self._stored(_row_to_table(row))

    async def load_unfinished(
        self, guild_filter: Callable[[int], bool] | None = None
    ) -> list[StoredTable]:
        """Every table in the lobby or in play, oldest first; with ``guild_filter``, only
        those of the servers it accepts (a process restores the tables of its shards).  Three
        queries for them all (rows, seats, actions), the actions left encoded
        (:class:`ActionLog`)."""
        rows = await self.db.fetch(
            f"SELECT {_TABLE_COLUMNS} FROM tables WHERE status IN ('lobby', 'playing') "  # noqa: S608
            "ORDER BY created_at, id"
        )
        seats: dict[str, list[SeatRow]] = {}
        for s in await self.db.fetch(
            "SELECT table_id, seat, user_id, name, bot_level, timeouts, left_game FROM seats "
            "WHERE table_id IN (SELECT id FROM tables WHERE status IN ('lobby', 'playing'))"
        ):
            seats.setdefault(s["table_id"], []).append(_seat_row(s))
        actions: dict[str, list[str]] = {}
        for a in await self.db.fetch(
            "SELECT table_id, action FROM actions "
            "WHERE table_id IN (SELECT id FROM tables WHERE status IN ('lobby', 'playing')) "
            "ORDER BY table_id, seq"
        ):
            actions.setdefault(a["table_id"], []).append(a["action"])
        out = []
        for r in rows:
            if guild_filter is not None and not guild_filter(r["guild_id"]):
                continue
            try:
                row = _row_to_table(r)
            except (ValueError, KeyError, TypeError) as e:  # a record this version cannot read
                out.append(StoredTable(_bare_row(r), (), (), unreadable=f"{type(e).__name__}: {e}"))
                continue
            out.append(
                StoredTable(row, tuple(seats.get(row.id, ())), ActionLog(actions.get(row.id, ())))
            )
        return out

    async def _stored(self, table: TableRow) -> StoredTable:
        """The table's seats and actions, with its row."""
        seats = await self.db.fetch(
            "SELECT seat, user_id, name, bot_level, timeouts, left_game FROM seats "
            "WHERE table_id = ?",
            (table.id,),
        )
        actions = await self.db.fetch(
            "SELECT action FROM actions WHERE table_id = ? ORDER BY seq", (table.id,)
        )
        return StoredTable(
            table, tuple(_seat_row(s) for s in seats), ActionLog(a["action"] for a in actions)
        )

    @staticmethod
    async def clear_expired_tokens(tx: Tx, now: float) -> None:
        """Forget the interaction tokens that can no longer be used (secrets are kept only as
        long as they are valid)."""
        await tx.execute(
            "UPDATE tables SET surface_token = NULL, surface_token_expires = NULL "
            "WHERE surface_token IS NOT NULL AND (surface_token_expires IS NULL "
            "OR surface_token_expires <= ? OR status NOT IN ('lobby', 'playing'))",
            (now,),
        )

    async def get_meta(self, key: str) -> str | None:
        value = await self.db.fetchval("SELECT value FROM meta WHERE key = ?", (key,))
        return None if value is None else str(value)

    async def set_meta(self, key: str, value: str) -> None:
        async with self.db.transaction("meta") as tx:
            await tx.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )
