"""Rated means fair (issue 23): a host cannot rig a rated game with a turn timer shorter than
the server's minimum, nor by choosing how strong the computer is that plays an absent member's
seat; a member who left keeps their forfeit; the lobby shows the turn timer."""

from __future__ import annotations

from tests.e2e.conftest import World
from tests.e2e.driver import eventually, table_message
from tests.e2e.flows import answer, quick_game, quiet_table, seat_everyone, start
from tests.fakediscord import Message, run_bot


def seat_occupant(msg: Message, seat: str) -> str:
    """The first line of a seat's field on the table message (who plays it)."""
    for f in msg.embeds[0].get("fields", []):
        if str(f["name"]).removeprefix("▶ ").split(" ")[0] == seat:
            return str(f["value"]).splitlines()[0].strip("*")
    raise AssertionError(f"no {seat} field in {msg.embeds[0]}")


async def test_the_lobby_shows_the_turn_timer(world: World) -> None:
    fake, alice = world.fake, world.users[0]
    async with run_bot(fake, env=world.env()):
        r = await answer(world, alice, "spades", "new", turn_timer=45)
        assert "Table opened" in r.text, r.text
        assert "unrated" not in r.text, "45 s is above the server's minimum"
        await eventually(lambda: table_message(fake, world.channel))
        lobby = table_message(fake, world.channel).embeds[0]["description"]
        assert "Turn timer: 45 s" in lobby, lobby
        assert "unrated" not in lobby
        # Without a timer the lobby says so too (a thread keeps the two tables apart).
        r = await answer(world, world.users[1], "spades", "new", thread=True)
        (thread,) = fake.threads(world.channel)
        await eventually(lambda: table_message(fake, thread))
        assert "No turn timer" in table_message(fake, thread).embeds[0]["description"]


async def test_a_timer_under_the_servers_minimum_leaves_the_game_unrated_and_says_so(
    world: World,
) -> None:
    """The hole of issue 23: four members, a 1 s timer, the host's opponents run out of time and
    computers finish for them.  The table says from the start that it is unrated, and it is."""
    fake, ch, alice = world.fake, world.channel, world.users[0]
    async with run_bot(fake, env=world.env()):
        r = await answer(world, alice, "spades", "new", target=100, turn_timer=1)
        assert "unrated" in r.text, r.text
        assert "10 s" in r.text, "the reply names the minimum"
        await eventually(lambda: table_message(fake, ch))
        lobby = table_message(fake, ch).embeds[0]["description"]
        assert "Turn timer: 1 s" in lobby, lobby
        assert "unrated" in lobby
        await seat_everyone(world)
        await start(world)
        assert "unrated" in table_message(fake, ch).embeds[0]["footer"]["text"]
        # Nobody acts: after three timeouts each, computers play every seat to the end.
        over = await fake.wait_for_message(ch, lambda m: "Game over" in m.text, timeout=120)
        assert "Not rated" in over.text, over.text
        assert "turn timer" in over.text
        assert "1,000 →" not in over.text, "no member's rating changed"
        stats = await answer(world, alice, "stats")
        assert "0 rated games" in stats.text, stats.text


async def test_a_member_who_left_keeps_their_seat_their_forfeit_and_its_level(
    world: World,
) -> None:
    fake, ch = world.fake, world.channel
    alice, bob = world.users[:2]
    async with run_bot(fake, env=world.env()):
        # No timer: the game waits for Alice, so nothing moves while the host tries.
        await quick_game(world, humans=2, preset="standard", target=500)
        r = await answer(world, bob, "spades", "leave")
        assert "counts as a loss for you" in r.text
        r = await answer(world, alice, "spades", "bot", seat="E", level="easy")
        assert r.ephemeral
        assert "bob's seat" in r.text, r.text
        assert "not the host's to choose" in r.text
        # A computer seated from the start keeps its level too: a rated game is rated
        # against the players it began with.
        r = await answer(world, alice, "spades", "bot", seat="S", level="hard")
        assert "keep the level they started with" in r.text, r.text
        shown = await quiet_table(fake, ch)
        assert seat_occupant(shown, "East") == "Computer (normal) · bob left", "still forfeit"
        assert seat_occupant(shown, "South") == "Computer (normal)"


async def test_the_host_cannot_choose_the_level_of_a_timed_out_members_seat(world: World) -> None:
    """The host's own seat included: running out of time three times, then asking for a hard
    computer in one's own seat, is refused."""
    fake, ch, alice = world.fake, world.channel, world.users[0]
    # Computer players take 0.1 s a move here, so the game is still on when Alice asks.
    async with run_bot(fake, env=world.env(SPADES_BOT_DELAY="0.1")):
        r = await answer(world, alice, "spades", "new", target=1000, turn_timer=1)
        await eventually(lambda: table_message(fake, ch))
        for seat in ("E", "S", "W"):
            r = await answer(world, alice, "spades", "bot", seat=seat, level="normal")
            assert "plays" in r.text, r.text
        await start(world)
        await eventually(
            lambda: any("until they come back" in m.text for m in fake.messages(ch)), 40
        )
        r = await answer(world, alice, "spades", "bot", seat="N", level="hard")
        assert "North is your seat: you ran out of time" in r.text, r.text
        assert "not yours to choose, even as host" in r.text
        shown = await quiet_table(fake, ch)
        assert seat_occupant(shown, "North") == "alice (a computer plays)"
