"""What the parts of the table service share, and what the Discord layer is told."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from bot.engine import HandResult
from bot.tables.live import LiveHands
from bot.tables.persistence import TablePersistence
from bot.tables.randomness import TableRandomness
from bot.tables.registry import TableRegistry
from bot.tables.state import Table
from bot.tables.turns import AutoTurns


class TableListener(Protocol):
    """What the Discord layer is told; every method must return quickly."""

    def changed(self, table: Table) -> None: ...

    def hand_finished(self, table: Table, result: HandResult) -> None: ...

    def game_finished(self, table: Table) -> None: ...

    def notice(self, table: Table, text: str) -> None: ...


@dataclass(slots=True, eq=False)
class ServiceContext:
    persistence: TablePersistence
    registry: TableRegistry
    randomness: TableRandomness
    turns: AutoTurns
    live: LiveHands
    listener: TableListener | None = None
    # Told after a table ended and was forgotten (a tournament advances its round).
    on_closed: list[Callable[[Table], None]] = field(default_factory=list)

    def changed(self, table: Table) -> None:
        """A table changed (and stays open): tell the listener, update the players' hands."""
        table.version += 1
        if self.listener is not None:
            self.listener.changed(table)
        self.live.changed(table)

    def closed(self, table: Table) -> None:
        """A table ended: forget it, stop its timers, tell the listener."""
        table.deadline = None
        self.turns.cancel(table)
        self.registry.remove(table)
        table.version += 1
        if self.listener is not None and not table.gone:
            self.listener.game_finished(table)
            if table.league_error is not None:
                self.listener.notice(
                    table,
                    "⚠ The game is over, but I could not record it in the league "
                    "(the error is in my log); ratings and stats do not include it.",
                )
        self.live.closed(table)
        for observer in self.on_closed:
            observer(table)

    def notice(self, table: Table, text: str) -> None:
        if self.listener is not None:
            self.listener.notice(table, text)
