"""Two bot processes serving the same shard (a rolling deploy, a duplicated container), on one
fake Discord and one PostgreSQL: the process started second restores the table the first one
is running, both time the same turns, and each turn is played once — the process that loses
the race is refused, reloads the table from the database and goes on from there, instead of
failing on every later turn."""

from __future__ import annotations

import re
from contextlib import AsyncExitStack
from pathlib import Path

from tests.e2e.conftest import NAMES, World
from tests.e2e.driver import eventually
from tests.e2e.flows import open_table, seat_everyone, start
from tests.fakediscord import FakeDiscord, run_bot
from tests.pgserver import PostgresServer

TIMED_OUT = re.compile(r"(\w+) ran out of time")


def env(url: str) -> dict[str, str]:
    return {
        "DATABASE_URL": url,
        "SHARD_COUNT": "1",
        "SHARD_IDS": "0",
        "SPADES_TEST_SEED": "7",
        "SPADES_BOT_DELAY": "0",
        "LOG_LEVEL": "INFO",
    }


async def test_two_processes_on_one_shard_play_each_turn_once(
    postgres_server: PostgresServer, tmp_path: Path
) -> None:
    url = await postgres_server.create_database()
    async with FakeDiscord() as fake, AsyncExitStack() as stack:
        guild = fake.add_guild("Spades Club")
        channel = guild.add_text_channel("spades")
        users = [fake.add_user(n) for n in NAMES]
        for u in users:
            guild.add_member(u)
        world = World(fake, guild, channel, users, tmp_path / "unused.db")
        first = await stack.enter_async_context(run_bot(fake, env=env(url)))
        await open_table(world, preset="standard", target=100, turn_timer=3)
        await seat_everyone(world)
        await start(world)
        # A second process on the same shard restores the table and times the same turn.
        second = await stack.enter_async_context(run_bot(fake, env=env(url), wait_for="commands"))
        await second.wait_for_line("restored 1 unfinished table(s)")

        def notices() -> list[str]:
            return [m.text for m in fake.messages(channel) if TIMED_OUT.search(m.text)]

        await eventually(lambda: len(notices()) >= 3, timeout=60)
        procs = (first, second)
        await eventually(lambda: any("reloading it" in p.output for p in procs), timeout=30)
        texts = [m.text for m in fake.messages(channel)]
        assert not [t for t in texts if "could not save" in t], texts
        # Each of the first bidders timed out once: no turn was played by both processes.
        seats = [m.group(1) for t in notices()[:3] if (m := TIMED_OUT.search(t))]
        assert len(set(seats)) == 3, notices()
        assert "(1/3)" in notices()[0]
        for p in procs:
            assert "broke a constraint" not in p.output
            assert "Traceback" not in p.output
