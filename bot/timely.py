"""Answering every interaction within Discord's 3 seconds, even when the answer is slow.

:func:`guard` replaces an interaction's ``response`` with a :class:`TimelyResponse` and
starts a watchdog.  If the handler has not answered :data:`DEFER_AFTER_S` seconds after
Discord created the interaction (a long wait for the table's lock, a slow commit, an
overloaded machine), the watchdog defers it — "thinking…" for a command, a silent
acknowledgement for a button — and the handler's answer, whenever it comes, is delivered
the way a deferred interaction needs (a follow-up, or an edit of the original message).
Handlers keep calling ``interaction.response.send_message`` / ``edit_message`` as usual, or —
for a message the bot already has as Discord's JSON (a player's hand) — ``send_json`` /
``edit_json``, which send it as it is: no discord.py objects are built for it, and an update
reads nothing back.

An answer Discord no longer takes (it came too late, or the token expired) is logged as one
WARNING line, not a traceback, and is otherwise dropped.  Text longer than Discord's 2,000
characters is cut, so a reply can never fail for its length.

Every guarded interaction is counted here (:mod:`bot.metrics`): received when guarded, its
first answer's delay when it reaches Discord, and its outcome (:data:`Outcome`) once its
handler has finished (:func:`release`; a refusal or a failure is marked by :func:`judge`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Final, Literal

import discord
from discord.webhook.async_ import async_context

from bot import disposal, logcontext, logsafe, metrics
from bot.token_http import token_request
from bot.webhook_args import for_edit, for_followup

log = logging.getLogger(__name__)

DEFER_AFTER_S: Final = 2.0  # of Discord's 3 s: leaves a second for the deferral to arrive
MAX_CONTENT: Final = 2000
_GONE: Final = (10062, 10015, 40060)  # unknown interaction, unknown webhook, answered already
EPHEMERAL: Final = 1 << 6  # a message's flag: only its recipient sees it
# How many answers are still waiting in each event loop (their watchdog's timer set, or its
# deferral under way), and strong references to the deferrals running.  A timer, not a task,
# per interaction: nearly every answer comes in time, and a sleeping task to cancel cost each
# click a task's creation, two turns of the loop and its cancellation.  A count, not the
# answers, by loop: nothing here keeps an interaction alive, and a loop closed with timers
# still set (a test's) takes its count with it.
_waiting: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, int] = weakref.WeakKeyDictionary()
_deferrals: set[asyncio.Task[None]] = set()
# Per loop, while someone waits for it: the future resolved when no answer is waiting (quiet).
_quiet: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Future[None]] = (
    weakref.WeakKeyDictionary()
)


def waiting() -> int:
    """How many interactions wait for their answer in the running event loop."""
    return _waiting.get(asyncio.get_running_loop(), 0)


# How an interaction went, for the metrics: see bot.metrics.INTERACTIONS_ANSWERED.
Outcome = Literal["answered", "refused", "failed", "late", "repeated"]
# What an interaction is, for the metrics: ("command", its name) or ("component", its verb).
Kind = tuple[Literal["command", "component"], str]


def _cut(kwargs: dict[str, Any]) -> dict[str, Any]:
    content = kwargs.get("content")
    if isinstance(content, str) and len(content) > MAX_CONTENT:
        kwargs["content"] = content[: MAX_CONTENT - 1] + "…"
    return kwargs


def describe(interaction: discord.Interaction[Any]) -> str:
    """The interaction for a log line: ``/command``, or the component's custom id (masked)."""
    command = interaction.command
    if command is not None:
        return "/" + command.qualified_name
    data: dict[str, Any] = dict(interaction.data or {})
    if data.get("custom_id"):
        return logsafe.custom_id(data["custom_id"])  # its card (a face-down discard) masked
    return str(data.get("name") or interaction.type.name)[:60]


