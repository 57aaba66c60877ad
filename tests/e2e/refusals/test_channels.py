"""Where the bot cannot work: direct messages, channels where it lacks permissions."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World
from tests.e2e.driver import table_message
from tests.e2e.flows import answer, open_table
from tests.e2e.refusals.checks import lobby_state, lobby_unchanged, refused
from tests.fakediscord import CommandNotAvailable
from tests.fakediscord.handles import APPLICATION_COMMAND

pytestmark = pytest.mark.asyncio(loop_scope="package")


async def test_commands_in_direct_messages_are_refused(world: World) -> None:
    fake, alice = world.fake, world.users[0]
    # Discord does not even offer the commands in a DM: they are registered guild-only.
    for path in (("hand",), ("bid",), ("play",), ("spades", "new")):
        cmd = fake.command(path[0])
        assert cmd is not None
        assert cmd.get("contexts") in ([0], None)
        assert cmd.get("dm_permission") is False
        with pytest.raises(CommandNotAvailable):
            await fake.slash(alice, None, *path, **({"bid": "2"} if path == ("bid",) else {}))
    # Should one arrive anyway (an old client, a cached command), the bot refuses it clearly.
    dm = fake.dm_channel(alice)
    for name in ("hand", "spades"):
        cmd = fake.command(name)
        assert cmd is not None
        data: dict[str, object] = {"id": cmd["id"], "name": name, "type": 1}
        if name == "spades":
            data["options"] = [{"name": "new", "type": 1, "options": []}]
        inter = fake._new_interaction(APPLICATION_COMMAND, alice, dm, data, "/" + name)
        r = await inter.response()
        refused(r, "server channel, not in direct messages")
    assert not any(m.embeds for m in fake.messages(world.channel)), "no table anywhere"


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
