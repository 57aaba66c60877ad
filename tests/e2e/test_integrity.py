"""A league people can trust, end to end: ending a shared game needs everyone's agreement, a
moderator's end names them, simultaneous clicks never give two tables to a channel or two
seats to a member, tables of deleted channels and servers are closed, and every failure
injected in the real database ends in a visible notice on the table."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from tests.e2e.conftest import World
from tests.e2e.driver import eventually, table_message
from tests.e2e.flows import answer, four_player_game, open_table, quick_game, solo_game
from tests.fakediscord import BotProcess, FakeDiscord, run_bot
from tests.fakediscord.users import User


def new_member(world: World, name: str, **perms: bool) -> User:
    user = world.fake.add_user(name)
    world.guild.add_member(user, **perms)
    return user


def status_of(world: World) -> list[str]:
    with sqlite3.connect(world.db_path) as conn:
        return [r[0] for r in conn.execute("SELECT status FROM tables ORDER BY created_at")]


async def notice(world: World, text: str) -> None:
    await world.fake.wait_for_message(world.channel, lambda m: text in m.text, timeout=30)


# ---------------------------------------------------------------------- ending early
async def test_a_hosts_abandon_needs_everyones_agreement(world: World, bot: BotProcess) -> None:
    driver = await quick_game(world, humans=3, preset="standard")
    alice, bob, carol = world.users[:3]
    r = await answer(world, alice, "spades", "abandon")
    assert "only if they all agree" in r.text
    await notice(world, "asks to end this game early")
    msg = await world.fake.wait_for_edit(
        driver.table(), lambda m: any("agree" in (c.custom_id or "") for c in m.all_components)
    )
    agree = next(c for c in msg.all_components if (c.custom_id or "").endswith(":agree"))
    keep = next(c for c in msg.all_components if (c.custom_id or "").endswith(":keep"))
    r = await (await world.fake.click(bob, msg, agree.custom_id)).answer()
    assert "Still waiting for carol" in r.text
    r = await (await world.fake.click(carol, msg, keep.custom_id)).answer()
    assert "keep playing" in r.text
    await notice(world, "carol wants to keep playing: the game goes on.")
    assert status_of(world) == ["playing"]
    # Asked again, everyone agrees: the game ends, unrated.
    await answer(world, alice, "spades", "abandon")
    msg = await world.fake.wait_for_edit(
        driver.table(),
        lambda m: any((c.custom_id or "").endswith(":agree") for c in m.all_components),
    )
    agree = next(c for c in msg.all_components if (c.custom_id or "").endswith(":agree"))
    for user in (bob, carol):
        await (await world.fake.click(user, msg, agree.custom_id)).answer()
    await notice(world, "ended early by agreement of alice, bob, carol")
    assert status_of(world) == ["abandoned"]


async def test_a_moderator_ends_a_game_alone_and_the_channel_is_told_who(
    world: World, bot: BotProcess
) -> None:
    await quick_game(world, humans=2, preset="standard")
    mod = new_member(world, "mod", manage_guild=True)
    r = await answer(world, mod, "spades", "abandon")
    assert "The table is closed." in r.text
    await notice(world, "This table was closed by mod (Manage Server); the game is unrated.")


# ---------------------------------------------------------------------- simultaneous clicks
async def test_two_new_tables_in_one_channel_at_once_make_one(
    world: World, bot: BotProcess
) -> None:
    fake, alice, bob = world.fake, world.users[0], world.users[1]
    a, b = await asyncio.gather(
        fake.slash(alice, world.channel, "spades", "new"),
        fake.slash(bob, world.channel, "spades", "new"),
    )
    ra, rb = await asyncio.gather(a.answer(), b.answer())
    texts = sorted([ra.text, rb.text])
    assert sum("Table opened" in t for t in texts) == 1, texts
    assert sum("This channel already has a table" in t for t in texts) == 1, texts
    assert "something went wrong" not in " ".join(texts)
    assert status_of(world) == ["lobby"]


async def test_one_member_sitting_at_two_tables_at_once_gets_one_seat(
    world: World, bot: BotProcess
) -> None:
    fake, alice, bob, carol = world.fake, *world.users[:3]
    other = world.guild.add_text_channel("other")
    await open_table(world)
    r = await (await fake.slash(bob, other, "spades", "new")).answer()
    assert "Table opened" in r.text
    here = table_message(fake, world.channel)
    there = await fake.wait_for_message(other, lambda m: bool(m.embeds))
    join_here = next(c for c in here.all_components if (c.custom_id or "").endswith(":join:E"))
    join_there = next(c for c in there.all_components if (c.custom_id or "").endswith(":join:E"))
    a, b = await asyncio.gather(
        fake.click(carol, here, join_here.custom_id), fake.click(carol, there, join_there.custom_id)
    )
    ra, rb = await asyncio.gather(a.answer(), b.answer())
    texts = [ra.text, rb.text]
    assert sum("You sit East" in t for t in texts) == 1, texts
    assert sum("already seated at a table" in t for t in texts) == 1, texts
    del alice


# ---------------------------------------------------------------------- orphans
async def test_a_deleted_channel_closes_its_table_and_frees_its_players(
    world: World, bot: BotProcess
) -> None:
    await quick_game(world, humans=2, preset="standard")
    world.guild.delete_channel(world.channel)
    await eventually(lambda: status_of(world) == ["abandoned"], timeout=30)
    elsewhere = world.guild.add_text_channel("elsewhere")
    r = await answer(world, world.users[1], "spades", "new", channel=elsewhere)
    assert "Table opened" in r.text, "bob is free to open a table elsewhere"
    assert "Traceback" not in bot.output


async def test_a_deleted_thread_closes_its_table(world: World, bot: BotProcess) -> None:
    fake = world.fake
    r = await answer(world, world.users[0], "spades", "new", thread=True)
    assert "Table opened" in r.text
    (thread,) = await fake.wait_until(lambda: fake.threads(world.channel))
    world.guild.delete_channel(thread)
    await eventually(lambda: status_of(world) == ["abandoned"], timeout=30)
    r = await answer(world, world.users[0], "spades", "new")
    assert "Table opened" in r.text


async def test_a_server_the_bot_left_has_its_tables_closed(world: World, bot: BotProcess) -> None:
    await solo_game(world, preset="standard")
    world.fake.remove_bot(world.guild)
    await eventually(lambda: status_of(world) == ["abandoned"], timeout=30)
    await bot.wait_for_line("the bot left the server")


async def test_tables_whose_channel_went_while_the_bot_was_away_are_closed_at_start(
    world: World,
) -> None:
    async with run_bot(world.fake, env=world.env()):
        await quick_game(world, humans=2, preset="standard")
    world.guild.delete_channel(world.channel)  # while the bot is stopped
    async with run_bot(world.fake, env=world.env(), wait_for="commands") as again:
        await eventually(lambda: status_of(world) == ["abandoned"], timeout=30)
        await again.wait_for_line("its channel or thread no longer exists")


# ---------------------------------------------------------------------- injected failures
def inject(world: World, sql: str) -> None:
    with sqlite3.connect(world.db_path) as conn:
        conn.executescript(sql)


async def test_a_move_the_database_refuses_is_told_to_the_player_and_the_table(
    world: World, bot: BotProcess
) -> None:
    driver = await four_player_game(world, preset="standard", target=100)
    inject(
        world,
        "CREATE TRIGGER no_moves BEFORE INSERT ON actions "
        "BEGIN SELECT RAISE(ABORT, 'injected'); END;",
    )
    for p in driver.players:
        r = await driver.refresh(p)
        if driver.can_act(r):
            sel = next(c for c in r.all_components if c.custom_id and ":bid:" in c.custom_id)
            inter = await world.fake.select(p.user, r, sel.custom_id, [sel.values[1]])
            out = await inter.answer()
            assert "could not save" in out.text, out.text
            break
    else:
        raise AssertionError("nobody could bid")
    await notice(world, "I could not save a move here")
    inject(world, "DROP TRIGGER no_moves;")
    assert await driver.step(), "the table works again"


async def test_a_game_the_league_cannot_record_still_ends_with_a_notice(
    world: World, bot: BotProcess
) -> None:
    inject(
        world,
        "CREATE TRIGGER no_league BEFORE INSERT ON league_games "
        "BEGIN SELECT RAISE(ABORT, 'injected'); END;",
    )
    driver = await four_player_game(world, preset="standard", target=100)
    await driver.play_until_over()
    await notice(world, "I could not record it in the league")
    assert status_of(world) == ["finished"]
    await bot.wait_for_line("the league could not record table")


# ---------------------------------------------------------------------- seeded runs
async def test_a_seeded_run_deals_the_same_cards_every_time(tmp_path: Path) -> None:
    """SPADES_TEST_SEED makes a run reproducible: the same seed, the same table id, the same
    dealer and the same cards, whatever the clock says."""
    seen = []
    for run in range(2):
        async with FakeDiscord() as fake:
            guild = fake.add_guild("Spades Club")
            world = World(
                fake,
                guild,
                guild.add_text_channel("spades"),
                [fake.add_user(n) for n in ("alice", "bob", "carol", "dave")],
                tmp_path / f"run{run}.db",
            )
            for u in world.users:
                guild.add_member(u)
            async with run_bot(fake, env=world.env()):
                driver = await quick_game(world, humans=1, preset="standard")
                hand = driver.players[0].hand
                assert hand is not None
                footer = table_message(fake, world.channel).embeds[0]["footer"]["text"]
                seen.append((hand.embeds[0]["description"], footer.split(" · ")[0]))
    assert seen[0] == seen[1]