class TimelyResponse(discord.InteractionResponse[Any]):
    """An interaction's response that may have been deferred behind the handler's back."""

    def __init__(
        self, parent: discord.Interaction[Any], public: bool, kind: Kind | None = None
    ) -> None:
        super().__init__(parent)
        self._lock = asyncio.Lock()
        self.public = public  # a command whose answer everyone sees
        self.auto_deferred = False
        self.settled = False  # nothing more to answer (a repeated delivery)
        self.received = time.monotonic()
        self.watchdog: asyncio.TimerHandle | None = None
        self.waits = False  # counted in :data:`_waiting` (from guard until answered or deferred)
        self.kind = kind  # None: not counted (an autocomplete)
        self.outcome: Outcome = "answered"
        self.first_answered = False
        self.counted = False

    def _first_answer(self) -> None:
        if not self.first_answered:
            self.first_answered = True
            if self.kind is not None:
                metrics.first_answer(self.kind[0], time.monotonic() - self.received)

    def count(self) -> None:
        """Count the interaction's outcome, once, when its handler has finished."""
        if self.counted or self.kind is None:
            return
        self.counted = True
        outcome = self.outcome
        if self.settled:
            outcome = "repeated"
        elif outcome == "answered" and (self.auto_deferred or not self.is_done()):
            outcome = "late"  # the watchdog's deferral answered it first (or will)
        metrics.answered(self.kind[0], self.kind[1], outcome)

    # ------------------------------------------------------------------ the watchdog
    def _answered(self, kwargs: dict[str, Any] | None = None) -> None:
        """The handler's own answer (or deferral) reached Discord: what only the answer needed
        goes now, so that the interaction — with the message it was clicked on, the member and
        the answer's view — is freed by reference counting as soon as the handler lets go of
        it, instead of waiting for a full garbage collection (docs/benchmarks.md, *Discord
        load*): the watchdog stops (left sleeping it would hold everything for 2 s), the
        answer's view is taken apart, and the link back to the interaction is dropped (it and
        ``interaction.response`` pointed at each other).  Nothing needs that link afterwards:
        a second answer raises :class:`discord.InteractionResponded` without it, and
        follow-ups go through the interaction itself."""
        if not self.is_done():
            return
        self._first_answer()
        if self.watchdog is not None:
            self.watchdog.cancel()
            self.watchdog = None
        self._stop_waiting()
        if kwargs is not None:
            disposal.dispose_sent(kwargs)
        self._parent = None  # type: ignore[assignment]

    def _wake(self) -> None:
        """The watchdog's timer: no answer yet, defer (in a task of its own)."""
        self.watchdog = None
        task = asyncio.create_task(self.defer_if_slow())
        _deferrals.add(task)
        task.add_done_callback(_deferrals.discard)
        task.add_done_callback(lambda _: self._stop_waiting())

    def _stop_waiting(self) -> None:
        if self.waits:
            self.waits = False
            loop = asyncio.get_running_loop()
            left = _waiting.get(loop, 0) - 1
            if left > 0:
                _waiting[loop] = left
                return
            _waiting.pop(loop, None)
            quieted = _quiet.pop(loop, None)  # the work waiting for quiet goes now
            if quieted is not None:
                quieted.set_result(None)

    async def defer_if_slow(self) -> None:
        async with self._lock:
            if self.is_done() or self.settled:
                return
            parent = self._parent
            component = parent.type is discord.InteractionType.component
            try:
                if component:
                    await super().defer()
                else:
                    await super().defer(ephemeral=not self.public, thinking=True)
            except discord.HTTPException as e:
                self._late(e)
                return
            self.auto_deferred = True
            self._first_answer()
            log.info("deferred %s: no answer within %.1f s", describe(parent), DEFER_AFTER_S)

    # ------------------------------------------------------------------ answers
    async def send_message(self, content: Any = None, **kwargs: Any) -> Any:
        kwargs = _cut({"content": content, **kwargs})
        async with self._lock:
            try:
                if not self.auto_deferred:
                    sent = await super().send_message(**kwargs)
                    self._answered(kwargs)
                    return sent
                followup = for_followup(kwargs)
                if followup.get("ephemeral") and self.public:
                    # the "thinking" message is public: an ephemeral answer replaces it
                    with contextlib.suppress(discord.HTTPException):
                        await self._parent.delete_original_response()
                sent = await self._parent.followup.send(**followup)
                disposal.dispose_sent(followup)
                return sent
            except discord.HTTPException as e:
                if not self._late(e):
                    raise
                return None

    async def edit_message(self, **kwargs: Any) -> Any:
        kwargs = _cut(kwargs)
        async with self._lock:
            try:
                if not self.auto_deferred:
                    edited = await super().edit_message(**kwargs)
                    self._answered(kwargs)
                    return edited
                edit = for_edit(kwargs)
                message = await self._parent.edit_original_response(**edit)
                disposal.dispose_sent(edit)
                return message
            except discord.HTTPException as e:
                if not self._late(e):
                    raise
                return None

    async def send_json(self, data: dict[str, Any], *, ephemeral: bool = False) -> int | None:
        """Answer with a new message given as Discord's JSON (``embeds``, ``components``…);
        behind a deferral, a follow-up.  Returns the new message's id (``None``: it came too
        late)."""
        flags = EPHEMERAL if ephemeral else 0
        async with self._lock:
            parent = self._parent
            try:
                if not self.auto_deferred:
                    if self._response_type:
                        raise discord.InteractionResponded(parent)
                    body = {"type": 4, "data": {**data, "flags": flags}}
                    sent = await self._callback(body, with_response=True)
                    self._response_type = discord.InteractionResponseType.channel_message
                    self._answered()
                    return int(sent["interaction"]["response_message_id"])
                if ephemeral and self.public:  # the public "thinking" message gives way
                    with contextlib.suppress(discord.HTTPException):
                        await parent.delete_original_response()
                http = parent._state.http
                message: dict[str, Any] = await async_context.get().execute_webhook(  # type: ignore[assignment]
                    parent.application_id,
                    parent.token,
                    session=parent._session,
                    proxy=http.proxy,
                    proxy_auth=http.proxy_auth,
                    payload={**data, "flags": flags},
                    wait=True,
                    with_components=bool(data.get("components")),
                )
                return int(message["id"])
            except discord.HTTPException as e:
                if not self._late(e):
                    raise
                return None

    async def edit_json(self, data: dict[str, Any]) -> bool:
        """Answer a component's click by updating its message to ``data`` (Discord's JSON);
        behind a deferral, an edit of that message.  Nothing is read back.  ``False``: it came
        too late."""
        async with self._lock:
            parent = self._parent
            try:
                if not self.auto_deferred:
                    if self._response_type:
                        raise discord.InteractionResponded(parent)
                    await self._callback({"type": 7, "data": data}, with_response=False)
                    self._response_type = discord.InteractionResponseType.message_update
                    self._answered()
                    return True
                http = parent._state.http
                await async_context.get().edit_original_interaction_response(
                    parent.application_id,
                    parent.token,
                    session=parent._session,
                    proxy=http.proxy,
                    proxy_auth=http.proxy_auth,
                    payload=data,
                )
                return True
            except discord.HTTPException as e:
                if not self._late(e):
                    raise
                return False

    async def _callback(self, body: dict[str, Any], *, with_response: bool) -> Any:
        """``POST /interactions/{id}/{token}/callback`` with ``body`` as it is
        (:func:`bot.token_http.token_request`: 429s waited out, discord.py's exceptions);
        ``with_response``: Discord answers with the interaction's callback (the new message's
        id), else with nothing."""
        parent = self._parent
        http = parent._state.http
        return await token_request(
            parent._session,
            "POST",
            f"/interactions/{parent.id}/{parent.token}/callback",
            body,
            params={"with_response": "1"} if with_response else None,
            proxy=http.proxy,
            proxy_auth=http.proxy_auth,
            want_json=with_response,
        )

    async def defer(self, *, ephemeral: bool = False, thinking: bool = False) -> Any:
        async with self._lock:
            if self.auto_deferred:
                return None  # already done, the same way
            try:
                deferred = await super().defer(ephemeral=ephemeral, thinking=thinking)
                self._answered()
                return deferred
            except discord.HTTPException as e:
                if not self._late(e):
                    raise
                return None

    def _late(self, error: discord.HTTPException) -> bool:
        """Log an answer Discord refused because it came too late; ``False`` for other
        errors (the caller re-raises them)."""
        if error.code not in _GONE and error.status != 404:
            return False
        if error.code == 40060:
            self.outcome = "repeated"
            log.info("%s was answered already (delivered twice?)", describe(self._parent))
            return True
        if self.outcome == "answered":
            self.outcome = "late"
        age = time.monotonic() - self.received
        log.warning(
            "answer to %s came too late (%.1f s after it arrived): %s",
            describe(self._parent),
            age,
            error.text or error.status,
        )
        return True


