"""One bot process for every refusal test: each test gets its own channel and members."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from tests.e2e.conftest import World
from tests.e2e.flows import Shared, fresh_world, shared_bot


@pytest_asyncio.fixture(scope="package", loop_scope="package")
async def shared(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Shared]:
    async with shared_bot(tmp_path_factory.mktemp("refusals")) as s:
        yield s


@pytest.fixture
def world(shared: Shared) -> World:
    return fresh_world(shared)
