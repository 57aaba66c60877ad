"""Reviews of finished games: the stored analysis when there is one, else one analysis job per
game running in the worker pool, whose progress anyone may watch.

* A second request for a game reads its stored analysis (one query, no computing).
* Two people asking for the same game while it is analysed share one job.
* One job runs at a time in the whole bot, one chunk of work after another, so computer
  players at live tables always find a free worker; a game's job stops at its CPU budget.
* The others wait in a bounded queue: a game reviewed by one of its own players goes before
  the games of others (then first come, first served), and at most :data:`QUEUE` jobs wait or
  run, at most :data:`OTHERS` of them for games their askers did not play — past that a new
  one is refused (:class:`QueueFull`) with the time the running job will have finished.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from bot import metrics
from bot.cooldowns import relative_time
from bot.errors import Refusal
from bot.i18n import _
from bot.review.analysis import (
    ANALYSIS_VERSION,
    CHUNK,
    DECISION_WORLDS,
    GAME_BUDGET_S,
    Analysis,
    ChunkResult,
    Opinion,
    analyse_chunk,
)
from bot.review.decisions import GameReplay, replay_game

log = logging.getLogger(__name__)

QUEUE: Final = 6  # review jobs waiting or running at once
OTHERS: Final = 4  # of which for games their askers did not play: own games keep two places
SLACK_S: Final = 10.0  # added to a running job's remaining budget when telling when to retry


class QueueFull(Refusal):
    """No place for another review now; ``retry_after_s`` estimates when one frees (the
    reason names that moment)."""

    def __init__(self, retry_after_s: float) -> None:
        super().__init__(
            _(
                "Reviews are queued up for the hard player right now "
                "(your own games go first). Try again {when}.",
                when=relative_time(time.time() + retry_after_s),
            )
        )
        self.retry_after_s = retry_after_s


class AnalysisStore(Protocol):
    """Where analyses are kept (``bot.store.reviews.ReviewStore``)."""

    async def load_analysis(self, game_id: int, version: int) -> bytes | None: ...

    async def save_analysis(
        self, game_id: int, version: int, data: bytes, cpu_s: float = 0.0
    ) -> None: ...


@dataclass(eq=False)
class ReviewJob:
    """One game's analysis in progress (or done)."""

    game_id: int
    total: int
    own: bool = False  # asked for by one of the game's players: it goes first
    order: int = 0  # when it was asked for (first come, first served among equals)
    done: int = 0
    cpu_s: float = 0.0
    ahead: int = 0  # jobs before this one (the running one included); 0 once it runs
    result: Analysis | None = None
    failed: bool = False
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None
    turn: asyncio.Future[None] | None = None  # set while it waits for its turn

    @property
    def finished(self) -> bool:
        return self.result is not None or self.failed

    async def wait_change(self, timeout: float) -> None:  # noqa: ASYNC109 - polling UI updates
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.changed.wait(), timeout)
        self.changed.clear()


