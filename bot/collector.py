"""The garbage collector, set for a long-running bot that holds many live tables.

CPython's cyclic collector stops the event loop while it runs.  A full (generation 2) pass
walks every object the process tracks: at 200 active tables a full pass took 50–230 ms and
came every ~8 s, and those pauses were the bot's slowest answers (docs/benchmarks.md, *Discord
load*).  Once start-up is over (modules imported, tables restored) :func:`settle` collects
once and freezes what is left — objects that live as long as the process, which no pass then
walks again — and makes full passes ten times rarer.  Young collections are unchanged, so
short-lived cycles are still freed at once; the garbage that lasts until a full pass is a few
megabytes at most.

What full passes walk is kept small at the source too: each click's objects (the interaction,
its message, the views) are freed by reference counting once answered (bot/timely.py,
bot/ui/disposal.py), so almost no cyclic garbage reaches the oldest generation, and a full
pass walks only the live tables' objects (tests/bot/test_memory_bounded.py: a finished
table's objects are freed by reference counting, and games played over and over leave
nothing of ours behind).
"""

from __future__ import annotations

import gc
from typing import Final

FULL_EVERY: Final = 100  # generation-1 collections between full ones (CPython's default: 10)


def settle() -> None:
    """Freeze the objects that survived start-up and space full collections out."""
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_EVERY)
