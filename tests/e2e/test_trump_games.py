"""Whist and Euchre at the same tables, end to end through the fake Discord (issue 11): the
same commands and buttons open and play them; the table names the game and shows trump (the
up-card, the maker, who sits out); the hand offers order up / pass / call a suit / alone and
the dealer's discard; ``/bid`` and ``/discard`` offer exactly the legal calls and cards."""

from __future__ import annotations

import asyncio
import random
import re
from typing import Any

from tests.e2e.conftest import World
from tests.e2e.driver import (
    CARD_RE,
    Driver,
    Seated,
    eventually,
    has,
    live,
    table_message,
)
from tests.e2e.flows import act_until, answer, open_table, quick_game, seat_everyone, start
from tests.fakediscord import BotProcess, Message, Response

SUIT_OF = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
MATE = {"♠": "♣", "♣": "♠", "♥": "♦", "♦": "♥"}


def is_trump(card: str, trump: str, bowers: bool) -> bool:
    """``card`` as shown (``J♦``); ``trump`` a suit symbol."""
    return card[-1] == trump or (bowers and card == "J" + MATE[trump])


def trump_first(hand: Response | Message, trump: str, bowers: bool) -> bool:
    """The hand's cards start with its trumps (the right bower, then the left, in Euchre)."""
    cards = CARD_RE.findall(hand.embeds[0]["description"])
    flags = [is_trump(c, trump, bowers) for c in cards]
    if bowers and "J" + trump in cards and "J" + MATE[trump] in cards:
        assert cards.index("J" + trump) == 0
        assert cards.index("J" + MATE[trump]) == 1
    return flags == sorted(flags, reverse=True)


def calls_offered(hand: Response | Message) -> list[str]:
    return [str(c.label) for c in hand.all_components if c.custom_id and ":call:" in c.custom_id]


def cards_offered(hand: Response | Message, verb: str) -> list[str]:
    return [
        c.custom_id.rsplit(":", 1)[1]
        for c in hand.all_components
        if c.custom_id and f":{verb}:" in c.custom_id
    ]


async def complete(world: World, user: int, *path: str, **kw: Any) -> list[str]:
    choices = await world.fake.autocomplete(world.users[user], world.channel, *path, **kw)
    return [str(c["value"]) for c in choices]


async def caller(driver: Driver) -> Seated:
    found = await driver.on_turn("call")
    assert len(found) == 1, (
        driver.table().text,
        [(live(p.hand) or p.hand).text for p in driver.players],  # type: ignore[union-attr]
    )
    return found[0]


async def play_to_next_calls(driver: Driver, max_steps: int = 400) -> None:
    """Play the hand out: stop when someone's hand message offers calls (the next hand's
    calling has begun; the table message may lag behind, its edits are coalesced)."""
    for _ in range(max_steps):
        if await driver.on_turn("call"):
            return
        assert await driver.step(), "nobody can act"
    raise AssertionError("not reached")


def up_card(text: str) -> str:
    m = re.search(r"Up-card (\S+)", text)
    assert m, text
    return m.group(1)


