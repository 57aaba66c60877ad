"""The table service: every change to a table goes through here.

One ``asyncio.Lock`` per table serialises its actions; tables never wait on each other.  An
action is checked by the engine on a copy of the game, the copy (plus any deal that follows)
is committed to the database in one transaction, and only then does it replace the live game
and the caller get its answer.  A failed commit leaves the table as it was.

The service is split by concern, and callers use the part they need:

* ``registry`` — which tables are open, by id, channel and member (lookups, may I open);
* ``lobby`` — open, sit, leave, computer players, rules, start;
* ``endings`` — abandoning (by agreement during a game), moderators, orphaned tables;
* ``moves`` — a person's bid, look, pass or play through the move pipeline;
* ``turns`` — computer players (their renege claims too) and turn timers, acting through the
  same pipeline;
* ``live`` — the players' hand messages, edited as the game moves (through the Discord
  layer's ``editor``; ``remind`` when they cannot be), and the answers that show them;
* ``arranged`` — tables an organiser (a tournament) opens seated and started, and ends;
* ``spectators`` — the live views of members who watch a game (given with their Discord
  side: ``editor``, ``recounted`` and ``gate``);
* ``hints`` — practice tables' hints: who may have one now, and how many each seat took;
* ``persistence`` — transactions, rows, the end-of-game hook, restoring at start-up, and
  reloading a table that another process wrote first (:meth:`TableService._moved`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from bot.engine import Action, Seat
from bot.errors import StoreFailed
from bot.i18n import Text, for_server, later
from bot.store.db import Database
from bot.store.tables import StoredTable, TableStore
from bot.tables.arranged import ArrangedTables
from bot.tables.context import ServiceContext, TableListener
from bot.tables.ending import Endings
from bot.tables.hints import Hints
from bot.tables.live import HandEditor, LiveHands, Reminder
from bot.tables.lobby import Lobby
from bot.tables.moves import ActResult, Moves
from bot.tables.persistence import GameStoredHook, TablePersistence
from bot.tables.randomness import TableRandomness
from bot.tables.registry import FINISHED_KEPT, TableRegistry
from bot.tables.spectators import Spectators
from bot.tables.state import SurfaceToken, Table
from bot.tables.turns import AutoTurns, Claimer, Decider, no_claims

log = logging.getLogger(__name__)

UNRESTORABLE = later(
    "⚠ I could not restore the table here after my restart (the error is in my log), so I "
    "closed it; its game is unrated. Open a new one with `/spades new`."
)


class TableService:
    """The parts above over one database.  What the service tells the outside is given here,
    once: ``listener`` (the Discord layer: table messages, summaries, notices), ``editor`` and
    ``remind`` (the players' live hands), ``spectators`` (their live views, with their
    Discord side), ``on_game_stored`` (the league, in the final action's transaction);
    ``decide`` and ``claim`` are the computer players."""

    def __init__(
        self,
        db: Database,
        decide: Decider,
        *,
        listener: TableListener | None = None,
        editor: HandEditor | None = None,
        remind: Reminder | None = None,
        spectators: Spectators | None = None,
        live_gate: Callable[[], Awaitable[None]] | None = None,
        on_game_stored: GameStoredHook | None = None,
        test_seed: int | None = None,
        bot_delay: float = 1.0,
        claim: Claimer = no_claims,
        finished_kept: int = FINISHED_KEPT,
    ) -> None:
        self.db = db
        self.persistence = TablePersistence(db, on_game_stored=on_game_stored, on_moved=self._moved)
        self.registry = TableRegistry(finished_kept)
        self.randomness = randomness = TableRandomness(test_seed)
        self.turns = AutoTurns(
            decide,
            commit=self._commit_turn,
            seed=randomness.computer_seed,
            notify=self._notify,
            claim=claim,
            bot_delay=bot_delay,
        )
        self.live = LiveHands(editor=editor, remind=remind, gate=live_gate)
        self.spectators = spectators if spectators is not None else Spectators()
        self._ctx = ServiceContext(
            self.persistence,
            self.registry,
            randomness,
            self.turns,
            self.live,
            listener,
            spectators=self.spectators,
        )
        self.lobby = Lobby(self._ctx)
        self.moves = Moves(self._ctx)
        self.hints = Hints(self._ctx, self.moves)
        self.endings = Endings(self._ctx)
        self.arranged = ArrangedTables(self._ctx, self.lobby)
        # Restoring at start-up (start_restore … finish_restore): the tables whose games wait
        # to be replayed, in the order they were loaded; those brought back; their closings.
        self._waiting: dict[str, StoredTable] = {}
        self._restore_order: list[str] = []
        self._restored: dict[str, Table] = {}
        self._closing: set[asyncio.Future[None]] = set()
        self._in_background = False
        self.restore_started = 0.0  # time.monotonic() when the last restore began

    def on_closed(self, observer: Callable[[Table], None]) -> None:
        """Tell ``observer`` of every table that ended, after it was committed and forgotten."""
        self._ctx.on_closed.append(observer)

    def on_hand_finished(self, observer: Callable[[Table], None]) -> None:
        """Tell ``observer`` of every hand that ended (committed), with the table open."""
        self._ctx.on_hand_finished.append(observer)

    @property
    def store(self) -> TableStore:
        return self.persistence.store

    async def _commit_turn(
        self, table: Table, seat: Seat, action: Action, timeout_seat: Seat | None
    ) -> ActResult:
        return await self.moves.commit(table, seat, [action], None, timeout_seat=timeout_seat)

    def _moved(self, table: Table, humans_before: list[int]) -> None:
        """``table`` was reloaded (another process wrote it first): index its members anew,
        and go on from the database's state — or forget it quietly if the other process ended
        it (that process tells the channel)."""
        for user_id in humans_before:
            if self.registry.find_of_user(table.guild_id, user_id) is table:
                self.registry.unseated(table, user_id)
        if table.open:
            self.registry.add(table)
            self._ctx.changed(table)
            self.turns.schedule(table)
        else:
            table.gone = True  # post nothing: the process that ended it did
            self._ctx.closed(table)

    def _notify(self, table: Table, text: str | Text) -> None:
        self._ctx.notice(table, text)

    async def set_message(self, table: Table, message_id: int) -> None:
        await self.persistence.set_message(table, message_id)

    async def set_token(self, table: Table, token: SurfaceToken | None) -> None:
        await self.persistence.set_token(table, token)

    async def restore(self, guild_filter: Callable[[int], bool] | None = None) -> list[Table]:
        """Load every unfinished table (of the servers ``guild_filter`` accepts: this
        process's shards), rebuild its game by replaying its actions and bring its message up
        to date: :meth:`start_restore`, then :meth:`finish_restore`.  A table that cannot be
        rebuilt is closed, unrated, and its channel told: it never blocks its channel or its
        players."""
        await self.start_restore(guild_filter)
        return await self.finish_restore()

    async def start_restore(self, guild_filter: Callable[[int], bool] | None = None) -> int:
        """The first part of a restore, quick however many tables there are: every unfinished
        table is registered as its row and seats have it (so lookups, and the refusals that
        depend on who sits where, work at once); its game is replayed later —
        :meth:`finish_restore` in the background, or at once when a lookup finds it first
        (a click on it); those that live on interaction tokens come back at once.  Returns how
        many were registered."""
        self.restore_started = time.monotonic()
        try:
            await self.persistence.clear_expired_tokens()  # secrets kept only while valid
        except StoreFailed:
            log.warning("could not clear the expired interaction tokens; trying at the next start")
        waiting, broken = await self.persistence.load_unfinished(guild_filter)
        self.registry.restorer = self._bring_back
        for table, stored in waiting:
            self._waiting[table.id] = stored
            self._restore_order.append(table.id)
            self.registry.add_waiting(table)
        for table, _stored in waiting:
            # A table that lives on interaction tokens (a group DM, a user install) comes back
            # now, as before: its message is adopted by the first click's answer only if the
            # publisher knows the table before that click is looked up.
            if table.place.by_interaction:
                self.registry.ready(table)
        for table in broken:
            await self._close_unrestorable(table)
        if waiting:
            log.info("restoring %d unfinished table(s) in the background", len(waiting))
        return len(waiting)

    async def finish_restore(self) -> list[Table]:
        """Bring back every table still waiting, oldest first, one at a time with the event
        loop let go in between (clicks are answered meanwhile); returns every table restored
        since :meth:`start_restore` (in the background or on demand), oldest first."""
        for table_id in list(self._waiting):
            self._in_background = True
            try:
                self.registry.find_by_id(table_id)  # brings it back, if it still waits
            finally:
                self._in_background = False
            await asyncio.sleep(0)
        self._waiting.clear()  # any left were removed while waiting (closed): nothing to bring
        while self._closing:
            await asyncio.gather(*list(self._closing))
        order, self._restore_order = self._restore_order, []
        restored = [self._restored[i] for i in order if i in self._restored]
        self._restored.clear()
        if restored:
            took = time.monotonic() - self.restore_started
            log.info("restored %d unfinished table(s) in %.1f s", len(restored), took)
        return restored

    def _bring_back(self, table: Table) -> bool:
        """Replay a waiting table's game now, schedule its turn and redraw its message; one
        that cannot be replayed is forgotten and closed (unrated).  The registry calls this at
        the table's first lookup."""
        stored = self._waiting.pop(table.id, None)
        if stored is None:
            return table.open
        try:
            self.persistence.replay(table, stored)
        except Exception:
            log.exception("table %s cannot be restored; closing it (unrated)", table.id)
            self.registry.remove(table)
            closing = asyncio.ensure_future(self._close_unrestorable(table))
            self._closing.add(closing)
            closing.add_done_callback(self._closing.discard)
            return False
        self._restored[table.id] = table
        self.turns.schedule(table)
        self._ctx.redraw(table)
        if not self._in_background:
            log.info("table %s restored on demand (%d still waiting)", table.id, len(self._waiting))
        return True

    async def _close_unrestorable(self, table: Table) -> None:
        try:
            await self.persistence.close_unrestorable(
                table, for_server(table.guild_id, UNRESTORABLE)
            )
        except StoreFailed:
            log.error("could not close table %s; trying again at the next start", table.id)
            return
        self._ctx.notice(table, UNRESTORABLE)

    async def close(self) -> None:
        await self.turns.close()
        await self.live.close()
        await self.spectators.close()
