"""The channel-write budget of one process: the order and average rate in which the tables'
channel writes (table-message edits, hand summaries, notices) are taken, below the pace of all
the bot's requests (:mod:`bot.ui.discord.pace`, which keeps what *arrives* at Discord within its 50
requests a second)."""

from __future__ import annotations

import asyncio
import time


class TokenBucket:
    """``rate`` writes a second on average, bursts up to ``burst``.

    ``take(urgent=True)`` (posts people wait for: hand summaries, notices) is served before
    every ordinary taker (table-message edits, which coalesce and lose nothing by waiting)."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.updated = time.monotonic()
        self._lock = asyncio.Lock()
        self._urgent = 0  # urgent takers waiting

    def _try_take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def _refill_s(self) -> float:
        return max(1 - self.tokens, 0.05) / self.rate

    async def take(self, urgent: bool = False) -> None:
        if urgent:
            self._urgent += 1
            try:
                while True:
                    if self._try_take():
                        return
                    await asyncio.sleep(self._refill_s())
            finally:
                self._urgent -= 1
        async with self._lock:
            while True:
                if not self._urgent and self._try_take():
                    return
                await asyncio.sleep(self._refill_s())


def write_budget(writes_per_second: float) -> TokenBucket:
    """The channel-write budget of one process: ``writes_per_second`` on average, bursts of an
    eighth.  It orders the tables' writes, below the pace of all the bot's requests
    (:mod:`bot.ui.discord.pace`: what *arrives* stays within Discord's 50 a second), leaving the
    rest to its other requests (tournaments, threads, replays)."""
    return TokenBucket(writes_per_second, max(1, int(writes_per_second) // 8))
