"""Small helpers shared by the cogs: who is asking, where, and how to answer."""

from __future__ import annotations

from typing import Any, TypeVar

import discord
from discord import app_commands

from bot import timely
from bot.app import SpadesBot
from bot.cooldowns import Limit
from bot.errors import Refusal
from bot.i18n import N_, _
from bot.league.scope import GROUP, NONE, SERVER, LeagueScope
from bot.names import clean_name
from bot.tables.state import Place

Interaction = discord.Interaction[Any]


def client(interaction: Interaction) -> SpadesBot:
    """The bot an interaction reached (the cogs run on no other)."""
    bot = interaction.client
    assert isinstance(bot, SpadesBot)
    return bot


# Where commands work (issue 27).  Play commands: installed to a server (as before), or to a
# member's account — then also in DMs with the bot, group DMs, and servers that have not added
# it.  The servers' own commands (settings, seasons): a server that added the bot only.
ANYWHERE_CONTEXTS = app_commands.AppCommandContext(
    guild=True, dm_channel=True, private_channel=True
)
ANYWHERE_INSTALLS = app_commands.AppInstallationType(guild=True, user=True)
SERVER_CONTEXTS = app_commands.AppCommandContext(guild=True)
SERVER_INSTALLS = app_commands.AppInstallationType(guild=True)


T = TypeVar("T")


def anywhere(func: T) -> T:
    """A play command: usable wherever the app is installed (see above)."""
    func = app_commands.allowed_installs(guilds=True, users=True)(func)
    return app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)(func)


NO_SERVER = 0  # the "server" of tables in DMs and group DMs (one table per member there)
OUTSIDE_SERVERS = N_(
    "This command works only in a server that has added the bot (it changes the server's "
    "settings); here the app is installed to your account."
)


def guild_id(interaction: Interaction) -> int:
    """The server the interaction came from, or :data:`NO_SERVER` in a DM or group DM (the
    app installed to a member's account: docs/user-installs.md)."""
    return interaction.guild_id if interaction.guild_id is not None else NO_SERVER


def server_id(interaction: Interaction) -> int:
    """The server, for what only a server that added the bot has (its settings, seasons):
    refused with one line anywhere else."""
    if interaction.guild_id is None or not interaction.is_guild_integration():
        raise Refusal(_(OUTSIDE_SERVERS))
    return interaction.guild_id


def in_group_dm(interaction: Interaction) -> bool:
    return bool(interaction.context.private_channel) or isinstance(
        interaction.channel, discord.GroupChannel
    )


def place_of(interaction: Interaction) -> Place:
    """Where a table opened by ``interaction`` lives: a server that added the bot posts
    channel messages; anywhere else (a group DM, a DM, a server that has not added the bot)
    the table is the answer to an interaction (:class:`bot.tables.state.Place`)."""
    if interaction.guild_id is not None:
        if interaction.is_guild_integration():
            return Place("channel", SERVER)
        return Place("interaction", NONE)
    return Place("interaction", GROUP if in_group_dm(interaction) else NONE)


def find_league_scope(interaction: Interaction) -> LeagueScope | None:
    """The league of where ``interaction`` came from: the server's, or the group DM's;
    ``None`` where there is none."""
    if interaction.guild_id is not None:
        if interaction.is_guild_integration():
            return LeagueScope(SERVER, interaction.guild_id)
        return None
    if in_group_dm(interaction):
        return LeagueScope(GROUP, channel_id(interaction))
    return None


def league_scope(interaction: Interaction) -> LeagueScope:
    """:func:`find_league_scope`, refused (one line) where there is none."""
    scope = find_league_scope(interaction)
    if scope is not None:
        return scope
    if interaction.guild_id is not None:
        raise Refusal(
            _(
                "This server has not added the bot, so it has no league: games played here "
                "count in no league. Play in a group DM for a league among friends."
            )
        )
    raise Refusal(
        _("There is no league in a DM with me: a league belongs to a server or to a group DM.")
    )


def channel_id(interaction: Interaction) -> int:
    if interaction.channel_id is None:
        raise Refusal(_("I cannot tell which channel this is."))
    return interaction.channel_id


def display_name(interaction: Interaction) -> str:
    """The member's name as the bot keeps it: one line, without control or bidi characters
    (:func:`bot.names.clean_name`); escaped where it reaches markdown."""
    user = interaction.user
    return clean_name(getattr(user, "display_name", None) or "", fallback=user.name)


def take_cooldowns(interaction: Interaction, uses: tuple[tuple[Limit, Any], ...]) -> None:
    """Count one use of each limit (:mod:`bot.cooldowns`) or refuse, naming when to try
    again.  The time is the interaction's own, on Discord's clock."""
    client(interaction).cooldowns.take(*uses, now=interaction.created_at.timestamp())


def is_admin(interaction: Interaction) -> bool:
    perms = getattr(interaction, "permissions", None)
    return bool(perms and (perms.manage_guild or perms.administrator))


def require_channel_permissions(interaction: Interaction, *, thread: bool = False) -> None:
    """Refuse clearly when the bot cannot post the table in this channel."""
    perms = interaction.app_permissions
    missing = []
    in_thread = isinstance(interaction.channel, discord.Thread)
    if in_thread and not perms.send_messages_in_threads:
        missing.append(N_("Send Messages in Threads"))
    if not in_thread and not thread and not perms.send_messages:
        # with ``thread`` the table is posted in the new thread, not in this channel
        missing.append(N_("Send Messages"))
    if not perms.embed_links:
        missing.append(N_("Embed Links"))
    if thread and not perms.create_public_threads:
        missing.append(N_("Create Public Threads"))
    if thread and not perms.send_messages_in_threads and "Send Messages in Threads" not in missing:
        missing.append(N_("Send Messages in Threads"))
    if not perms.view_channel:
        missing.append(N_("View Channel"))
    if missing:  # Discord's own names of the permissions, as its settings show them (translated)
        raise Refusal(
            _(
                "I need these permissions in this channel to run a table: {permissions}. "
                "Ask a server admin to grant them.",
                permissions=", ".join(_(name) for name in missing),
            )
        )


async def public_thread(channel: discord.TextChannel, name: str) -> discord.Thread:
    """A new public thread of ``channel`` (archived after a day without messages), for a
    table or a shared replay; refused where the bot may not create one."""
    try:
        return await channel.create_thread(
            name=name[:100], type=discord.ChannelType.public_thread, auto_archive_duration=1440
        )
    except discord.Forbidden:
        raise Refusal(_("I am not allowed to create threads here.")) from None


async def reply(interaction: Interaction, text: str, **kwargs: Any) -> None:
    """Answer ephemerally, whether or not the interaction was already answered (or deferred
    because the answer was slow)."""
    await timely.answer(interaction, text, **kwargs)
