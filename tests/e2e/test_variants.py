"""House-rule flows: blind nil with card passing, New York partnership bidding."""

from __future__ import annotations

import random

from tests.e2e.conftest import World
from tests.e2e.driver import CARD_RE, Driver, Seated, button, eventually, has, table_message
from tests.e2e.flows import open_table, rule, seat_everyone, start
from tests.fakediscord import BotProcess


async def test_blind_nil_hides_the_cards_then_passes_two_each_way(
    world: World, bot: BotProcess
) -> None:
    fake, ch = world.fake, world.channel
    await open_table(world, preset="house", target=100)
    r = await rule(world, "blind_nil_min_deficit", "0")
    assert "now **0**" in r.text
    await seat_everyone(world)
    await start(world)
    driver = Driver(fake, ch, [Seated(u) for u in world.users])
    # Every seat is offered blind nil before seeing a card: nobody's hand shows a card.
    first = None
    for p in driver.players:
        h = await driver.open_hand(p)
        assert not CARD_RE.findall(h.embeds[0].get("description", "")), "cards must stay hidden"
        assert has(h, "look")
        if has(h, "blind"):
            first = p
    assert first is not None, "the first bidder is offered blind nil"
    hand = first.hand
    assert hand is not None
    r = await (await fake.click(first.user, hand, button(hand, "blind").custom_id)).response()
    assert "You bid blind nil" in r.text
    assert not CARD_RE.findall(r.embeds[0].get("description", ""))
    await eventually(lambda: "blind nil" in table_message(fake, ch).text)
    # The others look and bid; then the blind nil bidder passes two cards, the partner two back.
    while not (passers := await driver.on_turn("pass")):
        assert await driver.step()
    (giver,) = passers
    assert giver is first
    assert giver.hand is not None
    giver_cards = CARD_RE.findall(giver.hand.embeds[0]["description"])
    assert len(giver_cards) == 13, "after bidding the blind nil bidder sees the hand"
    sel = button(giver.hand, "pass")
    assert sel.min_values == sel.max_values == 2
    passed = sel.values[:2]
    r = await (await fake.select(giver.user, giver.hand, sel.custom_id, passed)).response()
    assert "Cards passed" in r.text
    partner = driver.players[(driver.players.index(giver) + 2) % 4]
    got = await driver.refresh(partner)
    assert has(got, "pass"), "the partner passes back"
    assert "Your partner passed you" in got.text
    back = button(got, "pass")
    returned = back.values[-2:]
    r = await (await fake.select(partner.user, got, back.custom_id, returned)).response()
    assert "Cards passed" in r.text
    mine = await driver.refresh(giver)
    assert "Your partner passed you" in mine.text
    # Play the hand out; its summary scores the blind nil.
    hands_before = len([m for m in fake.messages(ch) if "— scores" in m.text])
    while len([m for m in fake.messages(ch) if "— scores" in m.text]) == hands_before:
        assert await driver.step()
        if driver.actions > 200:
            break
    await eventually(lambda: any("— scores" in m.text for m in fake.messages(ch)))


async def test_new_york_first_hand_unbid_then_partnership_bids(
    world: World, bot: BotProcess
) -> None:
    fake, ch = world.fake, world.channel
    await open_table(world, preset="new-york", target=150)
    await seat_everyone(world)
    await start(world)
    driver = Driver(fake, ch, [Seated(u) for u in world.users], rng=random.Random(3))
    # Hand 1 has no bidding: someone can play at once.
    on_turn = await driver.on_turn("play")
    assert len(on_turn) == 1
    while not (bidders := await driver.on_turn("bid")):
        assert await driver.step(), "the game cannot end after one hand to 150"
    # Hand 2: the team's first bidder proposes, the partner answers.
    (proposer,) = bidders
    await eventually(lambda: "Hand 2" in table_message(fake, ch).text)
    assert proposer.hand is not None
    sel = button(proposer.hand, "bid")
    assert sel.values == [str(v) for v in range(4, 11)]
    r = await (await fake.select(proposer.user, proposer.hand, sel.custom_id, ["5"])).response()
    assert "You bid 5" in r.text
    await eventually(lambda: "proposes 5" in table_message(fake, ch).text)
    (answerer,) = await driver.on_turn("bid")
    assert driver.players.index(answerer) == (driver.players.index(proposer) + 2) % 4
    assert answerer.hand is not None
    assert "Your partner proposes **5**" in answerer.hand.text
    sel = button(answerer.hand, "bid")
    assert any(o.default and o.value == "5" for o in sel.options)
    r = await (await fake.select(answerer.user, answerer.hand, sel.custom_id, ["6"])).response()
    await eventually(lambda: "team bid 6" in table_message(fake, ch).text)
    await driver.play_until_over()
    assert "🏆" in table_message(fake, ch).text
