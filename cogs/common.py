"""Small helpers shared by the cogs: who is asking, where, and how to answer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot import timely
from bot.cooldowns import Limit
from bot.errors import Refusal
from bot.names import clean_name

if TYPE_CHECKING:
    from bot.app import SpadesBot

Interaction = discord.Interaction[Any]


def client(interaction: Interaction) -> SpadesBot:
    return interaction.client  # type: ignore[no-any-return]


def guild_id(interaction: Interaction) -> int:
    """The server the interaction came from; commands in DMs are refused."""
    if interaction.guild_id is None:
        raise Refusal("Spades is played in a server channel, not in direct messages.")
    return interaction.guild_id


def channel_id(interaction: Interaction) -> int:
    if interaction.channel_id is None:
        raise Refusal("I cannot tell which channel this is.")
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
        missing.append("Send Messages in Threads")
    if not in_thread and not thread and not perms.send_messages:
        # with ``thread`` the table is posted in the new thread, not in this channel
        missing.append("Send Messages")
    if not perms.embed_links:
        missing.append("Embed Links")
    if thread and not perms.create_public_threads:
        missing.append("Create Public Threads")
    if thread and not perms.send_messages_in_threads and "Send Messages in Threads" not in missing:
        missing.append("Send Messages in Threads")
    if not perms.view_channel:
        missing.append("View Channel")
    if missing:
        raise Refusal(
            "I need these permissions in this channel to run a table: "
            + ", ".join(missing)
            + ". Ask a server admin to grant them."
        )


async def reply(interaction: Interaction, text: str, **kwargs: Any) -> None:
    """Answer ephemerally, whether or not the interaction was already answered (or deferred
    because the answer was slow)."""
    await timely.answer(interaction, text, **kwargs)
