"""Watching follows channel access, through the real bot and the fake Discord's permission
overwrites: a member watches (and is offered in ``/spades watch``'s autocomplete) only tables
whose channel they can read — a private channel's to its role, a thread's as its parent, a
private thread's from inside it — and outside servers only the chat's own table.  Starting
to watch has a cooldown."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e.conftest import World
from tests.e2e.driver import button, eventually, has, table_message
from tests.e2e.flows import quick_game
from tests.fakediscord import (
    BotProcess,
    Channel,
    CommandNotAvailable,
    FakeDiscord,
    Message,
    User,
    run_bot,
)

ENV = {"SPADES_TEST_SEED": "7", "SPADES_BOT_DELAY": "0", "LOG_LEVEL": "INFO"}
NOT_WATCHABLE = "There is no table `{id}` in this server that you can watch"


def table_id(message: Message) -> str:
    return button(message, "watch").custom_id.split(":")[2]


async def table_in(world: World, channel: Channel, host: User) -> str:
    """``host`` plays a game with three computers in ``channel``; the table's id."""
    here = World(world.fake, world.guild, channel, [host], world.db_path)
    await quick_game(here, humans=1, preset="standard", target=500)
    await eventually(lambda: has(table_message(world.fake, channel), "watch"))
    return table_id(table_message(world.fake, channel))


async def offered(fake: FakeDiscord, user: User, channel: Channel | None) -> set[str]:
    """The table ids ``/spades watch``'s autocomplete offers ``user`` typing in ``channel``
    (``None``: their DM with the bot)."""
    choices = await fake.autocomplete(user, channel, "spades", "watch", focused="table")
    return {str(c["value"]) for c in choices}


async def watch(fake: FakeDiscord, user: User, channel: Channel | None, **options: str) -> str:
    """What ``user`` reads after ``/spades watch`` in ``channel``."""
    r = await fake.slash(user, channel, "spades", "watch", **options)
    shown = await r.answer()
    assert shown.ephemeral
    return shown.text


async def test_a_private_channels_table_is_watched_only_by_members_who_can_read_it(
    world: World, bot: BotProcess
) -> None:
    fake, guild = world.fake, world.guild
    alice, bob = world.users[:2]
    club = guild.add_role("club")
    guild.member(alice).roles.append(club)
    guild.member(bob).roles.append(club)
    frank, erin = fake.add_user("frank"), fake.add_user("erin")
    guild.add_member(frank, roles=[club])
    guild.add_member(erin)
    secret = guild.add_text_channel("secret")
    secret.set_permissions(guild.everyone, deny=["view_channel"])
    secret.set_permissions(club, allow=["view_channel"])
    secret.set_permissions(fake.bot_user, allow=["view_channel"])
    # The thread's table: a public thread of the private channel is as private as it is.
    hall = guild.add_thread(secret, "hall", bob)
    in_secret = await table_in(world, secret, alice)
    in_hall = await table_in(world, hall, bob)

    # Erin cannot read #secret: neither table is offered, and naming one is refused.
    assert await offered(fake, erin, world.channel) == set()
    for tid in (in_secret, in_hall):
        text = await watch(fake, erin, world.channel, table=tid)
        assert text.startswith(NOT_WATCHABLE.format(id=tid)), text
    on_table = table_message(fake, secret)
    with pytest.raises(CommandNotAvailable, match="cannot see"):  # nor click its Watch
        await fake.click(erin, on_table, button(on_table, "watch").custom_id)
    # Frank has the club's role: both are offered and he watches them from #spades.
    assert await offered(fake, frank, world.channel) == {in_secret, in_hall}
    view = await watch(fake, frank, world.channel, table=in_secret)
    assert f"Watching table {in_secret}" in view, view
    view = await watch(fake, frank, world.channel, table=in_hall)
    assert f"Watching table {in_hall}" in view, view
    # His role taken away (the interaction carries his roles), his view's Refresh is refused.
    guild.member(frank).roles.remove(club)
    [mine] = [
        m
        for m in fake.ephemeral_messages.values()
        if m.visible_to == frank.id and f"Watching table {in_secret}" in m.text
    ]
    refresh = await (await fake.click(frank, mine, button(mine, "rewatch").custom_id)).answer()
    assert refresh.text == "You can watch only a table whose channel you can read.", refresh.text
    assert await offered(fake, frank, world.channel) == set()
    assert "Traceback" not in bot.output


