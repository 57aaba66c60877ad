"""Shared replays: **Share as replay** on a player's review posts the finished game in a thread
of the channel, stepped trick by trick with **Previous** / **Next** for whoever posted it."""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot import cooldowns
from bot.errors import Refusal
from bot.i18n import SERVER_LANGUAGES, _, use
from bot.review.access import Purpose, check_poster, open_game
from bot.ui.review.replay_components import REPLAY_ROUTE, SHARE, ReplayRef
from bot.ui.review.replay_render import step_payload
from cogs.common import Interaction, league_scope, public_thread, take_cooldowns

if TYPE_CHECKING:
    from bot.app import SpadesBot

log = logging.getLogger(__name__)


def _public(interaction: Interaction) -> contextlib.AbstractContextManager[None]:
    """A replay is posted in a thread for everyone: in the language of the server's messages."""
    return use(SERVER_LANGUAGES.of_chat(interaction.guild_id, interaction.channel_id or 0))


class ReplayCog(commands.Cog):
    def __init__(self, bot: SpadesBot) -> None:
        self.bot = bot
        self.reviews = bot.reviews
        self.store = bot.review_store
        self.league = bot.league
        bot.clicks.on([REPLAY_ROUTE], self.on_component)

    async def on_component(
        self, interaction: Interaction, ref: ReplayRef, values: list[str]
    ) -> None:
        """Share a replay, or turn its step.  Refusals are answered by
        :func:`bot.ui.discord.failures.answer_error`."""
        gid = league_scope(interaction).key
        uid, sharing = interaction.user.id, ref.step == SHARE
        if not sharing:
            check_poster(ref.poster, uid)
        purpose = Purpose.SHARE if sharing else Purpose.STEP
        game = await open_game(self.league.history, self.store, gid, ref.game_id, uid, purpose)
        replay = game.replay
        assert replay is not None  # a replay's game replays
        analysis = await self.reviews.stored(ref.game_id)  # the review's opinions, if any yet
        if not sharing:
            with _public(interaction):
                payload = step_payload(replay, analysis, ref.game_id, ref.poster, ref.step)
            await interaction.response.edit_message(**payload)
            return
        channel = self._channel(interaction)
        # A post for everyone: counted per member and server; a new thread counts as one too.
        uses = cooldowns.replay(channel.guild.id, interaction.user.id)
        if not isinstance(channel, discord.Thread):
            uses += cooldowns.thread(channel.guild.id, interaction.user.id)
        take_cooldowns(interaction, uses)
        await interaction.response.defer(ephemeral=True, thinking=True)
        thread = await self._thread(interaction, channel, ref.game_id)
        with _public(interaction):
            payload = step_payload(replay, analysis, ref.game_id, interaction.user.id, 0)
        try:
            message = await thread.send(**payload)
        except discord.Forbidden:
            raise Refusal(_("I am not allowed to post in that thread.")) from None
        await interaction.followup.send(
            _("Your replay is posted: {link} — only you turn its steps.", link=message.jump_url),
            ephemeral=True,
        )

    @staticmethod
    def _channel(interaction: Interaction) -> discord.Thread | discord.TextChannel:
        """Where the replay goes (this thread, or a new thread of this text channel), once
        the bot may post there; refused with what is missing."""
        channel = interaction.channel
        perms = interaction.app_permissions
        if isinstance(channel, discord.Thread):
            if not perms.send_messages_in_threads:
                raise Refusal(_("I need Send Messages in Threads here to post a replay."))
            return channel
        if not isinstance(channel, discord.TextChannel):
            raise Refusal(_("Replays are posted in a thread of a text channel: share it from one."))
        if not (perms.create_public_threads and perms.send_messages_in_threads):
            raise Refusal(
                _(
                    "I need Create Public Threads and Send Messages in Threads here to post a "
                    "replay. Ask a server admin to grant them."
                )
            )
        return channel

    @staticmethod
    async def _thread(
        interaction: Interaction, channel: discord.Thread | discord.TextChannel, game_id: int
    ) -> discord.Thread:
        if isinstance(channel, discord.Thread):
            return channel
        with _public(interaction):  # a thread for everyone: named in the server's language
            name = _("Replay of game #{game}", game=game_id)
        return await public_thread(channel, name)


async def setup(bot: SpadesBot) -> None:
    await bot.add_cog(ReplayCog(bot))
