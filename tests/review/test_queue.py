"""The review queue against a real database: one job works at a time, a game asked for by one
of its own players goes before the games of others, and the queue is bounded (own games keep
places of their own).

The worker runs each chunk of work only once the test opens its gate, so jobs stay queued for
as long as a test looks at them: nothing here depends on how fast the machine is."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from bot.review import service as review_service
from bot.review.decisions import replay_game
from bot.review.service import QueueFull, ReviewJob, ReviewService
from bot.store.db import Database
from bot.store.reviews import ReviewStore
from tests.review.test_service import a_game


class Gate(ThreadPoolExecutor):
    """A one-thread pool whose work starts only while the gate is open."""

    def __init__(self) -> None:
        super().__init__(1)
        self.open = threading.Event()

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        def gated() -> Any:
            self.open.wait(120)
            return fn(*args, **kwargs)

        return super().submit(gated)


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    async with Database.open(str(tmp_path / "db.sqlite")) as database:
        yield database


@pytest.fixture
def gate() -> Iterator[Gate]:
    pool = Gate()
    try:
        yield pool
    finally:
        pool.open.set()
        pool.shutdown(wait=True)


async def games(db: Database, n: int) -> list[tuple[int, dict[str, Any]]]:
    return [await a_game(db, seed) for seed in range(21, 21 + n)]


@pytest.fixture
async def reviews(db: Database, gate: Gate) -> AsyncIterator[ReviewService]:
    service = ReviewService(ReviewStore(db), lambda: gate, worlds=2, game_budget_s=0.2, chunk=8)
    try:
        yield service
    finally:
        gate.open.set()
        await service.close()


def start(
    reviews: ReviewService, game: tuple[int, dict[str, Any]], *, own: bool = False
) -> ReviewJob:
    game_id, doc = game
    return reviews.start(game_id, doc, replay_game(doc), own=own)


async def finished_in_order(db: Database) -> list[int]:
    rows = await db.fetch("SELECT game_id FROM review_analyses ORDER BY rowid", ())
    return [int(r[0]) for r in rows]


async def test_a_players_own_game_goes_before_the_games_of_others(
    db: Database, gate: Gate, reviews: ReviewService
) -> None:
    first, other1, other2, own = await games(db, 4)
    a = start(reviews, first)
    b = start(reviews, other1)
    c = start(reviews, other2)
    assert (a.ahead, b.ahead, c.ahead) == (0, 1, 2), "first come, first served"
    d = start(reviews, own, own=True)
    assert (a.ahead, d.ahead, b.ahead, c.ahead) == (0, 1, 2, 3), "the own game goes second"
    gate.open.set()
    await asyncio.gather(*(j.task for j in (a, b, c, d) if j.task is not None))
    assert all(j.result is not None for j in (a, b, c, d))
    assert await finished_in_order(db) == [first[0], own[0], other1[0], other2[0]]


async def test_a_player_asking_moves_a_queued_game_ahead(
    db: Database, gate: Gate, reviews: ReviewService
) -> None:
    first, other, theirs = await games(db, 3)
    a = start(reviews, first)
    b = start(reviews, other)
    c = start(reviews, theirs)
    assert c.ahead == 2
    again = start(reviews, theirs, own=True)  # one of its players asks too: the same job
    assert again is c
    assert (c.ahead, b.ahead) == (1, 2)
    assert a.ahead == 0
    gate.open.set()
    await asyncio.gather(*(j.task for j in (a, b, c) if j.task is not None))
    assert await finished_in_order(db) == [first[0], theirs[0], other[0]]


async def test_the_queue_is_bounded_and_keeps_places_for_own_games(
    db: Database, gate: Gate, reviews: ReviewService
) -> None:
    queue, others = review_service.QUEUE, review_service.OTHERS
    pool = await games(db, queue + 1)
    jobs = [start(reviews, g) for g in pool[:others]]
    with pytest.raises(QueueFull) as full:
        start(reviews, pool[others])
    assert full.value.retry_after_s == pytest.approx(0.2 + review_service.SLACK_S)
    assert start(reviews, pool[0]) is jobs[0], "asking for a queued game is always possible"
    jobs += [start(reviews, g, own=True) for g in pool[others:queue]]
    with pytest.raises(QueueFull):
        start(reviews, pool[queue], own=True)
    # The running job, then the own games, then the others' in the order they were asked.
    assert [j.ahead for j in jobs] == [
        0,
        *range(queue - others + 1, queue),
        *range(1, queue - others + 1),
    ]
    gate.open.set()
    await asyncio.gather(*(j.task for j in jobs if j.task is not None))
    start(reviews, pool[queue], own=True)  # room again once the queue has run


async def test_a_job_cancelled_while_it_waits_does_not_hold_up_the_others(
    db: Database, gate: Gate, reviews: ReviewService
) -> None:
    first, cancelled, last = await games(db, 3)
    a = start(reviews, first)
    b = start(reviews, cancelled)
    c = start(reviews, last)
    assert b.task is not None
    b.task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await b.task
    assert b.failed
    assert c.ahead == 1
    gate.open.set()
    await asyncio.gather(*(j.task for j in (a, c) if j.task is not None))
    assert await finished_in_order(db) == [first[0], last[0]]
