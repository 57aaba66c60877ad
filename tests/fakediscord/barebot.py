"""The smallest useful discord.py bot: ``/ping`` and a persistent "bare:ack" button.

Run: ``DISCORD_TOKEN=... DISCORD_API_BASE=http://127.0.0.1:PORT/api/v10 \
python -m tests.fakediscord.barebot``. It is the latency floor for benchmarks, so it stays
trivial. ``BAREBOT_ACK=edit`` makes the button edit its message instead of only deferring.
"""

from __future__ import annotations

import logging
import os
import sys

import discord
import yarl
from discord import app_commands

log = logging.getLogger("barebot")


def point_at_api(api_base: str | None) -> None:
    """Send REST calls to ``api_base`` (the gateway URL is then learnt from /gateway/bot)."""
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")


async def learn_gateway(client: discord.Client) -> None:
    """discord.Client connects to a hard-coded wss://gateway.discord.gg unless told otherwise;
    ask GET /gateway/bot (as AutoShardedClient does) and make that the default gateway."""
    _, url, _ = await client.http.get_bot_gateway()
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(url)


class AckView(discord.ui.View):
    def __init__(self, mode: str) -> None:
        super().__init__(timeout=None)
        self.mode = mode
        self.count = 0

    @discord.ui.button(label="Ack", custom_id="bare:ack", style=discord.ButtonStyle.primary)
    async def ack(
        self, interaction: discord.Interaction, button: discord.ui.Button[AckView]
    ) -> None:
        if self.mode == "edit":
            self.count += 1
            await interaction.response.edit_message(content=f"ack {self.count}")
        else:
            await interaction.response.defer()


class BareBot(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents(guilds=True), guild_ready_timeout=0.1)
        self.tree = app_commands.CommandTree(self)
        self.view: AckView | None = None

        @self.tree.command(name="ping", description="Answer pong")
        async def ping(interaction: discord.Interaction) -> None:
            assert self.view is not None
            await interaction.response.send_message("pong", view=self.view)

    async def setup_hook(self) -> None:
        await learn_gateway(self)
        # Views must be created inside the running loop: one built in __init__ (before
        # Client.run starts the loop) silently never dispatches its callbacks.
        self.view = AckView(os.environ.get("BAREBOT_ACK", "defer"))
        self.add_view(self.view)
        synced = await self.tree.sync()
        print(f"BAREBOT SYNCED {len(synced)}", flush=True)

    async def on_ready(self) -> None:
        print(f"BAREBOT READY {self.user}", flush=True)


def main() -> int:
    token = os.environ.get("DISCORD_TOKEN", "")
    point_at_api(os.environ.get("DISCORD_API_BASE"))
    try:
        BareBot().run(token, log_level=getattr(logging, os.environ.get("BAREBOT_LOG", "WARNING")))
    except discord.LoginFailure as exc:
        print(f"BAREBOT LOGIN FAILED: {exc}", file=sys.stderr, flush=True)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
