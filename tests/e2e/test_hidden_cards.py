"""Hidden stays hidden: a seat's cards reach only the member who plays it now, face-down cards
tell nothing before their player looks, and the log holds no card and no token — each through
the fake Discord, with the real bot."""

from __future__ import annotations

import asyncio
import re
import time

from tests.e2e.conftest import World
from tests.e2e.driver import (
    CARD_RE,
    Driver,
    Seated,
    button,
    eventually,
    has,
    live,
    table_message,
)
from tests.e2e.flows import (
    act_until,
    answer,
    four_player_game,
    open_table,
    quick_game,
    rule,
    seat_everyone,
    start,
)
from tests.fakediscord import BotProcess, FakeDiscord, Message, run_bot

SEAT_TITLE = re.compile(r"Your hand — (North|East|South|West)")
# What a hand looks like in a log line: a card as shown, a card face, a hand component's card.
CARD_SHOWN = re.compile(r"(?:10|[2-9JQKA])[♠♥♦♣]|<:c4?_[2-9TJQKA][SHDC]:")
CARD_IN_ID = re.compile(r"spades:t:\w+:\w+:[NESW]:\d+:(?:[2-9TJQKA][SHDC]|BJ|LJ)\b")


async def quiet_edits(fake: FakeDiscord, settle: float = 1.5) -> None:
    """Wait until no hand message has been edited for ``settle`` seconds (the live edits of
    the last change have all gone out)."""
    while True:
        last = max((e.at for e in fake.webhook_edits), default=0.0)
        now = time.monotonic()
        if now - last >= settle:
            return
        await asyncio.sleep(settle - (now - last))


def edits_of(fake: FakeDiscord, message: Message) -> list[str]:
    return [e.state.text for e in fake.webhook_edits if e.message is message]


# ---------------------------------------------------------------------- a seat left
async def test_a_member_who_left_a_computers_seat_sees_its_cards_no_more(
    world: World, bot: BotProcess
) -> None:
    fake, ch = world.fake, world.channel
    driver = await quick_game(world, humans=1, preset="standard", target=500)
    carol = world.users[2]
    # Carol takes a computer's seat in the middle of the hand and opens her hand.
    await eventually(lambda: has(table_message(fake, ch), "hand"))
    table = table_message(fake, ch)
    took = await (await fake.click(carol, table, button(table, "join").custom_id)).answer()
    assert "You sit" in took.text, took.text
    table = table_message(fake, ch)
    mine = await (await fake.click(carol, table, button(table, "hand").custom_id)).answer()
    assert mine.ephemeral
    title = SEAT_TITLE.search(mine.text)
    assert title, mine.text
    held = mine.message
    assert held is not None
    # She leaves: a computer plays the seat again.
    r = await answer(world, carol, "spades", "leave")
    assert r.text.startswith(f"You left {title.group(1)}"), r.text
    # My hand and /hand show her nothing of the seat any more.
    table = table_message(fake, ch)
    again = await (await fake.click(carol, table, button(table, "hand").custom_id)).answer()
    assert again.ephemeral
    assert not again.embeds, "no hand is shown to a member who left"
    assert not CARD_RE.findall(again.text)
    assert "You left this game" in again.text, again.text
    slash = await answer(world, carol, "hand")
    assert not slash.embeds
    assert "not seated" in slash.text, slash.text
    # The game goes on into the next hand; her old hand message is never edited again.
    before = len(edits_of(fake, held))
    await act_until(driver, lambda r: "Hand 2 ·" in r.text)
    await quiet_edits(fake)
    after = edits_of(fake, held)[before:]
    assert not [t for t in after if "Hand 2 ·" in t], "the new deal reached the member who left"
    assert all("Hand 1 ·" in t for t in after), after  # at most an edit already under way
    alice_hand = live(driver.players[0].hand)
    assert alice_hand is not None
    assert "Hand 2 ·" in alice_hand.text, "the player still seated was shown the new deal"


