"""Each open tournament's one alarm: its start time during sign-up (or sooner the expiry of a
partner's invitation), its round's deadline while running, or sooner a retry of a table that
could not be seated.  When it rings the director's ``tick`` decides what is due (it reads the
stored state, so a stale alarm does no harm).

Retries back off: 30 s after the first failed pass, then twice as long each time up to ten
minutes, until a pass seats everything.  A deadline that has passed never rings again at once
while a table is still to be seated (that was a tight loop of failed seatings): the retry's
back-off holds then too."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.events.pairing.model import Tournament, TournamentStatus

log = logging.getLogger(__name__)

RETRY_S = 30.0  # a table that could not be seated (Discord refused a thread) is tried again
MAX_RETRY_S = 600.0


class Alarms:
    def __init__(self, clock: Callable[[], float], ring: Callable[[int], Awaitable[None]]) -> None:
        self.clock = clock
        self.ring = ring  # the director's tick
        self._timers: dict[int, asyncio.Task[None]] = {}
        self._failures: dict[int, int] = {}  # failed passes in a row, by tournament
        self.due: dict[int, float] = {}  # when each armed alarm rings (clock time)

    def arm(self, t: Tournament, retry: bool = False) -> None:
        """Set ``t``'s alarm afresh from its stored state (none once it is over or paused);
        ``retry``: a pass could not seat a table, so it rings again after a back-off."""
        self.disarm(t.id)
        if not t.open:
            self._failures.pop(t.id, None)
            return
        when: float | None = None
        if t.status == TournamentStatus.SIGNUP:  # the start, or sooner an invitation's expiry
            when = min([t.starts_at, *(i.expires_at for i in t.invitations.values())])
        elif t.status == TournamentStatus.RUNNING:
            when = t.round_deadline
        if retry:
            failures = self._failures[t.id] = self._failures.get(t.id, 0) + 1
            wait = min(RETRY_S * 2 ** (failures - 1), MAX_RETRY_S)
            now = self.clock()
            when = now + wait if when is None or when <= now else min(when, now + wait)
            log.warning(
                "tournament %s: a table could not be seated; trying again in %.0f s", t.id, wait
            )
        else:
            self._failures.pop(t.id, None)
        if when is not None:
            self.due[t.id] = when
            self._timers[t.id] = asyncio.create_task(self._wait(t.id, when))

    def disarm(self, tid: int) -> None:
        self.due.pop(tid, None)
        timer = self._timers.pop(tid, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()

    def forget(self, tid: int) -> None:
        """The tournament ended: no alarm, nothing kept."""
        self.disarm(tid)
        self._failures.pop(tid, None)

    async def _wait(self, tid: int, when: float) -> None:
        await asyncio.sleep(max(0.0, when - self.clock()))
        self._timers.pop(tid, None)
        self.due.pop(tid, None)
        await self.ring(tid)

    def close(self) -> None:
        for tid in list(self._timers):
            self.disarm(tid)
        self._failures.clear()
