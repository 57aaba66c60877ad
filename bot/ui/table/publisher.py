"""Keeps each table's channel message up to date, and posts hand summaries, notices and turn
reminders.

Edits are coalesced per table: however fast the play, a table message is edited at most once
per ``min_interval`` seconds, and the edit renders the state at the moment it is sent, so the
last edit always shows the latest state.  Posts (hand summaries, notices) keep their order.

All channel writes also share one budget (Discord allows a bot 50 requests a second in all;
:mod:`bot.ui.discord.pace` spaces them to arrive so): with many busy tables each table's edits
simply coalesce over a longer interval, and interaction answers — which do not count against that
limit — never wait behind edits.

A turn reminder mentions a player whose hand message could not show that it is their turn
(see :mod:`bot.tables.live`): one short message, deleted again once that turn has passed, so
the channel holds at most one reminder per table and only the player on turn is pinged.

Where the messages go is the table's *surface* (:mod:`bot.ui.discord.surfaces`): channel messages in
a server that added the bot, or — a group DM, a DM, a server that has not — the answers to
interactions, through the tokens the clicks at the table gave (:meth:`offer`): the table message
through the one that owns it, posted again once that is stale (:data:`MOVED`).  There, when no token
is fresh (nobody clicked for 15 minutes), edits and posts wait; the next click brings the table up
to date and says so (:data:`CAUGHT_UP`).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

import discord

from bot import disposal, metrics
from bot.engine import HandResult, Phase, Seat, seat_view
from bot.i18n import N_, SERVER_LANGUAGES, Text, _, use
from bot.i18n.cards import seat_word
from bot.tables.live import TOKEN_LIFETIME
from bot.tables.state import SurfaceToken, Table, TableStatus
from bot.ui.discord.surfaces import (
    ChannelSurface,
    Moved,
    Stale,
    Surface,
    TokenSurface,
    adopted,
    token_of,
)
from bot.ui.discord.write_budget import write_budget
from bot.ui.review.review_components import ReviewRef, review_button
from bot.ui.table import render
from bot.ui.table.hand_pictures import PICTURE, DealPictures, with_picture, without_picture
from bot.ui.table.scoresheet import game_over_components, game_over_embed, hand_result_embed
from bot.ui.text.seed_text import reveal_text
from bot.webhook_args import for_followup

log = logging.getLogger(__name__)

REMINDER = "_reminder_for_turn"  # key of a post that is a turn reminder: the turn's seq
CAUGHT_UP = N_(
    "↻ This table had not been updated for a while: I can change it only within 15 minutes "
    "of someone's click here (the bot is not a member of this chat). It is up to date again."
)
MOVED = N_("↓ This table moved to a new message below: this one can no longer be updated.")
# A new token is stored (for a restart) when it outlives the stored one by more than this: at
# most one write of it per table every ten minutes however fast the clicks, and the stored one
# keeps at least five minutes to run while people click.
STORE_TOKEN_LEFT_S = TOKEN_LIFETIME - 300.0
KEEP_BEHIND_S = 3600.0  # an ended table waits this long for a click to post its last messages


@dataclass(slots=True, eq=False)
class _Channel:
    table: Table
    dirty: bool = False
    posting: bool = False
    last_edit: float = 0.0
    posts: deque[dict[str, Any]] = field(default_factory=deque)
    reminders: list[tuple[int, int]] = field(default_factory=list)  # (message id, turn seq)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None
    editing: asyncio.Task[None] | None = None  # the table-message edit under way, if any
    behind_since: float | None = None  # no fresh token for a write since (monotonic)
    stored_until: float = 0.0  # when the token stored for the table expires (unix)


MessageSaver = Callable[[Table, int], Awaitable[None]]  # saves a table's (new) message id
# Saves (or, with None, forgets) the interaction token an "interaction" table writes through.
TokenSaver = Callable[[Table, SurfaceToken | None], Awaitable[None]]


def public(table: Table) -> contextlib.AbstractContextManager[None]:
    """Write in the language of the table's server (its public messages)."""
    return use(SERVER_LANGUAGES.of_chat(table.guild_id, table.channel_id))


