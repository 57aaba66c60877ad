"""Restoring unfinished tables at start-up (issue 34 item 2), on the real table service and a
real SQLite file: ``--tables`` games of four people left at random points of their first hand
(as a bot that stopped with them in play leaves them), then a fresh service restores them as
the bot does: every table known at once (:meth:`TableService.start_restore`), their games
replayed in the background (:meth:`TableService.finish_restore`) — and, once the background has
begun, a lookup of the newest table (the last the background would reach) as a click makes it,
which brings that table back on demand.  Reported: the wall and CPU time to the tables being
known, to all restored (goal < 5 s), and the on-demand lookup's time and how many tables were
still waiting then.  (The end-to-end proof, through the fake Discord and the real bot, is
``tests/e2e/test_restore_under_way.py``.)

    python benchmarks/restore.py --tables 1000
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.memory import act, never, seat_four
from bot.store.db import Database
from bot.tables.service import TableService


async def unfinished(db: Database, count: int, most: int) -> str:
    """``count`` tables in play, each up to ``most`` moves into its first hand; the newest's id."""
    rng = random.Random(7)
    service = TableService(db, never, test_seed=3, bot_delay=0)
    newest = ""
    for i in range(count):
        table = await seat_four(service, 10_000 + i, [1000 + 4 * i + k for k in range(4)])
        await service.lobby.start(table, table.host_id)
        for _ in range(rng.randrange(most + 1)):
            await act(service, table, rng)
        newest = table.id
    await service.close()
    return newest


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--most", type=int, default=40, help="most moves played at a table")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "restore.db")
        async with Database.open(path) as db:
            t0 = time.monotonic()
            newest = await unfinished(db, args.tables, args.most)
            print(f"{args.tables} unfinished tables written in {time.monotonic() - t0:.0f} s")
        print(f"load average at the start: {os.getloadavg()[0]:.2f}")
        async with Database.open(path) as db:
            service = TableService(db, never, bot_delay=0)
            wall, cpu = time.monotonic(), time.process_time()
            waiting = await service.start_restore()
            known, known_cpu = time.monotonic() - wall, time.process_time() - cpu
            background = asyncio.create_task(service.finish_restore())
            for _ in range(10):  # the background has begun
                await asyncio.sleep(0)
            click = time.monotonic()
            clicked = service.registry.get(newest)  # as a click on the newest table's button
            on_demand = time.monotonic() - click
            left = service.registry.waiting
            assert clicked.game is not None, "the clicked table came back with its game"
            restored = await background
            done, done_cpu = time.monotonic() - wall, time.process_time() - cpu
            assert len(restored) == waiting == args.tables, (len(restored), waiting)
            assert len({t.id for t in restored}) == len(restored), "none restored twice"
            await service.close()
        print(
            f"restore of {args.tables} unfinished tables: known in {known * 1000:.0f} ms "
            f"(CPU {known_cpu * 1000:.0f} ms); all restored in {done:.2f} s (CPU {done_cpu:.2f} s; "
            f"goal < 5 s: {'holds' if done < 5 else 'MISSED'}); the newest table looked up while "
            f"{left} still waited came back in {on_demand * 1000:.1f} ms"
        )
        print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
