"""The smallest useful discord.py bot: ``/ping`` and a persistent "bare:ack" button.

Run: ``DISCORD_TOKEN=... DISCORD_API_BASE=http://127.0.0.1:PORT/api/v10 \
python -m tests.fakediscord.barebot``. It is the latency floor for benchmarks, so it stays
trivial. ``BAREBOT_ACK=edit`` makes the button edit its message instead of only deferring.

``BAREBOT_ACK=hand`` is the floor of the load benchmark's saturation run (benchmarks/load.py):
``/ping`` answers privately with a fixed message shaped like a player's hand (an embed, thirteen
card buttons and **Refresh**), and a click on any of its buttons is answered the way the real
bot answers a card — ``edit_message`` with an embed and the buttons — with that same fixed
message: the interactions the real bot gets, answered with no work of the bot's own.

``BAREBOT_LIVE`` adds, after each answer, the one request more that a bot with live hands must
make for every click (the next player's hand shown their buttons): ``webhook`` makes it the way
the real bot makes its live edits (``PATCH /webhooks/{app}/{token}/messages/{id}`` with the
message as JSON, through discord.py's webhook adapter, no objects built for the answer),
``raw`` makes both the answer and the live edit straight through the bot's aiohttp session
with their JSON encoded once (no discord.py layer for either).  The live edit is of the clicked
message again (``@original``): the same request, to a message the click's token may edit.
These are the floors of a bot that keeps hands live.
"""

from __future__ import annotations

import json
import logging
import os
import sys

import discord
import yarl
from discord import app_commands
from discord.webhook.async_ import async_context

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


CARDS = ("A♠", "K♠", "9♠", "4♠", "Q♥", "J♥", "7♥", "K♦", "10♦", "3♦", "A♣", "8♣", "2♣")


def hand_embed() -> discord.Embed:
    """A fixed embed of a hand message's size (title, the cards, a *Now* field, a footer)."""
    e = discord.Embed(title="Your hand — North", colour=discord.Colour(0x2E7D32))
    e.description = "# " + " ".join(CARDS)
    e.add_field(
        name="Now",
        value="**Your turn to play** a card.\nBids: N 3 · E 4 · S 2 · W 3\nTrick: E 7♦  S Q♦",
        inline=False,
    )
    e.set_footer(text="Hand 1 · your team 0 · them 0 · you won 2 tricks")
    return e


class HandView(discord.ui.View):
    """Thirteen card buttons (five a row) and Refresh, each answered with the same message."""

    def __init__(self, live: str = "") -> None:
        super().__init__(timeout=None)
        self.embed = hand_embed()
        self.live = live
        for i, card in enumerate(CARDS):
            red = card[-1] in "♥♦"
            style = discord.ButtonStyle.danger if red else discord.ButtonStyle.secondary
            self.add_item(self._button(f"bare:card:{i}", card, style, i // 5))
        self.add_item(self._button("bare:refresh", "Refresh", discord.ButtonStyle.secondary, 4))

    def _button(
        self, custom_id: str, label: str, style: discord.ButtonStyle, row: int
    ) -> discord.ui.Button[HandView]:
        button: discord.ui.Button[HandView] = discord.ui.Button(
            label=label, custom_id=custom_id, style=style, row=row
        )
        button.callback = self._answer  # type: ignore[method-assign]
        return button

    async def _answer(self, interaction: discord.Interaction) -> None:
        if self.live == "raw":
            await self._answer_raw(interaction)
        else:
            await interaction.response.edit_message(embed=self.embed, view=self)
        if self.live == "webhook":
            await self._live_webhook(interaction)
        elif self.live == "raw":
            await self._live_raw(interaction)

    def payload(self) -> dict[str, object]:
        return {"embeds": [self.embed.to_dict()], "components": self.to_components()}

    async def _live_webhook(self, interaction: discord.Interaction) -> None:
        hook = interaction.followup
        assert hook.token is not None
        await async_context.get().edit_webhook_message(
            hook.id,
            hook.token,
            "@original",
            session=hook.session,
            payload=self.payload(),
            with_components=True,
        )

    def body(self, answer: bool) -> bytes:
        """The message as JSON, encoded once (``answer``: as an UPDATE_MESSAGE callback)."""
        key = "_answer_body" if answer else "_body"
        if not hasattr(self, key):
            data: object = {"type": 7, "data": self.payload()} if answer else self.payload()
            setattr(self, key, json.dumps(data).encode())
        body: bytes = getattr(self, key)
        return body

    async def _answer_raw(self, interaction: discord.Interaction) -> None:
        url = (
            f"{discord.http.Route.BASE}/interactions/{interaction.id}/{interaction.token}/callback"
        )
        async with interaction.followup.session.post(
            url, data=self.body(True), headers={"Content-Type": "application/json"}
        ) as r:
            await r.read()

    async def _live_raw(self, interaction: discord.Interaction) -> None:
        hook = interaction.followup
        url = f"{discord.http.Route.BASE}/webhooks/{hook.id}/{hook.token}/messages/@original"
        async with hook.session.patch(
            url,
            data=self.body(False),
            params={"with_components": "true"},
            headers={"Content-Type": "application/json"},
        ) as r:
            await r.read()


class BareBot(discord.Client):
    def __init__(self) -> None:
        super().__init__(intents=discord.Intents(guilds=True), guild_ready_timeout=0.1)
        self.tree = app_commands.CommandTree(self)
        self.view: AckView | None = None
        self.hand: HandView | None = None

        @self.tree.command(name="ping", description="Answer pong")
        async def ping(interaction: discord.Interaction) -> None:
            if self.hand is not None:
                await interaction.response.send_message(
                    embed=self.hand.embed, view=self.hand, ephemeral=True
                )
                return
            assert self.view is not None
            await interaction.response.send_message("pong", view=self.view)

    async def setup_hook(self) -> None:
        await learn_gateway(self)
        # Views must be created inside the running loop: one built in __init__ (before
        # Client.run starts the loop) silently never dispatches its callbacks.
        mode = os.environ.get("BAREBOT_ACK", "defer")
        self.view = AckView(mode)
        self.add_view(self.view)
        if mode == "hand":
            self.hand = HandView(os.environ.get("BAREBOT_LIVE", ""))
            self.add_view(self.hand)
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
