"""After start-up the bot freezes the objects it keeps for good and spaces full collections
out (bot/collector.py); the process's collector is put back as it was after each test."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from bot import collector


@pytest.fixture
def restored_collector() -> Iterator[None]:
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


class Node:
    """A cycle: only the cyclic collector can free it."""

    def __init__(self) -> None:
        self.me = self


@pytest.mark.usefixtures("restored_collector")
def test_settle_freezes_what_survived_and_spaces_full_collections_out() -> None:
    kept = [Node() for _ in range(10)]
    young, middle, _ = gc.get_threshold()
    collector.settle()
    assert gc.get_freeze_count() >= len(kept)
    assert gc.get_threshold() == (young, middle, collector.FULL_EVERY)


@pytest.mark.usefixtures("restored_collector")
def test_no_collection_walks_what_was_frozen() -> None:
    node = Node()
    alive = weakref.ref(node)
    collector.settle()
    del node  # garbage now, but frozen: a full collection does not even look at it
    gc.collect()
    assert alive() is not None
    gc.unfreeze()
    gc.collect()
    assert alive() is None  # it was garbage all along: freezing was what kept it
