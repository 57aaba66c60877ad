"""After start-up the bot freezes the objects it keeps for good and spaces full collections
out (bot/collector.py); the process's collector is put back as it was after each test."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from benchmarks.load_figures import collector_pauses
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


def test_watch_counts_each_generation_and_what_full_passes_free() -> None:
    pauses = collector.watch()
    try:
        gc.collect(0)
        node = Node()
        del node  # a cycle: freed only by a pass that reaches it
        gc.collect()
    finally:
        collector.unwatch(pauses)
    assert pauses.passes[0] >= 1
    assert pauses.passes[2] >= 1
    assert pauses.freed[2] >= 1
    assert all(s >= 0 for s in pauses.longest_s)
    full = pauses.passes[2]
    gc.collect()
    assert pauses.passes[2] == full, "no longer watching"


def test_the_load_benchmark_reads_the_line_the_bot_logs() -> None:
    pauses = collector.Pauses(
        passes=[812, 80, 2], longest_s=[0.0042, 0.0168, 0.0451], freed=[120, 35, 9]
    )
    figures = collector_pauses(f"INFO spades {pauses.describe()}\n")
    assert figures == {
        "gc_young": 892,
        "gc_young_longest_ms": 16.8,
        "gc_young_freed": 155,
        "gc_full": 2,
        "gc_full_longest_ms": 45.1,
        "gc_full_freed": 9,
    }