async def answer(interaction: discord.Interaction[Any], text: str, **kwargs: Any) -> None:
    """Answer ephemerally, whether or not the interaction was answered or deferred already."""
    response = interaction.response
    deferred_by_us = isinstance(response, TimelyResponse) and response.auto_deferred
    if response.is_done() and not deferred_by_us:
        await interaction.followup.send(
            **for_followup(_cut({"content": text, **kwargs, "ephemeral": True}))
        )
    else:
        await response.send_message(text, ephemeral=True, **kwargs)


def ignore_repeat(interaction: discord.Interaction[Any]) -> None:
    """The same interaction arrived again (a gateway replay) and was applied the first time:
    nothing more is answered, and the log says so."""
    response = interaction.response
    if isinstance(response, TimelyResponse):
        response.settled = True
    log.info("interaction %s delivered again; applied once, ignored now", interaction.id)


def judge(interaction: discord.Interaction[Any], outcome: Outcome) -> None:
    """Mark how ``interaction`` went (a refusal, a failure), counted when it is released."""
    response = getattr(interaction, "_cs_response", None)
    if isinstance(response, TimelyResponse):
        response.outcome = outcome


_on_answered: list[Callable[[discord.Interaction[Any]], None]] = []


def on_answered(hook: Callable[[discord.Interaction[Any]], None]) -> None:
    """Call ``hook(interaction)`` once the handler of an answered interaction has finished
    (its token then takes follow-ups and edits: the table publisher's next writes)."""
    _on_answered.append(hook)


