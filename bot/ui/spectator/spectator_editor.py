"""The Discord side of spectators (:mod:`bot.tables.spectators`): answering a spectator with
their view, and editing every spectator's message as the game moves.

A handle is a :class:`~bot.ui.hand.live_editor.HandMessage` (the interaction webhook and the message
id), as for live hands; an edit is ``PATCH /webhooks/{app}/{token}/messages/{id}`` with the
JSON rendered once per round for all the table's spectators.  The deal picture of a finished
hand (``spectators: hands after each hand``) is drawn once per hand in a worker thread and
uploaded with the first edit of each spectator's message that shows that hand; later edits
leave the attachment in place.
"""

from __future__ import annotations

import asyncio
import contextvars
import io
import json
import logging
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Final

import discord

from bot.engine import Game
from bot.engine.rewind import tricks_completed
from bot.errors import Refusal
from bot.i18n import SERVER_LANGUAGES, _, use
from bot.tables.live import Edit
from bot.tables.spectators import Frame, Spectators, watch_key
from bot.tables.state import Table
from bot.ui.hand.live_editor import HandMessage, edit_live_message, hand_message
from bot.ui.images.deal import diagram_of, render_deal
from bot.ui.spectator.spectator import (
    DealPicture,
    SpectatorMessage,
    game_behind,
    held_back_message,
    public_scene,
    spectator_message,
)
from bot.ui.spectator.watch_access import can_read
from bot.ui.table.controls import controls_view
from bot.ui.text.card_emojis import CARD_EMOJIS

log = logging.getLogger(__name__)

PICTURES_KEPT: Final = 64  # deal pictures kept drawn (one per table's latest hand)

Interaction = discord.Interaction[Any]


class SpectatorViews:
    """Implements :class:`bot.tables.spectators.SpectatorEditor`, and answers spectators."""

    def __init__(self, threads: int = 1) -> None:
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix="spades-watch-pictures")
        self._pictures: OrderedDict[str, asyncio.Future[bytes]] = OrderedDict()
        # a table shown some tricks behind: its game as it stood then, replayed once for its
        # spectators until another trick completes (by table: its tricks then, that game)
        self._behind: OrderedDict[str, tuple[int, Game | None]] = OrderedDict()

    # ------------------------------------------------------------------ rendering
    def message(self, table: Table) -> SpectatorMessage:
        """Written in the language of the table's server, like the table message: one view
        for all the table's spectators, rendered once a round (docs/languages.md)."""
        with use(SERVER_LANGUAGES.of_chat(table.guild_id, table.channel_id)):
            scene = public_scene(table, self._game_behind)
            message = spectator_message(*scene) if scene is not None else held_back_message(table)
            if message.picture is not None:
                self._picture(table, message.picture)  # starts drawing it now
        return message

    def _game_behind(self, table: Table) -> Game | None:
        assert table.game is not None
        done = tricks_completed(table.game)
        kept = self._behind.pop(table.id, None)
        past = kept[1] if kept is not None and kept[0] == done else game_behind(table)
        self._behind[table.id] = (done, past)  # the newest last
        while len(self._behind) > PICTURES_KEPT:
            self._behind.popitem(last=False)
        return past

    def render(self, table: Table) -> Frame:
        message = self.message(table)
        payload = (message.json(), message.picture)
        return Frame(payload, message.picture.result.number if message.picture else None)

    def _picture(self, table: Table, picture: DealPicture) -> asyncio.Future[bytes]:
        key = picture.filename
        future = self._pictures.get(key)
        if future is None:
            names = {s: occ.shown_name for s, occ in table.seats.items()}
            scheme = CARD_EMOJIS.for_guild(table.guild_id).scheme
            diagram = diagram_of(picture.result, table.rules, names, scheme)
            loop = asyncio.get_running_loop()
            draw = contextvars.copy_context().run  # drawn in the language written now
            future = loop.run_in_executor(
                self._pool, lambda: draw(lambda: render_deal(diagram).png)
            )
            self._pictures[key] = future
            while len(self._pictures) > PICTURES_KEPT:
                self._pictures.popitem(last=False)
        return future

    async def _file(self, table: Table, picture: DealPicture) -> discord.File | None:
        try:
            png = await self._picture(table, picture)
        except Exception:
            log.exception("drawing a deal picture for spectators failed; the view goes without")
            return None
        return discord.File(io.BytesIO(png), filename=picture.filename)

    # ------------------------------------------------------------------ live edits
    async def edit(self, handle: Any, table: Table, frame: Frame, with_picture: bool) -> Edit:
        message: HandMessage = handle
        data, picture = frame.payload
        file = await self._file(table, picture) if with_picture and picture else None
        payload: dict[str, Any] | None = data
        multipart: list[dict[str, Any]] | None = None
        if file is not None:
            body = {**data, "attachments": [{"id": 0, "filename": file.filename}]}
            multipart = [
                {"name": "payload_json", "value": json.dumps(body)},
                {
                    "name": "files[0]",
                    "value": file.fp,
                    "filename": file.filename,
                    "content_type": "application/octet-stream",
                },
            ]
            payload = None
        try:
            return await edit_live_message(
                message,
                payload=payload,
                multipart=multipart,
                files=[file] if file is not None else None,
                failed=("a spectator's view of table %s could not be edited: %s", table.id),
            )
        finally:
            if file is not None:
                file.close()

    # ------------------------------------------------------------------ answers
    async def answer(
        self, interaction: Interaction, spectators: Spectators, table: Table, *, edit: bool
    ) -> None:
        """Answer a spectator with the view (a new ephemeral message, or ``edit`` the one the
        clicked button is on); that message then follows the game among ``spectators``.
        Refused (with the reason) for anyone who may not watch the table, or cannot read its
        channel (:mod:`bot.ui.spectator.watch_access`)."""
        uid = interaction.user.id
        if not can_read(interaction, table):
            raise Refusal(_("You can watch only a table whose channel you can read."))
        spectators.check(table, uid)
        with spectators.answering(table, uid) as answer:
            key = watch_key(table)
            message = self.message(table)  # rendered before any await
            kwargs: dict[str, Any] = {
                "embed": discord.Embed.from_dict(message.embed),
                "view": controls_view(list(message.controls)),
            }
            picture = message.picture
            file = await self._file(table, picture) if picture is not None else None
            if file is not None:
                kwargs["attachments" if edit else "file"] = [file] if edit else file
            if edit:
                await answer.after_live_edit()  # land after the edit of this message on its way
                answered = await interaction.response.edit_message(**kwargs)
            else:
                answered = await interaction.response.send_message(**kwargs, ephemeral=True)
            handle = hand_message(interaction, answered, edited=edit)
            if handle is not None:
                shown = picture.result.number if picture is not None and file else None
                answer.shown(handle, key, shown)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
