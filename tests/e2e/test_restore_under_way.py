"""Restoring many unfinished tables at start-up does not keep the bot from answering: the
tables are known at once, their games come back in the background once the bot is connected,
and a table someone turns to meanwhile is brought back first, on demand.

The tables are written to the bot's database by the table service itself before the bot
starts (as a bot that stopped with them in play leaves them), so the test needs no thousand
games played through Discord.  The order of events is read from the bot's own log (one
stream, written in order), never from clocks."""

from __future__ import annotations

import re

from bot.engine import Action, Seat, SeatView
from bot.store.db import Database
from bot.tables.service import TableService
from tests.e2e.conftest import World
from tests.e2e.driver import CARD_RE
from tests.fakediscord import Channel, User, run_bot

TABLES = 400  # unfinished tables, four people each, every one in its own channel
RESTORED_ALL = re.compile(r"restored (\d+) unfinished table\(s\)")


async def never(view: SeatView, level: str, seed: int, think: float) -> Action:
    raise AssertionError("no computer plays at these tables")


async def unfinished_tables(world: World, count: int) -> list[tuple[str, Channel, list[User]]]:
    """``count`` games just dealt, written to the bot's database; each table's id, channel and
    four players."""
    guild, fake = world.guild, world.fake
    made = []
    async with Database.open(str(world.db_path)) as db:
        service = TableService(db, never, test_seed=7, bot_delay=0)
        for i in range(count):
            channel = guild.add_text_channel(f"table-{i}")
            four = [fake.add_user(f"p{i}-{k}") for k in range(4)]
            for user in four:
                guild.add_member(user)
            table = await service.lobby.open_table(
                guild_id=guild.id,
                channel_id=channel.id,
                host_id=four[0].id,
                host_name=four[0].name,
                preset="standard",
            )
            for user, seat in zip(four[1:], (Seat.E, Seat.S, Seat.W), strict=True):
                await service.lobby.join(table, user.id, user.name, seat)
            await service.lobby.start(table, four[0].id)
            made.append((table.id, channel, four))
        await service.close()
    return made


async def test_a_click_is_answered_while_a_large_restore_is_under_way(world: World) -> None:
    made = await unfinished_tables(world, TABLES)
    last_id, channel, four = made[-1]  # the newest: the last the background brings back
    async with run_bot(world.fake, env=world.env()) as bot:
        # The moment the bot has connected, its newest table's host asks for their hand.
        reply = await (await world.fake.slash(four[0], channel, "hand")).response(timeout=30)
        await bot.wait_for_line(f"restored {TABLES} unfinished table(s) in", timeout=120)
        log = bot.output
    assert "Your hand" in reply.text, reply.text
    assert len(CARD_RE.findall(reply.embeds[0]["description"])) == 13, "the host's cards"
    on_demand = log.index(f"table {last_id} restored on demand")
    restored = RESTORED_ALL.search(log)
    assert restored is not None
    assert int(restored.group(1)) == TABLES, "every table came back, timers and turns with it"
    assert on_demand < restored.start(), "the clicked table came back before the others"
    assert log.index(f"restoring {TABLES} unfinished table(s) in the background") < on_demand
