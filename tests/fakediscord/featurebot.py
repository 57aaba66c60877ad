"""A discord.py bot that touches many API features, run *in-process* to check the fake's fidelity
(ephemeral/deferred responses, follow-ups, edits, threads, files, autocomplete, selects, modals,
member options, DMs, missing permissions)."""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands

PRESETS = [app_commands.Choice(name=n.title(), value=n) for n in ("standard", "jokers")]
BIDS = [str(n) for n in range(14)] + ["nil", "blind nil"]


class HandModal(discord.ui.Modal, title="Name your team"):
    team: discord.ui.TextInput[HandModal] = discord.ui.TextInput(label="Team", custom_id="team")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"team={self.team.value}", ephemeral=True)


class HandView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=60)

    @discord.ui.select(
        custom_id="hand:card",
        options=[discord.SelectOption(label=c, value=c) for c in ("AS", "KH", "2C")],
    )
    async def card(
        self, interaction: discord.Interaction, select: discord.ui.Select[HandView]
    ) -> None:
        await interaction.response.edit_message(content=f"played {select.values[0]}")

    @discord.ui.button(label="Team", custom_id="hand:team")
    async def team(
        self, interaction: discord.Interaction, button: discord.ui.Button[HandView]
    ) -> None:
        await interaction.response.send_modal(HandModal())


class FeatureBot(discord.Client):
    def __init__(self) -> None:
        intents = discord.Intents.default()
        intents.members = True
        super().__init__(intents=intents, guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)
        self.errors: list[str] = []
        self._add_commands()

    async def setup_hook(self) -> None:
        await self.tree.sync()

    def _add_commands(self) -> None:
        tree = self.tree
        table = app_commands.Group(name="table", description="Tables")

        @table.command(name="new", description="New table")
        @app_commands.choices(preset=PRESETS)
        async def new(interaction: discord.Interaction, preset: str, thread: bool = False) -> None:
            await interaction.response.send_message(f"table {preset}")
            if thread:
                msg = await interaction.original_response()
                th = await msg.create_thread(name=f"table-{preset}")
                await th.send(f"welcome to {th.name}")

        @table.command(name="private", description="Private table thread")
        async def private(interaction: discord.Interaction) -> None:
            assert isinstance(interaction.channel, discord.TextChannel)
            th = await interaction.channel.create_thread(name="secret")
            await interaction.response.send_message(f"thread {th.id}", ephemeral=True)

        tree.add_command(table)

        @tree.command(description="Echo")
        async def echo(
            interaction: discord.Interaction, text: str, ephemeral: bool = False
        ) -> None:
            await interaction.response.send_message(text, ephemeral=ephemeral)

        @tree.command(description="Deferred")
        async def slow(interaction: discord.Interaction, ephemeral: bool = False) -> None:
            await interaction.response.defer(thinking=True, ephemeral=ephemeral)
            await asyncio.sleep(0.05)
            await interaction.followup.send("done", ephemeral=ephemeral)
            await interaction.followup.send("extra", ephemeral=ephemeral)

        @tree.command(description="Edits")
        async def edits(interaction: discord.Interaction, times: int = 2) -> None:
            await interaction.response.send_message("v0")
            for i in range(1, times + 1):
                await interaction.edit_original_response(content=f"v{i}")

        @tree.command(description="Bid")
        async def bid(interaction: discord.Interaction, bid: str) -> None:
            await interaction.response.send_message(f"bid {bid}", ephemeral=True)

        @bid.autocomplete("bid")
        async def bid_complete(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=b, value=b) for b in BIDS if b.startswith(current)]

        @tree.command(description="Who")
        async def who(interaction: discord.Interaction, user: discord.Member) -> None:
            manage = user.guild_permissions.manage_guild
            await interaction.response.send_message(f"{user.name} manage={manage}")

        @tree.command(description="Hand")
        async def hand(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("your hand", view=HandView(), ephemeral=True)

        @tree.command(description="Files and embeds")
        async def card(interaction: discord.Interaction) -> None:
            embed = discord.Embed(title="Scores", description="NS 120")
            file = discord.File(io.BytesIO(b"hello"), filename="score.txt")
            await interaction.response.send_message(embed=embed, file=file)

        @tree.command(description="Post an embed in the channel")
        async def post(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True)
            assert isinstance(interaction.channel, discord.abc.Messageable)
            try:
                await interaction.channel.send(embed=discord.Embed(title="board"))
            except discord.Forbidden as exc:
                embed_links = interaction.app_permissions.embed_links
                text = f"forbidden {exc.code} embed_links={embed_links}"
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.followup.send("posted", ephemeral=True)

        @tree.command(description="DM only")
        @app_commands.allowed_contexts(guilds=False, dms=True)
        async def stats(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(f"dm stats for {interaction.user.name}")

        @tree.command(description="Admins")
        @app_commands.default_permissions(manage_guild=True)
        async def admin(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("admin ok", ephemeral=True)
