"""Two bot processes splitting the shards, on one fake Discord and one PostgreSQL (a cluster as
``compose.yaml`` runs it): both migrate the empty database at once, tables in guilds on both
shards play to game over, one process is killed with SIGKILL and the other keeps answering,
the killed one restarts and restores its tables with nothing lost, and every guild's
leaderboard is right afterwards."""

from __future__ import annotations

import asyncio
import re
from contextlib import AsyncExitStack
from pathlib import Path

from bot.store.db import Database
from bot.store.migrations import latest
from tests.e2e.conftest import NAMES, World
from tests.e2e.driver import CARD_RE, Driver, eventually
from tests.e2e.flows import four_player_game
from tests.fakediscord import BotProcess, FakeDiscord, run_bot
from tests.pgserver import PostgresServer


def env(url: str, shard: int) -> dict[str, str]:
    return {
        "DATABASE_URL": url,
        "SHARD_COUNT": "2",
        "SHARD_IDS": str(shard),
        "CLUSTER_COUNT": "2",
        "SPADES_TEST_SEED": "7",
        "SPADES_BOT_DELAY": "0",
        "LOG_LEVEL": "INFO",
    }


async def hands(driver: Driver) -> list[list[str]]:
    out = []
    for p in driver.players:
        r = await driver.open_hand(p)
        out.append(CARD_RE.findall(r.embeds[0]["description"]))
    return out


async def test_two_processes_split_the_shards_and_lose_nothing_when_one_is_killed(
    postgres_server: PostgresServer, tmp_path: Path
) -> None:
    url = await postgres_server.create_database()
    async with FakeDiscord(recommended_shards=2) as fake, AsyncExitStack() as stack:
        users = [fake.add_user(n) for n in NAMES]  # the same four people play in both servers
        worlds = []
        for shard in (0, 1):
            guild = fake.add_guild(f"Club {shard}", shard=(shard, 2))
            for u in users:
                guild.add_member(u)
            worlds.append(World(fake, guild, guild.add_text_channel("spades"), users, tmp_path))

        # Both processes start at the same instant on the empty database: one migrates.
        procs: list[BotProcess] = list(
            await asyncio.gather(
                *(stack.enter_async_context(run_bot(fake, env=env(url, s))) for s in (0, 1))
            )
        )
        for p in procs:
            await p.wait_for_line("serving shard(s)")
        await eventually(
            lambda: fake.gateway.shard_connected(0) and fake.gateway.shard_connected(1)
        )
        async with Database.open(url, migrate=False) as db:
            versions = await db.fetch("SELECT version FROM schema_migrations ORDER BY version")
            assert [r[0] for r in versions] == list(range(1, latest("postgresql") + 1))

        drivers = await asyncio.gather(
            *(four_player_game(w, preset="standard", target=100) for w in worlds)
        )
        for d in drivers:
            for _ in range(4 + 9):  # the bids and a couple of tricks
                assert await d.step()
        before = await hands(drivers[0])

        # kill -9 the process of shard 0: the other goes on answering its guild in time.
        procs[0].kill9()
        await procs[0].wait()
        answered = len(drivers[1].latencies)
        for _ in range(24):
            assert await drivers[1].step()
        late = [x for x in drivers[1].latencies[answered:] if x >= 3.0]
        assert len(drivers[1].latencies) - answered == 24
        assert late == [], "the surviving process answered every click within 3 s"

        # Restarted, the killed process restores its own table only, with the same hands.
        again = await stack.enter_async_context(run_bot(fake, env=env(url, 0), wait_for="commands"))
        await again.wait_for_line("restored 1 unfinished table(s)")
        assert await hands(drivers[0]) == before, "nothing was lost"

        await asyncio.gather(*(d.play_until_over() for d in drivers))
        for w in worlds:
            await eventually(
                lambda w=w: any("Game over" in m.text for m in fake.messages(w.channel))
            )

        # Each server's league has its game, and its leaderboard ranks its four players.
        for w in worlds:
            board = await (await fake.slash(users[0], w.channel, "leaderboard")).response()
            rows = [ln for ln in board.text.splitlines() if ln.startswith("`")]
            assert len(rows) == 4, board.text
            assert {n for n in NAMES if any(n in r for r in rows)} == set(NAMES)
        async with Database.open(url, migrate=False) as db:
            games = await db.fetch("SELECT guild_id, winner FROM league_games ORDER BY guild_id")
            assert sorted(r[0] for r in games) == sorted(w.guild.id for w in worlds)
            standings = await db.fetch("SELECT guild_id, user_id, games FROM league_standings")
            assert len(standings) == 8
            assert all(r["games"] == 1 for r in standings)
        # Both say they are ready (the restarted one may get there after its table is restored:
        # its start-up requests are paced within its share of Discord's global limit).
        for p in (procs[1], again):
            assert re.search(r"ready as", await p.wait_for_line("ready as", timeout=120))
