"""What only the host (or a member with Manage Server) may do: start, rules, computer
players, abandoning the table."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World
from tests.e2e.driver import table_message
from tests.e2e.flows import answer, open_table, quick_game
from tests.e2e.refusals.checks import lobby_state, lobby_unchanged, new_member, refused

pytestmark = pytest.mark.asyncio(loop_scope="package")


@pytest.mark.parametrize(
    ("path", "options", "expected"),
    [
        (("spades", "start"), {}, "Only the host (alice) can start the game."),
        (
            ("spades", "rule"),
            {"name": "target", "value": "300"},
            "Only the host (alice) can change the rules.",
        ),
        (("spades", "bot"), {}, "Only the host (alice) can add computer players."),
    ],
    ids=["start", "rule", "bot"],
)
async def test_host_only_commands_by_a_guest_are_refused(
    world: World,
    path: tuple[str, ...],
    options: dict[str, str],
    expected: str,
) -> None:
    await open_table(world, preset="standard", target=100)
    bob = world.users[1]
    r = await answer(world, bob, "spades", "join")
    assert "You sit" in r.text
    before = await lobby_state(world, bob)
    r = await answer(world, bob, *path, **options)
    refused(r, expected)
    await lobby_unchanged(world, before)
    assert "to 100" in before
    assert "Waiting for players" in before


async def test_abandon_by_a_guest_is_refused(world: World) -> None:
    await open_table(world, preset="standard")
    bob = world.users[1]
    assert "You sit" in (await answer(world, bob, "spades", "join")).text
    before = await lobby_state(world, bob)
    r = await answer(world, bob, "spades", "abandon")
    refused(r, "Only the host (alice) or a member with Manage Server can abandon the table.")
    await lobby_unchanged(world, before)


async def test_abandon_by_a_member_with_manage_server_works(world: World) -> None:
    driver = await quick_game(world, humans=2, preset="standard")
    mod = new_member(world, "mod", manage_guild=True)
    r = await answer(world, mod, "spades", "abandon")
    assert r.ephemeral
    assert "The table is closed." in r.text
    await world.fake.wait_for_message(world.channel, lambda m: "This table was closed" in m.text)
    await world.fake.wait_for_edit(
        driver.table(), lambda m: "abandoned" in m.text and not m.buttons
    )
    for user in world.users[:2]:
        r = await answer(world, user, "hand")
        assert "not seated" in r.text, "the players are free again"
    r = await answer(world, world.users[0], "spades", "join")
    assert "There is no table in this channel" in r.text


async def test_abandoning_a_lobby_updates_its_table_message(world: World) -> None:
    fake = world.fake
    await open_table(world, preset="standard")
    mod = new_member(world, "mod", manage_guild=True)
    r = await answer(world, mod, "spades", "abandon")
    assert "The table is closed." in r.text
    msg = table_message(fake, world.channel)
    await fake.wait_for_message(world.channel, lambda m: "This table was closed" in m.text)
    await fake.wait_for_edit(msg, lambda m: not m.buttons)
