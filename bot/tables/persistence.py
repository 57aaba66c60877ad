"""How the table service saves and loads tables: one transaction per change, rows to and from
tables, the end of a game (handed to the league in the same transaction), and restoring the
unfinished tables at start-up by replaying their actions.

Nothing here changes a table in memory before its transaction has committed: :meth:`end`
returns the :class:`Ending` its caller applies once the COMMIT succeeded, so a COMMIT that
fails (a full disk, a lost connection) leaves the table open and playable as it was.

A write of a table's state is conditional on this process having seen the table's latest
write: it first bumps the stored revision from the one the table holds in memory
(:meth:`~bot.store.tables.TableStore.claim`).  When another process serves the same table
(overlapping ``SHARD_IDS`` in a rolling deploy, a duplicated container) and wrote it first, the
write is refused (:class:`~bot.errors.TableMoved`, nothing changed) and the table is reloaded
from the database, so this process goes on from what the other one saved.  A revision (not an
owner column or an advisory lock) because it needs no lease to expire when a process dies,
holds no lock between actions, works the same on SQLite and PostgreSQL, and also catches a
process whose COMMIT went through unseen (a lost connection): it reloads too."""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bot.engine import Game, IllegalAction, Rules, RulesError, Seat
from bot.engine.shuffle import GameSeed
from bot.errors import StoreFailed, TableMoved
from bot.i18n import N_, _
from bot.store.db import Database, Tx
from bot.store.errors import StoreError, UniqueViolation
from bot.store.tables import SeatRow, StoredTable, TableRow, TableStore, seed_in_play
from bot.tables.options import (
    TABLE_KEY,
    ArrangedTerms,
    TableOptions,
    TableSettings,
    split_rules_doc,
)
from bot.tables.state import Occupant, Place, SeatRating, SurfaceToken, Table, TableStatus

log = logging.getLogger(__name__)

# Records a game that ended in the caller's transaction; returns the rating changes of a
# rated game (None: not rated).
GameStoredHook = Callable[[Tx, Table, Game], Awaitable[tuple[SeatRating, ...] | None]]
# Told, in the transaction that ends a table, that it ended (a tournament records the result
# of its table there, so the result and the end commit together).
TableEndedHook = Callable[[Tx, Table, Game | None], Awaitable[None]]
# Told of a table reloaded because another process wrote it (its fields are already the
# database's; the service re-registers it and restarts its turn).
MovedHook = Callable[[Table, list[int]], None]
MOVED = N_(
    "Another instance of the bot changed this table just now, so that was not applied; I "
    "have reloaded the table. Please look again and retry."
)
# A table's fields that come from the database (a reload replaces them all).
_STORED_FIELDS = (
    "host_id",
    "rules",
    "turn_timer",
    "handover",
    "status",
    "seats",
    "game",
    "dealer_draw",
    "message_id",
    "deadline",
    "started_at",
    "ended_at",
    "seq",
    "revision",
    "seed",
    "place",
    "options",
    "hints_taken",
    "arranged",
    "rated",
    "hand_limit",
    "deal_source",
)


class _Lost(Exception):
    """Another process wrote the table since this one last did."""


@dataclass(frozen=True, slots=True)
class Ending:
    """How a table ends, written in a transaction and applied to the table (:meth:`apply`)
    only once that transaction has committed."""

    status: TableStatus
    ended_at: float
    ratings: tuple[SeatRating, ...] | None = None
    league_error: str | None = None  # the league could not record the game (why)
    # Another table dealing from the same seed (a duplicate round) was still open when this
    # one ended: the seed stays hidden (bot.ui.text.seed_text.reveal_text).
    seed_withheld: bool = False

    def apply(self, table: Table) -> None:
        table.status, table.ended_at, table.ratings = self.status, self.ended_at, self.ratings
        table.seed_withheld = self.seed_withheld
        if self.league_error is not None:
            table.league_error = self.league_error


