"""Reviews of finished games: the stored analysis when there is one, else one analysis job per
game running in the worker pool, whose progress anyone may watch.

* A second request for a game reads its stored analysis (one query, no computing).
* Two people asking for the same game while it is analysed share one job.
* At most one chunk of review work runs at a time in the whole bot, so computer players at
  live tables always find a free worker; a game's job stops at its CPU budget.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Protocol

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
    done: int = 0
    result: Analysis | None = None
    failed: bool = False
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None

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
        self._lane = asyncio.Semaphore(1)  # one chunk of review work at a time
        self.computed = 0  # analyses computed (for tests and logs)

    async def stored(self, game_id: int) -> Analysis | None:
        data = await self.store.load_analysis(game_id, ANALYSIS_VERSION)
        return None if data is None else Analysis.decode(data)

    def running(self, game_id: int) -> ReviewJob | None:
        return self._jobs.get(game_id)

    def start(self, game_id: int, doc: dict[str, Any], replay: GameReplay) -> ReviewJob:
        """The game's job: the one already running, or a new one."""
        job = self._jobs.get(game_id)
        if job is not None:
            return job
        job = ReviewJob(game_id, len(replay.decisions))
        self._jobs[game_id] = job
        job.task = asyncio.create_task(self._run(job, doc), name=f"review-{game_id}")
        return job

    async def _run(self, job: ReviewJob, doc: dict[str, Any]) -> None:
        opinions: dict[int, Opinion] = {}
        cpu = 0.0
        examined = 0
        loop = asyncio.get_running_loop()
        key = f"game-{job.game_id}"
        try:
            for start in range(0, job.total, self.chunk):
                if cpu >= self.game_budget_s:
                    log.info("review of game %d stopped at its CPU budget", job.game_id)
                    break
                indices = list(range(start, min(job.total, start + self.chunk)))
                async with self._lane:
                    part = await self._chunk(loop, doc, indices, key)
                cpu += part.cpu_s
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
