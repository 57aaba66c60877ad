"""What the parts of the table service share, and what the Discord layer is told.

Whatever the Discord layer is told after a change was committed (the table message, a hand's
summary with its deal picture, the game-over post, the players' live hands) is isolated: the
change is saved and the game goes on whatever that part does.  A part that raises is logged
with its traceback and noticed on the table (at most once a minute per table); it never
reaches the player whose move was saved, nor stops the next computer turn."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Protocol

from bot.engine import HandResult
from bot.i18n import Text, later
from bot.tables.live import LiveHands
from bot.tables.persistence import TablePersistence
from bot.tables.randomness import TableRandomness
from bot.tables.registry import TableRegistry
from bot.tables.spectators import Spectators
from bot.tables.state import Table
from bot.tables.turns import AutoTurns

log = logging.getLogger(__name__)

TROUBLE_NOTICE_EVERY_S = 60.0  # at most one "something went wrong" notice per table a minute
TROUBLE_NOTICE = later(
    "⚠ Something went wrong showing this table's latest change (the error is in my log). "
    "Nothing is lost and the game goes on: `/hand` shows your cards."
)


class TableListener(Protocol):
    """What the Discord layer is told; every method must return quickly."""

    def changed(self, table: Table) -> None: ...

    def hand_finished(self, table: Table, result: HandResult) -> None: ...

    def game_finished(self, table: Table) -> None: ...

    def notice(self, table: Table, text: str | Text) -> None: ...


@dataclass(slots=True, eq=False)
class ServiceContext:
    persistence: TablePersistence
    registry: TableRegistry
    randomness: TableRandomness
    turns: AutoTurns
    live: LiveHands
    listener: TableListener | None = None
    spectators: Spectators = field(default_factory=Spectators)
    # Told after a table ended and was forgotten (a tournament advances its round).
    on_closed: list[Callable[[Table], None]] = field(default_factory=list)
    # Told after a hand ended (a tournament's standings show the table's score).
    on_hand_finished: list[Callable[[Table], None]] = field(default_factory=list)
    _troubled: dict[str, float] = field(default_factory=dict)  # table id → last notice

    def changed(self, table: Table) -> None:
        """A table changed (and stays open): tell the listener, update the players' hands."""
        table.version += 1
        listener = self.listener
        if listener is not None:
            self._tell(table, "showing the table", lambda: listener.changed(table))
        self._tell(table, "updating the live hands", lambda: self.live.changed(table))
        self._tell(table, "updating the spectators", lambda: self.spectators.changed(table))

    def hand_finished(self, table: Table, result: HandResult) -> None:
        listener = self.listener
        if listener is not None:
            what = "posting the hand's summary"
            self._tell(table, what, lambda: listener.hand_finished(table, result))
        for observer in self.on_hand_finished:
            self._tell(table, "telling an organiser a hand ended", partial(observer, table))

    def closed(self, table: Table) -> None:
        """A table ended: forget it, stop its timers, tell the listener."""
        table.deadline = None
        self.turns.cancel(table)
        self.registry.remove(table)
        table.version += 1
        listener = self.listener
        if listener is not None and not table.gone:
            self._tell(table, "posting the end of the game", lambda: listener.game_finished(table))
            if table.league_error is not None:
                self.notice(
                    table,
                    later(
                        "⚠ The game is over, but I could not record it in the league "
                        "(the error is in my log); ratings and stats do not include it."
                    ),
                )
        self._tell(table, "showing the end in the live hands", lambda: self.live.closed(table))
        self._tell(table, "showing the end to spectators", lambda: self.spectators.closed(table))
        self._troubled.pop(table.id, None)
        for observer in self.on_closed:
            self._tell(table, "telling an organiser the table ended", partial(observer, table))

    def notice(self, table: Table, text: str | Text) -> None:
        listener = self.listener
        if listener is None:
            return
        try:
            listener.notice(table, text)
        except Exception:
            log.exception("posting a notice at table %s failed", table.id)

    def redraw(self, table: Table) -> None:
        """Bring the table's message up to date (a table restored at start-up)."""
        listener = self.listener
        if listener is not None:
            self._tell(table, "showing the restored table", lambda: listener.changed(table))

    def _tell(self, table: Table, what: str, call: Callable[[], None]) -> None:
        """Run one call to the Discord layer after a commit; a failure is logged and noticed
        on the table, never raised."""
        try:
            call()
        except Exception:
            log.exception("%s failed at table %s; the game goes on", what, table.id)
            now = time.monotonic()
            last = self._troubled.get(table.id)
            if last is not None and now - last < TROUBLE_NOTICE_EVERY_S:
                return
            self._troubled[table.id] = now
            self.notice(table, TROUBLE_NOTICE)
