"""The games.md G1-G2 variants end to end through the fake Discord: a renege made, claimed and
penalised (and a wrong claim's side refused a second claim), a three-player cutthroat game
to game over with computer players, and a Whiz bid menu."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable

from tests.e2e.conftest import World
from tests.e2e.driver import (
    CARD_RE,
    Driver,
    Seated,
    button,
    eventually,
    has,
    table_message,
)
from tests.e2e.flows import answer, open_table, rule, seat_everyone, start
from tests.fakediscord import BotProcess, Message, Response

SUIT_OF = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
SEATS = ("N", "E", "S", "W")
WORDS = ("North", "East", "South", "West")


def hand_cards(r: Message | Response) -> list[str]:
    """The cards shown in a hand message, as written (``10♥``)."""
    return CARD_RE.findall(r.embeds[0].get("description", ""))


def led_suit(r: Message | Response) -> str | None:
    """The suit led in the current trick, from the hand message's ``Trick:`` line."""
    for line in r.text.splitlines():
        if line.startswith("Trick:"):
            first = CARD_RE.findall(line)
            return SUIT_OF[first[0][-1]] if first else None
    return None


def play_id(r: Message | Response, written: str) -> str:
    """The custom id of the play button of a card written as in the hand (``10♥``)."""
    for c in r.all_components:
        if c.custom_id and ":play:" in c.custom_id and c.label == written:
            return c.custom_id
    raise AssertionError(f"no play button for {written}")


def honest_card(r: Message | Response, spades_broken: bool) -> str:
    """A card that follows the rules: the suit led if held; leading, a non-spade while spades
    are not broken (if any)."""
    cards = hand_cards(r)
    led = led_suit(r)
    if led is not None:
        follow = [c for c in cards if SUIT_OF[c[-1]] == led]
        return (follow or cards)[0]
    if not spades_broken:
        side = [c for c in cards if SUIT_OF[c[-1]] != "S"]
        return (side or cards)[0]
    return cards[0]


async def bid_until_play(driver: Driver) -> Seated:
    while not (on_turn := await driver.on_turn("play")):
        assert await driver.step()
    return on_turn[0]


async def play_honest_until(driver: Driver, done: Callable[[], bool]) -> None:
    """Play honest cards (whoever is on turn) until ``done()`` holds, or until nobody may
    play (the hand is over) and then ``done()`` comes true."""
    while not done():
        on_turn = await driver.on_turn("play")
        if not on_turn:
            await eventually(done)
            return
        (p,) = on_turn
        assert p.hand is not None
        broken = "spades broken" in driver.table().text
        card = honest_card(p.hand, broken)
        r = await (await driver.fake.click(p.user, p.hand, play_id(p.hand, card))).answer()
        p.hand = r


async def play_with_computers_until_over(driver: Driver, max_actions: int = 500) -> None:
    """The one person plays whenever it is their turn; the computers play the rest."""
    (p,) = driver.players
    while not driver.over():
        assert driver.actions < max_actions, "the game did not end"
        try:
            r = await driver.refresh(p)
        except AssertionError:  # the table message lost its buttons: the game just ended
            await eventually(driver.over)
            return
        if driver.can_act(r):
            await driver.act(p, r)
        else:
            await asyncio.sleep(0.05)


