"""Double delivery and simultaneous clicks: each action is applied once, never twice."""

from __future__ import annotations

import asyncio

from tests.e2e.conftest import World
from tests.e2e.driver import CARD_RE, eventually, plain, table_message
from tests.e2e.flows import four_player_game, open_table
from tests.fakediscord import BotProcess


async def test_the_same_interaction_delivered_twice_is_applied_once(
    world: World, bot: BotProcess
) -> None:
    fake = world.fake
    driver = await four_player_game(world, preset="standard", target=100)
    for _ in range(4):
        assert await driver.step()  # the four bids
    (actor,) = await driver.on_turn()
    hand = actor.hand
    assert hand is not None
    before = CARD_RE.findall(hand.embeds[0]["description"])
    card = next(c for c in hand.all_components if c.custom_id and ":play:" in c.custom_id)
    inter = await fake.click(actor.user, hand, card.custom_id)
    first = await inter.response()
    assert "You played" in first.text
    await fake.redeliver(inter)
    await asyncio.sleep(0.5)
    # The player holds one card fewer, not two; and the next seat is on turn, once.
    r = await driver.refresh(actor)
    after = CARD_RE.findall(r.embeds[0]["description"])
    assert len(after) == len(before) - 1
    trick_line = plain(table_message(fake, world.channel).text)
    await eventually(lambda: str(card.label) in plain(table_message(fake, world.channel).text))
    assert trick_line.count(str(card.label)) <= 1
    (next_player,) = await driver.on_turn()
    assert next_player is not actor


async def test_two_clicks_at_the_same_instant_one_wins_one_is_told_why(
    world: World, bot: BotProcess
) -> None:
    fake = world.fake
    driver = await four_player_game(world, preset="standard", target=100)
    for _ in range(4):
        assert await driver.step()
    (actor,) = await driver.on_turn()
    hand = actor.hand
    assert hand is not None
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
