"""Memory stays bounded however many games a process plays: a finished table is freed by
reference counting (it needs no full garbage collection, which at 200 tables is the bot's
longest pause, see docs/benchmarks.md *Discord load*), and tables opened and finished over
and over, with the collector set as the bot sets it (bot/collector.py), leave nothing of ours
behind but the capped record of recent games that **Play again** uses."""

from __future__ import annotations

import gc
import random
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot import collector
from bot.engine.game import Game
from bot.store.db import Database
from bot.tables.service import TableService
from bot.tables.state import Table
from tests.tables.test_service import CHANNEL, act_once, decide, started_table

KEPT = 2  # finished games kept for Play again (the bot keeps 2,000)


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    async with Database.open(str(tmp_path / "m.db")) as db:
        svc = TableService(db, decide, test_seed=5, bot_delay=0, finished_kept=KEPT)
        yield svc
        await svc.close()


@pytest.fixture
def as_the_bot_collects() -> Iterator[None]:
    """The collector as the bot sets it after start-up; put back afterwards."""
    threshold = gc.get_threshold()
    collector.settle()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


async def play_one_game(svc: TableService, rng: random.Random) -> None:
    """Open a table, seat four people, play it to the end (100 points: a few hands)."""
    table = await started_table(svc, target=100)
    while table.status != "finished":
        await act_once(svc, table, rng)


def alive(kind: type) -> int:
    return sum(1 for o in gc.get_objects() if isinstance(o, kind))


def ours() -> int:
    """Objects of the bot's own classes the collector tracks."""
    return sum(1 for o in gc.get_objects() if str(type(o).__module__).startswith("bot."))


async def test_a_finished_table_is_freed_by_reference_counting(service: TableService) -> None:
    rng = random.Random(1)
    gc.collect()
    # Earlier tests in this process may keep games of their own (module caches): count ours.
    tables, games = alive(Table), alive(Game)
    gc.disable()  # what is freed now is freed without the cyclic collector
    try:
        for _ in range(3):
            await play_one_game(service, rng)
            assert service.registry.find_in_channel(CHANNEL) is None
            assert alive(Table) == tables
            assert alive(Game) == games
    finally:
        gc.enable()


@pytest.mark.usefixtures("as_the_bot_collects")
async def test_games_played_over_and_over_leave_nothing_of_ours_behind(
    service: TableService,
) -> None:
    rng = random.Random(2)
    counts = []
    for _ in range(12):
        await play_one_game(service, rng)
        gc.collect()  # the full pass the bot's collector runs every FULL_EVERY young ones
        counts.append(ours())
    assert len(service.registry._finished) == KEPT
    warm = counts[KEPT + 1 :]  # once the record of finished games is full
    assert warm == [warm[0]] * len(warm), counts