async def test_a_renege_is_claimed_and_penalised_and_a_wrong_claim_bars_its_side(
    world: World, bot: BotProcess
) -> None:
    fake, ch = world.fake, world.channel
    await open_table(world, preset="standard", target=300)
    r = await rule(world, "renege", "claim")
    assert "now **claim**" in r.text
    await seat_everyone(world)
    await start(world)
    driver = Driver(fake, ch, [Seated(u) for u in world.users])
    await bid_until_play(driver)
    assert has(driver.table(), "claim"), "the table offers Claim renege while renege = claim"

    # Honest play until someone on turn can renege: holds the suit led and another suit.
    cheat: Seated | None = None
    while cheat is None:
        (p,) = await driver.on_turn("play")
        assert p.hand is not None
        cards, led = hand_cards(p.hand), led_suit(p.hand)
        plays = [c for c in p.hand.all_components if c.custom_id and ":play:" in c.custom_id]
        assert len(plays) == len(cards), "in claim mode the hand offers every card in hand"
        off = [c for c in cards if led and SUIT_OF[c[-1]] not in (led, "S")]
        if led and any(SUIT_OF[c[-1]] == led for c in cards) and off:
            r = await (await fake.click(p.user, p.hand, play_id(p.hand, off[0]))).answer()
            assert "renege" not in r.text.lower(), "a renege is never revealed to its player"
            assert "⚠" not in r.text
            p.hand, cheat = r, p
            break
        broken = "spades broken" in driver.table().text
        card = honest_card(p.hand, broken)
        p.hand = await (await fake.click(p.user, p.hand, play_id(p.hand, card))).answer()
    k = driver.players.index(cheat)
    partner = driver.players[(k + 2) % 4]
    opponent = driver.players[(k + 1) % 4]
    innocent = SEATS[(k + 3) % 4]

    # The cheat's partner claims against an honest opponent: judged wrong, in public...
    r = await answer(world, partner.user, "claim", seat=innocent)
    assert f"{WORDS[(k + 3) % 4]} has not reneged this hand" in r.text, r.text
    await fake.wait_for_message(ch, lambda m: "claim is wrong" in m.text)
    # ...and that side may not claim again this hand (the button says why).
    table = driver.table()
    r = await (await fake.click(partner.user, table, button(table, "claim").custom_id)).answer()
    assert "cannot claim again" in r.text, r.text

    # An opponent claims with the button: an ephemeral choice of opponents, then the verdict.
    table = driver.table()
    choice = await (
        await fake.click(opponent.user, table, button(table, "claim").custom_id)
    ).answer()
    assert choice.ephemeral
    target = next(
        c for c in choice.all_components if c.custom_id and c.custom_id.endswith(f":{SEATS[k]}")
    )
    verdict = await (await fake.click(opponent.user, choice, target.custom_id)).answer()
    assert re.search(rf"{WORDS[k]} reneged in trick \d+", verdict.text), verdict.text
    notice = await fake.wait_for_message(ch, lambda m: f"{WORDS[k]} reneged in trick" in m.text)
    assert "claims a renege" in notice.text

    # Play the hand out: the caught team scores at most 0 and the summary names the claims.
    await play_honest_until(
        driver, lambda: any("Hand 1 — scores" in m.text for m in fake.messages(ch))
    )
    summary = await fake.wait_for_message(ch, lambda m: "Hand 1 — scores" in m.text)
    fields = {f["name"]: f["value"] for f in summary.embeds[0]["fields"]}
    caught = "North–South" if k % 2 == 0 else "East–West"
    assert "Caught reneging" in fields[caught]
    total = re.search(r"= \*\*([+−]?[\d,]+)\*\* this hand", fields[caught])
    assert total is not None, fields[caught]
    assert total.group(1) == "0" or total.group(1).startswith("−"), "a caught side keeps ≤ 0"
    claims = fields["Renege claims"]
    assert "has not reneged" in claims
    assert f"{WORDS[k]} reneged in trick" in claims


async def test_three_player_cutthroat_to_game_over_with_computer_players(
    world: World, bot: BotProcess
) -> None:
    fake, ch, alice = world.fake, world.channel, world.users[0]
    await open_table(world, preset="cutthroat-3", target=100)
    lobby = table_message(fake, ch)
    assert "West" not in lobby.text, "a three-player table has no West seat"
    assert "(alone)" in lobby.text
    r = await answer(world, alice, "spades", "bot", seat="W")
    assert "does not play at a three-player table" in r.text, r.text
    seats = await fake.autocomplete(alice, ch, "spades", "bot", focused="seat", value="")
    assert [c["value"] for c in seats] == ["E", "S", "N"]  # free seats first; no West
    for _ in range(2):
        r = await answer(world, alice, "spades", "bot", level="normal")
        assert "computer player" in r.text, r.text
    r = await answer(world, alice, "spades", "start")
    assert "deals first" in r.text, r.text
    assert "West" not in r.text, "the draw for dealer is among North, East and South"
    await eventually(lambda: "Hand 1" in table_message(fake, ch).text)
    driver = Driver(fake, ch, [Seated(alice)])
    first = await driver.open_hand(driver.players[0])
    assert len(hand_cards(first)) == 17 or "face down" in first.text  # 51 cards, 17 each
    await play_with_computers_until_over(driver)
    final = table_message(fake, ch)
    assert "🏆" in final.text
    score = final.embeds[0]["fields"]
    text = "\n".join(f["value"] for f in score)
    for word in ("North", "East", "South"):
        assert word in final.text
    assert "West" not in final.text
    assert "North–South" not in text, "solo scores are per player, not per team"
    summaries = [m for m in fake.messages(ch) if "— scores" in m.text]
    assert summaries
    names = {f["name"].split(" — ")[0] for f in summaries[0].embeds[0]["fields"]}
    assert names == {"North", "East", "South"}
    over = await fake.wait_for_message(ch, lambda m: "Game over" in m.text)
    assert "West" not in over.text


