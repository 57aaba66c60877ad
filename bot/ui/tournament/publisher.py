"""The tournament director's Discord side: threads for tables (private ones, with their
members, for a duplicate tournament's), the sign-up / standings message (edited as the
tournament moves, at most once a second), and announcements."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any

import discord

from bot.events.arrangement import private_tables
from bot.events.pairing import rounds
from bot.events.pairing.model import GameSlot, Invitation, SlotStatus, Tournament, TournamentStatus
from bot.i18n import SERVER_LANGUAGES, _, use
from bot.tables.registry import TableRegistry
from bot.tables.state import Table
from bot.ui.images.bracket import bracket_png
from bot.ui.tournament import render
from bot.ui.tournament.components import invitation_view

log = logging.getLogger(__name__)
MIN_INTERVAL_S = 1.0
BRACKET = "bracket.png"


class TournamentPublisher:
    def __init__(
        self,
        client: discord.Client,
        set_message: Callable[[Tournament, int], Awaitable[None]],
        registry: TableRegistry | None = None,
    ) -> None:
        self.client = client
        self.set_message = set_message  # remembers the message showing a tournament
        # The open tables: the standings show each one's score as it stands.
        self.registry = registry
        self._latest: dict[int, Tournament] = {}
        self._dirty: dict[int, asyncio.Event] = {}
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._posts: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ Announcer
    async def make_thread(self, t: Tournament, title: str) -> int:
        channel = self.client.get_channel(t.channel_id) or await self.client.fetch_channel(
            t.channel_id
        )
        if not isinstance(channel, discord.TextChannel):
            raise OSError(f"channel {t.channel_id} is not a text channel")
        with use(SERVER_LANGUAGES.of(t.guild_id)):  # a Text: in the server's language
            name = str(title)[:100]
        if private_tables(t):  # its members only; nobody but the bot invites anyone
            thread = await channel.create_thread(
                name=name,
                type=discord.ChannelType.private_thread,
                auto_archive_duration=1440,
                invitable=False,
            )
        else:
            thread = await channel.create_thread(
                name=name, type=discord.ChannelType.public_thread, auto_archive_duration=1440
            )
        return thread.id

    async def admit(
        self, t: Tournament, thread_id: int, add: Sequence[int], remove: Sequence[int]
    ) -> None:
        """Set a private table thread's members: ``remove`` first (a member gone from the
        server, or never added, is no error), then ``add``.  An archived thread (made days
        before, during sign-up) is opened again first: Discord changes no member of an
        archived one."""
        thread = self.client.get_channel(thread_id)
        if thread is None:
            thread = await self.client.fetch_channel(thread_id)
        if isinstance(thread, discord.Thread) and thread.archived:
            await thread.edit(archived=False)
        for user_id in remove:
            with contextlib.suppress(discord.NotFound):
                await self.client.http.remove_user_from_thread(thread_id, user_id)
        for user_id in add:
            await self.client.http.add_user_to_thread(thread_id, user_id)

    async def thread_usable(self, t: Tournament, thread_id: int) -> bool:
        """May a table's thread take the next table: not deleted (nor locked), and private
        if the tournament's tables must be (a public one made before is replaced).  Known
        from the cache (the gateway tells of deleted threads); asked of Discord only when
        the cache does not have it (after a restart, an archived thread)."""
        thread = self.client.get_channel(thread_id)
        if thread is None:
            try:
                thread = await self.client.fetch_channel(thread_id)
            except discord.NotFound:
                return False
            except discord.HTTPException:
                return True  # unsure: the table is posted there, as before
        if not isinstance(thread, discord.Thread) or thread.locked:
            return False
        return thread.is_private() or not private_tables(t)

    def updated(self, t: Tournament) -> None:
        self._latest[t.id] = t
        event = self._dirty.setdefault(t.id, asyncio.Event())
        event.set()
        task = self._tasks.get(t.id)
        if task is None or task.done():
            self._tasks[t.id] = asyncio.create_task(self._run(t.id), name=f"tournament-{t.id}")

    def say(self, t: Tournament, text: str, mention: Sequence[int] = ()) -> None:
        with use(SERVER_LANGUAGES.of(t.guild_id)):  # a Text is written in the server's language
            said = str(text)
        self._post(t.channel_id, t.guild_id, said, mention)

    def alert(self, guild_id: int, channel_id: int, text: str) -> None:
        with use(SERVER_LANGUAGES.of(guild_id)):
            said = str(text)
        self._post(channel_id, guild_id, said, ())

    def seated(self, t: Tournament, g: GameSlot, table: Table) -> None:
        names = " v ".join(t.entries[e].md_name for e in g.entries if e in t.entries)
        users = [
            u
            for e in g.entries
            if e in t.entries
            for u in (m.user_id for m in t.entries[e].members)
        ]
        mentions = " ".join(f"<@{u}>" for u in users)
        assert g.thread_id is not None
        with use(SERVER_LANGUAGES.of(t.guild_id)):
            text = _(
                "🏆 **{name}**, round {round}, table {table}: {names}. {mentions} — your game "
                "is on: press **My hand** on the table message (or `/hand`).",
                name=t.md_name,
                round=g.round,
                table=g.slot,
                names=names,
                mentions=mentions,
            )
        self._post(g.thread_id, t.guild_id, text, users)

    def finished(self, t: Tournament) -> None:
        self.updated(t)
        podium = [e for e, p in sorted(rounds.places(t).items(), key=lambda x: x[1]) if p == 1]
        names = ", ".join(t.entries[e].md_name for e in podium if e in t.entries)
        with use(SERVER_LANGUAGES.of(t.guild_id)):
            text = _(
                "🏆 **{name}** is over: congratulations, {names}! Results: see the message above.",
                name=t.md_name,
                names=names,
            )
        self.say(t, text)

    async def ask_partner(self, t: Tournament, inv: Invitation, text: str) -> int | None:
        """The invitation in the tournament's channel, in the server's language, pinging the
        partner alone, with **Accept** / **Decline**."""
        with use(SERVER_LANGUAGES.of(t.guild_id)):
            content, view = str(text), invitation_view(t.id, inv.inviter.user_id)
        allowed = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(inv.partner.user_id)]
        )
        channel = self.client.get_partial_messageable(t.channel_id, guild_id=t.guild_id)
        try:
            message = await channel.send(content[:2000], view=view, allowed_mentions=allowed)
        except discord.HTTPException as e:
            log.warning("could not post an invitation in %s: %s", t.channel_id, e)
            return None
        return message.id

    def invitation_closed(self, t: Tournament, inv: Invitation, text: str) -> None:
        if inv.message_id is None:
            return
        with use(SERVER_LANGUAGES.of(t.guild_id)):
            content = str(text)
        message = self.client.get_partial_messageable(
            t.channel_id, guild_id=t.guild_id
        ).get_partial_message(inv.message_id)

        async def edit() -> None:
            try:  # an edit pings nobody
                await message.edit(content=content[:2000], view=None)
            except discord.HTTPException as e:
                log.warning("could not close the invitation %s: %s", inv.message_id, e)

        self._background(edit())

    # ------------------------------------------------------------------ sending
    def _post(self, channel_id: int, guild_id: int, text: str, mention: Sequence[int]) -> None:
        allowed = discord.AllowedMentions(
            everyone=False, roles=False, users=[discord.Object(u) for u in mention]
        )

        async def send() -> None:
            channel = self.client.get_partial_messageable(channel_id, guild_id=guild_id)
            try:
                await channel.send(text[:2000], allowed_mentions=allowed)
            except discord.HTTPException as e:
                log.warning("could not post in %s: %s", channel_id, e)

        self._background(send())

    def _background(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._posts.add(task)
        task.add_done_callback(self._posts.discard)

    async def _run(self, tid: int) -> None:
        event = self._dirty[tid]
        while event.is_set():
            event.clear()
            t = self._latest[tid]
            try:
                await self._show(t)
            except discord.HTTPException as e:
                log.warning("could not show tournament %s: %s", tid, e)
            except Exception:
                log.exception("could not show tournament %s", tid)
            await asyncio.sleep(MIN_INTERVAL_S)
        if not self._latest[tid].open and self._tasks.get(tid) is asyncio.current_task():
            # shown as it ended: nothing of it is kept
            del self._latest[tid], self._dirty[tid], self._tasks[tid]

    async def _show(self, t: Tournament) -> None:
        with use(SERVER_LANGUAGES.of(t.guild_id)):  # a public message, and its bracket below
            await self._show_in_language(t)

    async def _show_in_language(self, t: Tournament) -> None:
        payload: dict[str, Any] = (
            render.signup_payload(t)
            if t.status == TournamentStatus.SIGNUP
            else render.standings_payload(t, self._scores(t))
        )
        channel = self.client.get_partial_messageable(t.channel_id, guild_id=t.guild_id)
        picture = None
        if t.settings.format == "elimination" and t.status != TournamentStatus.SIGNUP and t.games:
            # The bracket, drawn off the event loop, after each match.
            picture = await asyncio.to_thread(bracket_png, t)
            payload["embed"].set_image(url=f"attachment://{BRACKET}")
        if t.message_id is not None:
            try:
                if picture is not None:
                    payload["attachments"] = [discord.File(io.BytesIO(picture), BRACKET)]
                await channel.get_partial_message(t.message_id).edit(**payload)
                return
            except discord.NotFound:
                payload.pop("attachments", None)
        if picture is not None:
            payload["file"] = discord.File(io.BytesIO(picture), BRACKET)
        message = await channel.send(**payload)
        t.message_id = message.id
        await self.set_message(t, message.id)

    def _scores(self, t: Tournament) -> dict[str, tuple[int, ...]]:
        """The score of each table of the round still playing, by table id (none in a
        duplicate round: its tables play the same boards)."""
        out: dict[str, tuple[int, ...]] = {}
        if t.settings.format == "duplicate":
            return out
        for g in t.round_games():
            table = self.registry.find_by_id(g.table_id) if self.registry and g.table_id else None
            if g.status == SlotStatus.PLAYING and table is not None and table.game is not None:
                out[table.id] = tuple(table.game.scores)
        return out

    async def close(self) -> None:
        for task in [*self._tasks.values(), *self._posts]:
            task.cancel()
        for task in [*self._tasks.values(), *self._posts]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