class ReviewService:
    def __init__(
        self,
        store: AnalysisStore,
        executor: Callable[[], Executor],
        *,
        worlds: int = DECISION_WORLDS,
        game_budget_s: float = GAME_BUDGET_S,
        chunk: int = CHUNK,
    ) -> None:
        self.store = store
        self._executor = executor
        self.worlds = worlds
        self.game_budget_s = game_budget_s
        self.chunk = chunk
        self._jobs: dict[int, ReviewJob] = {}
        self._running: ReviewJob | None = None  # the one job that works now
        self._waiting: list[ReviewJob] = []
        self._asked = 0
        self.computed = 0  # analyses computed (for tests and logs)

    async def stored(self, game_id: int) -> Analysis | None:
        data = await self.store.load_analysis(game_id, ANALYSIS_VERSION)
        return None if data is None else Analysis.decode(data)

    def running(self, game_id: int) -> ReviewJob | None:
        return self._jobs.get(game_id)

    @property
    def queued(self) -> int:
        """Reviews waiting or working now."""
        return len(self._jobs)

    def check_room(self, own: bool) -> None:
        """Raise :class:`QueueFull` unless a new job (for one of its own players' games when
        ``own``) has a place in the queue now."""
        jobs = list(self._jobs.values())
        others = sum(not j.own for j in jobs)
        if len(jobs) >= QUEUE or (not own and others >= OTHERS):
            running = self._running
            left = self.game_budget_s - running.cpu_s if running is not None else 0.0
            raise QueueFull(max(left, 0.0) + SLACK_S)

    def start(
        self, game_id: int, doc: dict[str, Any], replay: GameReplay, *, own: bool = False
    ) -> ReviewJob:
        """The game's job: the one already queued or running (moved ahead of the others'
        games when one of its players asks), or a new one — if the queue has room for it
        (:meth:`check_room`; :class:`QueueFull` otherwise)."""
        job = self._jobs.get(game_id)
        if job is not None:
            if own and not job.own:
                job.own = True
                self._tell_positions()
            return job
        self.check_room(own)
        self._asked += 1
        job = ReviewJob(game_id, len(replay.decisions), own=own, order=self._asked)
        self._jobs[game_id] = job
        self._enqueue(job)
        job.task = asyncio.create_task(self._run(job, doc), name=f"review-{game_id}")
        job.task.add_done_callback(lambda _: self._gone(job))
        return job

    # ------------------------------------------------------------------ turns
    def _enqueue(self, job: ReviewJob) -> None:
        """``job`` works now if nothing else does, else waits for its turn."""
        if self._running is None and not self._waiting:
            self._running = job
        else:
            job.turn = asyncio.get_running_loop().create_future()
            self._waiting.append(job)
        self._tell_positions()

    async def _turn(self, job: ReviewJob) -> None:
        """Wait until ``job`` is the one that works."""
        if job.turn is None:
            return
        try:
            await job.turn
        except asyncio.CancelledError:
            if job.turn.done() and not job.turn.cancelled():
                self._done(job)  # its turn came as it was cancelled: pass it on
            elif job in self._waiting:
                self._waiting.remove(job)
                self._tell_positions()
            raise
        finally:
            job.turn = None

    def _gone(self, job: ReviewJob) -> None:
        """``job``'s task ended, however (a task cancelled before it began runs none of its
        own clean-up): its place in the queue goes, and the turn if it had it."""
        if job in self._waiting:
            self._waiting.remove(job)
        if job.turn is not None and not job.turn.done():
            job.turn.cancel()
        self._done(job)
        if self._jobs.get(job.game_id) is job:
            del self._jobs[job.game_id]
        if job.result is None:
            job.failed = True
        job.changed.set()
        self._tell_positions()

    def _done(self, job: ReviewJob) -> None:
        """``job`` stops working: the next one (own games first, then first asked) starts."""
        if self._running is not job:
            return
        self._running = None
        while self._waiting:
            nxt = min(self._waiting, key=lambda j: (not j.own, j.order))
            self._waiting.remove(nxt)
            if nxt.turn is not None and not nxt.turn.done():  # not gone meanwhile
                self._running = nxt
                nxt.turn.set_result(None)
                break
        self._tell_positions()

    def _tell_positions(self) -> None:
        """Update every job's place in the queue and wake whoever watches it."""
        queue = sorted(self._waiting, key=lambda j: (not j.own, j.order))
        if self._running is not None:
            queue.insert(0, self._running)
        for place, j in enumerate(queue):
            if j.ahead != place:
                j.ahead = place
                j.changed.set()

    async def _run(self, job: ReviewJob, doc: dict[str, Any]) -> None:
        opinions: dict[int, Opinion] = {}
        cpu = 0.0
        examined = 0
        loop = asyncio.get_running_loop()
        key = f"game-{job.game_id}"
        try:
            await self._turn(job)
            log.info("reviewing game %d (%d waiting)", job.game_id, len(self._waiting))
            for start in range(0, job.total, self.chunk):
                if cpu >= self.game_budget_s:
                    log.info("review of game %d stopped at its CPU budget", job.game_id)
                    break
                indices = list(range(start, min(job.total, start + self.chunk)))
                part = await self._chunk(loop, doc, indices, key)
                cpu += part.cpu_s
                job.cpu_s = cpu
                examined += len(part.examined)
                opinions.update((o.decision, o) for o in part.opinions)
                job.done = start + len(indices)
                job.changed.set()
            data = Analysis(ANALYSIS_VERSION, opinions, examined, job.total, cpu).encode()
            await self.store.save_analysis(job.game_id, ANALYSIS_VERSION, data, cpu)
            self.computed += 1
            analysis = Analysis.decode(data)  # exactly what a later request reads
            job.result = analysis
            log.info(
                "reviewed game %d: %d decisions, %d opinions, %.1f s CPU",
                job.game_id,
                examined,
                len(opinions),
                cpu,
            )
        except asyncio.CancelledError:
            job.failed = True
            raise
        except Exception:
            log.exception("reviewing game %d failed", job.game_id)
            job.failed = True
        finally:
            self._done(job)
            job.changed.set()
            self._jobs.pop(job.game_id, None)

    async def _chunk(
        self, loop: asyncio.AbstractEventLoop, doc: dict[str, Any], indices: list[int], key: str
    ) -> ChunkResult:
        """One chunk in a worker process; tried once more on fresh workers if a worker died
        (a second death fails this one review, logged, and nothing else)."""
        for attempt in (1, 2):
            try:
                return await loop.run_in_executor(
                    self._executor(), analyse_chunk, doc, indices, key, self.worlds
                )
            except BrokenProcessPool:
                metrics.worker_crash("review")
                if attempt == 2:
                    raise
                log.warning("a worker process died during a review chunk; trying it again")
        raise AssertionError("unreachable")

    async def close(self) -> None:
        tasks = [j.task for j in self._jobs.values() if j.task is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t


def replay_or_none(doc: dict[str, Any]) -> GameReplay | None:
    """The game of a stored record, or ``None`` if the record does not replay."""
    try:
        return replay_game(doc)
    except Exception:
        log.exception("a stored record does not replay")
        return None
