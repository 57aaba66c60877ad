"""Fixtures: a fresh database of each backend with every migration applied, and its league
store (so every league test is a contract test of both backends)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.store.db import Database
from bot.store.league import LeagueStore


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[Database]:
    async with Database.open(database_url) as database:
        yield database


@pytest.fixture
def store(db: Database) -> LeagueStore:
    return LeagueStore(db)
