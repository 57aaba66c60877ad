"""Which tables are open: by id, by channel, and where each member of a server sits.

At start-up the unfinished tables are registered at once, as their rows and seats have them,
and their games are replayed in the background (:meth:`TableService.start_restore
<bot.tables.service.TableService.start_restore>`); until then a table *waits*.  Every lookup
brings back a waiting table it finds first (:attr:`TableRegistry.restorer`), so a caller always
gets a table with its game; one that cannot be brought back is found nowhere."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

from bot.errors import NoTable, NotSeated, Refusal, StaleButton
from bot.i18n import _
from bot.tables.state import Rematch, Table, TableStatus

FINISHED_KEPT = 2_000  # finished games that Play again can still restart (newest)


class TableRegistry:
    def __init__(self, finished_kept: int = FINISHED_KEPT) -> None:
        self.finished_kept = finished_kept
        self._by_id: dict[str, Table] = {}
        self._by_channel: dict[int, Table] = {}
        self._by_user: dict[tuple[int, int], Table] = {}
        self._finished: OrderedDict[str, Rematch] = OrderedDict()
        self._waiting: set[str] = set()  # restored at start-up, game not yet replayed
        # Brings a waiting table back now (its game replayed, its turn scheduled); False when
        # it cannot be (then it is no longer registered).  Set by the table service.
        self.restorer: Callable[[Table], bool] | None = None

    # ------------------------------------------------------------------ lookup
    def _ready(self, table: Table | None) -> Table | None:
        """``table``, its game brought back first if it was waiting (None if it could not)."""
        if table is None or table.id not in self._waiting:
            return table
        self._waiting.discard(table.id)
        if self.restorer is not None and not self.restorer(table):
            return None
        return table

    def get(self, table_id: str) -> Table:
        table = self._ready(self._by_id.get(table_id))
        if table is None or not table.open:
            raise StaleButton(_("That table has ended."))
        return table

    def find_by_id(self, table_id: str) -> Table | None:
        """The open table of that id, if any."""
        return self._ready(self._by_id.get(table_id))

    def in_channel(self, channel_id: int) -> Table:
        table = self._ready(self._by_channel.get(channel_id))
        if table is None:
            raise NoTable(_("There is no table in this channel. Open one with `/spades new`."))
        return table

    def find_in_channel(self, channel_id: int) -> Table | None:
        return self._ready(self._by_channel.get(channel_id))

    def of_user(self, guild_id: int, user_id: int) -> Table:
        table = self._ready(self._by_user.get((guild_id, user_id)))
        if table is None:
            raise NotSeated(
                _(
                    "You are not seated at a table in this server. Join one with "
                    "`/spades join` or open one with `/spades new`."
                )
            )
        return table

    def in_guild(self, guild_id: int) -> list[Table]:
        here = [t for t in self._by_id.values() if t.guild_id == guild_id]
        return [t for t in map(self._ready, here) if t is not None]

    def all(self) -> list[Table]:
        """Every open table, each brought back first if it was waiting."""
        return [t for t in map(self._ready, list(self._by_id.values())) if t is not None]

    def listed(self) -> list[Table]:
        """Every open table as registered: one still waiting has its row and seats (rules,
        status, who sits where) but not yet its game — for counting and sweeping."""
        return list(self._by_id.values())

    def ready(self, table: Table) -> Table | None:
        """``table`` brought back now if it was waiting (None if it could not be)."""
        return self._ready(table)

    @property
    def waiting(self) -> int:
        """Tables restored at start-up whose games are not replayed yet."""
        return len(self._waiting)

    def find_of_user(self, guild_id: int, user_id: int) -> Table | None:
        return self._ready(self._by_user.get((guild_id, user_id)))

    def check_can_open(self, guild_id: int, channel_id: int, user_id: int) -> None:
        other = self.find_of_user(guild_id, user_id)
        if other is not None:
            raise Refusal(
                _(
                    "You are already seated at a table in {channel}. "
                    "Leave it with `/spades leave` first.",
                    channel=f"<#{other.channel_id}>",
                )
            )
        if self.find_in_channel(channel_id) is not None:
            raise Refusal(
                _(
                    "This channel already has a table. Use `/spades table` to see it, "
                    "or open one with `thread: true`."
                )
            )

    def check_can_sit(self, table: Table, user_id: int) -> None:
        """Refuse a member who already sits at another table of the server."""
        other = self.find_of_user(table.guild_id, user_id)
        if other is not None and other is not table:
            raise Refusal(
                _(
                    "You are already seated at a table in {channel}.",
                    channel=f"<#{other.channel_id}>",
                )
            )

    # ------------------------------------------------------------------ changes
    def add_waiting(self, table: Table) -> None:
        """Register a table restored at start-up whose game is to be replayed (:attr:`restorer`
        brings it back at its first lookup, or the service in the background)."""
        self.add(table)
        self._waiting.add(table.id)

    def add(self, table: Table) -> None:
        self._by_id[table.id] = table
        self._by_channel[table.channel_id] = table
        for uid in table.humans():
            # A member seated at an arranged (tournament) table while playing elsewhere keeps
            # the table they were at (a computer plays their arranged seat meanwhile).
            self._by_user.setdefault((table.guild_id, uid), table)

    def seated(self, table: Table, user_id: int) -> None:
        self._by_user[(table.guild_id, user_id)] = table

    def unseated(self, table: Table, user_id: int) -> None:
        self._by_user.pop((table.guild_id, user_id), None)

    def finished(self, table_id: str) -> Rematch:
        """A recently finished game, for **Play again**."""
        rematch = self._finished.get(table_id)
        if rematch is None:
            raise StaleButton(
                _("That game is too old to play again here: open a new table with `/spades new`.")
            )
        return rematch

    def remove(self, table: Table) -> None:
        self._waiting.discard(table.id)
        if table.status == TableStatus.FINISHED:
            self._finished[table.id] = table.rematch()
            while len(self._finished) > self.finished_kept:
                self._finished.popitem(last=False)
        self._by_id.pop(table.id, None)
        if self._by_channel.get(table.channel_id) is table:
            del self._by_channel[table.channel_id]
        for key, t in list(self._by_user.items()):
            if t is table:
                del self._by_user[key]
