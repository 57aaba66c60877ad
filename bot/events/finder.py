"""Finding a tournament: by the name a command gives (or the server's only one), by id, by a
table it seats.  The tournament director (:class:`bot.events.service.TournamentService`) is a
finder over the tournaments it runs; commands ask it which one they mean before changing it."""

from __future__ import annotations

from bot.errors import Refusal
from bot.events.pairing.model import NAME_MAX, Tournament
from bot.i18n import _
from bot.names import md_name
from bot.store.db import Database
from bot.store.tournaments import TournamentStore, UnreadableTournament, name_key


class TournamentFinder:
    """The open tournaments of this process's servers (``open``), those that could not be
    loaded at the start (``unreadable``), and the store for those that are over."""

    db: Database
    store: TournamentStore
    open: dict[int, Tournament]
    unreadable: dict[int, UnreadableTournament]

    def running(self, guild_id: int, name: str | None = None) -> Tournament:
        """The open tournament of the server named ``name`` (or its only one)."""
        mine = [t for t in self.open.values() if t.guild_id == guild_id]
        for u in self.unreadable.values():
            named = name_key(name) == name_key(u.name) if name else not mine
            if u.guild_id == guild_id and named:  # named, or the server's only one
                raise Refusal(
                    _(
                        "{name} could not be loaded at my last start (the error is in my "
                        "log), so it is stopped: ask the bot's operator.",
                        name=u.name,
                    )
                )
        if name:
            mine = [t for t in mine if name_key(t.name) == name_key(name)]
            if not mine:
                raise Refusal(
                    _(
                        "No tournament named {name} is running in this server.",
                        name=md_name(name, limit=NAME_MAX),
                    )
                )
        if not mine:
            raise Refusal(
                _("No tournament is running in this server: `/tournament new` opens one.")
            )
        if len(mine) > 1:
            names = ", ".join(t.md_name for t in mine)
            raise Refusal(
                _("Several tournaments are running ({names}): name one with `name`.", names=names)
            )
        return mine[0]

    def get(self, tournament_id: int) -> Tournament:
        t = self.open.get(tournament_id)
        if t is None:
            raise Refusal(_("That tournament is over."))
        return t

    async def named(self, guild_id: int, name: str | None) -> Tournament:
        """The server's tournament named ``name``, running or over (its results), or without
        a name the one running."""
        t = await self.store.find(guild_id, name) if name else self.running(guild_id)
        if t is None:
            raise Refusal(
                _(
                    "There is no tournament named {name} in this server.",
                    name=md_name(name or "", limit=NAME_MAX),
                )
            )
        return t

    async def of_server(self, guild_id: int, tournament_id: int) -> Tournament:
        """A tournament of this server, running or over (its results' files)."""
        t = await self.store.load(self.db, tournament_id)
        if t is None or t.guild_id != guild_id:
            raise Refusal(_("That tournament is gone."))
        return t

    def of_table(self, table_id: str) -> Tournament | None:
        for t in self.open.values():
            if t.game_of_table(table_id) is not None:
                return t
        return None
