"""One path per click and one answer per failure (bot/ui/discord/clicks.py,
bot/ui/discord/failures.py).

A real discord.py bot runs in this process against the fake Discord, with the bot's own
command tree (:class:`bot.app.SpadesTree`), its dynamic items and a :class:`ClickRouter`:
a command and a button that fail the same way are answered the same way, a refusal reaches
the member alone, the same click delivered twice is answered once, and a click whose route
has no handler yet is told to try again.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from discord.ext import commands

from bot.app import SpadesTree
from bot.engine import Seat
from bot.errors import Duplicate, Refusal
from bot.ui.discord.clicks import STARTING, ClickRouter
from bot.ui.discord.failures import SORRY
from bot.ui.table.components import DYNAMIC_ITEMS, ComponentRef, HandVerb, TableVerb, button
from tests.e2e.driver import eventually
from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import World, inprocess_bot

BROKEN = "the handler broke"


class Bot(commands.Bot):
    """The bot's click and command paths, nothing else."""

    def __init__(self) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.none(),
            tree_cls=SpadesTree,
        )
        self.clicks = ClickRouter()


@pytest.fixture
async def bot(fake: FakeDiscord, world: World) -> AsyncIterator[Bot]:
    client = Bot()
    client.add_dynamic_items(*DYNAMIC_ITEMS)

    @client.tree.command(name="boom")
    async def boom(interaction: discord.Interaction[Any]) -> None:
        """Fails."""
        raise RuntimeError(BROKEN)

    async def broken(interaction: discord.Interaction[Any], ref: Any, values: list[str]) -> None:
        raise RuntimeError(BROKEN)

    async def refuses(interaction: discord.Interaction[Any], ref: Any, values: list[str]) -> None:
        raise Refusal(f"No {ref.verb} for you.")

    applied: set[int] = set()

    async def plays(interaction: discord.Interaction[Any], ref: Any, values: list[str]) -> None:
        if interaction.id in applied:  # as the move pipeline refuses a second delivery
            raise Duplicate("This action has already been applied.")
        applied.add(interaction.id)
        await interaction.response.send_message(f"You played {ref.card}.", ephemeral=True)

    client.clicks.on([TableVerb.RULES], broken)
    client.clicks.on([TableVerb.LEAVE], refuses)
    client.clicks.on([HandVerb.PLAY], plays)
    async with inprocess_bot(fake, client):
        await client.tree.sync()
        yield client


async def posted(client: Bot, world: World, *refs: ComponentRef) -> Any:
    """A channel message carrying a button for each of ``refs``."""
    view = discord.ui.View(timeout=None)
    for ref in refs:
        view.add_item(button(ref, ref.verb.value))
    channel = client.get_partial_messageable(world.channel.id, guild_id=world.guild.id)
    return await channel.send("buttons", view=view)


async def test_a_command_and_a_button_that_fail_alike_are_answered_alike(
    fake: FakeDiscord, world: World, bot: Bot, caplog: pytest.LogCaptureFixture
) -> None:
    await posted(bot, world, ComponentRef("t1", TableVerb.RULES))
    message = fake.messages(world.channel)[-1]
    with caplog.at_level(logging.ERROR, logger="bot"):
        command = await (await fake.slash(world.alice, world.channel, "boom")).response(30)
        click = await (await fake.click(world.alice, message, "spades:t:t1:rules")).response(30)
    assert command.text == click.text == SORRY
    assert command.ephemeral
    assert click.ephemeral
    failures = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert [r.getMessage() for r in failures] == ["/boom failed", "spades:t:t1:rules failed"]
    assert all(r.exc_info and str(r.exc_info[1]) == BROKEN for r in failures), "with the cause"


async def test_a_refusal_reaches_the_member_alone(
    fake: FakeDiscord, world: World, bot: Bot
) -> None:
    await posted(bot, world, ComponentRef("t1", TableVerb.LEAVE))
    message = fake.messages(world.channel)[-1]
    answer = await (await fake.click(world.bob, message, "spades:t:t1:leave")).response(30)
    assert answer.text == "No leave for you."
    assert answer.ephemeral


async def test_the_same_click_delivered_again_is_answered_once(
    fake: FakeDiscord, world: World, bot: Bot, caplog: pytest.LogCaptureFixture
) -> None:
    ref = ComponentRef("t1", HandVerb.PLAY, Seat.N, 1, "AS")
    await posted(bot, world, ref)
    message = fake.messages(world.channel)[-1]
    with caplog.at_level(logging.INFO, logger="bot"):
        click = await fake.click(world.alice, message, ref.custom_id)
        assert (await click.response(30)).text == "You played AS."
        again = await fake.redeliver(click)
        line = f"interaction {again.id} delivered again"
        await eventually(lambda: any(line in r.getMessage() for r in caplog.records))
    assert again.rejected_callbacks == 0, "nothing more was answered"


async def test_a_click_whose_route_has_no_handler_yet_is_told_to_try_again(
    fake: FakeDiscord, world: World, bot: Bot
) -> None:
    await posted(bot, world, ComponentRef("t1", TableVerb.START))
    message = fake.messages(world.channel)[-1]
    answer = await (await fake.click(world.carol, message, "spades:t:t1:start")).response(30)
    assert answer.text == STARTING
    assert answer.ephemeral


def test_a_route_has_one_handler_and_the_missing_ones_are_named() -> None:
    router = ClickRouter()

    async def handler(interaction: Any, ref: Any, values: list[str]) -> None:
        return None

    router.on([TableVerb.JOIN, TableVerb.LEAVE], handler)
    with pytest.raises(ValueError, match="two handlers for the route 'join'"):
        router.on([TableVerb.JOIN], handler)
    assert router.unrouted([*TableVerb]) == [v for v in TableVerb if v not in ("join", "leave")]