class TablePersistence:
    def __init__(
        self,
        db: Database,
        *,
        on_game_stored: GameStoredHook | None = None,
        on_moved: MovedHook | None = None,
    ) -> None:
        self.db = db
        self.store = TableStore(db)
        self.on_game_stored = on_game_stored  # the league, in the final action's transaction
        self.on_moved = on_moved  # the service, when another process wrote a table first
        self.on_table_ended: list[TableEndedHook] = []  # organisers (tournaments), likewise

    @contextlib.asynccontextmanager
    async def write(self, table: Table | None = None) -> AsyncIterator[Tx]:
        """One transaction; a failed write is refused with a reason (nothing changed).

        With ``table`` (a stored table's change), the write is conditional on the table's
        revision: if another process wrote it meanwhile, the table is reloaded and
        :class:`~bot.errors.TableMoved` refuses the change.  Writes of one table in this
        process take turns (the publisher records a new table message outside the table's
        lock), so each claims the revision the one before it left."""
        guard = table.write_lock if table is not None else contextlib.nullcontext()
        async with guard:
            try:
                async with self.db.transaction("table") as conn:
                    if table is not None and not await self.store.claim(
                        conn, table.id, table.revision
                    ):
                        raise _Lost
                    yield conn
            except _Lost:
                assert table is not None
                log.warning("table %s was written by another process; reloading it", table.id)
                await self.reload(table)
                raise TableMoved(_(MOVED)) from None
            except UniqueViolation:
                raise
            except StoreError as e:
                log.error("database write failed: %s", e)
                raise StoreFailed(
                    _("I could not save that, so nothing changed. Please try again.")
                ) from e
            if table is not None:
                table.revision += 1

    async def reload(self, table: Table) -> None:
        """Replace the table's stored state with the database's, and tell the service."""
        humans = table.humans()
        try:
            stored = await self.store.load_table(table.id)
            fresh = self._rebuild(stored) if stored is not None else None
        except (StoreError, IllegalAction, RulesError, ValueError, KeyError) as e:
            log.error("table %s could not be reloaded: %s", table.id, e)
            raise StoreFailed(
                _(
                    "Another instance of the bot changed this table, and I could not reload "
                    "it. Please try again."
                )
            ) from e
        if fresh is None:  # deleted meanwhile: nothing to play any more
            table.status = TableStatus.ABANDONED
        else:
            for name in _STORED_FIELDS:
                setattr(table, name, getattr(fresh, name))
        if self.on_moved is not None:
            self.on_moved(table, humans)

    async def end(
        self, conn: Tx, table: Table, status: TableStatus, game: Game | None = None
    ) -> Ending:
        """Mark the table ended and hand the game to the league, in the caller's transaction;
        the caller applies the returned :class:`Ending` to ``table`` once it has committed."""
        game = game or table.game
        now = time.time()
        await self.store.update_table(
            conn,
            table.id,
            status=status.value,
            ended_at=now,
            deadline=None,
            surface_token=None,  # the table's last messages go out with the token in memory
            surface_token_expires=None,
        )
        # Asked in this transaction, after this table's own row is closed: a round's tables
        # that end together each see the other still open and both keep the seed hidden (the
        # round's end reveals it); never the other way round.
        shared = table.seed is not None and await seed_in_play(conn, table.seed.reveal())
        ending = Ending(status, now, seed_withheld=shared)
        # The league and the organisers see the table as it will be (ended), on a copy: the
        # table itself changes only once the transaction has committed.
        ended = dataclasses.replace(table, status=status, ended_at=now, game=game)
        if self.on_game_stored is not None and game is not None:
            ending = await self._record(conn, ended, game, self.on_game_stored, ending)
        for hook in self.on_table_ended:
            await hook(conn, ended, game)
        return ending

    @staticmethod
    async def _record(
        conn: Tx, table: Table, game: Game, hook: GameStoredHook, ending: Ending
    ) -> Ending:
        """Hand the game to the league inside a savepoint: a league that cannot record it
        (a bug, a constraint) must not stop the table from ending.  The failure is logged and
        the channel is told (``league_error``); the game itself is saved."""
        await conn.execute("SAVEPOINT league_record")
        try:
            ratings = await hook(conn, table, game)
        except Exception as e:
            await conn.execute("ROLLBACK TO league_record")
            await conn.execute("RELEASE league_record")
            log.error("the league could not record table %s", table.id, exc_info=True)
            why = " ".join(str(e).split())[:120] or type(e).__name__
            return dataclasses.replace(ending, league_error=why)
        await conn.execute("RELEASE league_record")
        return dataclasses.replace(ending, ratings=ratings)

    async def set_message(self, table: Table, message_id: int) -> None:
        """Remember which channel message shows the table."""
        async with self.write(table) as conn:
            await self.store.update_table(conn, table.id, message_id=message_id)
        table.message_id = message_id

    async def set_token(self, table: Table, token: SurfaceToken | None) -> None:
        """Remember the interaction token that can edit an "interaction" table's message
        (``None``: it expired, forget it).  Not a change of the table's state: no revision is
        claimed, so it never races a move."""
        async with self.write() as conn:
            await self.store.update_table(
                conn,
                table.id,
                surface_token=token.token if token is not None else None,
                surface_token_expires=token.expires_at if token is not None else None,
            )

    async def clear_expired_tokens(self) -> None:
        async with self.write() as conn:
            await self.store.clear_expired_tokens(conn, time.time())

    @staticmethod
    def row(table: Table) -> TableRow:
        return TableRow(
            id=table.id,
            guild_id=table.guild_id,
            channel_id=table.channel_id,
            host_id=table.host_id,
            status=table.status.value,
            rules=rules_doc(table),
            turn_timer=table.turn_timer,
            handover=table.handover,
            message_id=table.message_id,
            created_at=table.created_at,
            # A duplicate round's seed is in the row from the table's creation, so the round
            # counts as in play from its first table seated (bot.store.tables.seed_in_play).
            seed=table.deal_source,
            surface=table.place.surface,
            league=table.place.league,
        )

    @staticmethod
    def seat_row(seat: Seat, o: Occupant) -> SeatRow:
        return SeatRow(seat, o.user_id, o.name, o.bot_level, o.timeouts, o.left)

    async def load_unfinished(
        self, guild_filter: Callable[[int], bool] | None = None
    ) -> tuple[list[tuple[Table, StoredTable]], list[Table]]:
        """Every unfinished table (of the servers ``guild_filter`` accepts) as its row and
        seats have it, each with what brings its game back (:meth:`replay`, done later: at
        start-up the tables are known at once and replayed in the background); and, apart,
        those whose record this version cannot read, logged, as bare tables (no game) to be
        closed."""
        waiting, broken = [], []
        for stored in await self.store.load_unfinished(guild_filter):
            try:
                if stored.unreadable is not None:
                    raise ValueError(f"its stored record cannot be read: {stored.unreadable}")
                waiting.append((self._shell(stored), stored))
            except Exception:
                log.exception("table %s cannot be restored; closing it (unrated)", stored.row.id)
                broken.append(self._bare(stored))
        return waiting, broken

    async def close_unrestorable(self, table: Table, reason: str) -> None:
        """End a table that cannot be restored: abandoned, unrated (the league is not told:
        there is no game to record)."""
        async with self.write() as conn:
            ending = await self.end(conn, table, TableStatus.ABANDONED)
        ending.apply(table)
        table.end_reason = reason

    @staticmethod
    def _bare(stored: StoredTable) -> Table:
        """What is known of a table that cannot be restored: where it is, who sat there."""
        row = stored.row
        table = Table(
            id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            host_id=row.host_id,
            rules=Rules(),
            status=TableStatus(row.status),
            message_id=row.message_id,
            created_at=row.created_at,
            place=Place(row.surface, row.league),
            token=_token(row),
        )
        for s in stored.seats:
            table.seats[s.seat] = Occupant(s.user_id, s.name, s.bot_level, s.timeouts, s.left)
        return table

    @classmethod
    def _rebuild(cls, stored: StoredTable) -> Table:
        table = cls._shell(stored)
        cls.replay(table, stored)
        return table

    @staticmethod
    def _shell(stored: StoredTable) -> Table:
        """The table as its row and seats have it, its game not yet replayed."""
        row = stored.row
        rules, settings = split_rules_doc(row.rules)
        table = Table(
            id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            host_id=row.host_id,
            rules=Rules.from_record(rules),
            options=settings.options,
            hints_taken=dict(settings.hints_taken),
            turn_timer=row.turn_timer,
            # not row.handover: older versions let the host choose it (see Table.handover)
            status=TableStatus(row.status),
            dealer_draw=row.dealer_draw,
            seed=GameSeed.from_hex(row.seed) if row.seed is not None else None,
            message_id=row.message_id,
            deadline=row.deadline,
            created_at=row.created_at,
            started_at=row.started_at,
            ended_at=row.ended_at,
            revision=row.revision,
            place=Place(row.surface, row.league),
            token=_token(row),
        )
        terms = settings.arranged
        if terms is not None:  # a tournament's table: in force before any turn is played
            table.arranged, table.rated, table.hand_limit = True, terms.rated, terms.hand_limit
            table.deal_source = row.seed if terms.shared_seed else None
        for s in stored.seats:
            table.seats[s.seat] = Occupant(s.user_id, s.name, s.bot_level, s.timeouts, s.left)
        return table

    @staticmethod
    def replay(table: Table, stored: StoredTable) -> None:
        """Bring back the game of ``table`` (made by :meth:`load_unfinished`) by replaying its
        stored actions; raises if they cannot be read or replayed (the table is unchanged)."""
        row = stored.row
        if table.status == TableStatus.PLAYING and row.first_dealer:
            game = Game(table.rules, Seat[row.first_dealer])
            for action in stored.actions:
                game.apply(action)
            table.game = game
            table.seq = len(stored.actions)


def _token(row: TableRow) -> SurfaceToken | None:
    """The stored token of a table, if it is still valid."""
    if row.surface_token is None or row.surface_token_expires is None:
        return None
    if row.surface_token_expires <= time.time():
        return None
    return SurfaceToken(row.surface_token, row.surface_token_expires)


def rules_doc(
    table: Table,
    *,
    rules: Rules | None = None,
    options: TableOptions | None = None,
    hints_taken: dict[Seat, int] | None = None,
) -> dict[str, Any]:
    """What a table stores in its ``rules`` column: the rules' record and, beside it, the
    table's own settings (:mod:`bot.tables.options`); each part may be given anew."""
    terms = (
        ArrangedTerms(table.rated, table.hand_limit, table.deal_source is not None)
        if table.arranged
        else None
    )
    settings = TableSettings(
        table.options if options is None else options,
        table.hints_taken if hints_taken is None else hints_taken,
        terms,
    )
    return {**(rules or table.rules).to_record(), TABLE_KEY: settings.to_doc()}
