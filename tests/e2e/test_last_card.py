"""The game's final card, by `/play` and by its button: either ends the game cleanly — the
player reads what they played and that the game is over, the table shows the winner, and
nothing is logged as a failure.  A Whist game to 1 point ends with its first hand, so the
final card comes within 52 plays."""

from __future__ import annotations

import sqlite3

from tests.e2e.conftest import World
from tests.e2e.driver import Driver, Seated, eventually, has, live, table_message
from tests.e2e.flows import quick_game
from tests.fakediscord import BotProcess, Interaction, Message, Response
from tests.tables.test_commit_failures import SQLITE_TRIPWIRE


def play_buttons(hand: Message | Response) -> list[str]:
    return [c.custom_id for c in hand.all_components if c.custom_id and ":play:" in c.custom_id]


async def to_the_last_card(driver: Driver) -> tuple[Seated, Message | Response]:
    """Play (by buttons) until one card is left to play in the game; the player who holds
    it, with their hand message offering it."""
    cards_left = 52
    for _ in range(200):
        for p in driver.players:
            r = await driver.refresh(p)
            if driver.can_act(r):
                if has(r, "play") and cards_left == 1:
                    return p, r
                await driver.act(p, r)
                cards_left -= 1
                break
    raise AssertionError("the last card never came")


async def assert_the_game_ended_cleanly(
    world: World, bot: BotProcess, inter: Interaction, answer: Response
) -> None:
    fake, ch = world.fake, world.channel
    assert answer.ephemeral
    assert "You played" in answer.text, answer.text
    assert "The game is over." in answer.text, answer.text
    assert not answer.all_components, "a finished game's hand keeps no buttons"
    await eventually(lambda: "🏆" in table_message(fake, ch).text)
    await fake.wait_for_message(ch, lambda m: "Game over" in m.text)
    # One more round trip with the bot: whatever the final card's handler did after its
    # answer (a traceback in the log, a "sorry" follow-up) has happened by then.
    later = await (await fake.slash(inter.user, ch, "hand")).response()
    assert "not seated" in later.text, later.text
    assert not inter.followups, [m.text for m in inter.followups]
    assert "Traceback" not in bot.output, bot.tail()


async def test_the_final_card_by_play_ends_the_game(world: World, bot: BotProcess) -> None:
    fake, ch = world.fake, world.channel
    driver = await quick_game(world, preset="whist", target=1)
    player, hand = await to_the_last_card(driver)
    [last] = play_buttons(hand)
    code = last.rsplit(":", 1)[1]
    inter = await fake.slash(player.user, ch, "play", card=code)
    await assert_the_game_ended_cleanly(world, bot, inter, await inter.response())


async def test_the_final_card_by_its_button_ends_the_game(world: World, bot: BotProcess) -> None:
    fake = world.fake
    driver = await quick_game(world, preset="whist", target=1)
    player, hand = await to_the_last_card(driver)
    [last] = play_buttons(hand)
    inter = await fake.click(player.user, live(hand) or hand, last)
    await assert_the_game_ended_cleanly(world, bot, inter, await inter.response())


async def test_a_final_card_whose_commit_fails_can_be_played_again(
    world: World, bot: BotProcess
) -> None:
    """The database refuses the final COMMIT (as a full disk would): the player is told
    nothing changed, the game stays playable — its table message, its buttons — and once the
    database works again the same card ends the game."""
    fake, ch = world.fake, world.channel
    driver = await quick_game(world, preset="whist", target=1)
    player, hand = await to_the_last_card(driver)
    [last] = play_buttons(hand)
    with sqlite3.connect(world.db_path) as conn:
        conn.executescript(SQLITE_TRIPWIRE)
    refused = await (await fake.click(player.user, live(hand) or hand, last)).response()
    assert "could not save that, so nothing changed" in refused.text, refused.text
    assert play_buttons(refused) == [last], "the card is still there to play"
    assert "🏆" not in table_message(fake, ch).text
    with sqlite3.connect(world.db_path) as conn:
        conn.execute("DROP TRIGGER tripwire")
    inter = await fake.click(player.user, refused.message or refused, last)
    await assert_the_game_ended_cleanly(world, bot, inter, await inter.response())
