"""Spectators' buttons (**Watch** on the table message; **Refresh** and **Stop watching** on a
spectator's own view) and the **Hint** button of a practice table's hands.  ``/spades watch``
is in :mod:`cogs.spades` with the other ``/spades`` commands."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from discord.ext import commands

from bot import cooldowns
from bot.ai.hints import Hint
from bot.bounded import Recent
from bot.engine import Seat
from bot.errors import StaleButton
from bot.i18n import _
from bot.tables.hints import HintRequest
from bot.ui.hand.hint_text import hint_line
from bot.ui.hand.live_editor import answer_on_hand
from bot.ui.table.components import ComponentRef, HintVerb, WatchVerb
from cogs.common import Interaction, take_cooldowns

if TYPE_CHECKING:
    from bot.app import SpadesBot

log = logging.getLogger(__name__)
HINTS_KEPT = 1_000


class WatchCog(commands.Cog):
    def __init__(self, bot: SpadesBot) -> None:
        self.bot = bot
        self.tables = bot.tables
        bot.clicks.on(WatchVerb, self.on_watch)
        bot.clicks.on(HintVerb, self.on_hint)
        # The last hints worked out or under way, by position: one search per position, which
        # every click there shares (a click while it runs waits for the same result).
        self._hints: Recent[tuple[str, int, Seat], asyncio.Future[Hint]] = Recent(HINTS_KEPT)

    async def on_watch(
        self, interaction: Interaction, ref: ComponentRef, values: list[str]
    ) -> None:
        """Watch (a new view), Refresh (the view anew, re-armed for 15 minutes), Stop watching.
        Refusals are answered by :func:`bot.ui.discord.failures.answer_error`."""
        uid = interaction.user.id
        if ref.verb is WatchVerb.UNWATCH:
            with contextlib.suppress(StaleButton):  # an ended table has no spectators left
                self.tables.spectators.stop(self.tables.registry.get(ref.table_id), uid)
            await interaction.response.edit_message(
                content=_("You stopped watching this table."), embed=None, view=None, attachments=[]
            )
            return
        table = self.tables.registry.get(ref.table_id)
        edit = ref.verb is WatchVerb.REWATCH
        if not edit:  # a new view (Refresh re-arms the one the member has)
            take_cooldowns(interaction, cooldowns.watch(uid))
        await self.bot.spectator_views.answer(interaction, self.tables.spectators, table, edit=edit)

    async def on_hint(self, interaction: Interaction, ref: ComponentRef, values: list[str]) -> None:
        """**Hint** on a player's hand: the hard player's choice for them now, shown in the
        hand message (which then follows the game as before)."""
        uid = interaction.user.id
        table = self.tables.registry.get(ref.table_id)
        request = self.tables.hints.request(table, uid, ref.seat, ref.hand)

        async def act() -> str:
            hint = await self._hint(interaction, table.id, request)
            return hint_line(hint, await self.tables.hints.taken(table, request))

        # The game moved on meanwhile (or the member's hint limit is spent): a warning.
        live = self.tables.live
        await answer_on_hand(interaction, live, table, request.seat, act, stale_is_news=False)

    async def _hint(self, interaction: Interaction, table_id: str, request: HintRequest) -> Hint:
        """The position's hint: worked out once (counted against the member's hint limit,
        :mod:`bot.cooldowns`), shared by every click there, the ones while it runs too."""
        key = (table_id, request.seq, request.seat)
        search = self._hints.get(key)
        if search is None or (search.done() and (search.cancelled() or search.exception())):
            take_cooldowns(interaction, cooldowns.hint(interaction.user.id))
            log.info("working out a hint at table %s (move %s, %s)", *key)
            search = asyncio.ensure_future(self.bot.ai.hint(request.view, request.seed))
            search.add_done_callback(_seen)
            self._hints[key] = search
        return await asyncio.shield(search)  # a click that goes away leaves it to the others


def _seen(search: asyncio.Future[Hint]) -> None:
    """A failed search's error is read by the clicks that wait for it; this marks it read when
    they have all gone (asyncio would log it as never retrieved)."""
    if not search.cancelled():
        search.exception()


async def setup(bot: SpadesBot) -> None:
    await bot.add_cog(WatchCog(bot))
