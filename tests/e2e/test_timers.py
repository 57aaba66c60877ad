"""Turn timers: a computer acts for a player who runs out of time, across restarts too."""

from __future__ import annotations

from tests.e2e.conftest import World
from tests.e2e.driver import Driver, Seated, eventually, table_message
from tests.e2e.flows import open_table, seat_everyone, start
from tests.fakediscord import run_bot


def notices(world: World) -> list[str]:
    return [m.text for m in world.fake.messages(world.channel) if "ran out of time" in m.text]


async def test_a_player_out_of_time_is_played_for_and_told(world: World) -> None:
    async with run_bot(world.fake, env=world.env()):
        await open_table(world, preset="standard", target=100, turn_timer=1)
        await seat_everyone(world)
        await start(world)
        await eventually(lambda: notices(world), timeout=20)
        assert "a computer played a bid of" in notices(world)[0]
        assert "(1/3)" in notices(world)[0]


async def test_the_turn_timer_survives_a_restart(world: World) -> None:
    fake = world.fake
    async with run_bot(fake, env=world.env()) as proc:
        await open_table(world, preset="standard", target=100, turn_timer=3)
        await seat_everyone(world)
        await start(world)
        assert not notices(world)
        proc.kill9()
        await proc.wait()
    # Whatever the killed bot had sent has landed once the fake closed its connections (it
    # finishes a request it was handling first): none of it was a notice.
    await fake.wait_until(lambda: fake.open_connections == 0, timeout=30)
    assert not notices(world)
    async with run_bot(fake, env=world.env(), wait_for="commands"):
        await eventually(lambda: notices(world), timeout=20)
        await eventually(lambda: "bid …" in table_message(fake, world.channel).text)


async def test_three_timeouts_hand_the_seat_to_a_computer_until_the_player_returns(
    world: World,
) -> None:
    fake, ch, users = world.fake, world.channel, world.users
    # Computer players take 0.1 s a move here, so the game is still on when North returns.
    async with run_bot(fake, env=world.env(SPADES_BOT_DELAY="0.1")):
        await open_table(world, preset="standard", target=1000, turn_timer=1)
        for seat in ("E", "S", "W"):
            r = await (
                await fake.slash(users[0], ch, "spades", "bot", seat=seat, level="easy")
            ).response()
            assert "plays" in r.text
        await start(world)
        await eventually(lambda: any("until they come back" in t for t in notices(world)), 40)
        counts = [t for t in notices(world) if "/3)" in t]
        assert len(counts) == 2, counts  # 1/3 and 2/3 before the handover
        await eventually(lambda: "(a computer plays)" in table_message(fake, ch).text)
        r = await (await fake.slash(users[0], ch, "spades", "join")).response()
        assert "You sit North" in r.text
        driver = Driver(fake, ch, [Seated(users[0])])
        hand = await driver.open_hand(driver.players[0])
        assert hand.embeds[0]["title"] == "Your hand — North"