async def test_euchre_order_up_second_round_call_and_alone_hand(
    world: World, bot: BotProcess
) -> None:
    fake, ch = world.fake, world.channel
    await open_table(world, preset="euchre", target=8)
    assert table_message(fake, ch).embeds[0]["title"] == "♥ Euchre · to 8"
    await seat_everyone(world)
    await start(world)
    driver = Driver(fake, ch, [Seated(u) for u in world.users], rng=random.Random(3))

    # ---- hand 1: the first caller orders up; the dealer takes the up-card and discards.
    first = await caller(driver)
    hand = live(first.hand)
    assert hand is not None
    assert calls_offered(hand) == ["Pass", "Order up", "Order up alone"]
    assert "order up the" in hand.text
    index = driver.players.index(first)
    assert await complete(world, index, "bid", focused="bid", value="") == [
        "pass",
        "order up",
        "order up alone",
    ]
    up = up_card(table_message(fake, ch).text)
    r = await answer(world, first.user, "bid", bid="order up")
    assert "You called: order up" in r.text, r.text
    (dealer,) = await driver.on_turn("discard")
    dealt = live(dealer.hand)
    assert dealt is not None
    offered = cards_offered(dealt, "discard")
    assert len(offered) == 6, "the dealer holds the up-card too"
    d = driver.players.index(dealer)
    assert sorted(await complete(world, d, "discard", focused="card", value="")) == sorted(offered)
    assert await complete(world, index, "discard", focused="card", value="") == [], "not yours"
    r = await answer(world, dealer.user, "discard", card=offered[-1])
    assert "You discarded" in r.text, r.text
    await eventually(lambda: "ordered it up" in table_message(fake, ch).text)
    text = table_message(fake, ch).text
    assert f"took the {up}" in text
    # Every hand now sorts trump first, bowers on top.
    found = re.search(r"Trump (\S)", text)
    assert found, text
    for p in driver.players:
        assert trump_first(await driver.refresh(p), found.group(1), bowers=True)
    await play_to_next_calls(driver)

    # ---- hand 2: everybody passes round 1; the first caller of round 2 names a suit.
    for _ in range(4):
        p = await caller(driver)
        hand = live(p.hand)
        assert hand is not None
        assert calls_offered(hand)[:2] == ["Pass", "Order up"]
        await driver.act(p, hand)
    p = await caller(driver)
    await eventually(lambda: "round 2" in table_message(fake, ch).text)
    hand = live(p.hand)
    assert hand is not None
    turned = SUIT_OF[up_card(table_message(fake, ch).text)[-1]]
    labels = calls_offered(hand)
    assert labels[0] == "Pass"
    named = [label for label in labels if label.startswith("Call") and "alone" not in label]
    assert len(named) == 3, labels
    assert all(SUIT_OF[label[-1]] != turned for label in named), "not the suit turned down"
    suits = await complete(world, driver.players.index(p), "bid", focused="bid", value="call")
    assert sorted(suits) == sorted([label.lower() for label in labels if label != "Pass"])
    driver.choose_call = lambda labels, rng: named[0]
    await driver.act(p, hand)
    await eventually(lambda: "named it" in table_message(fake, ch).text)
    await play_to_next_calls(driver)

    # ---- hand 3: the first caller orders up alone; the partner sits the hand out.
    driver.choose_call = lambda labels, rng: (
        "Order up alone" if "Order up alone" in labels else (labels[1])
    )
    maker = await caller(driver)
    await driver.act(maker, live(maker.hand) or maker.hand)  # type: ignore[arg-type]
    partner = driver.players[(driver.players.index(maker) + 2) % 4]
    (dealer,) = await driver.on_turn("discard")
    await driver.act(dealer, live(dealer.hand) or dealer.hand)  # type: ignore[arg-type]
    await eventually(lambda: "sits out" in table_message(fake, ch).text)
    assert "sits this hand out" in table_message(fake, ch).text
    plays = 0
    while not await driver.on_turn("call") and not driver.over():
        assert not has(await driver.refresh(partner), "play"), "the partner never plays"
        if not await driver.step():
            break
        plays += 1
    assert plays == 15, "three players, five tricks"

    # ---- and on to the end of the game, the first caller always ordering up.
    driver.choose_call = lambda labels, rng: "Order up" if "Order up" in labels else labels[-2]
    await driver.play_until_over()
    assert "🏆" in table_message(fake, ch).text

    # ---- the league keeps the game apart: Euchre standings, none in Spades (the default).
    async def board(**options: str) -> str:
        r = await answer(world, world.users[0], "leaderboard", **options)
        return r.text

    euchre = ""
    for _ in range(150):  # the game is recorded just after it ends
        euchre = await board(game="euchre")
        if "alice" in euchre:
            break
        await asyncio.sleep(0.1)
    assert "Leaderboard — Euchre" in euchre
    assert all(name in euchre for name in ("alice", "bob", "carol", "dave"))
    spades = await board()
    assert "Leaderboard — Spades" in spades
    assert "alice" not in spades.split("You")[0]


async def test_a_whist_game_to_game_over(world: World, bot: BotProcess) -> None:
    fake, ch = world.fake, world.channel
    driver = await quick_game(world, humans=1, preset="short-whist", target=2)
    alice = driver.players[0]
    hand = live(alice.hand)
    assert hand is not None
    # The hand shows the trump card (everyone sees it), and sorts trump first.
    trump_line = re.search(r"Trump (\S) — (\w+) turned up the (\S+)", hand.text)
    assert trump_line, hand.text
    assert trump_first(hand, trump_line.group(1), bowers=False)
    await eventually(lambda: "Trump" in table_message(fake, ch).text)
    assert table_message(fake, ch).embeds[0]["title"] == "♣ Whist · Short whist · to 2"
    assert not has(hand, "bid"), "no bidding in Whist"
    r = await answer(world, alice.user, "bid", bid="3")
    assert "no bidding in Whist" in r.text
    await act_until(driver, lambda h: "game is over" in h.text.lower(), max_steps=5000)
    await eventually(lambda: "🏆" in table_message(fake, ch).text)

    # ---- the post-game review: the hard player judges Spades only, so Review shows the
    # replay at once (no analysis), saying so, with each hand's trump and its 13 tricks.
    over = await fake.wait_for_message(
        ch, lambda m: "Game over" in m.text and any(c.label == "Review" for c in m.all_components)
    )
    opener = next(c.custom_id for c in over.all_components if c.label == "Review")
    assert opener is not None
    first = await (await fake.click(alice.user, over, opener)).response()
    assert first.ephemeral
    assert "judges Spades games only" in first.text, first.text
    assert "Page 1 of" in first.text
    following = next(c.custom_id for c in first.all_components if c.label == "Next ▶")
    assert following is not None
    hand_page = await (await fake.click(alice.user, first, following)).response()
    assert "Hand 1 of" in hand_page.text
    assert "turned up" in hand_page.text, hand_page.text
    assert len(re.findall(r"^`\s*\d+` ", hand_page.text, re.MULTILINE)) == 13
