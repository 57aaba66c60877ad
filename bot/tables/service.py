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

import logging
from collections.abc import Callable

from bot.engine import Action, Seat
from bot.errors import StoreFailed
from bot.i18n import Text, for_server, later
from bot.store.db import Database
from bot.store.tables import TableStore
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
        self.live = LiveHands(editor=editor, remind=remind)
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
        to date.  A table that cannot be rebuilt is closed, unrated, and its channel told:
        it never blocks its channel or its players."""
        try:
            await self.persistence.clear_expired_tokens()  # secrets kept only while valid
        except StoreFailed:
            log.warning("could not clear the expired interaction tokens; trying at the next start")
        restored, broken = await self.persistence.load_unfinished(guild_filter)
        for table in restored:
            self.registry.add(table)
        for table in restored:
            self.turns.schedule(table)
            self._ctx.redraw(table)
        for table in broken:
            await self._close_unrestorable(table)
        return restored

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
