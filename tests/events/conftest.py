"""The tournament director's tests run on a real database: SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.store.db import Database


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[Database]:
    async with Database.open(database_url) as db:
        yield db
