"""Every hand summary in the channel carries a picture of the deal; where the bot may not
attach files the summary still comes, without it."""

from __future__ import annotations

import io

from PIL import Image

from tests.e2e.conftest import World
from tests.e2e.flows import act_until, quick_game
from tests.fakediscord import BotProcess, Message

SUMMARY = "Hand 1 — scores"


def summary(world: World) -> Message | None:
    return next((m for m in world.fake.messages(world.channel) if SUMMARY in m.text), None)


async def play_first_hand(world: World) -> Message:
    driver = await quick_game(world, humans=1, preset="standard", target=500)
    await act_until(driver, lambda _: summary(world) is not None)
    return await world.fake.wait_for_message(world.channel, lambda m: SUMMARY in m.text)


async def test_the_hand_summary_carries_the_deal_diagram(world: World, bot: BotProcess) -> None:
    message = await play_first_hand(world)
    [attachment] = message.attachments
    assert attachment.filename.startswith("deal-")
    assert attachment.filename.endswith("-1.png")
    assert message.embeds[0]["image"]["url"] == f"attachment://{attachment.filename}"
    img = Image.open(io.BytesIO(attachment.data))
    assert img.format == "PNG"
    assert img.size == (1000, 720)


async def test_without_attach_files_the_summary_comes_without_the_picture(
    world: World, bot: BotProcess
) -> None:
    world.channel.deny_bot("attach_files")
    message = await play_first_hand(world)
    assert not message.attachments
    assert "image" not in message.embeds[0]
    assert "North–South" in message.text
