"""Fixtures: a fresh database file with every migration applied, and its league store."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store.db import Database
from bot.store.league import LeagueStore


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    async with Database.open(str(tmp_path / "league.db")) as database:
        yield database


@pytest.fixture
def store(db: Database) -> LeagueStore:
    return LeagueStore(db)
