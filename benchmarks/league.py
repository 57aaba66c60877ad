"""League benchmark: a server with 100,000 finished games and 5,000 players.

    .venv/bin/python -m benchmarks.league [--games 100000] [--players 5000] [--rebuild]

Builds (once, cached under /tmp) a database through the real migrations, filled in bulk with
synthetic games whose records are real engine play-outs (a few hundred distinct games,
reused), ratings computed game by game with the real rating code, and the standings and
partnerships the store would have built.  Then it times, on a copy, the server-side work of
``/leaderboard`` (every sort, several pages, a random viewer), ``/stats``, ``/history``,
partnerships, and recording one finished game with its standings update (own transaction,
commit included), and prints p50/p95 and the database size per game.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import gc
import hashlib
import itertools
import json
import os
import platform
import random
import shutil
import sqlite3
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot.engine.record import export_record
from bot.engine.rules import Rules
from bot.league.models import FinishedGame, LeaderboardSort, SeatPlayer
from bot.league.ratings import BOT_SKILLS, INITIAL, Skill, conservative, rate_game
from bot.league.recording import encode_record, prepare_game
from bot.league.stats import GameSummary, summarize_record, total_names
from bot.store.db import Database
from bot.store.league import LeagueStore
from bot.store.migrations import migrations
from bot.store.sqlite import SQLiteDatabase
from tests.league.games import play_random_game

GUILD = 740_000_000_000_000_001
CHANNEL = 740_000_000_000_000_002
USER0 = 300_000_000_000_000_000
RULES = Rules.from_preset("standard", lose_at=-500)
TEMPLATES = 400
ABANDONED_SHARE = 0.03
BOT_SHARE = 0.08
START = datetime(2025, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Template:
    record: dict[str, Any]
    blob: bytes
    summary: GameSummary
    abandoned: bool


def make_templates(seed: int) -> list[Template]:
    out = []
    for i in range(TEMPLATES):
        abandoned = i % 25 == 0
        game = play_random_game(seed + i, RULES, stop_after_hands=3 if abandoned else None)
        record = export_record(game)
        out.append(Template(record, encode_record(record), summarize_record(record), abandoned))
    return out


def build(path: Path, games: int, players: int, seed: int = 1) -> None:
    """Create the benchmark database at ``path`` (bulk inserts in one transaction)."""
    t0 = time.perf_counter()
    tmp = path.with_suffix(".building")
    for p in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
        p.unlink(missing_ok=True)

    async def migrate() -> None:
        async with Database.open(str(tmp)):
            pass

    asyncio.run(migrate())
    rng = random.Random(seed)
    templates = make_templates(seed)
    finished = [t for t in templates if not t.abandoned]
    abandoned = [t for t in templates if t.abandoned]
    print(f"  {len(templates)} record templates in {time.perf_counter() - t0:.1f}s", flush=True)

    users = [USER0 + i for i in range(players)]
    activity = list(itertools.accumulate(rng.lognormvariate(0, 1) for _ in users))  # skewed
    names = {u: f"player{i}" for i, u in enumerate(users)}
    totals = total_names()
    standing: dict[int, list[Any]] = {}  # user -> [mu, sigma, games, wins, losses, ...]
    pairs: dict[tuple[int, int], list[int]] = {}
    game_rows, record_rows, seat_rows = [], [], []
    span = timedelta(days=365).total_seconds()
    for g in range(1, games + 1):
        chosen: list[int] = []
        while len(chosen) < 4:
            u = rng.choices(users, cum_weights=activity)[0]
            if u not in chosen:
                chosen.append(u)
        is_abandoned = rng.random() < ABANDONED_SHARE
        t = rng.choice(abandoned if is_abandoned else finished)
        bot_seat = rng.randrange(4) if rng.random() < BOT_SHARE else None
        seats: list[int | None] = [None if i == bot_seat else u for i, u in enumerate(chosen)]
        winner = t.summary.winner
        rated = not is_abandoned and bot_seat is None
        before = [
            BOT_SKILLS["normal"]
            if u is None
            else Skill(*standing[u][:2])
            if u in standing
            else INITIAL
            for u in seats
        ]
        after = before
        if rated:
            assert winner is not None
            after = list(rate_game(before, [u is None for u in seats], ("NS", "EW").index(winner)))
        ended = START.timestamp() + span * g / games
        game_rows.append(
            (
                g,
                GUILD,
                1,
                CHANNEL,
                f"bench{g}",
                ended - 1500,
                ended,
                int(is_abandoned),
                int(rated),
                "standard",
                json.dumps(RULES.to_record()),
                t.summary.hands,
                t.summary.scores[0],
                t.summary.scores[1],
                None if is_abandoned else winner,
            )
        )
        record_rows.append((g, t.blob))
        for i, u in enumerate(seats):
            b, a = before[i], after[i]
            rated_seat = rated and u is not None
            seat_rows.append(
                (
                    g,
                    i,
                    GUILD,
                    1,
                    u,
                    "Bot (normal)" if u is None else names[u],
                    "normal" if u is None else None,
                    *((b.mu, b.sigma, a.mu, a.sigma) if rated_seat else (None,) * 4),
                )
            )
            if u is None:
                continue
            won = int(not is_abandoned and winner == ("NS", "EW")[i & 1])
            lost = int(not is_abandoned and not won)
            row = standing.setdefault(
                u, [INITIAL.mu, INITIAL.sigma] + [0] * (5 + len(totals)) + [0]
            )
            row[0], row[1] = a.mu, a.sigma
            for k, v in enumerate(
                (1, won, lost, int(is_abandoned), int(rated_seat), *t.summary.seats[i].values())
            ):
                row[2 + k] += v
            row[-1] = g
        if not is_abandoned:
            for team in (0, 1):
                x, y = seats[team], seats[team + 2]
                if x is None or y is None:
                    continue
                key = (min(x, y), max(x, y))
                pr = pairs.setdefault(key, [0, 0, 0])
                pr[0] += 1
                pr[1] += int(winner == ("NS", "EW")[team])
                pr[2] = g
    print(f"  {games} games rated in {time.perf_counter() - t0:.1f}s", flush=True)

    standings_rows = []
    for u, r in standing.items():
        mu, sigma, games_, wins, losses = r[0], r[1], r[2], r[3], r[4]
        decided = wins + losses
        standings_rows.append(
            (
                GUILD,
                1,
                u,
                names[u],
                mu,
                sigma,
                conservative(mu, sigma),
                games_,
                wins,
                losses,
                r[5],
                r[6],
                wins / decided if decided else 0.0,
                *r[7:-1],
                r[-1],
            )
        )
    pair_rows = [
        (GUILD, 1, a, b, n, w, (w + 1) / (n + 2), last) for (a, b), (n, w, last) in pairs.items()
    ]
    con = sqlite3.connect(tmp, isolation_level=None)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=OFF")
    con.execute("BEGIN")
    con.execute(
        "INSERT INTO league_seasons VALUES (?, 1, 'Season 1', ?)", (GUILD, START.timestamp())
    )
    con.executemany(f"INSERT INTO league_games VALUES ({', '.join('?' * 15)})", game_rows)
    con.executemany(
        "INSERT INTO league_records (game_id, encoding, data) VALUES (?, 'bz2-json', ?)",
        record_rows,
    )
    con.executemany(
        "INSERT INTO league_seats (game_id, seat, guild_id, season, user_id, display_name, "
        "bot_level, mu_before, sigma_before, mu_after, sigma_after) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        seat_rows,
    )
    n_cols = 13 + len(totals) + 1
    con.executemany(
        f"INSERT INTO league_standings VALUES ({', '.join('?' * n_cols)})", standings_rows
    )
    con.executemany(f"INSERT INTO league_partnerships VALUES ({', '.join('?' * 8)})", pair_rows)
    con.execute("COMMIT")
    con.execute("ANALYZE")
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    tmp.replace(path)
    print(
        f"  built {path} in {time.perf_counter() - t0:.1f}s: {len(standing)} players, "
        f"{len(pair_rows)} partnerships",
        flush=True,
    )


def pct(samples: list[float], q: float) -> float:
    s = sorted(samples)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))]


def line(name: str, samples: list[float]) -> str:
    ms = [x * 1000 for x in samples]
    return (
        f"{name:<44} n={len(ms):>5}  p50 {pct(ms, 0.5):7.2f} ms  p95 {pct(ms, 0.95):7.2f} ms"
        f"  max {max(ms):7.2f} ms"
    )


async def timed(fn: Callable[[], Awaitable[Any]], n: int) -> list[float]:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        await fn()
        out.append(time.perf_counter() - t)
    return out


def finished_games(n: int, players: int, seed: int) -> list[FinishedGame]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        game = play_random_game(10_000 + i, RULES)
        chosen = rng.sample(range(players), 4)
        seats = tuple(SeatPlayer(USER0 + c, f"player{c}") for c in chosen)
        started = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(minutes=i)
        out.append(
            FinishedGame(
                guild_id=GUILD,
                channel_id=CHANNEL,
                table_id=f"rec{i}",
                started_at=started,
                ended_at=started + timedelta(minutes=25),
                abandoned=False,
                seats=(seats[0], seats[1], seats[2], seats[3]),
                rules=RULES,
                scores=(game.scores[0], game.scores[1]),
                winner=("NS", "EW")[game.winner] if game.winner is not None else None,
                record=export_record(game),
                results=tuple(game.results),
            )
        )
    return out


async def measure(path: Path, games: int, players: int, n: int) -> None:
    rng = random.Random(7)
    users = [USER0 + i for i in range(players)]
    async with Database.open(str(path)) as db:
        store = LeagueStore(db)
        board = await store.standings.leaderboard(GUILD)
        last = board.pages - 1
        pages = sorted(p for p in {0, 1, 10, 100, last // 2, last} if p <= last)
        for _ in range(50):  # warm the cache
            await store.standings.leaderboard(
                GUILD, page=rng.randrange(last + 1), viewer_id=rng.choice(users)
            )
        print(f"\nleaderboard: {board.ranked} ranked players, {board.pages} pages; pages {pages}")
        all_board: list[float] = []
        for sort in LeaderboardSort:
            per_sort: list[float] = []
            for page in pages:
                per_sort += await timed(
                    lambda s=sort, p=page: store.standings.leaderboard(
                        GUILD, sort=s, page=p, viewer_id=rng.choice(users)
                    ),
                    n // len(pages) + 1,
                )
            all_board += per_sort
            print(line(f"/leaderboard sort={sort.value}", per_sort))
        print(line("/leaderboard (all sorts and pages)", all_board))
        stats = await timed(lambda: store.standings.stats(GUILD, rng.choice(users)), n)
        print(line("/stats", stats))
        hist = await timed(lambda: store.standings.rating_history(GUILD, rng.choice(users)), n)
        print(line("rating history (chart data)", hist))
        history = await timed(lambda: store.history.games(GUILD, rng.choice(users)), n)
        print(line("/history page 0", history))
        history_deep = await timed(
            lambda: store.history.games(GUILD, rng.choice(users), page=rng.randrange(0, 8)), n
        )
        print(line("/history random page 0-7", history_deep))
        pships = await timed(
            lambda: store.standings.partnerships(GUILD, page=rng.randrange(0, 100)), n
        )
        print(line("partnerships random page 0-99", pships))
        export = await timed(
            lambda: store.history.game_record(GUILD, rng.randrange(1, games + 1)), n
        )
        print(line("game record export (decompress + JSON)", export))

        to_record = finished_games(3 * n + 1, players, seed=11)
        await store.recorder.record(to_record.pop())  # warm-up: thread pool, statement cache
        gc.collect()
        gc.freeze()  # the inputs above are long-lived: keep their GC out of the timings
        fast = iter(to_record[:n])
        rec = await timed(lambda: store.recorder.record(next(fast)), n)
        print(line("record one game (with engine results)", rec))
        slow = iter(dataclasses.replace(g, results=None) for g in to_record[n : 2 * n])
        rec = await timed(lambda: store.recorder.record(next(slow)), n)
        print(line("record one game (replaying its record)", rec))
        prep: list[float] = []
        write: list[float] = []
        for game in to_record[2 * n :]:
            t = time.perf_counter()
            prepared = prepare_game(dataclasses.replace(game, results=None))
            prep.append(time.perf_counter() - t)
            t = time.perf_counter()
            async with db.transaction() as conn:
                await store.recorder.record_game(conn, prepared)
            write.append(time.perf_counter() - t)
        print(line("  replay path: prepare_game (off the lock)", prep))
        print(line("  write path: record_game transaction+commit", write))
        assert isinstance(db, SQLiteDatabase)
        await db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--players", type=int, default=5_000)
    ap.add_argument("--iterations", type=int, default=300)
    ap.add_argument("--cache", default="/tmp/spades-league-bench")
    ap.add_argument("--rebuild", action="store_true")
    args = ap.parse_args(argv)
    schema = hashlib.sha256("".join(m.sql for m in migrations("sqlite")).encode()).hexdigest()[:8]
    cache = Path(f"{args.cache}-{args.games}-{args.players}-{schema}.db")
    if args.rebuild or not cache.exists():
        print(f"building {cache} ...", flush=True)
        build(cache, args.games, args.players)
    work = cache.with_suffix(".run.db")
    shutil.copyfile(cache, work)
    with open(work, "rb+") as f:  # flush the copy now, not in the first checkpoint's fsync
        os.fsync(f.fileno())
    for p in (Path(f"{work}-wal"), Path(f"{work}-shm")):
        p.unlink(missing_ok=True)
    print(
        f"python {platform.python_version()}, sqlite {sqlite3.sqlite_version}, "
        f"{platform.machine()} x{os.cpu_count()}, {platform.platform()}"
    )
    print("load average before: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    asyncio.run(measure(work, args.games, args.players, args.iterations))
    print("load average after:  {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    size = work.stat().st_size
    recorded = args.games + args.iterations
    print(
        f"\ndatabase: {size / 1e6:.1f} MB for {recorded} games = {size / recorded:.0f} bytes/game"
    )
    work.unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
