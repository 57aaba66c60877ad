"""Spectators' buttons (**Watch** on the table message; **Refresh** and **Stop watching** on a
spectator's own view) and the **Hint** button of a practice table's hands.  ``/spades watch``
is in :mod:`cogs.spades` with the other ``/spades`` commands."""

from __future__ import annotations

import contextlib
import logging
from collections import OrderedDict

from discord.ext import commands

from bot.ai.hints import Hint
from bot.ai.worker import AIPool
from bot.engine import Seat
from bot.errors import NotYourButtons, Refusal, StaleButton
from bot.tables.hints import HintRequest
from bot.tables.live import live_key
from bot.ui.components import ComponentRef, set_handler
from bot.ui.hand import hand_payload
from bot.ui.hint_text import hint_line
from bot.ui.live_editor import hand_message
from cogs.common import Interaction, client, guild_id

log = logging.getLogger(__name__)
HINTS_KEPT = 1_000


class WatchCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        set_handler(self.on_watch, "watch")
        set_handler(self.on_hint, "hint")
        # The last hints worked out, by position: the same position is not searched twice.
        self._hints: OrderedDict[tuple[str, int, Seat], Hint] = OrderedDict()

    async def on_watch(
        self, interaction: Interaction, ref: ComponentRef, values: list[str]
    ) -> None:
        """Watch (a new view), Refresh (the view anew, re-armed for 15 minutes), Stop watching.
        Refusals are answered by :func:`bot.ui.components.dispatch`."""
        guild_id(interaction)
        bot = client(interaction)
        uid = interaction.user.id
        if ref.verb == "unwatch":
            with contextlib.suppress(StaleButton):  # an ended table has no spectators left
                bot.tables.spectators.stop(bot.tables.registry.get(ref.table_id), uid)
            await interaction.response.edit_message(
                content="You stopped watching this table.", embed=None, view=None, attachments=[]
            )
            return
        table = bot.tables.registry.get(ref.table_id)
        await bot.spectator_views.answer(interaction, table, edit=ref.verb == "rewatch")

    async def on_hint(self, interaction: Interaction, ref: ComponentRef, values: list[str]) -> None:
        """**Hint** on a player's hand: the hard player's choice for them now, shown in the
        hand message (which then follows the game as before)."""
        guild_id(interaction)
        bot = client(interaction)
        uid = interaction.user.id
        table = bot.tables.registry.get(ref.table_id)
        try:
            request = bot.tables.hints.request(table, uid, ref.seat, ref.hand)
        except NotYourButtons as e:
            await interaction.response.send_message(e.reason, ephemeral=True)
            return
        seat = request.seat
        with bot.tables.live.answering(table, seat, uid) as answer:
            try:
                hint = await self._hint(bot.ai, table.id, request)
                taken = await bot.tables.hints.taken(table, request)
                notice = hint_line(hint, taken)
            except (StaleButton, Refusal) as e:
                notice = f"⚠ {e.reason}"
            if table.game is None:
                raise StaleButton("That game is over.")
            payload = hand_payload(table, seat, notice, edit=True)
            key = live_key(table, seat)
            answered = await interaction.response.edit_message(**payload)
            handle = hand_message(interaction, answered, edited=True)
            if handle is not None:
                answer.shown(handle, key)

    async def _hint(self, ai: AIPool, table_id: str, request: HintRequest) -> Hint:
        key = (table_id, request.seq, request.seat)
        hint = self._hints.get(key)
        if hint is None:
            hint = self._hints[key] = await ai.hint(request.view, request.seed)
            while len(self._hints) > HINTS_KEPT:
                self._hints.popitem(last=False)
        return hint


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(WatchCog(bot))