class TablePublisher:
    """Implements the service's ``TableListener`` with Discord messages; ``set_message``
    saves the id of each table message it posts, ``set_token`` the token a table writes
    through outside servers."""

    def __init__(
        self,
        client: discord.Client,
        set_message: MessageSaver,
        set_token: TokenSaver,
        min_interval: float = 1.0,
        writes_per_second: float = 36,
    ) -> None:
        self.client = client
        self.set_message = set_message
        self.set_token = set_token
        self.min_interval = min_interval
        self.budget = write_budget(writes_per_second)
        self.channel_surface = ChannelSurface(client, self.budget)
        self.token_surface = TokenSurface(client, self._expired)
        self._channels: dict[str, _Channel] = {}
        self._by_token_channel: dict[int, _Channel] = {}  # "interaction" tables, by channel
        self._storing: set[asyncio.Task[None]] = set()
        self.pictures = DealPictures()

    # TableListener ----------------------------------------------------------------
    def changed(self, table: Table) -> None:
        ch = self._channel(table)
        if ch.dirty:  # the edit already pending shows this change too, rendered when it goes
            metrics.table_write("coalesced")
            return  # and its loop needs no waking
        ch.dirty = True
        ch.wake.set()

    def hand_finished(self, table: Table, result: HandResult) -> None:
        ch = self._channel(table)
        with public(table):
            embed = hand_result_embed(table, result)
            post: dict[str, Any] = {"embed": embed}
            if not table.boards_withheld:  # a picture shows all four hands (public)
                post[PICTURE] = self.pictures.start(table, result)
            ch.posts.append(post)
        ch.wake.set()

    def game_finished(self, table: Table) -> None:
        ch = self._channel(table)
        ch.dirty = True
        with public(table):
            self._game_finished(ch, table)
        ch.wake.set()

    def _game_finished(self, ch: _Channel, table: Table) -> None:
        if table.game is not None and table.status == TableStatus.FINISHED:
            view = seat_view(table.game, None)
            buttons = game_over_components(table)
            buttons.add_item(review_button(ReviewRef("t", table.id), _("Review"), emoji="🔎"))
            ch.posts.append({"embed": game_over_embed(table, view), "view": buttons})
        elif table.status == TableStatus.ABANDONED:
            why = f"{table.end_reason} " if table.end_reason else _("This table was closed.") + " "
            reveal = reveal_text(table)  # a game ended early reveals its seed too
            seed = "\n\n**" + _("Verifiable deals") + f"**\n{reveal}" if reveal is not None else ""
            ch.posts.append({"content": why + _("Open a new one with `/spades new`.") + seed})

    def notice(self, table: Table, text: str | Text) -> None:
        ch = self._channel(table)
        with public(table):
            ch.posts.append({"content": str(text)})
        ch.wake.set()

    def turn_reminder(self, table: Table, seat: Seat, user_id: int) -> None:
        """Mention ``user_id``: it is their turn and their hand could not be updated live."""
        occ = table.seats.get(seat)
        if occ is None or occ.user_id != user_id:
            return
        phase = table.game.phase if table.game is not None else Phase.PLAY
        ch = self._channel(table)
        with public(table):
            verb = {
                Phase.BID: _("bid"),
                Phase.PASS: _("pass cards"),
                Phase.CALL: _("call"),
                Phase.DISCARD: _("discard"),
            }.get(phase, _("play"))
            mention = f"<@{user_id}>"
            text = _(
                "{mention}, it is your turn to {verb} ({seat}). "
                "Press **My hand** on the table message (or `/hand`).",
                mention=mention,
                verb=verb,
                seat=seat_word(seat),
            )
        ch.posts.append(
            {
                "content": text,
                "allowed_mentions": discord.AllowedMentions(
                    everyone=False, roles=False, users=[discord.Object(user_id)]
                ),
                REMINDER: table.seq,
            }
        )
        ch.wake.set()

    # ------------------------------------------------------------------ tokens
    def offer(self, interaction: discord.Interaction[Any]) -> None:
        """An interaction in a channel was answered: if an "interaction" table lives there,
        its token carries the table's next follow-ups — and edits of the table message, if
        the click was on it and answered with an update (:func:`adopted`).  A table that fell
        behind for want of one is brought up to date now, and says so."""
        cid = interaction.channel_id
        ch = self._by_token_channel.get(cid) if cid is not None else None
        token = token_of(interaction)
        if ch is not None and token is not None:
            self.renew(ch.table, adopted(interaction, ch.table, token))

    def renew(self, table: Table, token: SurfaceToken) -> None:
        if not table.place.by_interaction or not self.token_surface.offer(table, token):
            return
        ch = self._channel(table)
        if ch.behind_since is not None:
            ch.behind_since = None
            ch.dirty = True
            with public(ch.table):
                ch.posts.append({"content": _(CAUGHT_UP)})
        # the table message's own token is stored (for a restart), at most every ten minutes
        owner = table.token is token
        if owner and table.open and token.expires_at - ch.stored_until > STORE_TOKEN_LEFT_S:
            ch.stored_until = token.expires_at
            self._store_token(table, token)
        ch.wake.set()

    def _own(self, table: Table) -> None:
        """The table message is new and ``table.token`` its own: stored now (the stored one
        cannot edit the new message)."""
        if table.token is not None and table.open:
            self._channel(table).stored_until = table.token.expires_at
            self._store_token(table, table.token)

    def _expired(self, table: Table) -> None:
        """Discord refused the table's token: forget it (also in the database)."""
        table.token = None
        ch = self._channels.get(table.id)
        if ch is not None:
            ch.stored_until = 0.0
        self._store_token(table, None)

    def _store_token(self, table: Table, token: SurfaceToken | None) -> None:
        task = asyncio.create_task(self._stored(table, token))
        self._storing.add(task)
        task.add_done_callback(self._storing.discard)

    async def _stored(self, table: Table, token: SurfaceToken | None) -> None:
        try:
            await self.set_token(table, token)
        except Exception as e:  # the token is a secret: only the error's kind is logged
            log.warning("could not store the token of table %s (%s)", table.id, type(e).__name__)

    def surface(self, table: Table) -> Surface:
        return self.token_surface if table.place.by_interaction else self.channel_surface

    # ------------------------------------------------------------------------------
    def _channel(self, table: Table) -> _Channel:
        ch = self._channels.get(table.id)
        if ch is None or ch.table is not table:
            ch = _Channel(table)
            if table.token is not None:
                ch.stored_until = table.token.expires_at  # as restored from the database
            self._channels[table.id] = ch
            if table.place.by_interaction:
                self._by_token_channel[table.channel_id] = ch
        if ch.task is None or ch.task.done():
            ch.task = asyncio.create_task(self._run(ch), name=f"publisher-{table.id}")
        return ch

    async def post_table_message(
        self, table: Table, via: discord.Interaction[Any] | None = None
    ) -> discord.Message:
        """Send a fresh table message (new table or ``/spades table``) and remember it.

        An "interaction" table's message is a public follow-up of ``via`` (deferred, not yet
        followed up: the follow-up then *is* its public answer), whose token the table
        keeps: it owns the message.  An earlier one says it moved (if its token still can)."""
        ch = self._channel(table)
        ch.posting = True
        try:
            ch.dirty = False
            payload = self._table_payload(table)
            if table.place.by_interaction:
                if via is None:
                    raise ValueError("an interaction table's message answers an interaction")
                token = token_of(via)
                if token is not None:
                    self.renew(table, token)
                old_owner, old_id = table.token, table.message_id
                sent = for_followup(payload)
                message: discord.Message = await via.followup.send(**sent, wait=True)
                disposal.dispose_sent(payload)
                if token is not None:  # it owns the new message (both stored below)
                    table.token = dataclasses.replace(token, edits_original=False)
                    table.message_id = message.id
                if old_id is not None and old_owner is not None:
                    with public(table):
                        moved = _(MOVED)
                    await self.token_surface.say_moved(table, old_owner, old_id, moved)
            else:
                channel = self.client.get_partial_messageable(
                    table.channel_id, guild_id=table.guild_id
                )
                await self.budget.take()
                message = await channel.send(**payload)
                disposal.dispose_sent(payload)
            ch.last_edit = time.monotonic()
            await self.set_message(table, message.id)
            self._own(table)
        finally:
            ch.posting = False
        return message

    def _table_payload(self, table: Table) -> dict[str, Any]:
        view = seat_view(table.game, None) if table.game is not None else None
        with public(table):
            return {
                "embed": render.table_embed(table, view),
                "view": render.table_components(table),
            }

    async def _run(self, ch: _Channel) -> None:
        try:
            while True:
                try:
                    await asyncio.wait_for(ch.wake.wait(), timeout=60)
                except TimeoutError:
                    if not ch.table.open and not ch.dirty and not ch.posts:
                        break
                    if not ch.table.open and _behind_for(ch) > KEEP_BEHIND_S:
                        break  # nobody clicked since the end: its last messages are dropped
                    continue
                ch.wake.clear()
                while (ch.posts or ch.dirty or _stale_reminders(ch)) and ch.behind_since is None:
                    # Posts first (hand summaries and notices are what people wait for; they
                    # jump the write budget too).  The table message's edit runs beside them
                    # (it may wait long for the shared budget) and shows the state at the
                    # moment it is sent, so it loses nothing by waiting.
                    stale = _stale_reminders(ch)
                    if stale:
                        await self._guarded(self._delete(ch, stale[0]), ch)
                    elif ch.posts:
                        await self._guarded(self._post(ch, ch.posts.popleft()), ch)
                    elif ch.editing is not None and not ch.editing.done():
                        await self._until_woken(ch, ch.editing)  # or the edit is done
                    else:
                        due = ch.last_edit + self.min_interval - time.monotonic()
                        if due > 0:
                            await self._until_woken(ch, asyncio.sleep(due))  # or it is due
                            continue
                        ch.dirty = False
                        ch.editing = asyncio.create_task(self._guarded(self._edit(ch), ch))
                if ch.editing is not None and not ch.table.open:
                    await ch.editing
                idle = not ch.dirty and not ch.posts and not ch.reminders
                if not ch.table.open and (idle or _behind_for(ch) > KEEP_BEHIND_S):
                    break
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("publisher for table %s failed", ch.table.id)
        finally:
            if self._channels.get(ch.table.id) is ch and not ch.table.open:
                metrics.table_write("dropped", len(ch.posts))  # left for a click that never came
                del self._channels[ch.table.id]
                if self._by_token_channel.get(ch.table.channel_id) is ch:
                    del self._by_token_channel[ch.table.channel_id]

    @staticmethod
    async def _until_woken(ch: _Channel, other: Awaitable[Any]) -> None:
        """Wait until ``other`` is done or something new arrives for the channel."""
        waits = {asyncio.ensure_future(other), asyncio.ensure_future(ch.wake.wait())}
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for w in waits:
                if w is not ch.editing:
                    w.cancel()
        ch.wake.clear()  # the caller looks at the channel again

    async def _guarded(self, work: Coroutine[Any, Any, None], ch: _Channel) -> None:
        """One failed render or request must not stop this table's later updates."""
        try:
            await work
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("updating the message of table %s failed", ch.table.id)

    async def _edit(self, ch: _Channel) -> None:
        table = ch.table
        ch.last_edit = time.monotonic()
        if ch.posting:
            ch.dirty = True  # edit the fresh message once it is posted
            await asyncio.sleep(0.05)
            return
        try:
            if table.message_id is None:
                await self._replace_message(table)
                return
            try:
                await self.surface(table).edit(
                    table, table.message_id, lambda: self._final_payload(table)
                )
            except (discord.NotFound, Moved) as e:  # deleted, or its token is stale
                await self._replace_message(table, moved=isinstance(e, Moved))
            except discord.HTTPException as e:
                log.warning("could not edit the message of table %s: %s", table.id, e)
        except Stale:
            self._fell_behind(ch)
            ch.dirty = True  # the next click's token brings the table up to date

    def _fell_behind(self, ch: _Channel) -> None:
        if ch.behind_since is None:
            ch.behind_since = time.monotonic()
            log.info("table %s waits for a click to be updated (no fresh token)", ch.table.id)

    def _final_payload(self, table: Table) -> dict[str, Any]:
        payload = self._table_payload(table)
        if not table.open:
            payload["view"] = None  # a finished table keeps no buttons
        return payload

    async def _replace_message(self, table: Table, moved: bool = False) -> None:
        """The table message was deleted (or never sent), or — outside servers — its token is
        stale: post a new one (the old one says it moved)."""
        with public(table):
            note = _(MOVED) if moved else None
        with contextlib.suppress(discord.HTTPException):
            surface = self.surface(table)
            message_id = await surface.replace(table, lambda: self._final_payload(table), note)
            await self.set_message(table, message_id)
            if table.place.by_interaction:
                self._own(table)

    async def _post(self, ch: _Channel, post: dict[str, Any]) -> None:
        reminder = post.pop(REMINDER, None)
        table = ch.table
        if reminder is not None and (not table.open or table.seq != reminder):
            metrics.table_write("dropped")  # the turn passed before the reminder went out
            return
        if table.place.by_interaction and not self.token_surface.writable(table):
            self._wait_for_click(ch, post, reminder)
            return
        post = await with_picture(post)
        try:
            try:
                message_id = await self.surface(table).send(table, True, post)
            except discord.Forbidden:
                if "file" not in post:
                    raise
                # No Attach Files permission here: the summary still goes, without the picture.
                message_id = await self.surface(table).send(table, True, without_picture(post))
        except Stale:
            self._wait_for_click(ch, without_picture(post), reminder)
            return
        except Exception as e:  # refused, or failed otherwise (with its traceback): dropped
            http = isinstance(e, discord.HTTPException)
            log.warning("could not post to table %s: %s", table.id, e, exc_info=not http)
            return
        if reminder is not None:
            ch.reminders.append((message_id, reminder))

    def _wait_for_click(self, ch: _Channel, post: dict[str, Any], reminder: int | None) -> None:
        """No fresh token for a post: it goes first once a click brings one (a turn ping is
        dropped: the click is the player's, or the turn will have passed)."""
        if reminder is None:
            ch.posts.appendleft(post)
        self._fell_behind(ch)

    async def _delete(self, ch: _Channel, reminder: tuple[int, int]) -> None:
        """Delete a reminder whose turn has passed."""
        ch.reminders.remove(reminder)
        with contextlib.suppress(discord.NotFound, Stale):
            await self.surface(ch.table).delete(ch.table, reminder[0])

    async def close(self) -> None:
        self.pictures.close()
        tasks = [c.task for c in self._channels.values() if c.task is not None]
        tasks += [c.editing for c in self._channels.values() if c.editing is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t


def _behind_for(ch: _Channel) -> float:
    return 0.0 if ch.behind_since is None else time.monotonic() - ch.behind_since


def _stale_reminders(ch: _Channel) -> list[tuple[int, int]]:
    """Reminders whose turn has passed (or whose table ended)."""
    table = ch.table
    return [r for r in ch.reminders if not table.open or r[1] != table.seq]
