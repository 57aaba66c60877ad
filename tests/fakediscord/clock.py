"""The clock Discord counts an interaction's 3 seconds on: it stands still while the fake does.

Discord starts an interaction's deadline on its own servers, which keep running whatever the
bot's machine does.  The fake runs inside the test process instead, and that process stops now
and then: a full garbage collection walks everything the test session holds, and on a busy
machine the process is not scheduled for a while.  On a plain clock that time counts against
the bot, although the fake could neither send the interaction nor receive the answer meanwhile
(a whole-suite run at load 14 charged a 'refresh' 4.78 s that way; alone it takes 10 ms).

:class:`DiscordClock` is ``time.monotonic()`` minus the time the fake's event loop stood still:
a ticker wakes every :data:`TICK` seconds and adds how late it woke, and a stall still under way
counts up to the moment the clock is read.  Everything the bot does — its own pauses, its own
slowness under load — stays on the clock, so "answered within 3 s" keeps meaning what Discord
means by it.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Final

TICK: Final = 0.05


class DiscordClock:
    def __init__(self) -> None:
        self._stood_still = 0.0
        self._due: float | None = None  # when the ticker should wake next (monotonic)
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start watching the running loop (idempotent)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._tick())

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._due = None

    def stood_still(self) -> float:
        """Seconds the fake's loop stood still so far, a stall under way included."""
        due = self._due
        late = 0.0 if due is None else max(0.0, time.monotonic() - due)
        return self._stood_still + late

    def now(self) -> float:
        """Seconds on Discord's clock (an arbitrary origin, like ``time.monotonic()``)."""
        return time.monotonic() - self.stood_still()

    def advance(self, seconds: float) -> None:
        """Move Discord's clock ``seconds`` ahead, as if that much time had passed for
        Discord (not for the bot): every interaction token ages by as much (a test of the
        15-minute token lifetime runs in a moment).  Only do it while no interaction waits
        for its answer: its 3 s would be gone too."""
        self._stood_still -= seconds

    async def _tick(self) -> None:
        while True:
            self._due = time.monotonic() + TICK
            await asyncio.sleep(TICK)
            self._stood_still += max(0.0, time.monotonic() - self._due)
