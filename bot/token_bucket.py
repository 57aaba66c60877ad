"""One rate limiter for the bot's own writes: a token bucket.

``rate`` tokens a second on average, at most ``burst`` at once; it starts full.  Three parts
of the bot pace their writes with it, each with its own figures: the tables' channel writes
(:func:`bot.ui.discord.write_budget.write_budget`), the spectators' edits of all tables
(:mod:`bot.tables.spectators`) and each player's live hand (:mod:`bot.tables.live`, one
bucket per player, inside Discord's five edits per two seconds per interaction token).

A taker either waits for its token (:meth:`TokenBucket.take`, in turn, with urgent takers
served first) or asks and waits itself when it has more to watch than the bucket
(:meth:`TokenBucket.try_take`, then :meth:`TokenBucket.wait_s`): a live hand naps until its
token comes *or the game moves*.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Final

# A taker that waits in :meth:`TokenBucket.take` sleeps at least this share of a token's
# refill: no busy loop of tiny sleeps when the bucket is all but full.
MIN_WAIT_TOKENS: Final = 0.05


class TokenBucket:
    """``rate`` tokens a second on average, at most ``burst`` at once (see the module).

    ``take(urgent=True)`` (posts people wait for: hand summaries, notices) is served before
    every ordinary taker (table-message edits, which coalesce and lose nothing by waiting);
    ordinary takers are served in the order they came."""

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self._clock = clock
        self.updated = clock()
        self._lock = asyncio.Lock()
        self._urgent = 0  # urgent takers waiting

    def refill(self) -> None:
        """Full again now (a new interaction token's edits: a fresh allowance)."""
        self.tokens, self.updated = float(self.burst), self._clock()

    def try_take(self) -> bool:
        """Take a token if there is one now (``False``: :meth:`wait_s` says for how long)."""
        now = self._clock()
        self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def wait_s(self) -> float:
        """Seconds until the next token, as of the last :meth:`try_take`."""
        return max(1 - self.tokens, 0.0) / self.rate

    async def take(self, urgent: bool = False) -> None:
        """Wait for a token and take it."""
        if urgent:
            self._urgent += 1
            try:
                while True:
                    if self.try_take():
                        return
                    await asyncio.sleep(self._nap_s())
            finally:
                self._urgent -= 1
        async with self._lock:
            while True:
                if not self._urgent and self.try_take():
                    return
                await asyncio.sleep(self._nap_s())

    def _nap_s(self) -> float:
        return max(self.wait_s(), MIN_WAIT_TOKENS / self.rate)
