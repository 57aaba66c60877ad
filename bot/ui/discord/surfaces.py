"""Where a table's messages go: a channel, or the answers to interactions (issue 27).

The publisher (:mod:`bot.ui.table.publisher`) decides *what* a table shows and *when*; a surface
sends, edits and deletes the messages, chosen per table by its :class:`~bot.tables.state.Place`:

* :class:`ChannelSurface` — a server that added the bot: channel messages, under the bot's
  write budget (Discord's global request limit).
* :class:`TokenSurface` — a group DM, a DM, or a server that has not added the bot (the app is
  installed to a member's account): the bot is no member of the channel and may only answer
  interactions, through their tokens — ``PATCH``/``POST``/``DELETE /webhooks/{app}/{token}…``.
  A token works for 15 minutes after its interaction, and edits only what it created itself
  (its interaction's answer, its follow-ups) and, as ``@original``, the message a click
  answered with an update (6/7) was on; any other message is Unknown Message (10008).  So:

  - The table message is edited only through the token that owns it (the table's
    :attr:`~bot.tables.state.Table.token`): the one that posted it, or a click on the table
    message's own buttons answered with an update, which *adopts* it (edited as
    ``@original``).  Every click at the table brings a new token
    (:meth:`bot.ui.table.publisher.TablePublisher.offer`); the freshest of any click
    (:attr:`~bot.tables.state.Table.latest_token`) carries the follow-ups — hand summaries,
    notices, turn pings — each deleted (a passed turn's ping) through the token that posted it.
  - When the owner's token is stale and a fresh one of another click exists (a private hand's
    button, a command), the table is posted again, as a public follow-up through the fresh
    token, which then owns it (:meth:`TokenSurface.replace`); the old message, while its own
    token still works, becomes one line saying the table moved below, without buttons.
  - Without any fresh token a write raises :class:`Stale` and waits for the next click.

  Interaction webhooks do not count against the bot's global limit, so no budget is taken.
  What the webhook calls are given is made fit for them first (:mod:`bot.webhook_args`), and
  an edit of the table message that fails in any way — not only a refusal by Discord — falls
  back to posting the table again (:class:`Moved`), as a stale token does.

A token is a secret: it is never logged (the bot's log filter masks any that slips into a
discord.py line, :mod:`bot.logsafe`), and only its table holds it.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Final, Protocol, cast

import discord

from bot import disposal
from bot.tables.live import TOKEN_LIFETIME, TOKEN_MARGIN
from bot.tables.state import SurfaceToken, Table
from bot.webhook_args import for_edit, for_followup

log = logging.getLogger(__name__)

UNKNOWN_WEBHOOK: Final = 10015  # Discord: the token is unknown (expired long ago)
INVALID_WEBHOOK_TOKEN: Final = 50027  # Discord: the token expired (HTTP 401)
# Discord's name, in a webhook message's route, for the first answer of the token's
# interaction (discord.py formats the id it is given into the route as it stands).
ORIGINAL: Final = cast(int, "@original")
AUTHORS_KEPT: Final = 1024  # follow-ups whose posting token is remembered (to delete them)


class Stale(Exception):
    """No fresh interaction token: the write must wait for the next click at the table."""


class Moved(Exception):
    """The table message's own token is stale, but another click's is fresh: the table is to
    be posted again through that one (:meth:`Surface.replace`)."""


class Surface(Protocol):
    async def send(self, table: Table, urgent: bool, kwargs: dict[str, Any]) -> int:
        """Post a new message; its id.  Raises :class:`discord.HTTPException` (or
        :class:`Stale`)."""
        ...

    async def edit(
        self, table: Table, message_id: int, render: Callable[[], dict[str, Any]]
    ) -> None:
        """Edit ``message_id`` to ``render()`` (called right before the request: the latest
        state).  :class:`discord.NotFound`: the message is gone."""
        ...

    async def delete(self, table: Table, message_id: int) -> None: ...

    async def replace(
        self, table: Table, render: Callable[[], dict[str, Any]], moved: str | None
    ) -> int:
        """Post the table message anew (the old one is gone, or — :class:`Moved` — cannot be
        edited any more: then it becomes ``moved`` if it still can); the new one's id."""
        ...


class Budget(Protocol):
    async def take(self, urgent: bool = False) -> None: ...


