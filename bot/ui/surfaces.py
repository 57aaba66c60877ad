"""Where a table's messages go: a channel, or the answers to interactions (issue 27).

The publisher (:mod:`bot.ui.publisher`) decides *what* a table shows and *when*; a surface
sends, edits and deletes the messages, chosen per table by its :class:`~bot.tables.state.Place`:

* :class:`ChannelSurface` — a server that added the bot: channel messages, under the bot's
  write budget (Discord's global request limit).
* :class:`TokenSurface` — a group DM, a DM, or a server that has not added the bot (the app is
  installed to a member's account): the bot is no member of the channel and may only answer
  interactions.  The table message is the public answer to one (``/spades new``); it is edited,
  and hand summaries, notices and turn pings are posted as follow-ups, through the freshest
  interaction token of the table — ``PATCH``/``POST``/``DELETE /webhooks/{app}/{token}…``.  A
  token works for 15 minutes after its interaction; every click at the table brings a new one
  (:meth:`bot.ui.publisher.TablePublisher.offer`).  Without a fresh token a write raises
  :class:`Stale` and waits for the next click.  Interaction webhooks do not count against the
  bot's global limit, so no budget is taken.

A token is a secret: it is never logged (the bot's log filter masks any that slips into a
discord.py line, :mod:`bot.logsafe`), and only its table holds it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Final, Protocol

import discord

from bot import disposal
from bot.tables.state import SurfaceToken, Table

TOKEN_LIFETIME: Final = 15 * 60.0  # Discord: an interaction token works for 15 minutes
TOKEN_MARGIN: Final = 20.0  # a write is not started with a token this close to its end
UNKNOWN_WEBHOOK: Final = 10015  # Discord: the token is unknown (expired long ago)
INVALID_WEBHOOK_TOKEN: Final = 50027  # Discord: the token expired (HTTP 401)


class Stale(Exception):
    """No fresh interaction token: the write must wait for the next click at the table."""


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


def fresh(token: SurfaceToken | None, now: float | None = None) -> bool:
    """Whether ``token`` can still start a write."""
    now = time.time() if now is None else now
    return token is not None and token.expires_at - TOKEN_MARGIN > now


def expired(error: discord.HTTPException) -> bool:
    """Whether Discord refused a webhook request because its token is no longer valid."""
    return error.status == 401 or error.code in (INVALID_WEBHOOK_TOKEN, UNKNOWN_WEBHOOK)


class TokenSurface:
    """The answers to interactions, through the table's freshest token (see the module)."""

    def __init__(self, client: discord.Client, on_expired: Callable[[Table], None]) -> None:
        self.client = client
        self.on_expired = on_expired  # the table's token turned out to be expired

    def _webhook(self, table: Table) -> discord.Webhook:
        token = table.token
        app_id = self.client.application_id
        if token is None or app_id is None or not fresh(token):
            raise Stale
        return discord.Webhook.partial(app_id, token.token, client=self.client)

    def _stale(self, table: Table, error: discord.HTTPException) -> Stale | None:
        if not expired(error):
            return None
        self.on_expired(table)
        return Stale()

    async def send(self, table: Table, urgent: bool, kwargs: dict[str, Any]) -> int:
        webhook = self._webhook(table)
        try:
            message = await webhook.send(wait=True, **kwargs)
        except discord.HTTPException as e:
            if (stale := self._stale(table, e)) is not None:
                raise stale from None
            raise
        disposal.dispose_sent(kwargs)
        return message.id

    async def edit(
        self, table: Table, message_id: int, render: Callable[[], dict[str, Any]]
    ) -> None:
        webhook = self._webhook(table)
        payload = render()
        try:
            await webhook.edit_message(message_id, **payload)
        except discord.HTTPException as e:
            if (stale := self._stale(table, e)) is not None:
                raise stale from None
            raise
        disposal.dispose_sent(payload)

    async def delete(self, table: Table, message_id: int) -> None:
        webhook = self._webhook(table)
        try:
            await webhook.delete_message(message_id)
        except discord.HTTPException as e:
            if (stale := self._stale(table, e)) is not None:
                raise stale from None
            raise


def token_of(interaction: discord.Interaction[Any]) -> SurfaceToken | None:
    """The token an interaction gives its table (none from an autocomplete: Discord takes no
    follow-up or edit through it)."""
    if interaction.type is discord.InteractionType.autocomplete or not interaction.token:
        return None
    return SurfaceToken(interaction.token, interaction.created_at.timestamp() + TOKEN_LIFETIME)
