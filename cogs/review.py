"""**Review** buttons (game-over messages, ``/history``) and the review's paging: a finished
game replayed trick by trick for whoever clicks, with the hard player's opinions.

A review's pages are rendered once for each reader — the record replayed (off the event loop,
:func:`bot.review.access.open_game`) and every page written, in a thread beside the loop — and
kept (:data:`REVIEWS_KEPT`, the most recently read): a page turn shows a kept page."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot import cooldowns
from bot.ai.games import judges
from bot.bounded import Recent
from bot.command_input import whole_number
from bot.engine import Seat
from bot.i18n import _, current
from bot.review.access import Purpose, game_of_table, open_game
from bot.review.analysis import Analysis
from bot.review.decisions import GameReplay
from bot.review.service import ReviewJob
from bot.ui.review import review_render as rr
from bot.ui.review.review_components import REVIEW_ROUTE, ReviewRef
from cogs.common import Interaction, league_scope, take_cooldowns

if TYPE_CHECKING:
    from bot.app import SpadesBot

log = logging.getLogger(__name__)
Editor = Callable[..., Awaitable[Any]]  # edits the reply that shows the review
PROGRESS_EVERY_S = 2.0  # at most one progress edit this often
TOKEN_LIFE_S = 14 * 60  # an interaction token edits for 15 minutes
REVIEWS_KEPT = 128  # rendered reviews kept for their page turns (a long game: ~50 kB)
# A rendered review: (league, game, its reader, the language).  What a reader may see of a
# league's game does not change once it could be reviewed (a duplicate round's boards, once
# shown, stay shown), so a page turn needs no check again.
PagesKey = tuple[int, int, int, str]


@dataclass(frozen=True, slots=True)
class Rendered:
    pages: list[rr.ReviewPage]
    viewer: frozenset[Seat]  # the reader's seats in the game


class ReviewCog(commands.Cog):
    def __init__(self, bot: SpadesBot) -> None:
        self.bot = bot
        self.service = bot.reviews
        self.store = bot.review_store
        self.league = bot.league
        bot.clicks.on([REVIEW_ROUTE], self.on_component)
        self._rendered: Recent[PagesKey, Rendered] = Recent(REVIEWS_KEPT)

    async def on_component(
        self, interaction: Interaction, ref: ReviewRef, values: list[str]
    ) -> None:
        """Open a review (a new ephemeral reply) or turn its page.  Refusals and failures
        are answered by :func:`bot.ui.discord.failures.answer_error`."""
        gid = league_scope(interaction).key
        game_id = ref.game_id
        if game_id is None:
            game_id = await game_of_table(self.store, gid, ref.key)
        page = ref.page
        if page == -1:  # the "Go to…" menu
            page = (whole_number(values[0], 4) if values else None) or 0
        key: PagesKey = (gid, game_id, interaction.user.id, current())
        rendered = self._rendered.get(key)  # a page turn: the pages as rendered
        if rendered is not None:
            await _show(interaction, rendered, game_id, page)
            return
        game = await open_game(
            self.league.history, self.store, gid, game_id, interaction.user.id, Purpose.REVIEW
        )
        doc, replay, viewer = game.doc, game.replay, game.viewer
        assert replay is not None  # a review's game replays
        # The hard player judges partnership Spades only: elsewhere the review is the replay.
        analysis = await self.service.stored(game_id) if judges(replay.rules) else None
        if analysis is not None or not judges(replay.rules):
            rendered = await self._render(key, replay, analysis, viewer)
            await _show(interaction, rendered, game_id, page)
            return
        job = self._job(interaction, gid, game_id, doc, replay, own=bool(viewer))
        embed = rr.progress_embed(game_id, job.done, job.total, job.ahead)
        edit: Editor = interaction.edit_original_response
        if page is None:
            sent = await interaction.response.send_message(embed=embed, ephemeral=True)
            if isinstance(sent, discord.WebhookMessage):
                # The click was deferred (a slow moment): the review is a follow-up, and the
                # "original response" is the game-over message, which must stay as it is.
                edit = sent.edit
        else:
            await interaction.response.edit_message(embed=embed, view=None)
        await self._follow(edit, job, replay, viewer, key)

    def _job(
        self,
        interaction: Interaction,
        gid: int,
        game_id: int,
        doc: dict[str, Any],
        replay: GameReplay,
        *,
        own: bool,
    ) -> ReviewJob:
        """The game's analysis job: joining one under way costs nothing; a new one needs a
        place in the review queue (own games keep some) and counts against the asker's and
        the server's review limits (:mod:`bot.cooldowns`).  Refused with when to try again."""
        if self.service.running(game_id) is None:
            self.service.check_room(own)  # QueueFull: a refusal naming when to try again
            take_cooldowns(interaction, cooldowns.review(gid, interaction.user.id, own))
        return self.service.start(game_id, doc, replay, own=own)

    async def _render(
        self,
        key: PagesKey,
        replay: GameReplay,
        analysis: Analysis | None,
        viewer: frozenset[Seat],
    ) -> Rendered:
        """Every page of the review for ``key``'s reader, written in a thread, then kept."""
        game_id = key[1]
        pages = await asyncio.to_thread(rr.review_pages, replay, analysis, viewer, game_id)
        log.info("rendered the %d review pages of game %s", len(pages), game_id)
        rendered = self._rendered[key] = Rendered(pages, viewer)
        return rendered

    async def _follow(
        self,
        edit: Editor,
        job: ReviewJob,
        replay: GameReplay,
        viewer: frozenset[Seat],
        key: PagesKey,
    ) -> None:
        """Show the job's progress in the reply, then the review (while the token lasts)."""
        game_id = key[1]
        started = time.monotonic()
        shown = (job.done, job.ahead)
        while not job.finished and time.monotonic() - started < TOKEN_LIFE_S:
            await job.wait_change(PROGRESS_EVERY_S)
            if job.finished or (job.done, job.ahead) == shown:
                continue
            shown = (job.done, job.ahead)
            with contextlib.suppress(discord.HTTPException):
                await edit(embed=rr.progress_embed(game_id, job.done, job.total, job.ahead))
        if job.result is None:
            with contextlib.suppress(discord.HTTPException):
                await edit(
                    content=_("The review could not be finished. Press **Review** to try again."),
                    embed=None,
                    view=None,
                )
            return
        rendered = await self._render(key, replay, job.result, viewer)
        with contextlib.suppress(discord.HTTPException):
            await edit(**_page(rendered, game_id, 0))


async def _show(
    interaction: Interaction, rendered: Rendered, game_id: int, page: int | None
) -> None:
    payload = _page(rendered, game_id, page or 0)
    if page is None:
        await interaction.response.send_message(**payload, ephemeral=True)
    else:
        await interaction.response.edit_message(**payload)


def _page(rendered: Rendered, game_id: int, number: int) -> dict[str, Any]:
    pages = rendered.pages
    number = max(0, min(number, len(pages) - 1))
    return {
        "embed": rr.page_embed(pages[number], number, len(pages)),
        "view": rr.page_view(game_id, pages, number, share=bool(rendered.viewer)),
    }


async def setup(bot: SpadesBot) -> None:
    await bot.add_cog(ReviewCog(bot))
