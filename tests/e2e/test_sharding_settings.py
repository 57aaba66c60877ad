"""Sharding settings a process starts with: a bad value stops start-up with one line and exit
code 2 (run as a subprocess, as a user would); good ones serve the shards they name."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.sharding import ShardingError, ShardPlan, parse_shard_ids, shard_of
from tests.e2e.test_database_errors import assert_one_line, start_bot
from tests.fakediscord import FakeDiscord


@pytest.mark.parametrize(
    ("env", "words"),
    [
        ({"SHARD_IDS": "1"}, ["SHARD_IDS needs SHARD_COUNT", "same in every process"]),
        ({"SHARD_IDS": "0-x"}, ["SHARD_IDS", "'0-x'", "0-7"]),
        ({"SHARD_IDS": "0,,2"}, ["SHARD_IDS", "not a shard id"]),
        ({"SHARD_IDS": "5-3"}, ["SHARD_IDS", "5-3", "empty"]),
        ({"SHARD_IDS": "0-3,2-5"}, ["SHARD_IDS", "shard 2", "twice"]),
        ({"SHARD_COUNT": "8", "SHARD_IDS": "4-8"}, ["SHARD_IDS", "shard 8", "0 to 7"]),
        ({"SHARD_COUNT": "0"}, ["SHARD_COUNT", "at least 1"]),
        ({"SHARD_COUNT": "many"}, ["SHARD_COUNT", "number"]),
        ({"CLUSTER_COUNT": "0"}, ["CLUSTER_COUNT"]),
    ],
)
def test_bad_sharding_settings_stop_start_up(
    tmp_path: Path, env: dict[str, str], words: list[str]
) -> None:
    code, lines = start_bot({"DATABASE_PATH": str(tmp_path / "s.db"), **env})
    assert_one_line(code, lines, *words)
    assert not (tmp_path / "s.db").exists(), "settings are checked before the database opens"


async def test_shard_ids_without_shard_count_stop_start_up_before_connecting(
    tmp_path: Path,
) -> None:
    # Valid under Discord's recommendation (2 shards) today, but a process reading the
    # recommendation after it changes would split the guilds differently: refused.
    async with FakeDiscord(recommended_shards=2) as fake:
        code, lines = await asyncio.to_thread(
            start_bot,
            {
                "DATABASE_PATH": str(tmp_path / "s.db"),
                "SHARD_IDS": "1",
                "DISCORD_TOKEN": fake.token,
                "DISCORD_API_BASE": fake.api_base,
                "LOG_LEVEL": "ERROR",
            },
        )
        assert_one_line(code, lines, "SHARD_IDS needs SHARD_COUNT")
        assert fake.identify_payloads == [], "no shard connected"
        assert not (tmp_path / "s.db").exists()


def test_shard_plans() -> None:
    assert parse_shard_ids("0-3, 8,10 - 11") == (0, 1, 2, 3, 8, 10, 11)
    plan = ShardPlan.make(4, (1, 3))
    guilds = [(g << 22) | 12345 for g in range(8)]
    assert [plan.serves(g) for g in guilds] == [False, True, False, True] * 2
    assert [shard_of(g, 4) for g in guilds] == [0, 1, 2, 3] * 2
    assert ShardPlan.make(3, None).ids == (0, 1, 2)
    with pytest.raises(ShardingError):
        ShardPlan.make(2, (0, 2))
