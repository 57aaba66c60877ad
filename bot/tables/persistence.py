"""How the table service saves and loads tables: one transaction per change, rows to and from
tables, the end of a game (handed to the league in the same transaction), and restoring the
unfinished tables at start-up by replaying their actions."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable

from bot.engine import Game, IllegalAction, Rules, RulesError, Seat
from bot.errors import StoreFailed
from bot.store.db import Database, Tx
from bot.store.errors import StoreError, UniqueViolation
from bot.store.tables import SeatRow, StoredTable, TableRow, TableStore
from bot.tables.state import Occupant, SeatRating, Table

log = logging.getLogger(__name__)

# Records a game that ended in the caller's transaction; returns the rating changes of a
# rated game (None: not rated).
GameStoredHook = Callable[[Tx, Table, Game], Awaitable[tuple[SeatRating, ...] | None]]
# Told, in the transaction that ends a table, that it ended (a tournament records the result
# of its table there, so the result and the end commit together).
TableEndedHook = Callable[[Tx, Table, Game | None], Awaitable[None]]


class TablePersistence:
    def __init__(self, db: Database) -> None:
        self.db = db
        self.store = TableStore(db)
        self.on_game_stored: GameStoredHook | None = None
        self.on_table_ended: list[TableEndedHook] = []

    @contextlib.asynccontextmanager
    async def write(self) -> AsyncIterator[Tx]:
        """One transaction; a failed write is refused with a reason (nothing changed)."""
        try:
            async with self.db.transaction() as conn:
                yield conn
        except UniqueViolation:
            raise
        except StoreError as e:
            log.error("database write failed: %s", e)
            raise StoreFailed("I could not save that, so nothing changed. Please try again.") from e

    async def end(self, conn: Tx, table: Table, status: str, game: Game | None = None) -> None:
        """Mark the table ended and hand the game to the league, in the caller's transaction."""
        game = game or table.game
        now = time.time()
        await self.store.update_table(conn, table.id, status=status, ended_at=now, deadline=None)
        previous = (table.status, table.ended_at, table.ratings)
        table.status, table.ended_at = status, now
        try:
            if self.on_game_stored is not None and game is not None:
                await self._record(conn, table, game, self.on_game_stored)
            for hook in self.on_table_ended:
                await hook(conn, table, game)
        except BaseException:
            table.status, table.ended_at, table.ratings = previous
            raise

    @staticmethod
    async def _record(conn: Tx, table: Table, game: Game, hook: GameStoredHook) -> None:
        """Hand the game to the league inside a savepoint: a league that cannot record it
        (a bug, a constraint) must not stop the table from ending.  The failure is logged and
        the channel is told (``table.league_error``); the game itself is saved."""
        await conn.execute("SAVEPOINT league_record")
        try:
            table.ratings = await hook(conn, table, game)
        except Exception as e:
            await conn.execute("ROLLBACK TO league_record")
            await conn.execute("RELEASE league_record")
            log.error("the league could not record table %s", table.id, exc_info=True)
            table.league_error = " ".join(str(e).split())[:120] or type(e).__name__
        else:
            await conn.execute("RELEASE league_record")

    async def set_message(self, table: Table, message_id: int) -> None:
        """Remember which channel message shows the table."""
        async with self.write() as conn:
            await self.store.update_table(conn, table.id, message_id=message_id)
        table.message_id = message_id

    @staticmethod
    def row(table: Table) -> TableRow:
        return TableRow(
            id=table.id,
            guild_id=table.guild_id,
            channel_id=table.channel_id,
            host_id=table.host_id,
            status=table.status,
            rules=table.rules.to_record(),
            turn_timer=table.turn_timer,
            handover=table.handover,
            message_id=table.message_id,
            created_at=table.created_at,
        )

    @staticmethod
    def seat_row(seat: Seat, o: Occupant) -> SeatRow:
        return SeatRow(seat, o.user_id, o.name, o.bot_level, o.timeouts, o.left)

    async def load_unfinished(
        self, guild_filter: Callable[[int], bool] | None = None
    ) -> list[Table]:
        """Every unfinished table (of the servers ``guild_filter`` accepts), its game rebuilt
        by replaying its actions (a table that cannot be rebuilt is logged and left alone)."""
        tables = []
        for stored in await self.store.load_unfinished(guild_filter):
            try:
                tables.append(self._rebuild(stored))
            except (IllegalAction, RulesError, ValueError, KeyError):
                log.exception("table %s could not be restored; leaving it", stored.row.id)
        return tables

    @staticmethod
    def _rebuild(stored: StoredTable) -> Table:
        row = stored.row
        table = Table(
            id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            host_id=row.host_id,
            rules=Rules.from_record(row.rules),
            turn_timer=row.turn_timer,
            # not row.handover: older versions let the host choose it (see Table.handover)
            status=row.status,
            dealer_draw=row.dealer_draw,
            message_id=row.message_id,
            deadline=row.deadline,
            created_at=row.created_at,
            started_at=row.started_at,
            ended_at=row.ended_at,
        )
        for s in stored.seats:
            table.seats[s.seat] = Occupant(s.user_id, s.name, s.bot_level, s.timeouts, s.left)
        if row.status == "playing" and row.first_dealer:
            game = Game(table.rules, Seat[row.first_dealer])
            for action in stored.actions:
                game.apply(action)
            table.game = game
            table.seq = len(stored.actions)
        return table