async def test_a_private_threads_table_is_watched_from_inside_it_by_its_members(
    world: World, bot: BotProcess
) -> None:
    fake, guild = world.fake, world.guild
    alice, bob, carol = world.users[:3]
    den = guild.add_thread(world.channel, "den", alice, private=True, members=[carol])
    tid = await table_in(world, den, alice)
    # Bob is not in the private thread: not offered, refused.
    assert tid not in await offered(fake, bob, world.channel)
    text = await watch(fake, bob, world.channel, table=tid)
    assert text.startswith(NOT_WATCHABLE.format(id=tid)), text
    # Carol is: from #spades the bot cannot tell (it is not told who is in a private
    # thread), from inside the thread she watches.
    assert tid not in await offered(fake, carol, world.channel)
    assert await offered(fake, carol, den) == {tid}
    assert f"Watching table {tid}" in await watch(fake, carol, den)
    assert "Traceback" not in bot.output


async def test_outside_servers_only_the_chats_own_table_can_be_watched(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        alice, bob, carol, dave, erin = (
            fake.add_user(n) for n in ("alice", "bob", "carol", "dave", "erin")
        )
        for user in (alice, bob, dave):
            fake.install_app(user)
        group = fake.add_group_dm("spades night", alice, bob, carol, dave)
        async with run_bot(fake, env={**ENV, "DATABASE_PATH": str(tmp_path / "spades.db")}):
            tid = await group_game(fake, group, alice)
            # From a DM with the bot (erin is in no group), and from a group member's other
            # chat: the group's table is neither offered nor watched.
            for user in (erin, bob):
                assert await offered(fake, user, None) == set()
                text = await watch(fake, user, None, table=tid)
                assert text == (
                    "Outside a server you can watch only this chat's table: leave out `table`."
                ), text
            # In the group itself, a member who does not play watches its table.
            assert await offered(fake, dave, group) == {tid}
            assert f"Watching table {tid}" in await watch(fake, dave, group, table=tid)


async def group_game(fake: FakeDiscord, group: Channel, host: User) -> str:
    """``host`` opens a table in the group DM, fills it with computers and starts it."""
    r = await (await fake.slash(host, group, "spades", "new")).response()
    assert r.deferred

    def table() -> Message:
        for m in reversed(fake.messages(group)):
            if m.embeds and str(m.embeds[0].get("title", "")).startswith("♠ Spades"):
                return m
        raise AssertionError("no table message in the group DM")

    for _ in range(3):
        await eventually(lambda: has(table(), "addbot"))
        added = await (
            await fake.click(host, table(), button(table(), "addbot").custom_id)
        ).answer()
        assert "computer player" in added.text, added.text
    await eventually(lambda: has(table(), "start"))
    await (await fake.click(host, table(), button(table(), "start").custom_id)).response()
    await eventually(lambda: "Hand 1" in table().text and has(table(), "watch"))
    return table_id(table())


async def test_starting_to_watch_has_a_cooldown_that_says_when(
    world: World, bot: BotProcess
) -> None:
    fake = world.fake
    erin = fake.add_user("erin")
    world.guild.add_member(erin)
    await quick_game(world, humans=1, preset="standard", target=500)
    with fake.snowflakes.held():  # six within a minute on Discord's clock
        began = fake.snowflakes.now()
        for _ in range(6):
            assert "Watching table" in await watch(fake, erin, world.channel)
        refused = await watch(fake, erin, world.channel)
    assert refused.startswith(
        "You have started watching a table six times in the last minute. Try again <t:"
    ), refused
    when = int(re.findall(r"<t:(\d+):R>", refused)[-1])
    assert began + 60 <= when <= began + 62
    fake.snowflakes.advance(61)
    assert "Watching table" in await watch(fake, erin, world.channel)
    assert "Traceback" not in bot.output
