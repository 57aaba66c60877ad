"""Who may act where: members not seated, joins and new tables where they cannot be, taken
seats."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World
from tests.e2e.driver import CARD_RE, button, table_message
from tests.e2e.flows import answer, open_table, solo_game
from tests.e2e.refusals.checks import (
    lobby_state,
    lobby_unchanged,
    new_member,
    refused,
    refused_changing_nothing,
    state,
    state_after_refusal,
)

pytestmark = pytest.mark.asyncio(loop_scope="package")


async def test_hand_by_a_member_not_seated_is_refused(world: World) -> None:
    driver = await solo_game(world)
    eve = new_member(world, "eve")
    r = await refused_changing_nothing(
        driver, eve, "hand", "You are not seated at a table in this server"
    )
    assert not r.embeds
    assert not CARD_RE.search(r.text)


async def test_play_by_a_member_not_seated_is_refused(world: World) -> None:
    driver = await solo_game(world)
    eve = new_member(world, "eve")
    await refused_changing_nothing(
        driver, eve, "play", "You are not seated at a table in this server", card="AS"
    )


async def test_my_hand_clicked_by_a_member_not_seated_is_refused(world: World) -> None:
    driver = await solo_game(world)
    eve = new_member(world, "eve")
    before = await state(driver)
    msg = table_message(world.fake, world.channel)
    r = await (await world.fake.click(eve, msg, button(msg, "hand").custom_id)).response()
    refused(r, "You are not seated at this table")
    assert not r.embeds, "no cards are shown"
    assert not CARD_RE.search(r.text)
    assert await state_after_refusal(driver) == before


async def test_join_where_there_is_no_table_is_refused(world: World) -> None:
    await open_table(world, preset="standard")
    other = world.guild.add_text_channel("elsewhere")
    before = await lobby_state(world)
    r = await answer(world, world.users[1], "spades", "join", channel=other)
    refused(r, "There is no table in this channel", "/spades new")
    await lobby_unchanged(world, before)
    assert not world.fake.messages(other)
    r = await answer(world, world.users[1], "hand")
    assert "not seated" in r.text, "the join did not seat anyone anywhere"


async def test_new_table_while_seated_at_another_is_refused(world: World) -> None:
    await open_table(world, preset="standard")
    other = world.guild.add_text_channel("elsewhere")
    before = await lobby_state(world)
    r = await answer(world, world.users[0], "spades", "new", channel=other)
    refused(r, "You are already seated at a table in", world.channel.mention)
    await lobby_unchanged(world, before)
    assert not world.fake.messages(other), "no table was opened"


async def test_second_table_in_a_channel_is_refused(world: World) -> None:
    await open_table(world, preset="standard")
    before = await lobby_state(world)
    count = len(world.fake.messages(world.channel))
    r = await answer(world, world.users[1], "spades", "new")
    refused(r, "This channel already has a table", "thread")
    await lobby_unchanged(world, before)
    assert len(world.fake.messages(world.channel)) == count + 1, "only the repost was posted"
    r = await answer(world, world.users[1], "hand")
    assert "not seated" in r.text


async def test_seats_are_unchanged_by_refusals_in_the_lobby(world: World) -> None:
    """A join of a taken seat and a second join are refused; the seats shown stay the same."""
    await open_table(world, preset="standard")
    for user, seat in zip(world.users[1:], ("E", "S", "W"), strict=True):
        assert "You sit" in (await answer(world, user, "spades", "join", seat=seat)).text
    before = await lobby_state(world, *world.users[1:])
    bob = world.users[1]
    r = await answer(world, bob, "spades", "join", seat="N")
    refused(r, "North is taken by alice")
    r = await answer(world, bob, "spades", "join")
    refused(r, "You are already seated (East)")
    await lobby_unchanged(world, before)
