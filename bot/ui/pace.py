"""The pace of the bot's requests to Discord: what *arrives* stays within the global limit.

Discord allows a bot 50 requests a second in all (its global rate limit, answered with a 429
that stops every request of the bot).  Interaction endpoints are not counted — the callback
and the webhook routes an interaction token opens (``@original`` edits, follow-ups), which
have per-route limits of their own — so only requests made with the bot's token are.

Budgets upstream (the publisher's write budget, :func:`bot.ui.publisher.write_budget`) decide
*which* write goes when, and are taken before the write is rendered.  Between that moment and
the request on the wire a busy event loop, discord.py's per-route queues, or its global lock
after a 429 (which holds every request, then lets them all go at once) can bunch writes taken
evenly into one moment.  So every bot-token request takes one more step immediately before
aiohttp sends it, through aiohttp's trace hook (the last point discord.py lets us in,
``Client(http_trace=...)``): :class:`Pace` lets one request through every ``1 / rate``
seconds, in the order they came.  Spaced so, a second holds at most ``rate × (1 + j) + 1``
arrivals however the requests were bunched before, where ``j`` is how much longer one request
takes from this step to Discord than a later one — at 40 a second, 50 only if that grows to a
quarter of a second.  Interaction requests never wait here.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable, Mapping
from types import SimpleNamespace
from typing import Final

import aiohttp

# The interaction endpoints (not bound to the global limit): the callback, and the webhook
# routes of a token (an interaction's, or a webhook's own).
_INTERACTION_ROUTE: Final = re.compile(r"/api/v\d+/(?:interactions/\d+|webhooks/\d+)/[^/]+")


def counted(path: str, headers: Mapping[str, str]) -> bool:
    """Whether Discord counts a request against the bot's global limit: made with the bot's
    token, and not to an interaction endpoint."""
    authorization = headers.get("Authorization") or ""
    return authorization.startswith("Bot ") and _INTERACTION_ROUTE.match(path) is None


class Pace:
    """One request every ``1 / rate`` seconds, first come first served.

    A request is let through no sooner than ``1 / rate`` after the previous one was — on the
    clock at the moment it is let through, so however late a busy loop wakes a waiter, two
    requests never go closer together than that."""

    def __init__(
        self,
        rate: float,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        if rate <= 0:
            raise ValueError("a pace needs a positive rate")
        self.rate = rate
        self.gap = 1.0 / rate
        self._clock = clock
        self._sleep = sleep
        self._next = float("-inf")  # when the next request may go
        self._turn = asyncio.Lock()
        self.taken = 0  # requests let through
        self.waited = 0  # of which had to wait for their turn

    async def take(self) -> None:
        async with self._turn:
            wait = self._next - self._clock()
            if wait > 0:
                self.waited += 1
                await self._sleep(wait)
            self._next = max(self._clock(), self._next) + self.gap
            self.taken += 1


def pacing_trace(pace: Pace) -> aiohttp.TraceConfig:
    """An aiohttp trace that takes ``pace`` before each bot-token request is sent (given to
    discord.py as ``http_trace``: its session runs every request of the bot through it)."""

    async def on_request_start(
        session: aiohttp.ClientSession,
        context: SimpleNamespace,
        params: aiohttp.TraceRequestStartParams,
    ) -> None:
        if counted(params.url.path, params.headers):
            await pace.take()

    trace = aiohttp.TraceConfig()
    trace.on_request_start.append(on_request_start)
    return trace
