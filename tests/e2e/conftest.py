"""Fixtures: a fake Discord world, and the real bot process started against it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.fakediscord import BotProcess, Channel, FakeDiscord, Guild, User, run_bot

NAMES = ("alice", "bob", "carol", "dave")


@dataclass
class World:
    fake: FakeDiscord
    guild: Guild
    channel: Channel
    users: list[User]
    db_path: Path

    def env(self, **extra: str) -> dict[str, str]:
        return {
            "DATABASE_PATH": str(self.db_path),
            "SPADES_TEST_SEED": "7",
            "SPADES_BOT_DELAY": "0",
            "LOG_LEVEL": "INFO",
            **extra,
        }


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Spades Club")
        channel = guild.add_text_channel("spades")
        users = [fake.add_user(n) for n in NAMES]
        for u in users:
            guild.add_member(u)
        yield World(fake, guild, channel, users, tmp_path / "spades.db")


@pytest.fixture
async def bot(world: World) -> AsyncIterator[BotProcess]:
    async with run_bot(world.fake, env=world.env()) as proc:
        yield proc