# ---------------------------------------------------------------------- Whiz, face down
async def whiz_face_down(world: World) -> Seated:
    """Whiz with blind nil open to everyone; returns the first bidder, cards still face down."""
    await open_table(world, preset="whiz")
    r = await rule(world, "blind_nil_min_deficit", "0")
    assert "now **0**" in r.text, r.text
    await seat_everyone(world)
    await start(world)
    driver = Driver(world.fake, world.channel, [Seated(u) for u in world.users])
    (bidder,) = await driver.on_turn("blind")
    assert bidder.hand is not None
    assert has(bidder.hand, "look")
    assert not CARD_RE.findall(bidder.hand.text), "the cards are face down"
    return bidder


async def test_a_whiz_bid_before_looking_is_refused_without_telling_the_spades(
    world: World, bot: BotProcess
) -> None:
    bidder = await whiz_face_down(world)
    # Every number is refused alike: none is accepted (it would tell the count), none named.
    refusals = set()
    for n in range(1, 14):
        r = await answer(world, bidder.user, "bid", bid=str(n))
        assert not r.embeds, f"/bid {n} was taken: {r.text}"
        refusals.add(r.text)
    assert len(refusals) == 1, refusals
    (text,) = refusals
    assert "look at them first" in text, text
    assert not re.search(r"\d", text), "the refusal names no number of spades"
    # Still face down: blind nil is still open, and taken.
    r = await answer(world, bidder.user, "bid", bid="blind nil")
    assert "You bid blind nil" in r.text, r.text
    assert not CARD_RE.findall(r.text)


async def test_whiz_bid_autocomplete_before_looking_offers_nothing_read_from_the_cards(
    world: World, bot: BotProcess
) -> None:
    fake = world.fake
    bidder = await whiz_face_down(world)
    choices = await fake.autocomplete(bidder.user, world.channel, "bid", focused="bid", value="")
    assert [(c["name"], c["value"]) for c in choices] == [
        ("blind nil", "blind nil"),
        ("look at my cards", "look"),
        ("nil", "nil"),
    ]
    # Looking (as the autocomplete offers) shows the cards; then the count is offered.
    r = await answer(world, bidder.user, "bid", bid="look")
    assert "Here are your cards" in r.text, r.text
    cards = CARD_RE.findall(r.embeds[0].get("description", ""))
    assert len(cards) == 13
    spades = sum(1 for c in cards if c.endswith("♠"))
    choices = await fake.autocomplete(bidder.user, world.channel, "bid", focused="bid", value="")
    expected = ["nil", str(spades)] if spades else ["nil"]
    assert [c["value"] for c in choices] == expected


# ---------------------------------------------------------------------- the log
async def test_debug_logging_writes_no_card_and_no_token(world: World) -> None:
    fake = world.fake
    env = world.env(LOG_LEVEL="DEBUG")
    async with run_bot(fake, env=env, max_lines=500_000) as bot:
        driver = await four_player_game(world, preset="standard", target=100)
        shown: set[str] = set()
        for _ in range(4 + 8):  # the bids, then two tricks
            assert await driver.step()
            for p in driver.players:
                hand = live(p.hand)
                if hand is not None and hand.embeds:
                    shown |= set(CARD_RE.findall(hand.embeds[0].get("description", "")))
        await quiet_edits(fake)
        output = bot.output
    tokens = {i.token for i in fake.interactions.values()}
    assert tokens
    leaked = [t for t in tokens if t in output]
    assert leaked == [], f"{len(leaked)} interaction tokens in the log"
    assert fake.token not in output
    cards = sorted(set(CARD_SHOWN.findall(output)))
    assert cards == [], f"cards in the log: {cards[:10]}"
    ids = sorted(set(CARD_IN_ID.findall(output)))
    assert ids == [], f"custom ids with a card in the log: {ids[:5]}"
    assert "Your hand" not in output
    # ... while the bot did log at DEBUG, and the players saw their hands.
    assert re.search(r"component spades:t:\w+:play:[NESW]:1:\*\*\* from user", output)
    assert len(shown) >= 40, "the players were shown their hands"
