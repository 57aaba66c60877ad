"""A complete game of four people through the real bot and the fake Discord."""

from __future__ import annotations

from tests.e2e.conftest import World
from tests.e2e.driver import eventually, table_message
from tests.e2e.flows import four_player_game
from tests.fakediscord import BotProcess


async def test_four_people_play_a_whole_game_to_game_over(world: World, bot: BotProcess) -> None:
    fake, ch = world.fake, world.channel
    driver = await four_player_game(world, preset="standard", target=100)
    assert "to bid" in table_message(fake, ch).text
    await driver.play_until_over()

    final = table_message(fake, ch)
    assert "🏆" in final.text
    assert not final.all_components, "a finished table has no buttons"
    await eventually(lambda: any("Game over" in m.text for m in fake.messages(ch)))
    texts = [m.text for m in fake.messages(ch)]
    summaries = [t for t in texts if "— scores" in t]
    assert summaries, "each finished hand is summarised in the channel"
    # Every hand is 13 tricks of 4 cards, plus 4 bids.
    assert driver.actions >= len(summaries) * 56
