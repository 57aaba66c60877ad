"""The pace of the bot's requests to Discord: what *arrives* stays within the global limit.

Discord allows a bot 50 requests a second in all (its global rate limit, answered with a 429
that stops every request of the bot).  Interaction endpoints are not counted — the callback
and the webhook routes an interaction token opens (``@original`` edits, follow-ups), which
have per-route limits of their own — so only requests made with the bot's token are.

Budgets upstream (the publisher's write budget, :func:`bot.ui.discord.write_budget.write_budget`)
decide *which* write goes when, and are taken before the write is rendered.  Between that moment and
the request on the wire a busy event loop, discord.py's per-route queues, or its global lock after a
429 (which holds every request, then lets them all go at once) can bunch writes taken evenly into
one moment.  So every bot-token request takes one more step immediately before aiohttp sends it,
through aiohttp's trace hooks (the last point discord.py lets us in, ``Client(http_trace=...)``),
and reports when its answer came: :class:`Pace`.

A request reaches Discord at some moment between the two — after it was let through, before
its answer came — however late a busy loop sends it or reads the answer.  So the pace counts a
request from the moment it is let through until ``window`` seconds after its answer, and lets
a new one through only while fewer than ``limit`` are counted: no ``window`` seconds can then
hold more than ``limit`` arrivals, whatever the delays on the way (slow answers only lower the
rate).  Besides, requests are let through one every ``1 / rate`` seconds, in the order they
came, so that they do not leave in bursts.  Interaction requests never wait here.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import re
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from types import SimpleNamespace
from typing import Final

import aiohttp

from bot import metrics

# The interaction endpoints (not bound to the global limit): the callback, and the webhook
# routes of a token (an interaction's, or a webhook's own).
_INTERACTION_ROUTE: Final = re.compile(r"/api/v\d+/(?:interactions/\d+|webhooks/\d+)/[^/]+")
# A request without an answer for this long is counted as answered then (aiohttp ends every
# request it started with an answer or an error; this only bounds a leak).
STALE_S: Final = 120.0


def counted(path: str, headers: Mapping[str, str]) -> bool:
    """Whether Discord counts a request against the bot's global limit: made with the bot's
    token, and not to an interaction endpoint."""
    authorization = headers.get("Authorization") or ""
    return authorization.startswith("Bot ") and _INTERACTION_ROUTE.match(path) is None


class Pace:
    """At most ``limit`` requests arriving in any ``window`` seconds, let through one every
    ``1 / rate`` seconds, first come first served (see the module).

    :meth:`take` waits for a request's turn and returns its ticket; :meth:`answered` is told
    when its answer came (or it failed).  Spacing is measured on the clock at the moment a
    request is let through, so however late a busy loop wakes a waiter, two requests never go
    closer together than ``1 / rate``."""

    def __init__(
        self,
        rate: float,
        limit: int,
        window: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        if rate <= 0 or limit < 1 or window <= 0:
            raise ValueError("a pace needs a positive rate, limit and window")
        self.rate, self.limit, self.window = rate, limit, window
        self.gap = 1.0 / rate
        self._clock = clock
        self._sleep = sleep
        self._next = float("-inf")  # when the next request may go
        self._turn = asyncio.Lock()
        self._tickets = itertools.count()
        self._open: dict[int, float] = {}  # in flight: ticket → when it was let through
        self._answered: deque[float] = deque()  # when recent answers came, oldest first
        self._answer = asyncio.Event()  # set by each answer (a waiter for the limit wakes)
        self.taken = 0  # requests let through
        self.waited = 0  # of which had to wait for their turn
        self.held = 0  # of which waited because ``limit`` were counted
        self.queued = 0  # requests waiting for their turn now

    def counted_now(self) -> int:
        """Requests that may have arrived within the last ``window`` (or may still)."""
        self._forget(self._clock())
        return len(self._open) + len(self._answered)

    async def take(self) -> int:
        entered = self._clock()
        self.queued += 1
        try:
            return await self._take(entered)
        finally:
            self.queued -= 1

    async def _take(self, entered: float) -> int:
        async with self._turn:
            waited = held = False
            while True:
                now = self._clock()
                self._forget(now)
                if len(self._open) + len(self._answered) >= self.limit:
                    held = True
                    if self._answered:  # the oldest answer leaves the window then
                        await self._sleep(self._answered[0] + self.window - now)
                    else:  # every one is in flight: wait for an answer
                        self._answer.clear()
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(self._answer.wait(), STALE_S)
                    continue
                if self._next > now:
                    waited = True
                    await self._sleep(self._next - now)
                    continue
                break
            self.waited += waited or held
            self.held += held
            self._next = now + self.gap
            self.taken += 1
            ticket = next(self._tickets)
            self._open[ticket] = now
            metrics.pace_wait(now - entered)
            return ticket

    def answered(self, ticket: int) -> None:
        if self._open.pop(ticket, None) is not None:
            self._answered.append(self._clock())
            self._answer.set()

    def _forget(self, now: float) -> None:
        answered = self._answered
        while answered and answered[0] <= now - self.window:
            answered.popleft()
        for ticket, since in list(self._open.items()):
            if since <= now - STALE_S:
                del self._open[ticket]


def pacing_trace(pace: Pace) -> aiohttp.TraceConfig:
    """An aiohttp trace that takes ``pace`` before each bot-token request is sent and tells it
    when the answer came (given to discord.py as ``http_trace``: its session runs every request
    of the bot through it)."""

    async def on_request_start(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestStartParams,
    ) -> None:
        if counted(params.url.path, params.headers):
            context.pace_ticket = await pace.take()

    async def on_request_done(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestEndParams | aiohttp.TraceRequestExceptionParams,
    ) -> None:
        ticket = getattr(context, "pace_ticket", None)
        if ticket is not None:
            pace.answered(ticket)

    trace = aiohttp.TraceConfig()
    trace.on_request_start.append(on_request_start)
    trace.on_request_end.append(on_request_done)
    trace.on_request_exception.append(on_request_done)
    return trace