class ChannelSurface:
    """Channel messages of a server that added the bot."""

    def __init__(self, client: discord.Client, budget: Budget) -> None:
        self.client = client
        self.budget = budget

    def _channel(self, table: Table) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(table.channel_id, guild_id=table.guild_id)

    async def send(self, table: Table, urgent: bool, kwargs: dict[str, Any]) -> int:
        await self.budget.take(urgent)
        message = await self._channel(table).send(**kwargs)
        disposal.dispose_sent(kwargs)  # once sent: a retry after a refusal resends it whole
        return message.id

    async def edit(
        self, table: Table, message_id: int, render: Callable[[], dict[str, Any]]
    ) -> None:
        await self.budget.take()
        payload = render()  # rendered after any wait: the latest state
        await self._channel(table).get_partial_message(message_id).edit(**payload)
        disposal.dispose_sent(payload)

    async def delete(self, table: Table, message_id: int) -> None:
        await self.budget.take()
        await self._channel(table).get_partial_message(message_id).delete()

    async def replace(
        self, table: Table, render: Callable[[], dict[str, Any]], moved: str | None
    ) -> int:
        return await self.send(table, False, render())


def fresh(token: SurfaceToken | None, now: float | None = None) -> bool:
    """Whether ``token`` can still start a write."""
    now = time.time() if now is None else now
    return token is not None and token.expires_at - TOKEN_MARGIN > now


def expired(error: discord.HTTPException) -> bool:
    """Whether Discord refused a webhook request because its token is no longer valid."""
    return error.status == 401 or error.code in (INVALID_WEBHOOK_TOKEN, UNKNOWN_WEBHOOK)


