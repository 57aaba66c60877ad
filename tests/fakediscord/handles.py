"""Test-facing handles: :class:`Interaction` (a user action) and :class:`Response` (the answer)."""

# Waiting helpers take a `timeout` on purpose (tests read better than asyncio.timeout blocks).
# ruff: noqa: ASYNC109

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from .messages import Message, Snapshot, SnapshotView

if TYPE_CHECKING:
    from .channels import Channel
    from .guilds import Guild
    from .server import FakeDiscord
    from .users import User

JSON = dict[str, Any]
T = TypeVar("T")

# interaction types
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
# callback types
PONG, CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 1, 4, 5, 6, 7
AUTOCOMPLETE_RESULT, MODAL = 8, 9
CALLBACK_NAMES = {
    1: "pong",
    4: "channel_message",
    5: "deferred_channel_message",
    6: "deferred_update_message",
    7: "update_message",
    8: "autocomplete_result",
    9: "modal",
}
_EMPTY = Snapshot()


class WebhookEdit:
    """One edit of a message through an interaction's webhook (``PATCH …/messages/…``): by
    which interaction's token, of which message, and the message's state after it."""

    __slots__ = ("at", "interaction", "message", "state")

    def __init__(self, interaction: Interaction, message: Message, state: Snapshot) -> None:
        self.interaction, self.message, self.state = interaction, message, state
        self.at = state.at

    def __repr__(self) -> str:
        return f"<WebhookEdit of {self.message!r} by {self.interaction!r}>"


class NoResponse(TimeoutError):
    """The bot did not answer (or edit, or follow up) in time."""


class NoBotConnected(RuntimeError):
    """No gateway session exists to deliver an interaction to."""


class Response(SnapshotView):
    """The bot's interaction callback. Message-like properties (``content``, ``embeds``,
    ``components``, ``flags``, ``ephemeral``, ``attachments``, ``text``, ``find()``) describe the
    message state right after the callback; ``message`` is the live message (if any)."""

    __slots__ = (
        "choices",
        "data",
        "interaction",
        "message",
        "modal",
        "received_at",
        "received_on",
        "state",
        "type",
    )

    def __init__(
        self,
        interaction: Interaction,
        type: int,
        data: JSON,
        message: Message | None,
        state: Snapshot | None,
        received_on: float = 0.0,
    ) -> None:
        self.interaction, self.type, self.data = interaction, type, data
        self.message, self.state = message, state
        self.received_at = time.monotonic()
        self.received_on = received_on  # on the fake's Discord clock (see clock.py)
        self.choices: list[JSON] | None = (
            data.get("choices") if type == AUTOCOMPLETE_RESULT else None
        )
        self.modal: JSON | None = data if type == MODAL else None

    @property
    def snapshot(self) -> Snapshot:
        return self.state or _EMPTY

    @property
    def type_name(self) -> str:
        return CALLBACK_NAMES.get(self.type, str(self.type))

    @property
    def deferred(self) -> bool:
        return self.type in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE)

    def __repr__(self) -> str:
        return f"<Response {self.type_name} content={self.snapshot.content[:40]!r}>"


