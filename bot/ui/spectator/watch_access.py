"""Who may watch which table: a spectator's view shows what the table's channel shows, so a
member watches only a table whose channel they can read.

* **The channel the interaction comes from**: Discord sends the member's permissions there with
  the interaction (``interaction.permissions``, overwrites included); in a DM or a group DM the
  member is in the chat.
* **Another channel of a server that added the bot**: worked out as Discord does, from what the
  bot knows of the server — its roles, the channel's overwrites (kept current by the gateway)
  and the member's roles, which come with the interaction — by discord.py's
  ``channel.permissions_for(member)``; a thread takes its parent's.  A **private thread** is
  read only by its members, whom the bot is not told of (that needs the privileged members
  intent, or a request to Discord per thread): its table is watched from inside the thread —
  except a tournament's table (a duplicate round's tables play in private threads the bot
  makes, to keep the round's boards from its *entrants*, docs/tournaments.md): there the
  tournament's channel, the thread's parent, is what a spectator must be able to read, and the
  organiser's ``spectators`` setting and the tournament's rules decide the rest
  (:meth:`bot.tables.spectators.Spectators.check`).
  A channel the bot does not know (not cached, or deleted) is not readable.
* **Outside servers** — DMs, group DMs, a server that has not added the bot, where every table
  of a member's chats shares one pseudo-server — the bot knows no channel but the one the
  interaction comes from: only that chat's table.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.tables.registry import TableRegistry
from bot.tables.state import Table

Interaction = discord.Interaction[Any]


def can_read(interaction: Interaction, table: Table) -> bool:
    """Whether the member behind ``interaction`` can read the channel of ``table`` (see the
    module's docstring)."""
    channel_id = table.channel_id
    if interaction.channel_id == channel_id:
        return interaction.guild_id is None or interaction.permissions.view_channel
    guild = interaction.guild if interaction.guild_id is not None else None
    member = interaction.user
    if guild is None or not interaction.is_guild_integration():
        return False
    if not isinstance(member, discord.Member):
        return False
    channel = guild.get_channel_or_thread(channel_id)
    if channel is None or isinstance(channel, discord.CategoryChannel | discord.ForumChannel):
        return False
    if isinstance(channel, discord.Thread) and channel.is_private():
        if not table.arranged or channel.parent is None:
            return False
        channel = channel.parent  # a tournament's table: its tournament's channel
    try:
        return channel.permissions_for(member).view_channel
    except discord.ClientException:  # a thread whose parent channel is not known
        return False


def watchable(interaction: Interaction, registry: TableRegistry) -> list[Table]:
    """The tables the member may pick to watch: of this server, those whose channel they can
    read; outside servers, this chat's alone."""
    if interaction.guild_id is None:
        here = registry.find_in_channel(interaction.channel_id or 0)
        return [here] if here is not None else []
    tables = registry.in_guild(interaction.guild_id)
    return [t for t in tables if can_read(interaction, t)]
