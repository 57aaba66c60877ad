"""The fake Discord shards like Discord: ``GET /gateway/bot`` recommends a shard count,
IDENTIFY carries ``shard: [id, count]``, and each guild's events and interactions go to the
session of its shard, ``(guild_id >> 22) % count`` — checked with real discord.py clients."""

from __future__ import annotations

from collections.abc import AsyncIterator

import discord
import pytest
from discord import app_commands

from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import inprocess_bot


class ShardedPing(discord.AutoShardedClient):
    """Answers /ping with the shard the interaction arrived on."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(intents=discord.Intents(guilds=True), **kwargs)  # type: ignore[arg-type]
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(description="which shard am I on")
        async def ping(interaction: discord.Interaction) -> None:
            guild = interaction.guild
            shard = guild.shard_id if guild is not None else None
            await interaction.response.send_message(f"shard {shard}")

    async def setup_hook(self) -> None:
        await self.tree.sync()


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord(recommended_shards=2) as server:
        yield server


async def test_guild_ids_can_be_placed_on_a_shard(fake: FakeDiscord) -> None:
    for shard in (0, 1, 1, 0):
        guild = fake.add_guild(f"g{shard}", shard=(shard, 2))
        assert (guild.id >> 22) % 2 == shard


async def test_an_auto_sharded_client_follows_the_recommendation_and_each_shard_gets_its_guilds(
    fake: FakeDiscord,
) -> None:
    g0 = fake.add_guild("zero", shard=(0, 2))
    g1 = fake.add_guild("one", shard=(1, 2))
    alice = fake.add_user("alice")
    for g in (g0, g1):
        g.add_member(alice)
    ch0, ch1 = g0.add_text_channel("t"), g1.add_text_channel("t")
    async with inprocess_bot(fake, ShardedPing()) as client:
        assert isinstance(client, ShardedPing)
        await fake.wait_until(lambda: fake.gateway.shard_connected(1), timeout=30)
        await fake.wait_until(lambda: len(client.guilds) == 2, timeout=10)
        shards = sorted(p["shard"] for p in fake.identify_payloads)
        assert shards == [[0, 2], [1, 2]]
        assert client.shard_count == 2
        assert {g.id: g.shard_id for g in client.guilds} == {g0.id: 0, g1.id: 1}
        for ch, shard in ((ch0, 0), (ch1, 1)):
            seq = fake.gateway.by_shard[shard].seq
            r = await (await fake.slash(alice, ch, "ping")).response()
            assert r.text == f"shard {shard}"
            assert fake.gateway.by_shard[shard].seq == seq + 1, "delivered on its own shard"


async def test_a_client_of_some_shards_sees_only_their_guilds(fake: FakeDiscord) -> None:
    g0 = fake.add_guild("zero", shard=(0, 2))
    g1 = fake.add_guild("one", shard=(1, 2))
    async with inprocess_bot(fake, ShardedPing(shard_count=2, shard_ids=[1])) as client:
        await fake.wait_until(lambda: len(client.guilds) == 1, timeout=10)
        assert [g.id for g in client.guilds] == [g1.id]
        assert [p["shard"] for p in fake.identify_payloads] == [[1, 2]]
        assert fake.gateway.session_for(g0.id) is None, "nobody serves shard 0"
        late = fake.add_guild("late", shard=(1, 2))
        await fake.wait_until(lambda: len(client.guilds) == 2, timeout=10)
        assert late.id in {g.id for g in client.guilds}
