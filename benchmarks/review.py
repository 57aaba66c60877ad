"""Review benchmark: the hard player's analysis of a recorded 10-hand game, CPU per decision and
per game, and how fast a second request reads the stored analysis.

    nice -n 10 python benchmarks/review.py            # --record FILE, --worlds 48

1. In this process, every decision of the record is analysed in the service's chunks (the
   hard player's search bounded by a number of worlds, as in the bot); CPU time
   (``time.process_time``) per chunk, per decision judged (forced ones are skipped cheaply) and
   for the game.
2. The same game through the real service: recorded in a fresh SQLite league, analysed in a
   one-process worker pool (spawned, as the bot's), stored; then the second request — reading
   and decoding the stored analysis — timed 50 times.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import platform
import statistics
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import Rules
from bot.league.models import FinishedGame, SeatPlayer
from bot.league.recording import prepare_game
from bot.review.analysis import CHUNK, DECISION_WORLDS, GAME_BUDGET_S, analyse_chunk
from bot.review.decisions import replay_game
from bot.review.service import ReviewService
from bot.store.db import Database
from bot.store.league import LeagueStore
from bot.store.reviews import ReviewStore

RECORD = Path(__file__).resolve().parents[1] / "tests" / "engine" / "records" / "standard.json"


def in_process(doc: dict[str, Any], worlds: int) -> dict[str, float]:
    replay = replay_game(doc)
    total = len(replay.decisions)
    per_judged: list[float] = []
    cpu = 0.0
    judged = 0
    for start in range(0, total, CHUNK):
        indices = list(range(start, min(total, start + CHUNK)))
        part = analyse_chunk(doc, indices, "bench", worlds)
        cpu += part.cpu_s
        judged += len(part.opinions)
        if part.opinions:
            per_judged.append(part.cpu_s / len(part.opinions))
    return {
        "hands": len(replay.hands),
        "decisions": total,
        "judged": judged,
        "cpu_s": cpu,
        "cpu_per_decision_ms": cpu / total * 1000,
        "cpu_per_judged_ms": cpu / max(1, judged) * 1000,
        "chunk_per_judged_p95_ms": sorted(per_judged)[int(0.95 * (len(per_judged) - 1))] * 1000,
    }


async def through_service(doc: dict[str, Any], worlds: int) -> dict[str, float]:
    replay = replay_game(doc)
    with tempfile.TemporaryDirectory() as tmp:
        async with Database.open(f"{tmp}/bench.db") as db:
            finished = FinishedGame(
                guild_id=1,
                channel_id=1,
                table_id="bench",
                started_at=datetime.now(UTC),
                ended_at=datetime.now(UTC),
                abandoned=False,
                seats=tuple(SeatPlayer(100 + i, f"p{i}") for i in range(4)),  # type: ignore[arg-type]
                rules=Rules.from_record(doc["rules"]),
                scores=replay.scores,
                winner=replay.winner,
                record=doc,
            )
            async with db.transaction() as tx:
                await LeagueStore(db).recorder.record_game(tx, prepare_game(finished))
            store = ReviewStore(db)
            game_id = await store.game_of_table(1, "bench")
            assert game_id is not None
            ctx = multiprocessing.get_context("spawn")
            with ProcessPoolExecutor(1, mp_context=ctx) as pool:
                await asyncio.get_running_loop().run_in_executor(pool, int, 0)  # warm the worker
                service = ReviewService(store, lambda: pool, worlds=worlds)
                started = time.monotonic()
                job = service.start(game_id, doc, replay)
                assert job.task is not None
                await job.task
                wall = time.monotonic() - started
            assert job.result is not None
            reads = []
            for _ in range(50):
                t0 = time.perf_counter()
                again = await service.stored(game_id)
                reads.append(time.perf_counter() - t0)
                assert again == job.result
            size = len(await store.load_analysis(game_id, job.result.version) or b"")
            return {
                "wall_s": wall,
                "cpu_s": job.result.cpu_s,
                "opinions": len(job.result.opinions),
                "stored_bytes": size,
                "read_p50_ms": statistics.median(reads) * 1000,
                "read_max_ms": max(reads) * 1000,
            }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--record", type=Path, default=RECORD)
    ap.add_argument("--worlds", type=int, default=DECISION_WORLDS)
    args = ap.parse_args()
    doc = json.loads(args.record.read_text(encoding="utf-8"))
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.1f}"
    )
    print(
        f"record: {args.record.name}; {args.worlds} worlds a decision, "
        f"{GAME_BUDGET_S:.0f} s CPU a game at most"
    )
    a = in_process(doc, args.worlds)
    print(
        f"in process: {a['hands']:.0f} hands, {a['decisions']:.0f} decisions, "
        f"{a['judged']:.0f} judged (the rest forced)\n"
        f"  CPU {a['cpu_s']:.1f} s for the game; {a['cpu_per_decision_ms']:.1f} ms per decision, "
        f"{a['cpu_per_judged_ms']:.1f} ms per judged decision "
        f"(chunk p95 {a['chunk_per_judged_p95_ms']:.1f} ms)"
    )
    s = asyncio.run(through_service(doc, args.worlds))
    print(
        f"service (1 worker process): {s['wall_s']:.1f} s wall, {s['cpu_s']:.1f} s CPU, "
        f"{s['opinions']:.0f} opinions, stored {s['stored_bytes'] / 1024:.1f} kB\n"
        f"  second request (read + decode the stored analysis): p50 {s['read_p50_ms']:.2f} ms, "
        f"max {s['read_max_ms']:.2f} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
