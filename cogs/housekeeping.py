"""Tables whose place is gone: a deleted channel or thread, or a server the bot was removed
from.  Their tables are closed (unrated) with their timers, and their players are free again;
the same is checked once at start-up for what happened while the bot was away."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.tables.state import Table

if TYPE_CHECKING:
    from bot.app import SpadesBot

log = logging.getLogger(__name__)


class HousekeepingCog(commands.Cog):
    def __init__(self, bot: SpadesBot) -> None:
        self.bot = bot
        self.tables = bot.tables
        self._swept = False

    async def _close(self, tables: list[Table], why: str) -> None:
        for table in tables:
            await self.tables.endings.close_orphan(table, why)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        tables = self.tables.registry.in_guild(guild.id)
        await self._close(
            [t for t in tables if not t.place.by_interaction], "the bot left the server"
        )

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        here = self.tables.registry.find_in_channel(channel.id)
        await self._close([here] if here else [], "its channel was deleted")
        # Threads go with their channel; Discord does not announce each of them.
        await self._close(
            [
                t
                for t in self.tables.registry.in_guild(channel.guild.id)
                if not t.place.by_interaction and not await self._exists(t)
            ],
            "its thread went with its channel",
        )

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        here = self.tables.registry.find_in_channel(payload.thread_id)
        await self._close([here] if here else [], "its thread was deleted")

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Once per start: close the tables of servers left and channels deleted meanwhile."""
        if self._swept:
            return
        self._swept = True
        present = {g.id for g in self.bot.guilds}
        registry = self.tables.registry
        for listed in registry.listed():  # some still being restored: brought back to close
            if listed.place.by_interaction:
                continue  # a chat the bot is no member of: nothing to check (issue 27)
            if listed.guild_id not in present:
                gone = "the bot is no longer in its server"
            elif not await self._exists(listed):
                gone = "its channel or thread no longer exists"
            else:
                continue
            table = registry.ready(listed)
            if table is not None:
                await self._close([table], gone)

    async def _exists(self, table: Table) -> bool:
        """Whether the table's channel or thread still exists (asking Discord when it is not
        in the cache, as archived threads are not)."""
        guild = self.bot.get_guild(table.guild_id)
        if guild is not None and guild.get_channel_or_thread(table.channel_id) is not None:
            return True
        try:
            await self.bot.fetch_channel(table.channel_id)
        except discord.NotFound:
            return False
        except discord.HTTPException as e:  # no access, or Discord trouble: leave it be
            log.info("could not look up channel %s of table %s: %s", table.channel_id, table.id, e)
        return True


async def setup(bot: SpadesBot) -> None:
    await bot.add_cog(HousekeepingCog(bot))
