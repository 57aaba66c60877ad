"""Which tables are open: by id, by channel, and where each member of a server sits."""

from __future__ import annotations

from collections import OrderedDict

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

    # ------------------------------------------------------------------ lookup
    def get(self, table_id: str) -> Table:
        table = self._by_id.get(table_id)
        if table is None or not table.open:
            raise StaleButton(_("That table has ended."))
        return table

    def find_by_id(self, table_id: str) -> Table | None:
        """The open table of that id, if any."""
        return self._by_id.get(table_id)

    def in_channel(self, channel_id: int) -> Table:
        table = self._by_channel.get(channel_id)
        if table is None:
            raise NoTable(_("There is no table in this channel. Open one with `/spades new`."))
        return table

    def find_in_channel(self, channel_id: int) -> Table | None:
        return self._by_channel.get(channel_id)

    def of_user(self, guild_id: int, user_id: int) -> Table:
        table = self._by_user.get((guild_id, user_id))
        if table is None:
            raise NotSeated(
                _(
                    "You are not seated at a table in this server. Join one with "
                    "`/spades join` or open one with `/spades new`."
                )
            )
        return table

    def in_guild(self, guild_id: int) -> list[Table]:
        return [t for t in self._by_id.values() if t.guild_id == guild_id]

    def all(self) -> list[Table]:
        return list(self._by_id.values())

    def find_of_user(self, guild_id: int, user_id: int) -> Table | None:
        return self._by_user.get((guild_id, user_id))

    def check_can_open(self, guild_id: int, channel_id: int, user_id: int) -> None:
        other = self._by_user.get((guild_id, user_id))
        if other is not None:
            raise Refusal(
                _(
                    "You are already seated at a table in {channel}. "
                    "Leave it with `/spades leave` first.",
                    channel=f"<#{other.channel_id}>",
                )
            )
        if channel_id in self._by_channel:
            raise Refusal(
                _(
                    "This channel already has a table. Use `/spades table` to see it, "
                    "or open one with `thread: true`."
                )
            )

    def check_can_sit(self, table: Table, user_id: int) -> None:
        """Refuse a member who already sits at another table of the server."""
        other = self._by_user.get((table.guild_id, user_id))
        if other is not None and other is not table:
            raise Refusal(
                _(
                    "You are already seated at a table in {channel}.",
                    channel=f"<#{other.channel_id}>",
                )
            )

    # ------------------------------------------------------------------ changes
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
