"""Which guilds this process serves: ``SHARD_COUNT`` and ``SHARD_IDS``.

Discord puts guild ``g`` on shard ``(g >> 22) % shard_count``.  A process runs the shards in
``SHARD_IDS`` (all by default) and restores, times and serves only the tables of their guilds;
several processes with disjoint ``SHARD_IDS`` and one ``SHARD_COUNT`` split a bot between them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ITEM = re.compile(r"^(\d+)(?:\s*-\s*(\d+))?$")


class ShardingError(Exception):
    """A sharding setting is malformed or inconsistent; the message is one line."""


def shard_of(guild_id: int, shard_count: int) -> int:
    return (guild_id >> 22) % shard_count


def parse_shard_ids(text: str) -> tuple[int, ...]:
    """``0-7``, ``0,2,4``, ``0-3,8`` → the ids in order; raises on syntax errors, an empty
    range (``5-3``) or an id given twice (overlapping ranges)."""
    ids: list[int] = []
    for raw in text.split(","):
        item = raw.strip()
        m = _ITEM.match(item)
        if not m:
            raise ShardingError(
                f"SHARD_IDS: {item or raw!r} is not a shard id or range (write e.g. 0-7 or 0,2,4)"
            )
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) is not None else lo
        if hi < lo:
            raise ShardingError(f"SHARD_IDS: the range {lo}-{hi} is empty (write {hi}-{lo}?)")
        for i in range(lo, hi + 1):
            if i in ids:
                raise ShardingError(f"SHARD_IDS: shard {i} is given twice (ranges overlap)")
            ids.append(i)
    return tuple(ids)


@dataclass(frozen=True, slots=True)
class ShardPlan:
    """This process's shards out of ``count``."""

    count: int
    ids: tuple[int, ...]

    @classmethod
    def make(cls, count: int, ids: tuple[int, ...] | None) -> ShardPlan:
        if count < 1:
            raise ShardingError(f"SHARD_COUNT must be at least 1, not {count}")
        if ids is None:
            return cls(count, tuple(range(count)))
        too_big = [i for i in ids if i >= count]
        if too_big:
            raise ShardingError(
                f"SHARD_IDS: shard {too_big[0]} does not exist with {count} shard(s) "
                f"(ids run 0 to {count - 1}); set SHARD_COUNT or fix SHARD_IDS"
            )
        return cls(count, ids)

    def serves(self, guild_id: int) -> bool:
        return shard_of(guild_id, self.count) in self.ids

    def describe(self) -> str:
        if len(self.ids) == self.count:
            return f"all {self.count} shard(s)"
        return f"shard(s) {','.join(map(str, self.ids))} of {self.count}"


def shards_label(ids: tuple[int, ...] | None) -> str:
    """``SHARD_IDS`` as the metrics and JSON logs name a process: ``0-3,8`` (runs of ids
    joined), or ``all`` when it runs every shard."""
    if ids is None:
        return "all"
    runs: list[list[int]] = []
    for i in sorted(ids):
        if runs and i == runs[-1][1] + 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    return ",".join(str(lo) if lo == hi else f"{lo}-{hi}" for lo, hi in runs)
