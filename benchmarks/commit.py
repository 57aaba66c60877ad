"""Commit latency of the store's backends: what one accepted action costs before it is answered.

    python -m benchmarks.commit            # --commits 2000 --writers 1,50

Each commit is the table service's usual transaction for a move: append one action to a table's
log and move its turn deadline, in ``async with db.transaction() as tx``.  Timed from entering
the block to the end of ``COMMIT`` (p50/p99 over ``--commits`` commits), by one writer and by
``--writers`` concurrent writers (different tables), for SQLite with ``SQLITE_SYNCHRONOUS``
``normal`` and ``full`` and for a PostgreSQL server started here (fsync and synchronous_commit
on, as in production; skipped without PostgreSQL binaries).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import Bid, Seat
from bot.store.db import Database, Synchronous
from bot.store.tables import TableRow, TableStore
from tests.pgserver import PostgresServer, Unavailable


async def run(db: Database, commits: int, writers: int) -> list[float]:
    store = TableStore(db)
    async with db.transaction() as tx:
        for w in range(writers):
            await store.insert_table(
                tx,
                TableRow(
                    id=f"w{w}",
                    guild_id=1,
                    channel_id=100 + w,
                    host_id=1,
                    status="playing",
                    rules={},
                    turn_timer=0,
                ),
            )
    out: list[float] = []

    async def writer(w: int) -> None:
        for seq in range(1, commits // writers + 1):
            t = time.perf_counter()
            async with db.transaction() as tx:
                await store.append_action(tx, f"w{w}", seq, Bid(Seat.N, 3), None)
                await store.update_table(tx, f"w{w}", deadline=time.time() + 30)
            out.append(time.perf_counter() - t)

    await asyncio.gather(*(writer(w) for w in range(writers)))
    return out


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))] * 1000


async def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--commits", type=int, default=2000)
    ap.add_argument("--writers", default="1,50")
    args = ap.parse_args()
    writer_counts = [int(w) for w in args.writers.split(",")]
    tmp = Path(tempfile.mkdtemp(prefix="spades-commit-"))
    server = None
    try:
        server = PostgresServer(durable=True).start()
    except Unavailable as e:
        print(f"postgresql: skipped ({e})")
    print(
        f"# {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
        f"python {platform.python_version()}, sqlite {sqlite3.sqlite_version}, "
        f"load average {os.getloadavg()[0]:.2f} at the start; tmp on {tmp}"
    )
    print(f"{'backend':<16} {'writers':>7} {'commits':>7} {'p50 ms':>8} {'p99 ms':>8} {'mean':>8}")
    try:
        for writers in writer_counts:
            rows: list[tuple[str, str, Synchronous]] = [
                ("sqlite normal", f"sqlite:///{tmp}/normal-{writers}.db", "normal"),
                ("sqlite full", f"sqlite:///{tmp}/full-{writers}.db", "full"),
            ]
            if server is not None:
                rows.append(("postgresql", await server.create_database("bench"), "normal"))
            for name, url, sync in rows:
                async with Database.open(url, synchronous=sync) as db:
                    xs = await run(db, args.commits, writers)
                mean = statistics.fmean(xs) * 1000
                print(
                    f"{name:<16} {writers:>7} {len(xs):>7} {pct(xs, 0.5):>8.2f} "
                    f"{pct(xs, 0.99):>8.2f} {mean:>8.2f}"
                )
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"# load average {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
