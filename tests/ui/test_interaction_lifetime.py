"""A click, once answered, is freed by reference counting alone (bot/timely.py,
bot/disposal.py): nothing of it waits for the cyclic garbage collector.

At 200 tables the objects of each click (the interaction, the message it was clicked on, the member,
the view discord.py rebuilds from that message, the answer's view) were held in reference cycles and
kept 2 s by the answer's watchdog: most reached the collector's oldest generation, and the full
collections that freed them were the bot's slowest answers (docs/benchmarks.md, *Discord load*).
Here a real discord.py client, routing clicks through the bot's dynamic items and its
:class:`bot.ui.discord.clicks.ClickRouter`, answers clicks from the fake Discord while the cyclic
collector is switched off; afterwards no interaction object is left.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest

from bot import timely
from bot.engine import Seat
from bot.ui.discord.clicks import ClickRouter
from bot.ui.table.components import DYNAMIC_ITEMS, ComponentRef, HandVerb
from bot.ui.table.controls import Control, controls_view
from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import World, inprocess_bot

CARDS = ("AS", "KS", "QH", "2C", "9D")


def hand(hand_number: int) -> discord.ui.View:
    return controls_view(
        [
            Control(ComponentRef("t1", HandVerb.PLAY, Seat.N, hand_number, card), card, row=0)
            for card in CARDS
        ]
    )


def interactions_alive() -> int:
    return sum(1 for o in gc.get_objects() if isinstance(o, discord.Interaction))


def views_alive() -> int:
    return sum(1 for o in gc.get_objects() if isinstance(o, discord.ui.View))


class RoutingClient(discord.Client):
    """A client that routes the bot's clicks, as the bot does (``clicks``)."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.none())
        self.clicks = ClickRouter()


@pytest.fixture
def answered(bot: RoutingClient) -> asyncio.Queue[str]:
    """The bot's component handler for this test: it answers a card click the way a play is
    answered (the clicked message edited to the next hand), or a deferral then a follow-up
    (the way a slow answer goes out); it reports each click once it has answered it."""
    queue: asyncio.Queue[str] = asyncio.Queue()

    async def handler(interaction: discord.Interaction[Any], ref: ComponentRef, _: Any) -> None:
        if ref.card == "2C":
            await interaction.response.defer()
            await interaction.followup.send("played late", ephemeral=True)
        elif ref.card == "KS":  # like My hand: a new ephemeral message with the hand
            await interaction.response.send_message("your hand", view=hand(5), ephemeral=True)
        else:
            await interaction.response.edit_message(content="played", view=hand(4))
        await queue.put(str(ref.card))

    bot.clicks.on([HandVerb.PLAY], handler)
    return queue


@pytest.fixture
def bot() -> RoutingClient:
    return RoutingClient()


@pytest.fixture
async def client(
    fake: FakeDiscord, world: World, bot: RoutingClient
) -> AsyncIterator[discord.Client]:
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    async with inprocess_bot(fake, bot) as c:
        yield c


async def settled(condition: Any, rounds: int = 200, patience: float = 10.0) -> bool:
    """Let the event loop run (tasks finishing, callbacks) until ``condition()`` holds: a few
    hundred turns of the loop, then (a busy machine: a deferral's request still on its way to
    the fake) short sleeps for up to ``patience`` seconds."""
    for _ in range(rounds):
        if condition():
            return True
        await asyncio.sleep(0)
    deadline = asyncio.get_running_loop().time() + patience
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            return False
        await asyncio.sleep(0.01)
    return True


async def test_an_answered_click_leaves_nothing_for_the_cyclic_collector(
    fake: FakeDiscord, world: World, client: discord.Client, answered: asyncio.Queue[str]
) -> None:
    channel = client.get_partial_messageable(world.channel.id, guild_id=world.guild.id)
    await channel.send("your hand", view=hand(3))
    message = fake.messages(world.channel)[-1]
    gc.collect()
    gc.disable()
    try:
        # answered at once (the message then shows hand 4); deferred, then a follow-up; a
        # new ephemeral message (hand 5), whose buttons still work after its view was dropped
        for number, card in ((3, "AS"), (4, "2C"), (4, "KS"), (5, "QH")):
            click = await fake.click(world.alice, message, f"spades:t:t1:play:N:{number}:{card}")
            answer = await click.response(timeout=30)
            if answer.message is not None and card == "KS":
                message = answer.message
            assert await answered.get() == card
            assert await settled(lambda: not timely.waiting()), "the watchdog stopped"
            assert await settled(lambda: interactions_alive() == 0), "the click was freed"
            assert await settled(lambda: views_alive() == 0), "and every view"
    finally:
        gc.enable()


async def test_quiet_lets_work_wait_until_every_click_is_answered(
    fake: FakeDiscord, world: World, client: discord.Client, bot: RoutingClient
) -> None:
    """:func:`bot.timely.quiet` (the gate of live hands and spectators' views) returns without
    waiting when no click waits for its answer, holds while one does — at most ``max_wait`` —
    and lets every waiter go as soon as the last answer is out."""
    release = asyncio.Event()

    async def handler(interaction: discord.Interaction[Any], ref: ComponentRef, _: Any) -> None:
        await release.wait()
        await interaction.response.edit_message(content="played", view=hand(4))

    bot.clicks.on([HandVerb.PLAY], handler)
    channel = client.get_partial_messageable(world.channel.id, guild_id=world.guild.id)
    await channel.send("your hand", view=hand(3))
    message = fake.messages(world.channel)[-1]

    at_once = timely.quiet(30)
    with pytest.raises(StopIteration):  # finished without suspending: nothing waits
        at_once.send(None)

    click = await fake.click(world.alice, message, "spades:t:t1:play:N:3:AS")
    assert await settled(lambda: timely.waiting() == 1), "the click waits for its answer"
    bounded = asyncio.create_task(timely.quiet(0.01))
    waiters = [asyncio.create_task(timely.quiet(30)) for _ in range(3)]
    assert await settled(bounded.done), "max_wait bounds the wait"
    assert not any(w.done() for w in waiters), "the others still wait for the answer"
    release.set()
    assert (await click.response(timeout=30)).type == 7
    assert await settled(lambda: all(w.done() for w in waiters)), "answered: all go at once"
    assert timely.waiting() == 0
