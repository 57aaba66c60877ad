"""Hints through the real bot: at a practice table (``/spades rule hints on``) the hand on turn
has a **Hint** button that shows the hard player's choice, why and the runner-up, and the
game-over message says how many hints each player took; a rated game never offers one."""

from __future__ import annotations

import asyncio
import re

from tests.e2e.conftest import World
from tests.e2e.driver import CARD_RE, Driver, Seated, eventually, has, plain, table_message
from tests.e2e.flows import answer, four_player_game, rule
from tests.fakediscord import BotProcess, Message, Response

HINT = re.compile(r"💡 Hint from the hard player: (?P<what>.+?) — (?P<why>[^.]+)\.")


def hint_button(hand: Message | Response) -> str:
    found = next(c for c in hand.all_components if c.custom_id and ":hint:" in c.custom_id)
    assert found.custom_id is not None
    return found.custom_id


async def test_a_practice_game_offers_hints_and_counts_them(world: World, bot: BotProcess) -> None:
    fake, alice = world.fake, world.users[0]
    await answer(world, alice, "spades", "new", preset="standard", target=100)
    r = await rule(world, "hints", "on")
    assert "`hints` is now **on**" in r.text, r.text
    await eventually(lambda: "Hints on" in table_message(fake, world.channel).text)
    assert "unrated" in table_message(fake, world.channel).text
    for _ in range(3):
        await answer(world, alice, "spades", "bot")
    await answer(world, alice, "spades", "start")
    me = Seated(alice, await answer(world, alice, "hand"))
    driver = Driver(fake, world.channel, [me])

    hints = 0
    for _ in range(4000):
        if driver.over():
            break
        hand = await driver.refresh(me)
        if not driver.can_act(hand):
            assert not any(":hint:" in (c.custom_id or "") for c in hand.all_components)
            await asyncio.sleep(0.02)
            continue
        if hints < 2 and has(hand, "play"):
            cards = {
                plain(str(c.label)) for c in hand.all_components if ":play:" in (c.custom_id or "")
            }
            shown = await (await fake.click(alice, hand, hint_button(hand))).answer()
            me.hand = shown
            hints += 1
            m = HINT.search(plain(shown.text))
            assert m is not None, shown.text
            card = CARD_RE.search(m.group("what"))
            assert card is not None
            assert card.group(0) in cards, "the hint plays one of the cards offered"
            assert f"{hints} hint" in shown.text
            if len(cards) > 1:
                assert "Runner-up: play" in shown.text
            assert driver.can_act(shown), "the hand still offers its cards after a hint"
            again = await (await fake.click(alice, shown, hint_button(shown))).answer()
            assert f"{hints} hint" in again.text, "asked again in one position: one hint"
            hand = again
        await driver.act(me, hand)
    over = await fake.wait_for_message(world.channel, lambda m: "Game over" in m.text)
    assert "Not rated: a practice game with hints." in over.text
    assert "alice (North) 2 hints" in over.text
    assert "Traceback" not in bot.output


async def test_a_rated_game_never_offers_a_hint(world: World, bot: BotProcess) -> None:
    driver = await four_player_game(world, preset="standard", target=100)
    assert "Hints on" not in table_message(world.fake, world.channel).text
    acted = 0
    while acted < 12:  # the bids and the first tricks: each player on turn, no Hint
        for p in driver.players:
            hand = await driver.refresh(p)
            assert not any(":hint:" in (c.custom_id or "") for c in hand.all_components)
            if driver.can_act(hand):
                await driver.act(p, hand)
                acted += 1
                break


async def test_hint_spam_starts_one_search_per_position_and_the_limit_says_when(
    world: World, bot: BotProcess
) -> None:
    """Three clicks on **Hint** at once start one search (the others wait for its result); a
    member has ten hints worked out a minute (on Discord's clock), the eleventh position is
    refused with when to try again — in the hand, which goes on offering its choices."""
    fake, alice = world.fake, world.users[0]
    await answer(world, alice, "spades", "new", preset="standard", target=100)
    await rule(world, "hints", "on")
    for _ in range(3):
        await answer(world, alice, "spades", "bot")
    await answer(world, alice, "spades", "start")
    me = Seated(alice, await answer(world, alice, "hand"))
    driver = Driver(fake, world.channel, [me])

    async def my_turn_with_choices() -> Message | Response:
        for _ in range(2000):
            hand = await driver.refresh(me)
            if any(":hint:" in (c.custom_id or "") for c in hand.all_components):
                return hand
            if driver.can_act(hand):  # a single choice: no hint to ask for
                await driver.act(me, hand)
            else:
                await asyncio.sleep(0.02)
        raise AssertionError("alice never had a choice to make")

    with fake.snowflakes.held():  # every click within one minute on Discord's clock
        hand = await my_turn_with_choices()
        clicks = [await fake.click(alice, hand, hint_button(hand)) for _ in range(3)]
        shown = [await c.answer() for c in clicks]
        assert all("💡" in s.text for s in shown), [s.text for s in shown]
        assert bot.output.count("working out a hint") == 1, "three clicks, one search"
        worked_out = 1
        while True:
            await driver.act(me, await driver.refresh(me))
            hand = await my_turn_with_choices()
            r = await (await fake.click(alice, hand, hint_button(hand))).answer()
            if "💡" not in r.text:
                break
            worked_out += 1
            assert worked_out <= 10, "more than ten hints worked out in a minute"
    assert worked_out == 10
    assert "You have had ten hints worked out in the last minute." in r.text, r.text
    assert re.search(r"Try again <t:\d+:R>", r.text), r.text
    assert driver.can_act(r), "the hand still offers its choices"
    assert bot.output.count("working out a hint") == 10
    assert "Traceback" not in bot.output
