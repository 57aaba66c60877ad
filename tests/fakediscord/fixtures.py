"""pytest fixtures and helpers. Enable with ``pytest_plugins = ["tests.fakediscord.fixtures"]``
in ``tests/conftest.py`` (or import the fixtures you need)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import discord
import pytest
import yarl

from .channels import Channel
from .guilds import Guild
from .openapi import description_path
from .process import BotProcess, run_bot
from .server import FakeDiscord
from .users import User

BAREBOT = "tests.fakediscord.barebot"


@dataclass
class World:
    """A guild with one table channel, four players and an admin."""

    guild: Guild
    channel: Channel
    alice: User
    bob: User
    carol: User
    dave: User
    admin: User

    @property
    def players(self) -> list[User]:
        return [self.alice, self.bob, self.carol, self.dave]


def build_world(fake: FakeDiscord, guild_name: str = "Spades Club") -> World:
    guild = fake.add_guild(guild_name)
    channel = guild.add_text_channel("spades")
    alice, bob, carol, dave = (fake.add_user(n) for n in ("alice", "bob", "carol", "dave"))
    for user in (alice, bob, carol, dave):
        guild.add_member(user)
    admin = fake.add_user("admin")
    guild.add_member(admin, manage_guild=True)
    return World(guild, channel, alice, bob, carol, dave, admin)


@asynccontextmanager
async def inprocess_bot(fake: FakeDiscord, client: discord.Client) -> AsyncIterator[discord.Client]:
    """Run a discord.py client in this event loop against ``fake`` (restores global patches)."""
    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = fake.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    generation = fake.ready_generation
    task: asyncio.Task[None] | None = None
    try:
        await client.login(fake.token)
        task = asyncio.create_task(client.connect(reconnect=True))
        await fake.wait_for_ready(after=generation)
        yield client
    finally:
        await client.close()
        if task is not None:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as server:
        yield server


@pytest.fixture
def world(fake: FakeDiscord) -> World:
    return build_world(fake)


@pytest.fixture
async def barebot(fake: FakeDiscord, world: World) -> AsyncIterator[BotProcess]:
    async with run_bot(fake, module=BAREBOT) as proc:
        yield proc


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say so when the fake checked nothing against Discord's API description."""
    if not description_path().is_file():
        terminalreporter.write_line(
            f"fakediscord: no Discord OpenAPI description at {description_path()}: requests "
            "were NOT checked against it (see tests/fakediscord/discord-api-spec/README.md)",
            yellow=True,
        )
