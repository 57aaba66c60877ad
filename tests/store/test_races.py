"""What two bot processes on one database could race on, on both backends: migrating an empty
database at the same instant, and league writes of one server."""

from __future__ import annotations

import asyncio
import sys

from bot.store.db import Database
from bot.store.league import LeagueStore
from bot.store.migrations import latest
from tests.fakediscord.process import PROJECT_ROOT
from tests.league.games import finished_game

MIGRATE = """
import asyncio, sys
from bot.store.db import Database

async def main():
    sys.stdin.readline()  # start together: the test releases both processes at once
    async with Database.open(sys.argv[1]) as db:
        print(await db.schema_version())

asyncio.run(main())
"""


async def test_two_processes_migrating_an_empty_database_at_once_end_with_one_schema(
    database_url: str,
) -> None:
    procs = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            MIGRATE,
            database_url,
            cwd=PROJECT_ROOT,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        for _ in range(2)
    ]
    for p in procs:  # both are importing by now or blocked on stdin: release them together
        assert p.stdin is not None
        p.stdin.write(b"go\n")
    results = await asyncio.gather(*(p.communicate() for p in procs))
    for p, (out, err) in zip(procs, results, strict=True):
        assert p.returncode == 0, err.decode()
        assert out.decode().strip() == str(latest("sqlite"))
    async with Database.open(database_url, migrate=False) as db:
        assert await db.schema_version() == latest(db.backend)
        if db.backend == "postgresql":
            versions = await db.fetch("SELECT version FROM schema_migrations ORDER BY version")
            assert [r[0] for r in versions] == list(range(1, latest(db.backend) + 1))
        assert await db.fetchval("SELECT COUNT(*) FROM tables") == 0


async def test_two_processes_recording_games_of_one_server_never_lose_a_rating_update(
    database_url: str,
) -> None:
    """Two games with the same four members end at once in two processes: the second to
    commit must start from the ratings the first wrote (row lock on the server's league)."""
    async with Database.open(database_url) as a, Database.open(database_url) as b:
        one, two = LeagueStore(a), LeagueStore(b)
        for round_ in range(3):
            games = [finished_game(10 + 2 * round_ + i, (1, 2, 3, 4)) for i in range(2)]
            await asyncio.gather(one.recorder.record(games[0]), two.recorder.record(games[1]))
        rows = await a.fetch(
            "SELECT game_id, user_id, mu_before, sigma_before, mu_after, sigma_after "
            "FROM league_seats WHERE user_id IS NOT NULL ORDER BY game_id"
        )
        stats = await one.standings.stats(1, 1)
    by_user: dict[int, list[tuple[float, float, float, float]]] = {}
    for r in rows:
        by_user.setdefault(r["user_id"], []).append(tuple(r[2:6]))  # type: ignore[arg-type]
    for user, games in by_user.items():
        assert len(games) == 6
        for before, after in zip(games[1:], games, strict=False):
            assert before[0:2] == after[2:4], f"user {user}: a rating update was lost"
    assert stats is not None
    assert stats.games == 6