async def test_whiz_bids_offer_exactly_nil_and_the_spade_count(
    world: World, bot: BotProcess
) -> None:
    fake, ch = world.fake, world.channel
    await open_table(world, preset="whiz")
    await seat_everyone(world)
    await start(world)
    driver = Driver(fake, ch, [Seated(u) for u in world.users])
    (bidder,) = await driver.on_turn("bid")
    assert bidder.hand is not None
    spades = sum(1 for c in hand_cards(bidder.hand) if c.endswith("♠"))
    menu = button(bidder.hand, "bid")
    expected = {"nil"} | ({str(spades)} if spades else set())
    assert set(menu.values) == expected, (menu.values, spades)
    # A typed bid outside the rule is refused with the reason.
    wrong = "2" if spades != 2 else "3"
    r = await answer(world, bidder.user, "bid", bid=wrong)
    assert "In Whiz you bid nil" in r.text, r.text
    await eventually(lambda: "Hand 1" in table_message(fake, ch).text)


async def test_presets_autocomplete_with_a_description_and_the_new_rules_apply(
    world: World, bot: BotProcess
) -> None:
    fake, ch = world.fake, world.channel
    alice, bob = world.users[0], world.users[1]
    got = await fake.autocomplete(alice, ch, "spades", "new", focused="preset", value="")
    names = {c["value"]: c["name"] for c in got}
    for preset in ("standard", "solo", "cutthroat-3", "suicide", "whiz", "mirror"):
        assert names[preset].startswith(f"{preset} — "), names[preset]
    assert (
        names["cutthroat-3"]
        == "cutthroat-3 — Cutthroat for three: 51 cards (no 2♣), 17 tricks, everyone alone"
    )
    narrowed = await fake.autocomplete(alice, ch, "spades", "new", focused="preset", value="spades")
    assert {c["value"] for c in narrowed} >= {"whiz", "mirror"}  # descriptions match too
    r = await answer(world, alice, "spades", "new", preset="nope")
    assert "There is no preset `nope`" in r.text

    await open_table(world, preset="solo")
    assert "Solo (cutthroat)" in table_message(fake, ch).text
    for typed, wanted in (
        ("ren", {"renege", "renege_penalty"}),
        ("part", {"partnerships"}),
        ("play", {"players"}),
        ("bidd", {"bidding"}),
    ):
        got = await fake.autocomplete(
            alice, ch, "spades", "rule", focused="name", value=typed, _options={"value": "x"}
        )
        assert {c["value"] for c in got} == wanted, (typed, got)
    values = await fake.autocomplete(
        alice, ch, "spades", "rule", focused="value", value="", _options={"name": "renege"}
    )
    assert [c["value"] for c in values] == ["prevented", "claim"]
    assert values[1]["name"].startswith("claim — ")

    r = await answer(world, bob, "spades", "join", seat="W")
    assert "You sit West" in r.text, r.text
    r = await rule(world, "partnerships", "on")
    assert "now **on**" in r.text
    r = await rule(world, "players", "3")
    assert "Three players need partnerships off" in r.text, r.text
    r = await rule(world, "partnerships", "off")
    assert "now **off**" in r.text
    r = await rule(world, "players", "3")
    assert "now **3**" in r.text, r.text
    # West is not played with three: Bob moved to the first free seat.
    await eventually(lambda: "West" not in table_message(fake, ch).text)
    lobby = table_message(fake, ch)
    fields = {f["name"]: f["value"] for f in lobby.embeds[0]["fields"]}
    assert fields["East (alone)"] == "bob"
    for name, value, shown in (
        ("renege", "claim", "claim"),
        ("renege_penalty", "250", "250"),
        ("bidding", "whiz", "whiz"),
    ):
        r = await rule(world, name, value)
        assert f"now **{shown}**" in r.text, r.text
    r = await rule(world, "bidding", "suicide")
    assert "Suicide bidding needs partnerships" in r.text, r.text
