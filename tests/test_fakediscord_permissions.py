"""The fake Discord's channel permissions: overwrites for @everyone, roles and members worked
out as Discord documents them (and as discord.py reads them from the channel it was sent), a
thread taking its parent's, a private thread seen by its members alone (and Manage Threads),
and an interaction refused where its member cannot see the channel, or carrying the member's
permissions in that channel when they can."""

from __future__ import annotations

import discord
import pytest

from tests.fakediscord import CommandNotAvailable, FakeDiscord, Perm
from tests.fakediscord.featurebot import FeatureBot
from tests.fakediscord.fixtures import World, inprocess_bot


async def test_overwrites_decide_who_sees_a_channel_as_discord_py_reads_them(
    fake: FakeDiscord, world: World
) -> None:
    guild = world.guild
    club = guild.add_role("club")
    guild.member(world.alice).roles.append(club)
    guild.member(world.bob).roles.append(club)
    secret = guild.add_text_channel("secret")
    secret.set_permissions(guild.everyone, deny=["view_channel"])
    secret.set_permissions(club, allow=["view_channel"])
    secret.set_permissions(world.bob, deny=["view_channel"])  # a member's own overwrite wins
    hall = guild.add_thread(secret, "hall", world.alice)
    expected = {world.alice: True, world.bob: False, world.carol: False, world.admin: False}
    for user, sees in expected.items():
        member = guild.member(user)
        assert secret.can_see(member) is sees, user
        assert hall.can_see(member) is sees, ("a thread takes its parent's", user)
    assert secret.can_see(guild.member(fake.user_named("Spades Club owner")))  # owns it: all
    async with inprocess_bot(fake, FeatureBot()) as client:
        await client.wait_until_ready()
        cached = client.get_channel(secret.id)
        assert isinstance(cached, discord.TextChannel)
        assert len(cached.overwrites) == 3
        for user, sees in expected.items():
            member = cached.guild.get_member(user.id)
            assert member is not None
            assert cached.permissions_for(member).view_channel is sees, user


async def test_a_private_thread_is_seen_by_its_members_and_by_manage_threads(
    fake: FakeDiscord, world: World
) -> None:
    guild = world.guild
    mods = guild.add_role("mods", int(Perm.MANAGE_THREADS))
    guild.member(world.dave).roles.append(mods)
    den = guild.add_thread(world.channel, "den", world.alice, private=True, members=[world.bob])
    assert den.can_see(guild.member(world.alice))
    assert den.can_see(guild.member(world.bob))
    assert not den.can_see(guild.member(world.carol))
    assert den.can_see(guild.member(world.dave)), "Manage Threads sees every private thread"
    den.add_thread_member(world.carol)
    assert den.can_see(guild.member(world.carol))


async def test_an_interaction_comes_only_from_a_channel_its_member_sees(
    fake: FakeDiscord, world: World
) -> None:
    guild = world.guild
    secret = guild.add_text_channel("secret")
    secret.set_permissions(guild.everyone, deny=["view_channel"])
    secret.set_permissions(world.alice, allow=["view_channel"])
    async with inprocess_bot(fake, FeatureBot()) as client:
        await client.wait_until_ready()
        await fake.wait_until(lambda: fake.command("echo") is not None, timeout=10)
        with pytest.raises(CommandNotAvailable, match="cannot see"):
            await fake.slash(world.bob, secret, "echo", text="hi")
        inter = await fake.slash(world.alice, secret, "echo", text="hi")
        member = fake._interaction_payload(inter)["member"]
        assert int(member["permissions"]) & Perm.VIEW_CHANNEL
        assert not int(member["permissions"]) & Perm.MANAGE_GUILD
