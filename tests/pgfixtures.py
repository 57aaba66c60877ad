"""pytest fixtures for PostgreSQL: ``postgres_server`` (one per test session) and
``postgres_url`` (a fresh, empty database per test).  Skipped with one reason where no
PostgreSQL binaries exist, unless ``SPADES_REQUIRE_POSTGRES=1`` (then they fail)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.pgserver import PostgresServer, Unavailable, required


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    try:
        server = PostgresServer().start()
    except Unavailable as e:
        if required():
            pytest.fail(f"PostgreSQL is required here (SPADES_REQUIRE_POSTGRES=1): {e}")
        pytest.skip(str(e))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
async def postgres_url(postgres_server: PostgresServer) -> AsyncIterator[str]:
    url = await postgres_server.create_database()
    yield url
    await postgres_server.drop_database(url)


@pytest.fixture(params=["sqlite", "postgresql"])
async def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """A fresh, empty database of each backend in turn (the store contract runs on both)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'spades.db'}"
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    url = await server.create_database()
    yield url
    await server.drop_database(url)
