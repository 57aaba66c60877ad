"""Where the bot works differently (a DM with it) or not at all (channels where it lacks
permissions)."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World
from tests.e2e.driver import table_message
from tests.e2e.flows import answer, open_table
from tests.e2e.refusals.checks import lobby_state, lobby_unchanged, refused
from tests.fakediscord import CommandNotAvailable

pytestmark = pytest.mark.asyncio(loop_scope="package")


async def test_a_dm_with_the_bot_plays_by_interactions_and_counts_in_no_league(
    world: World,
) -> None:
    """Issue 27: play commands work in a DM with the bot too (its channel is no server's):
    the table is the command's public answer, never a channel message, and the game counts
    in no league; the server's own commands stay in servers."""
    fake, alice = world.fake, world.users[0]
    for path in (("hand",), ("bid",), ("play",), ("spades",)):
        cmd = fake.command(path[0])
        assert cmd is not None
        assert cmd.get("contexts") == [0, 1, 2]
    admin = fake.command("spades-admin")
    assert admin is not None
    assert admin.get("contexts") == [0]
    with pytest.raises(CommandNotAvailable):
        await fake.slash(alice, None, "spades-admin", "show")
    inter = await fake.slash(alice, None, "spades", "new")
    opened = await inter.wait_followup(2)  # the first follow-up is the table itself
    assert opened.ephemeral
    assert "no league" in opened.text, opened.text
    assert inter.original is not None
    assert inter.original.embeds, "the table is the answer to /spades new"
    assert not inter.original.ephemeral
    r = await answer(world, alice, "hand", channel=fake.dm_channel(alice))
    assert "has not started" in r.text, r.text
    assert not any(m.embeds for m in fake.messages(world.channel)), "nothing in the server"
    assert fake.missing_access == []


@pytest.mark.parametrize(
    ("perm", "name"),
    [("send_messages", "Send Messages"), ("embed_links", "Embed Links")],
)
async def test_new_table_without_channel_permissions_is_refused(
    world: World, perm: str, name: str
) -> None:
    world.channel.deny_bot(perm)
    r = await answer(world, world.users[0], "spades", "new")
    refused(r, "I need these permissions in this channel", name)
    r = await answer(world, world.users[0], "hand")
    assert "not seated" in r.text, "no table was opened"
    # The barrier: with the permission back the same command opens a table, whose message
    # is the first in the channel: the refused command posted nothing, before or after.
    world.channel.allow_bot(perm)
    await open_table(world, preset="standard")
    first = world.fake.messages(world.channel)[0]
    assert first is table_message(world.fake, world.channel), "nothing was posted before it"


async def test_table_repost_without_channel_permissions_is_refused(world: World) -> None:
    await open_table(world, preset="standard")
    before = await lobby_state(world)
    count = len(world.fake.messages(world.channel))
    world.channel.deny_bot("embed_links")
    r = await answer(world, world.users[1], "spades", "table")
    refused(r, "I need these permissions in this channel", "Embed Links")
    assert "went wrong" not in r.text
    world.channel.allow_bot("embed_links")
    await lobby_unchanged(world, before)
    assert len(world.fake.messages(world.channel)) == count + 1, "only the repost was posted"