class TokenSurface:
    """The answers to interactions, each message through a token that owns it (see the
    module)."""

    def __init__(self, client: discord.Client, on_expired: Callable[[Table], None]) -> None:
        self.client = client
        self.on_expired = on_expired  # the table message's own token turned out to be expired
        # the token that posted each recent follow-up: only it can delete that (a turn ping)
        self._authors: OrderedDict[int, SurfaceToken] = OrderedDict()

    def offer(self, table: Table, token: SurfaceToken) -> bool:
        """A click at ``table`` gave ``token``: the freshest carries the next follow-ups, and
        one that can edit the table message (``edits_original`` known) becomes its own.
        Whether it was fresher than what the table had."""
        newer = False
        latest = table.latest_token
        if latest is None or token.expires_at > latest.expires_at:
            table.latest_token, newer = token, True
        owner = table.token
        if token.edits_original is not None and (
            owner is None or token.expires_at > owner.expires_at
        ):
            table.token, newer = token, True
        return newer

    def writable(self, table: Table) -> bool:
        """Whether any token of the table can start a write now."""
        return self._freshest(table) is not None

    @staticmethod
    def _freshest(table: Table) -> SurfaceToken | None:
        tokens = [t for t in (table.latest_token, table.token) if t is not None and fresh(t)]
        return max(tokens, key=lambda t: t.expires_at, default=None)

    def _webhook(self, token: SurfaceToken | None) -> discord.Webhook:
        app_id = self.client.application_id
        if token is None or app_id is None or not fresh(token):
            raise Stale
        return discord.Webhook.partial(app_id, token.token, client=self.client)

    def _refused(self, table: Table, token: SurfaceToken, error: discord.HTTPException) -> bool:
        """Whether Discord refused ``token`` as expired (then the table forgets it)."""
        if not expired(error):
            return False
        if table.latest_token is not None and table.latest_token.token == token.token:
            table.latest_token = None
        if table.token is not None and table.token.token == token.token:
            self.on_expired(table)
        return True

    def _blocked(self, table: Table) -> Exception:
        """The table message's own token cannot write: post it again through a fresh one, or
        wait for a click."""
        return Moved() if self._freshest(table) is not None else Stale()

    async def send(self, table: Table, urgent: bool, kwargs: dict[str, Any]) -> int:
        token = self._freshest(table)
        webhook = self._webhook(token)
        assert token is not None
        try:
            message = await webhook.send(wait=True, **for_followup(kwargs))
        except discord.HTTPException as e:
            if self._refused(table, token, e):
                raise Stale from None
            raise
        disposal.dispose_sent(kwargs)
        self._authors[message.id] = token
        while len(self._authors) > AUTHORS_KEPT:
            self._authors.popitem(last=False)
        return message.id

    async def edit(
        self, table: Table, message_id: int, render: Callable[[], dict[str, Any]]
    ) -> None:
        owner = table.token
        if owner is None or not fresh(owner):
            raise self._blocked(table)
        webhook = self._webhook(owner)
        try:
            target = await self._target(table, owner, webhook, message_id)
            payload = render()
            await webhook.edit_message(target, **for_edit(payload))
        except discord.HTTPException as e:
            if self._refused(table, owner, e):
                if table.token is not None and table.token is not owner and fresh(table.token):
                    # a click adopted the table message while this edit went out with the
                    # token before it (a restart's first redraw): edit again through the
                    # click's, rather than post the table a second time
                    await self.edit(table, message_id, render)
                    return
                raise self._blocked(table) from None
            if isinstance(e, discord.NotFound):
                raise  # the message is gone: posted again by the caller
            log.warning("editing table %s through its token failed (%s)", table.id, e.status)
            raise self._blocked(table) from None
        except Exception:  # whatever it was, the table is posted again (or waits for a click)
            log.warning("editing table %s through its token failed", table.id, exc_info=True)
            raise self._blocked(table) from None
        disposal.dispose_sent(payload)

    async def _target(
        self, table: Table, owner: SurfaceToken, webhook: discord.Webhook, message_id: int
    ) -> int:
        """How ``owner`` reaches the table message: ``@original`` or its id.  A token restored
        from the database does not say: Discord is asked once what its ``@original`` is."""
        if owner.edits_original is None:
            try:
                original = (await webhook.fetch_message(ORIGINAL)).id
            except discord.NotFound:
                original = None  # its first answer is gone: the table was a follow-up of it
            known = dataclasses.replace(owner, edits_original=original == message_id)
            if table.token is owner:
                table.token = known
            owner = known
        return ORIGINAL if owner.edits_original else message_id

    async def delete(self, table: Table, message_id: int) -> None:
        token = self._authors.pop(message_id, None)
        if token is None and message_id == table.message_id:
            token = table.token
        webhook = self._webhook(token)  # Stale: no token that may delete it works any more
        assert token is not None
        try:
            await webhook.delete_message(message_id)
        except discord.HTTPException as e:
            if self._refused(table, token, e):
                raise Stale from None
            raise

    async def replace(
        self, table: Table, render: Callable[[], dict[str, Any]], moved: str | None
    ) -> int:
        """Post the table as a public follow-up through the freshest token, which then owns it
        (the caller saves both); the old message says ``moved``, if its token still works.
        :class:`Stale` when it cannot be posted now, whatever the reason: the next click's
        token tries again."""
        old_owner, old_id = table.token, table.message_id
        try:
            new_id = await self.send(table, False, render())
        except Stale:
            raise
        except Exception:
            log.warning("posting table %s again failed", table.id, exc_info=True)
            raise Stale from None
        token = self._authors[new_id]
        # both at once (the caller stores them): a click on the old message answered from
        # now on must not be taken for one on the new (:func:`adopted`)
        table.token = dataclasses.replace(token, edits_original=False)
        table.message_id = new_id
        if moved is not None and old_id is not None and old_owner is not None:
            await self.say_moved(table, old_owner, old_id, moved)
        return new_id

    async def say_moved(
        self, table: Table, owner: SurfaceToken, message_id: int, moved: str
    ) -> None:
        """The old table message (``message_id``, owned by ``owner``) becomes one line, without
        buttons — best effort: its token may be at its end.  Tried even when our clock says
        the token has run out (Discord's clock decides; a refusal costs one request)."""
        app_id = self.client.application_id
        if app_id is None:
            return
        webhook = discord.Webhook.partial(app_id, owner.token, client=self.client)
        try:
            target = await self._target(table, owner, webhook, message_id)
            await webhook.edit_message(target, content=moved, embeds=[], view=None)
        except discord.HTTPException:
            pass  # its token is at its end (or past it): the old message stays as it was
        except Exception:
            log.warning(
                "the old message of table %s could not say it moved", table.id, exc_info=True
            )


def adopted(
    interaction: discord.Interaction[Any], table: Table, token: SurfaceToken
) -> SurfaceToken:
    """``token`` (of ``interaction``), marked as able to edit the table message when the click
    was on that message and was answered with an update (6/7): its ``@original``."""
    message = interaction.message
    updated = (
        discord.InteractionResponseType.deferred_message_update,
        discord.InteractionResponseType.message_update,
    )
    if (
        interaction.type is discord.InteractionType.component
        and message is not None
        and message.id == table.message_id
        and interaction.response.type in updated
    ):
        return dataclasses.replace(token, edits_original=True)
    return token


def token_of(interaction: discord.Interaction[Any]) -> SurfaceToken | None:
    """The token an interaction gives its table (none from an autocomplete: Discord takes no
    follow-up or edit through it)."""
    if interaction.type is discord.InteractionType.autocomplete or not interaction.token:
        return None
    return SurfaceToken(interaction.token, interaction.created_at.timestamp() + TOKEN_LIFETIME)
