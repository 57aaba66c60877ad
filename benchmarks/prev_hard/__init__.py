"""A frozen copy of the ``hard`` level as it was before issue 12 (commit 215363d), kept only
as the "previous hard" opponent of ``benchmarks/arena.py``.  Do not improve it: its point is
to stay the same.  In the arena: ``--ew py:benchmarks.prev_hard:PrevHardPlayer`` (budget
0.05 s per decision, its default then, on its own sample-count cost model)."""

from __future__ import annotations

from benchmarks.prev_hard.hard import HardPlayer


class PrevHardPlayer(HardPlayer):
    """Today's ``hard`` before issue 12, under a name of its own."""

    level = "prev-hard"
    default_budget_s = 0.05


__all__ = ["PrevHardPlayer"]
