"""The garbage collector, set for a long-running bot that holds many live tables.

CPython's cyclic collector stops the event loop while it runs.  A full (generation 2) pass
walks every object the process tracks, and at 200 active tables those pauses were the bot's
slowest answers (measured in docs/benchmarks.md, *Discord load*).  Once start-up is over
(modules imported, tables restored) :func:`settle` collects once and freezes what is left —
objects that live as long as the process, which no pass then walks again — and makes full
passes rarer (:data:`FULL_EVERY`).  Young collections are unchanged, so short-lived cycles are
still freed at once; little garbage lasts until a full pass.

What full passes walk is kept small at the source too: each click's objects (the interaction,
its message, the views) are freed by reference counting once answered (bot/timely.py,
bot/disposal.py), so almost no cyclic garbage reaches the oldest generation, and a full
pass walks only the live tables' objects (tests/tables/test_memory_bounded.py: a finished
table's objects are freed by reference counting, and games played over and over leave
nothing of ours behind).
"""

from __future__ import annotations

import gc
import time
from dataclasses import dataclass, field
from typing import Any, Final

FULL_EVERY: Final = 100  # generation-1 collections between full ones (CPython's default: 10)
GENERATIONS: Final = 3


def settle() -> None:
    """Freeze the objects that survived start-up and space full collections out."""
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_EVERY)


@dataclass(eq=False)
class Pauses:
    """How often each generation was collected, how long the longest pass stopped the
    process, and how many objects passes freed (cyclic garbage), since :func:`watch`."""

    passes: list[int] = field(default_factory=lambda: [0] * GENERATIONS)
    longest_s: list[float] = field(default_factory=lambda: [0.0] * GENERATIONS)
    freed: list[int] = field(default_factory=lambda: [0] * GENERATIONS)
    _started: float = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:  # a gc.callbacks entry
        if phase == "start":
            self._started = time.perf_counter()
            return
        took = time.perf_counter() - self._started
        g = info["generation"]
        self.passes[g] += 1
        self.freed[g] += info["collected"]
        self.longest_s[g] = max(self.longest_s[g], took)

    def describe(self) -> str:
        """One line for the log, e.g. at shutdown: young (0 and 1) and full passes."""
        parts = [
            f"{name} {self.passes[g]} (longest {self.longest_s[g] * 1000:.1f} ms, "
            f"freed {self.freed[g]})"
            for g, name in enumerate(("gen0", "gen1", "full"))
        ]
        return "garbage collections: " + ", ".join(parts)


def watch() -> Pauses:
    """Record the collector's passes from now on (two clock reads per pass)."""
    pauses = Pauses()
    gc.callbacks.append(pauses)
    return pauses


def unwatch(pauses: Pauses) -> None:
    if pauses in gc.callbacks:
        gc.callbacks.remove(pauses)
