"""Common table set-ups, driven through slash commands and buttons."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.e2e.conftest import NAMES, World
from tests.e2e.driver import Driver, Seated, button, eventually, live, table_message
from tests.fakediscord import (
    BotProcess,
    Channel,
    FakeDiscord,
    Guild,
    Message,
    Response,
    User,
    run_bot,
)


async def open_table(world: World, **options: Any) -> None:
    fake, ch, users = world.fake, world.channel, world.users
    r = await (await fake.slash(users[0], ch, "spades", "new", **options)).response()
    assert r.deferred
    await eventually(lambda: table_message(fake, ch))


async def seat_everyone(world: World) -> None:
    fake, ch, users = world.fake, world.channel, world.users
    for user, seat in zip(users[1:], ("E", "S", "W"), strict=True):
        msg = table_message(fake, ch)
        custom_id = next(
            c.custom_id
            for c in msg.all_components
            if c.custom_id and c.custom_id.endswith(f":join:{seat}")
        )
        r = await (await fake.click(user, msg, custom_id)).response()
        assert r.ephemeral
        assert "You sit" in r.text, r.text
        await eventually(
            lambda s=seat: (
                not any(
                    c.custom_id and c.custom_id.endswith(f":join:{s}")
                    for c in table_message(fake, ch).all_components
                )
            )
        )


async def rule(world: World, name: str, value: str) -> Response:
    inter = await world.fake.slash(
        world.users[0], world.channel, "spades", "rule", name=name, value=value
    )
    return await inter.response()


async def start(world: World) -> None:
    fake, ch = world.fake, world.channel
    msg = table_message(fake, ch)
    await (await fake.click(world.users[0], msg, button(msg, "start").custom_id)).response()
    await eventually(lambda: "Hand 1" in table_message(fake, ch).text)


async def four_player_game(world: World, **options: Any) -> Driver:
    """Open, seat four people, start; returns a driver for the four players."""
    await open_table(world, **options)
    await seat_everyone(world)
    await start(world)
    return Driver(world.fake, world.channel, [Seated(u) for u in world.users])


# ---------------------------------------------------------------------- small helpers
async def answer(
    world: World, user: User, *path: str, channel: Channel | None = None, **options: Any
) -> Response | Message:
    """Run a slash command in ``channel`` (default: the world's table channel); what the user
    reads (the callback, or the follow-up when the bot deferred a slow answer)."""
    inter = await world.fake.slash(user, channel or world.channel, *path, **options)
    return await inter.answer()


async def quick_game(world: World, humans: int = 4, **options: Any) -> Driver:
    """Open a table; the next ``humans - 1`` users sit East, South, West with `/spades join`,
    computer players fill the other seats (`/spades bot`), `/spades start`; every human gets
    a hand message from `/hand`.  Unlike :func:`four_player_game` it never waits for the
    (coalesced) table message edits.  Returns a driver for the humans."""
    users = world.users[:humans]
    await open_table(world, **options)
    for user, seat in zip(users[1:], ("E", "S", "W"), strict=False):
        r = await answer(world, user, "spades", "join", seat=seat)
        assert "You sit" in r.text, r.text
    for _ in range(4 - humans):
        r = await answer(world, users[0], "spades", "bot")
        assert "computer player" in r.text, r.text
    r = await answer(world, users[0], "spades", "start")
    assert "deals first" in r.text, r.text
    players = [Seated(u) for u in users]
    for p in players:
        p.hand = await answer(world, p.user, "hand")
        assert p.hand.ephemeral
        assert p.hand.embeds, p.hand.text
    return Driver(world.fake, world.channel, players)


async def solo_game(world: World, **options: Any) -> Driver:
    """Alice and three computer players (they play by themselves); a driver for Alice,
    returned once it is her turn (the computers before her have bid: nothing moves)."""
    driver = await quick_game(world, humans=1, **options)
    await act_until(driver, driver.can_act)
    return driver


async def act_until(
    driver: Driver, done: Callable[[Response | Message], bool], max_steps: int = 2000
) -> Response | Message:
    """Act (with the driver's players) until ``done(hand message)`` holds for the player who
    can act or, when nobody can act now, for the first player; returns that hand message.
    Each step acts once or, while computer players are on turn, waits a moment."""
    for _ in range(max_steps):
        mine = None
        for p in driver.players:
            r = await driver.refresh(p)
            if driver.can_act(r):
                mine = (p, r)
                break
        if mine is None:
            first = live(driver.players[0].hand)
            assert first is not None
            if done(first):
                return first
            await asyncio.sleep(0.02)
            continue
        p, r = mine
        if done(r):
            return r
        await driver.act(p, r)
    raise AssertionError(f"condition not reached within {max_steps} steps")


async def quiet_table(fake: FakeDiscord, channel: Channel) -> Message:
    """The table message once no edit of it is pending; returns it.

    Call it after everything that changes the table was answered.  The publisher edits at
    most once a second, rendering the state at the moment of the edit, so the table has
    settled as soon as an edit arrives (a little) after this call, or once no edit came for
    longer than the coalescing second."""
    start = time.monotonic()
    while True:
        msg = table_message(fake, channel)
        last = max([msg.created_at, *(msg.edit_times or ())])
        if last > start + 0.1 or time.monotonic() > max(last, start) + 1.1:
            return msg
        await asyncio.sleep(0.02)


# ---------------------------------------------------------------------- one bot, many worlds
@dataclass
class Shared:
    """One fake Discord server and one bot process shared by the tests of a module; each test
    gets its own channel and its own users (see :func:`fresh_world`), so tables never meet."""

    fake: FakeDiscord
    guild: Guild
    db_path: Path
    proc: BotProcess
    count: int = 0


@asynccontextmanager
async def shared_bot(db_dir: Path) -> AsyncIterator[Shared]:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Spades Club")
        db = db_dir / "spades.db"
        env = World(fake, guild, guild.add_text_channel("lobby"), [], db).env()
        async with run_bot(fake, env=env) as proc:
            yield Shared(fake, guild, db, proc)


def fresh_world(shared: Shared, names: tuple[str, ...] = NAMES) -> World:
    """A new channel and new members named ``names`` (fresh ids) in the shared server."""
    assert shared.proc.running, f"the bot died:\n{shared.proc.tail()}"
    shared.count += 1
    channel = shared.guild.add_text_channel(f"table-{shared.count}")
    users = [shared.fake.add_user(n) for n in names]
    for u in users:
        shared.guild.add_member(u)
    return World(shared.fake, shared.guild, channel, users, shared.db_path)
