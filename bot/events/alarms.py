"""Each open tournament's one alarm: its start time during sign-up (or sooner the expiry of a
partner's invitation), its round's deadline while running, or sooner a retry of a table that
could not be seated.  When it rings the director's
``tick`` decides what is due (it reads the stored state, so a stale alarm does no harm)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from bot.events.pairing.model import Tournament, TournamentStatus

RETRY_S = 30.0  # a table that could not be seated (Discord refused a thread) is tried again


class Alarms:
    def __init__(self, clock: Callable[[], float], ring: Callable[[int], Awaitable[None]]) -> None:
        self.clock = clock
        self.ring = ring  # the director's tick
        self._timers: dict[int, asyncio.Task[None]] = {}

    def arm(self, t: Tournament, retry: bool = False) -> None:
        """Set ``t``'s alarm afresh from its stored state (none once it is over or paused)."""
        self.disarm(t.id)
        if not t.open:
            return
        when: float | None = None
        if t.status == TournamentStatus.SIGNUP:  # the start, or sooner an invitation's expiry
            when = min([t.starts_at, *(i.expires_at for i in t.invitations.values())])
        elif t.status == TournamentStatus.RUNNING:
            when = t.round_deadline
        if retry:
            when = min(when or float("inf"), self.clock() + RETRY_S)
        if when is not None:
            self._timers[t.id] = asyncio.create_task(self._wait(t.id, when))

    def disarm(self, tid: int) -> None:
        timer = self._timers.pop(tid, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()

    async def _wait(self, tid: int, when: float) -> None:
        await asyncio.sleep(max(0.0, when - self.clock()))
        self._timers.pop(tid, None)
        await self.ring(tid)

    def close(self) -> None:
        for tid in list(self._timers):
            self.disarm(tid)
