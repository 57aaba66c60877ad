"""The review service against a real database: an analysis is computed once and stored, a
second request reads it, two requests share one job, progress is reported, and a game's CPU
budget bounds the work."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from bot.league.recording import prepare_game
from bot.review.analysis import ANALYSIS_VERSION
from bot.review.decisions import replay_game
from bot.review.service import ReviewService
from bot.store.db import Database
from bot.store.league import LeagueStore
from bot.store.reviews import ReviewStore
from tests.league.games import finished_game

GUILD = 5


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    async with Database.open(str(tmp_path / "db.sqlite")) as database:
        yield database


@pytest.fixture
def pool() -> Any:
    with ThreadPoolExecutor(1) as executor:
        yield executor


async def a_game(db: Database, seed: int = 11) -> tuple[int, dict[str, Any]]:
    game = finished_game(seed, (101, None, 103, None), guild_id=GUILD)
    league = LeagueStore(db)
    async with db.transaction() as tx:
        await league.recorder.record_game(tx, prepare_game(game))
    game_id = await ReviewStore(db).game_of_table(GUILD, game.table_id)
    assert game_id is not None
    doc = await league.history.game_record(GUILD, game_id)
    assert doc is not None
    return game_id, doc


def service(db: Database, pool: Any, **budgets: Any) -> ReviewService:
    budgets.setdefault("worlds", 4)
    return ReviewService(ReviewStore(db), lambda: pool, **budgets)


async def test_an_analysis_is_computed_once_then_read(db: Database, pool: Any) -> None:
    reviews = service(db, pool)
    game_id, doc = await a_game(db)
    replay = replay_game(doc)
    assert await reviews.stored(game_id) is None
    job = reviews.start(game_id, doc, replay)
    progress = []
    while not job.finished:
        await job.wait_change(5)
        progress.append(job.done)
    assert job.result is not None
    assert progress == sorted(progress), "progress only goes forward"
    assert job.done == job.total == len(replay.decisions)
    assert job.result.complete
    assert job.result.opinions, "real choices got an opinion"
    assert reviews.computed == 1
    again = await reviews.stored(game_id)
    assert again == job.result, "the second request reads what the first computed"
    assert reviews.running(game_id) is None
    assert reviews.computed == 1
    raw = await ReviewStore(db).load_analysis(game_id, ANALYSIS_VERSION)
    assert raw is not None


async def test_two_requests_for_one_game_share_a_job(db: Database, pool: Any) -> None:
    reviews = service(db, pool)
    game_id, doc = await a_game(db)
    replay = replay_game(doc)
    first = reviews.start(game_id, doc, replay)
    second = reviews.start(game_id, doc, replay)
    assert first is second
    assert first.task is not None
    await first.task
    assert reviews.computed == 1


async def test_a_games_cpu_budget_bounds_its_analysis(db: Database, pool: Any) -> None:
    reviews = service(db, pool, worlds=8, game_budget_s=0.2, chunk=4)
    game_id, doc = await a_game(db)
    job = reviews.start(game_id, doc, replay_game(doc))
    assert job.task is not None
    await job.task
    result = job.result
    assert result is not None
    assert not result.complete
    assert 0 < result.examined < result.total
    # It stopped because the budget was spent, at the end of a chunk (never in the middle).
    assert result.cpu_s >= 0.2
    assert result.examined % 4 == 0


async def test_a_failing_analysis_is_reported_and_can_be_retried(db: Database, pool: Any) -> None:
    reviews = service(db, pool)
    game_id, doc = await a_game(db)
    broken = dict(doc, hands=[{"deal": {}}])
    job = reviews.start(game_id, broken, replay_game(doc))
    assert job.task is not None
    await job.task
    assert job.failed
    assert job.result is None
    assert await reviews.stored(game_id) is None
    retry = reviews.start(game_id, doc, replay_game(doc))
    assert retry is not job
    assert retry.task is not None
    await asyncio.wait_for(retry.task, 60)
    assert retry.result is not None