def release(interaction: discord.Interaction[Any]) -> None:
    """The handler of ``interaction`` has finished: if it was answered, drop the response's
    link back to the interaction (see :meth:`TimelyResponse._answered`) — also after an
    answer that went out behind a deferral, which keeps the link until the handler ends."""
    response = getattr(interaction, "_cs_response", None)
    if not isinstance(response, TimelyResponse):
        return
    response.count()
    if response.is_done():
        response._answered()
        for hook in _on_answered:
            try:
                hook(interaction)
            except Exception:
                log.exception("a hook after answering %s failed", describe(interaction))


async def quiet(max_wait: float) -> None:
    """Return once no interaction is waiting for its answer (or after ``max_wait`` seconds):
    work that can wait — the live hands of the players whose click is not being answered,
    the spectators' views — goes between the players' answers, never ahead of them in the
    event loop.  Every waiter shares one future, resolved when the last answer goes out: an
    answer costs one lookup, however many wait."""
    loop = asyncio.get_running_loop()
    if not _waiting.get(loop):
        return
    quieted = _quiet.get(loop)
    if quieted is None:
        quieted = _quiet[loop] = loop.create_future()
    await asyncio.wait((quieted,), timeout=max_wait)


def guard(
    interaction: discord.Interaction[Any], *, public: bool = False, kind: Kind | None = None
) -> TimelyResponse:
    """Give ``interaction`` a :class:`TimelyResponse` and start its watchdog (idempotent).
    Call it before anything touches ``interaction.response``.  ``kind``: what it is, for the
    metrics (``None``: not counted)."""
    current = getattr(interaction, "_cs_response", None)
    if isinstance(current, TimelyResponse):
        return current
    autocomplete = interaction.type is discord.InteractionType.autocomplete
    response = TimelyResponse(interaction, public, None if autocomplete else kind)
    interaction._cs_response = response  # type: ignore[attr-defined]
    logcontext.GUILD.set(interaction.guild_id)  # the log lines of its handling name its server
    if response.kind is not None:
        metrics.received(*response.kind)
    if not autocomplete:
        age = (datetime.now(UTC) - interaction.created_at).total_seconds()
        delay = min(max(DEFER_AFTER_S - max(age, 0.0), 0.0), DEFER_AFTER_S)
        loop = asyncio.get_running_loop()
        response.watchdog = loop.call_later(delay, response._wake)
        response.waits = True
        _waiting[loop] = _waiting.get(loop, 0) + 1
    return response