class Interaction:
    """One INTERACTION_CREATE sent to the bot, and everything the bot did with it."""

    __slots__ = (
        "_edit_base",
        "_fake",
        "_future",
        "acknowledged",
        "callback",
        "callback_errors",
        "channel",
        "data",
        "deliveries",
        "dispatched_at",
        "dispatched_on",
        "expired",
        "followups",
        "id",
        "issued_on",
        "message",
        "name",
        "original",
        "owners",
        "payload_text",
        "rejected_callbacks",
        "token",
        "type",
        "user",
    )

    def __init__(
        self,
        fake: FakeDiscord,
        id: int,
        token: str,
        type: int,
        user: User,
        channel: Channel,
        data: JSON,
        message: Message | None,
        name: str,
    ) -> None:
        self._fake = fake
        self.id, self.token, self.type = id, token, type
        self.user, self.channel, self.data, self.message, self.name = (
            user,
            channel,
            data,
            message,
            name,
        )
        self.dispatched_at = 0.0
        self.dispatched_on = 0.0  # on the fake's Discord clock (see clock.py)
        self.issued_on = fake.clock.now()  # when the token was issued, on Discord's clock
        self.payload_text: str | None = None  # exactly what was sent (a redelivery resends it)
        self.deliveries = 0
        self.acknowledged = False
        self.expired = False
        self.callback: Response | None = None
        self.rejected_callbacks = 0
        self.callback_errors: list[str] | None = None  # callbacks the fake refused (400...)
        self.original: Message | None = None
        self.followups: list[Message] = []
        # authorizing_integration_owners: {"0": guild id} for an app the server added,
        # {"1": user id} for the account that installed it (a user install)
        self.owners: JSON = {}
        self._edit_base = 0
        self._future: asyncio.Future[Response] = asyncio.get_running_loop().create_future()

    # ----- properties --------------------------------------------------------------------
    @property
    def guild(self) -> Guild | None:
        return self.channel.guild

    @property
    def latency(self) -> float | None:
        """Seconds from dispatch on the websocket to the callback arriving (None if pending)."""
        cb = self.callback
        return None if cb is None else cb.received_at - self.dispatched_at

    @property
    def discord_latency(self) -> float | None:
        """:attr:`latency` as Discord counts it against its 3 s deadline: without the time the
        fake itself stood still (its test process collecting garbage or not scheduled)."""
        cb = self.callback
        return None if cb is None else cb.received_on - self.dispatched_on

    @property
    def edits(self) -> int:
        """Edits of the original response since the callback (incl. a follow-up that replaced
        a deferred "thinking" message)."""
        return 0 if self.original is None else self.original.edits - self._edit_base

    @property
    def token_age(self) -> float:
        """Seconds since the token was issued, on Discord's clock (``fake.clock.advance``
        ages every token; :meth:`age` this one)."""
        return self._fake.clock.now() - self.issued_on

    def age(self, seconds: float) -> None:
        """Make the token ``seconds`` older, as if it had been issued that long ago: a token
        older than ``fake.token_lifetime`` (Discord: 15 minutes) is refused by the webhook
        routes (edits of the original response, follow-ups) with 401 Invalid Webhook Token."""
        self.issued_on -= seconds

    # ----- waiting -----------------------------------------------------------------------
    def _timeout(self, timeout: float | None) -> float:
        return self._fake.response_timeout if timeout is None else timeout

    async def response(self, timeout: float | None = None) -> Response:
        """Wait for the bot's callback (default timeout: ``fake.response_timeout``, 10 s)."""
        if self.callback is not None:
            return self.callback
        t = self._timeout(timeout)
        try:
            return await asyncio.wait_for(asyncio.shield(self._future), t)
        except TimeoutError:
            if self._future.done():  # expired: the future carries its own NoResponse
                raise
            refused = f"; refused callbacks: {self.callback_errors}" if self.callback_errors else ""
            raise NoResponse(
                f"bot did not answer {self.name!r} ({self.id}) within {t}s{refused}"
            ) from None

    async def answer(self, timeout: float | None = None) -> Response | Message:
        """What the user finally reads: the callback, or — when the bot deferred it — the
        message its follow-up (or edit of the original) produced once that arrives."""
        t = self._timeout(timeout)
        start = time.monotonic()
        r = await self.response(t)
        if not r.deferred:
            return r

        def done() -> Message | None:
            if self.followups:
                return self.followups[0]
            orig = self.original
            if orig is None or orig.deleted:
                return None
            if r.type == DEFERRED_UPDATE:
                return orig if self.edits >= 1 else None
            return None if orig.loading else orig

        remaining = max(t - (time.monotonic() - start), 0.0)
        try:
            return await self._fake.wait_until(done, remaining)
        except TimeoutError:
            raise NoResponse(f"bot deferred {self.name!r} and never completed it") from None

    def _callback_failed(self, error: str) -> None:
        if self.callback_errors is None:
            self.callback_errors = []
        self.callback_errors.append(error)

    def _expire(self, elapsed: float) -> None:
        """The callback came after Discord's 3 s deadline: it can never succeed now."""
        self.expired = True
        self._callback_failed(f"404 Unknown interaction: callback after {elapsed:.2f}s")
        if not self._future.done():
            self._future.set_exception(
                NoResponse(f"bot answered {self.name!r} too late ({elapsed:.2f}s > deadline)")
            )
            self._future.exception()  # mark retrieved: nobody may be waiting

    def _resolve(self, response: Response) -> None:
        self.callback = response
        if self.original is not None:
            self._edit_base = self.original.edits
        if not self._future.done():
            self._future.set_result(response)

    async def wait_edit(
        self,
        count: int = 1,
        *,
        predicate: Callable[[Message], bool] | None = None,
        timeout: float | None = None,
    ) -> Snapshot:
        """Wait until the original response was edited ``count`` times since the callback (and
        ``predicate(message)`` holds, if given). Returns the matching state of the message."""
        t = self._timeout(timeout)
        start = time.monotonic()
        await self.response(t)
        original = self.original
        if original is None:
            raise ValueError(f"{self.callback!r} has no original message to edit")
        remaining = max(t - (time.monotonic() - start), 0.0)

        def done(msg: Message) -> bool:
            return self.edits >= count and (predicate is None or predicate(msg))

        msg = await self._fake.wait_for_edit(original, done, timeout=remaining)
        return msg.state

    def final_message(self) -> Message | None:
        """The original response message in its latest state (None for pong/autocomplete/modal)."""
        return self.original

    async def wait_followup(self, count: int = 1, *, timeout: float | None = None) -> Message:
        """Wait for the ``count``-th follow-up message and return it."""
        await self._fake._w_misc.wait(
            self, lambda _: len(self.followups) >= count, self._timeout(timeout), initial=None
        )
        return self.followups[count - 1]

    def __repr__(self) -> str:
        state = self.callback.type_name if self.callback else "pending"
        return f"<Interaction {self.name!r} id={self.id} by {self.user.name} {state}>"
