"""Deal diagrams for hand summaries, drawn in a worker thread the moment a hand ends.

The publisher queues a hand summary with :meth:`DealPictures.start` (which returns at once)
and, when the summary's turn to be posted comes, :func:`with_picture` waits for the drawing
(usually long done) and attaches it.  No interaction ever waits on a picture; a picture that
fails to draw leaves the summary without one.
"""

from __future__ import annotations

import asyncio
import contextvars
import io
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Final

import discord

from bot.engine import HandResult
from bot.tables.state import Table
from bot.ui.images.deal import diagram_of, render_deal
from bot.ui.text.card_emojis import CARD_EMOJIS

log = logging.getLogger(__name__)

PICTURE: Final = "_deal_picture"  # the key of a post's pending picture


@dataclass(frozen=True, slots=True)
class PendingPicture:
    png: asyncio.Future[bytes]
    filename: str


class DealPictures:
    """A small pool of drawing threads (Pillow releases the GIL while it encodes)."""

    def __init__(self, threads: int = 2) -> None:
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix="spades-pictures")

    def start(self, table: Table, result: HandResult) -> PendingPicture:
        names = {s: occ.shown_name for s, occ in table.seats.items()}
        scheme = CARD_EMOJIS.for_guild(table.guild_id).scheme
        diagram = diagram_of(result, table.rules, names, scheme)
        loop = asyncio.get_running_loop()
        # drawn in the language being written now (the server's): the thread gets the context
        draw = contextvars.copy_context().run
        future = loop.run_in_executor(self._pool, lambda: draw(lambda: render_deal(diagram).png))
        return PendingPicture(future, f"deal-{table.id}-{result.number}.png")

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


async def with_picture(post: dict[str, Any]) -> dict[str, Any]:
    """``post`` ready to send: its pending deal picture (if any) attached to its embed."""
    pending: PendingPicture | None = post.pop(PICTURE, None)
    embed: discord.Embed | None = post.get("embed")
    if pending is None or embed is None:
        return post
    try:
        png = await pending.png
    except Exception:
        log.exception("drawing a deal diagram failed; the summary goes without it")
        return post
    embed.set_image(url=f"attachment://{pending.filename}")
    return {**post, "file": discord.File(io.BytesIO(png), filename=pending.filename)}


def without_picture(post: dict[str, Any]) -> dict[str, Any]:
    """The same post with no attachment (for a channel where the bot may not attach files)."""
    out = {k: v for k, v in post.items() if k != "file"}
    embed = out.get("embed")
    if isinstance(embed, discord.Embed) and embed.image:
        embed.set_image(url=None)
    return out
