"""Double delivery and simultaneous clicks: each action is applied once, never twice."""

from __future__ import annotations

import asyncio
import sqlite3

from tests.e2e.conftest import World
from tests.e2e.driver import CARD_RE, Driver, Seated, eventually, plain, table_message
from tests.e2e.flows import four_player_game, open_table
from tests.fakediscord import BotProcess, Message, Response


async def first_play(world: World) -> tuple[Driver, Seated, Message | Response]:
    """A four-player game past its bids: the driver, the player on turn and their hand."""
    driver = await four_player_game(world, preset="standard", target=100)
    for _ in range(4):
        assert await driver.step()  # the four bids
    (actor,) = await driver.on_turn()
    assert actor.hand is not None
    return driver, actor, actor.hand


async def test_the_same_interaction_delivered_twice_is_applied_once(
    world: World, bot: BotProcess
) -> None:
    fake = world.fake
    driver, actor, hand = await first_play(world)
    before = CARD_RE.findall(hand.embeds[0]["description"])
    card = next(c for c in hand.all_components if c.custom_id and ":play:" in c.custom_id)
    inter = await fake.click(actor.user, hand, card.custom_id)
    first = await inter.response()
    assert "You played" in first.text
    await fake.redeliver(inter)
    # Wait until the bot has handled the second delivery (it says so), then look.
    await bot.wait_for_line(f"interaction {inter.id} delivered again")
    # The player holds one card fewer, not two; and the next seat is on turn, once.
    r = await driver.refresh(actor)
    after = CARD_RE.findall(r.embeds[0]["description"])
    assert len(after) == len(before) - 1
    assert inter.rejected_callbacks == 0, "the repeat is not answered a second time"
    await eventually(lambda: str(card.label) in plain(table_message(fake, world.channel).text))
    trick_line = plain(table_message(fake, world.channel).text)  # read after the play is shown
    assert trick_line.count(str(card.label)) == 1
    (next_player,) = await driver.on_turn()
    assert next_player is not actor


async def test_the_same_command_delivered_twice_is_applied_and_answered_once(
    world: World, bot: BotProcess
) -> None:
    """A repeated ``/play`` takes the click's path: applied once, answered once (before, the
    repeat was answered again — 'already applied' — and Discord refused that answer)."""
    fake = world.fake
    driver, actor, hand = await first_play(world)
    before = CARD_RE.findall(hand.embeds[0]["description"])
    card = next(c for c in hand.all_components if c.custom_id and ":play:" in c.custom_id)
    code = str(card.custom_id).rsplit(":", 1)[1]
    inter = await fake.slash(actor.user, world.channel, "play", card=code)
    assert "You played" in (await inter.response()).text
    await fake.redeliver(inter)
    await bot.wait_for_line(f"interaction {inter.id} delivered again")
    after = CARD_RE.findall((await driver.refresh(actor)).embeds[0]["description"])
    assert len(after) == len(before) - 1
    assert inter.rejected_callbacks == 0, "the repeat is not answered a second time"


async def test_two_clicks_at_the_same_instant_one_wins_one_is_told_why(
    world: World, bot: BotProcess
) -> None:
    fake = world.fake
    _driver, actor, hand = await first_play(world)
    cards = [c for c in hand.all_components if c.custom_id and ":play:" in c.custom_id]
    assert len(cards) >= 2
    # The same player double-clicks two different cards at once.
    a, b = await asyncio.gather(
        fake.click(actor.user, hand, cards[0].custom_id),
        fake.click(actor.user, hand, cards[1].custom_id),
    )
    ra, rb = await asyncio.gather(a.response(), b.response())
    texts = sorted([ra.text, rb.text], key=lambda t: "You played" not in t)
    assert "You played" in texts[0]
    assert "⚠" in texts[1], texts[1]
    assert "turn" in texts[1], texts[1]


async def test_two_people_take_the_same_seat_at_once(world: World, bot: BotProcess) -> None:
    fake, ch, users = world.fake, world.channel, world.users
    await open_table(world, preset="standard")
    msg = table_message(fake, ch)
    east = next(c for c in msg.all_components if c.custom_id and c.custom_id.endswith(":join:E"))
    a, b = await asyncio.gather(
        fake.click(users[1], msg, east.custom_id), fake.click(users[2], msg, east.custom_id)
    )
    ra, rb = await asyncio.gather(a.response(), b.response())
    outcomes = sorted([ra.text, rb.text])
    assert sum("You sit East" in t for t in outcomes) == 1
    assert sum("East is taken" in t for t in outcomes) == 1


# ---------------------------------------------------------------------- slow answers
async def test_a_slow_commit_is_deferred_in_time_then_completed(
    world: World, bot: BotProcess
) -> None:
    """Another process holds the database's write lock: the play cannot be saved within
    Discord's 3 s, so the bot defers the click in time and answers once the commit is done."""
    _driver, actor, hand = await first_play(world)
    card = next(c for c in hand.all_components if c.custom_id and ":play:" in c.custom_id)
    blocker = sqlite3.connect(world.db_path, isolation_level=None, timeout=30)
    try:
        blocker.execute("BEGIN IMMEDIATE")
        inter = await world.fake.click(actor.user, hand, card.custom_id)
        first = await inter.response()
        assert first.deferred, "acknowledged without an answer while the commit waits"
        assert inter.discord_latency is not None
        assert inter.discord_latency < 3.0
        blocker.execute("ROLLBACK")  # the bot's commit goes through now
        final = await inter.answer(timeout=15)
    finally:
        blocker.close()
    assert "You played" in final.text, final.text
    assert str(card.label) in final.text or final.embeds
    assert not inter.expired
    await bot.wait_for_line("deferred spades:t:")
    assert "Traceback" not in bot.output


async def test_an_answer_discord_no_longer_takes_is_one_warning_line(
    world: World, bot: BotProcess
) -> None:
    fake = world.fake
    _driver, actor, hand = await first_play(world)
    card = next(c for c in hand.all_components if c.custom_id and ":play:" in c.custom_id)
    blocker = sqlite3.connect(world.db_path, isolation_level=None, timeout=30)
    fake.callback_deadline = 0.0  # Discord drops the interaction at once: every answer is late
    try:
        blocker.execute("BEGIN IMMEDIATE")
        inter = await fake.click(actor.user, hand, card.custom_id)
        line = await bot.wait_for_line("came too late")
        blocker.execute("ROLLBACK")
    finally:
        blocker.close()
        fake.callback_deadline = 3.0
    assert "WARNING" in line
    assert inter.expired
    # The play itself was saved: the table moves on.
    await eventually(lambda: str(card.label) in plain(table_message(fake, world.channel).text))
    assert "Traceback" not in bot.output, bot.output
