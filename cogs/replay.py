"""Shared replays: **Share as replay** on a player's review posts the finished game in a thread
of the channel, stepped trick by trick with **Previous** / **Next** for whoever posted it."""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

from bot import cooldowns
from bot.errors import Refusal
from bot.review.decisions import GameReplay
from bot.review.service import ReviewService, replay_or_none
from bot.store.league import LeagueStore
from bot.store.reviews import ReviewStore
from bot.ui.components import set_handler
from bot.ui.replay_components import SHARE, ReplayRef
from bot.ui.replay_render import step_payload
from cogs.common import Interaction, guild_id, take_cooldowns

log = logging.getLogger(__name__)


class ReplayCog(commands.Cog):
    def __init__(
        self, bot: commands.Bot, reviews: ReviewService, store: ReviewStore, league: LeagueStore
    ) -> None:
        self.bot = bot
        self.reviews = reviews
        self.store = store
        self.league = league
        set_handler(self.on_component, "replay")

    async def on_component(
        self, interaction: Interaction, ref: ReplayRef, values: list[str]
    ) -> None:
        """Share a replay, or turn its step.  Refusals are answered by
        :func:`bot.ui.components.dispatch`."""
        gid = guild_id(interaction)
        if ref.step != SHARE and interaction.user.id != ref.poster:
            raise Refusal(
                f"Only <@{ref.poster}>, who posted this replay, turns its steps: press "
                "**Review** on the game (or find it in `/history`) to step through it yourself."
            )
        replay = await self._game(gid, ref.game_id)
        analysis = await self.reviews.stored(ref.game_id)  # the review's opinions, if any yet
        if ref.step != SHARE:
            payload = step_payload(replay, analysis, ref.game_id, ref.poster, ref.step)
            await interaction.response.edit_message(**payload)
            return
        seats = await self.store.seats_of_game(gid, ref.game_id)
        if interaction.user.id not in seats.values():
            raise Refusal("Only the players of that game can post its replay.")
        channel = self._channel(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        thread = await self._thread(interaction, channel, ref.game_id)
        payload = step_payload(replay, analysis, ref.game_id, interaction.user.id, 0)
        try:
            message = await thread.send(**payload)
        except discord.Forbidden:
            raise Refusal("I am not allowed to post in that thread.") from None
        await interaction.followup.send(
            f"Your replay is posted: {message.jump_url} — only you turn its steps.",
            ephemeral=True,
        )

    async def _game(self, gid: int, game_id: int) -> GameReplay:
        doc = await self.league.history.game_record(gid, game_id)
        if doc is None:
            raise Refusal("That game is not on this server.")
        replay = replay_or_none(doc)
        if replay is None:
            raise Refusal("That game's record cannot be replayed.")
        return replay

    @staticmethod
    def _channel(interaction: Interaction) -> discord.Thread | discord.TextChannel:
        """Where the replay goes (this thread, or a new thread of this text channel), once
        the bot may post there; refused with what is missing."""
        channel = interaction.channel
        perms = interaction.app_permissions
        if isinstance(channel, discord.Thread):
            if not perms.send_messages_in_threads:
                raise Refusal("I need Send Messages in Threads here to post a replay.")
            return channel
        if not isinstance(channel, discord.TextChannel):
            raise Refusal("Replays are posted in a thread of a text channel: share it from one.")
        if not (perms.create_public_threads and perms.send_messages_in_threads):
            raise Refusal(
                "I need Create Public Threads and Send Messages in Threads here to post a "
                "replay. Ask a server admin to grant them."
            )
        take_cooldowns(interaction, cooldowns.thread(channel.guild.id, interaction.user.id))
        return channel

    @staticmethod
    async def _thread(
        interaction: Interaction, channel: discord.Thread | discord.TextChannel, game_id: int
    ) -> discord.Thread:
        if isinstance(channel, discord.Thread):
            return channel
        try:
            return await channel.create_thread(
                name=f"Replay of game #{game_id}",
                type=discord.ChannelType.public_thread,
                auto_archive_duration=1440,  # a day without messages
            )
        except discord.Forbidden:
            raise Refusal("I am not allowed to create threads here.") from None


async def setup(bot: commands.Bot) -> None:
    reviews: ReviewService = bot.reviews  # type: ignore[attr-defined]
    store: ReviewStore = bot.review_store  # type: ignore[attr-defined]
    league: LeagueStore = bot.league  # type: ignore[attr-defined]
    await bot.add_cog(ReplayCog(bot, reviews, store, league))
