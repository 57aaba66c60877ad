"""Slash commands beyond the happy path of one game: rules and their autocomplete, the
autocomplete of /bid and /play, threads, re-posting, tables side by side, leaving mid-game,
computer players and the pace of table message edits."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from bot.engine import preset_names
from bot.engine.rules import option_names, suggested_values
from tests.e2e.conftest import World
from tests.e2e.driver import CARD_RE, Driver, Seated, eventually, has, table_message
from tests.e2e.flows import (
    Shared,
    act_until,
    answer,
    fresh_world,
    open_table,
    quick_game,
    quiet_table,
    shared_bot,
    solo_game,
)
from tests.fakediscord import ChannelType, Message, Response

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Shared]:
    async with shared_bot(tmp_path_factory.mktemp("commands")) as s:
        yield s


@pytest.fixture
def world(shared: Shared) -> World:
    return fresh_world(shared)


# ---------------------------------------------------------------------- helpers
async def complete(world: World, user_index: int, *path: str, **kw: Any) -> list[dict[str, Any]]:
    return await world.fake.autocomplete(world.users[user_index], world.channel, *path, **kw)


def values(choices: list[dict[str, Any]]) -> list[str]:
    return [str(c["value"]) for c in choices]


def play_buttons(hand: Response | Message) -> list[tuple[str, str]]:
    """(label, card code) of every card button of a hand message."""
    return [
        (str(c.label), c.custom_id.rsplit(":", 1)[1])
        for c in hand.all_components
        if c.custom_id and ":play:" in c.custom_id
    ]


def bid_options(hand: Response | Message) -> list[str]:
    sel = next(c for c in hand.all_components if c.custom_id and ":bid:" in c.custom_id)
    return list(sel.values)


def seat_occupant(table: Response | Message, seat: str) -> str:
    """Who the table message shows in ``seat`` (first line of that seat's field; the field
    name may start with ▶ for the player on turn, the name is then in bold)."""
    for f in table.embeds[0].get("fields", []):
        if str(f["name"]).removeprefix("▶ ").split(" ")[0] == seat:
            return str(f["value"]).split("\n")[0].strip("*")
    raise AssertionError(f"no {seat} field")


def field(table: Response | Message, name: str) -> str:
    for f in table.embeds[0].get("fields", []):
        if f["name"] == name:
            return str(f["value"])
    raise AssertionError(f"no {name} field")


def shown(n: int) -> str:
    """A score as the bot writes it in English: ``1,250``, ``−9`` (a real minus sign)."""
    return f"−{abs(n):,}" if n < 0 else f"{n:,}"


def game_over(r: Response | Message) -> bool:
    return "game is over" in r.text.lower()


async def whose_turn(driver: Driver) -> int:
    """Index (in driver.players) of the one human who can act now."""
    acting = [i for i, p in enumerate(driver.players) if driver.can_act(await driver.refresh(p))]
    assert len(acting) == 1, acting
    return acting[0]


# ---------------------------------------------------------------------- /spades rule(s)
async def test_rule_name_autocomplete_offers_the_rule_options(world: World) -> None:
    await open_table(world, preset="standard")
    everything = await complete(world, 0, "spades", "rule", focused="name", value="")
    assert values(everything) == ["preset", *option_names("spades")[1:]][:25]
    assert all(c["name"] == c["value"] for c in everything)
    bags = await complete(world, 0, "spades", "rule", focused="name", value="bag")
    assert values(bags) == [n for n in option_names("spades") if "bag" in n]
    assert values(bags) == ["bag_value", "bag_limit", "bag_penalty"]


async def test_rule_value_autocomplete_depends_on_the_name(world: World) -> None:
    await open_table(world, preset="standard")

    async def offered(name: str, typed: str = "") -> list[str]:
        return values(
            await complete(world, 0, "spades", "rule", focused="value", value=typed, name=name)
        )

    assert await offered("deck") == ["standard", "jokers", "jjdd"]
    assert await offered("nil") == ["on", "off"]
    assert await offered("preset") == list(preset_names())
    assert await offered("target") == list(suggested_values("target"))
    assert await offered("target", "50") == ["150", "250", "500", "750", "50"], (
        "matching suggestions, then what was typed"
    )
    assert await offered("no_such_rule") == []


async def test_rule_change_is_applied_and_shown_by_rules(world: World) -> None:
    fake = world.fake
    await open_table(world, preset="standard", target=100)
    r = await answer(world, world.users[0], "spades", "rule", name="target", value="300")
    assert r.ephemeral
    assert r.text == "`target` is now **300**."
    r = await answer(world, world.users[0], "spades", "rule", name="nil", value="off")
    assert r.text == "`nil` is now **off**."
    shown = await answer(world, world.users[1], "spades", "rules")
    assert shown.ephemeral, "the rules are shown only to the one who asked"
    assert shown.embeds
    assert "Rules: Standard to 300" in shown.text
    target = "The first team to 300 points wins; if both get there in the same hand, the higher "
    assert target + "score wins. ✎" in shown.text
    assert "No nil bids (except blind nil where it is on). ✎" in shown.text
    assert "✎ = changed from the Standard preset" in shown.text
    assert shown.text.count("✎") == 3, "target and nil changed, and the legend"
    await fake.wait_for_edit(table_message(fake, world.channel), lambda m: "to 300" in m.text)


async def test_invalid_rule_values_are_refused_readably(world: World) -> None:
    await open_table(world, preset="standard")
    alice = world.users[0]
    cases = [
        ("target", "abc", "target must be a whole number, not 'abc'"),
        ("target", "50", "target must be between 100 and 1000, not 50"),
        ("deck", "tarot", "deck must be one of standard, jokers, jjdd"),
        ("no_such_rule", "1", "There is no rule option `no_such_rule`"),
    ]
    for name, value, expected in cases:
        r = await answer(world, alice, "spades", "rule", name=name, value=value)
        assert r.ephemeral
        assert expected in r.text, r.text
        assert "Traceback" not in r.text
    shown = await answer(world, alice, "spades", "rules")
    assert "✎" not in shown.text, "nothing was changed"
    assert "A standard 52-card deck; spades are always trump." in shown.text


# ---------------------------------------------------------------------- /bid, /play autocomplete
async def test_bid_autocomplete_offers_exactly_the_callers_legal_bids(world: World) -> None:
    driver = await quick_game(world, preset="standard", target=100)
    eve = world.fake.add_user("eve")
    world.guild.add_member(eve)
    for _ in range(2):  # the first two bidders
        i = await whose_turn(driver)
        hand = driver.players[i].hand
        assert hand is not None
        offered = await complete(world, i, "bid", focused="bid", value="")
        assert values(offered) == bid_options(hand)
        assert values(offered) == ["nil", *(str(n) for n in range(1, 14))]
        assert [c["name"] for c in offered] == values(offered)
        typed = await complete(world, i, "bid", focused="bid", value="1")
        assert values(typed) == ["1", "10", "11", "12", "13"]
        for j in range(4):
            if j != i:
                assert await complete(world, j, "bid", focused="bid", value="") == []
        got = await world.fake.autocomplete(eve, world.channel, "bid", focused="bid", value="")
        assert got == [], "nothing for someone not seated"
        await driver.act(driver.players[i], hand)


async def test_play_autocomplete_offers_exactly_the_callers_legal_cards(world: World) -> None:
    driver = await quick_game(world, preset="standard", target=100)
    for _ in range(4):
        assert await driver.step()
    eve = world.fake.add_user("eve")
    world.guild.add_member(eve)
    for _ in range(3):  # the lead (no spades yet) and two follows
        i = await whose_turn(driver)
        hand = driver.players[i].hand
        assert hand is not None
        buttons = play_buttons(hand)
        offered = await complete(world, i, "play", focused="card", value="")
        assert sorted((c["name"], c["value"]) for c in offered) == sorted(buttons)
        held = CARD_RE.findall(hand.embeds[0]["description"])
        assert len(offered) <= len(held)
        for j in range(4):
            if j != i:
                assert await complete(world, j, "play", focused="card", value="") == []
        got = await world.fake.autocomplete(eve, world.channel, "play", focused="card", value="")
        assert got == []
        await driver.act(driver.players[i], hand)


# ---------------------------------------------------------------------- threads, re-posting
async def test_new_with_thread_opens_the_table_in_a_new_public_thread(world: World) -> None:
    fake, alice, bob = world.fake, world.users[0], world.users[1]
    r = await answer(world, alice, "spades", "new", preset="standard", thread=True)
    assert r.ephemeral
    await fake.wait_until(lambda: fake.threads(world.channel))
    (thread,) = fake.threads(world.channel)
    assert thread.type == ChannelType.PUBLIC_THREAD
    msg = await fake.wait_for_message(thread, lambda m: bool(m.embeds))
    assert str(msg.embeds[0]["title"]).startswith("♠ Spades")
    assert not any(m.embeds for m in fake.messages(world.channel)), "nothing in the parent"
    follow = r  # the answer: the follow-up that replaced the "thinking" message
    assert follow.ephemeral
    assert "Table opened" in follow.text
    assert f"/{thread.id}/{msg.id}" in follow.text, "a link to the table message in the thread"
    # The table lives in the thread: joining works there, not in the parent channel.
    r = await answer(world, bob, "spades", "join", channel=thread)
    assert "You sit East" in r.text
    r = await answer(world, world.users[2], "spades", "join")
    assert "There is no table in this channel" in r.text


async def test_table_command_reposts_the_table_message(world: World) -> None:
    fake = world.fake
    await open_table(world, preset="standard")
    first = table_message(fake, world.channel)
    assert fake.messages(world.channel) == [first]
    r = await answer(world, world.users[1], "spades", "table")
    assert r.ephemeral
    await fake.wait_until(lambda: table_message(fake, world.channel).id != first.id)
    second = table_message(fake, world.channel)
    assert fake.last_message(world.channel) is second, "at the bottom of the channel"
    assert str(second.id) in r.text, "the answer links the new message"
    assert second.embeds[0]["title"] == first.embeds[0]["title"]
    # From now on the new message is the one kept up to date.
    r = await answer(world, world.users[1], "spades", "join")
    assert "You sit East" in r.text
    await fake.wait_for_edit(second, lambda m: "bob" in m.text)
    assert "bob" not in first.text


# ---------------------------------------------------------------------- side by side
async def test_tables_in_two_channels_play_at_once_without_interfering(shared: Shared) -> None:
    one = fresh_world(shared, ("ann", "ben", "cat", "dan"))
    two = fresh_world(shared, ("eve", "fay", "gus", "hal"))
    d1, d2 = await asyncio.gather(
        quick_game(one, humans=2, preset="standard", target=400),
        quick_game(two, humans=2, preset="standard", target=500),
    )

    def hand_over(r: Response | Message) -> bool:
        return "Hand 2 ·" in r.text

    await asyncio.gather(act_until(d1, hand_over), act_until(d2, hand_over))
    fake = shared.fake
    for world, mine, theirs in ((one, "ann", "eve"), (two, "eve", "ann")):
        summary = await fake.wait_for_message(world.channel, lambda m: "Hand 1 — scores" in m.text)
        assert mine in summary.text
        assert theirs not in summary.text
        assert len([m for m in fake.messages(world.channel) if "— scores" in m.text]) == 1
    t1, t2 = table_message(fake, one.channel), table_message(fake, two.channel)
    assert "to 400" in t1.text
    assert "to 500" in t2.text
    id1 = re.search(r"Table (\w+)", t1.text)
    id2 = re.search(r"Table (\w+)", t2.text)
    assert id1
    assert id2
    assert id1.group(1) != id2.group(1)
    # /hand answers for the caller's own table, wherever it is typed.
    h1 = await answer(one, one.users[0], "hand", channel=two.channel)
    h2 = await answer(two, two.users[0], "hand", channel=one.channel)
    assert id1.group(1) in " ".join(c.custom_id or "" for c in h1.all_components)
    assert id2.group(1) in " ".join(c.custom_id or "" for c in h2.all_components)


# ---------------------------------------------------------------------- leaving, computers
async def test_leave_mid_game_hands_the_seat_to_a_computer_that_plays(world: World) -> None:
    fake = world.fake
    # Target 500: no first hand can end the game (a nil can win 100 points at once).
    driver = await quick_game(world, humans=2, preset="standard", target=500)
    bob = world.users[1]
    r = await answer(world, bob, "spades", "leave")
    assert r.ephemeral
    assert r.text.startswith("You left East; a computer player (normal) takes over.")
    assert "counts as a loss for you" in r.text
    r = await answer(world, bob, "hand")
    assert "not seated" in r.text
    alice_only = Driver(fake, world.channel, driver.players[:1])
    await act_until(alice_only, lambda r: "Hand 2 ·" in r.text)
    summary = await fake.wait_for_message(world.channel, lambda m: "Hand 1 — scores" in m.text)
    assert "Computer (normal) · bob left" in summary.text, "East was played by the computer"
    shown = await fake.wait_for_edit(
        table_message(fake, world.channel), lambda m: "Hand 2 ·" in m.text
    )
    assert seat_occupant(shown, "East") == "Computer (normal) · bob left"
    assert seat_occupant(shown, "North") == "alice"


async def test_computer_players_fill_seats_and_a_game_runs_to_game_over(world: World) -> None:
    fake, alice = world.fake, world.users[0]
    await open_table(world, preset="standard", target=100)
    r = await answer(world, alice, "spades", "bot", seat="W", level="normal")
    assert r.text == "A computer player (normal) plays West."
    r = await answer(world, alice, "spades", "bot", level="easy")
    assert r.text == "A computer player (easy) plays East."
    r = await answer(world, alice, "spades", "bot")
    assert r.text == "A computer player (normal) plays South."
    r = await answer(world, alice, "spades", "bot")
    assert "full" in r.text
    r = await answer(world, alice, "spades", "start")
    assert "deals first" in r.text
    msg = table_message(fake, world.channel)
    hand = await answer(world, alice, "hand")
    driver = Driver(fake, world.channel, [Seated(alice, hand)])
    last = await act_until(driver, game_over, max_steps=5000)
    assert game_over(last)
    assert driver.actions >= 14, "Alice bid and played a whole hand at least"
    final = await fake.wait_for_edit(msg, lambda m: "🏆" in m.text and not m.buttons)
    over = await fake.wait_for_message(world.channel, lambda m: "Game over" in m.text)
    # Scores are written as people read them: a real minus sign (−9), thousands grouped.
    scores = re.search(r"North–South ([−-]?[\d,]+) · East–West ([−-]?[\d,]+)", over.text)
    assert scores, over.text
    ns, ew = (int(g.replace("−", "-").replace(",", "")) for g in scores.groups())
    assert max(ns, ew) >= 100
    high, low = max(ns, ew), min(ns, ew)
    assert f"{shown(high)} to {shown(low)}" in final.text, "the table shows the final score"
    assert f"**{shown(ns)}** points" in field(final, "North–South")
    assert f"**{shown(ew)}** points" in field(final, "East–West")
    # Edits are coalesced: never more than about one a second, however fast the play.
    assert final.max_edits_per(1.0) <= 2, sorted(final.edit_times or ())
    hands = len([m for m in fake.messages(world.channel) if "— scores" in m.text])
    assert final.edits < hands * 56, "far fewer edits than actions"


async def test_table_message_is_edited_at_most_about_once_a_second(world: World) -> None:
    """Fast play (every human action is followed at once by three computer actions, about
    forty changes a second) for a few seconds: the table message keeps up, but is edited
    about once a second at most.  (Paced so that hand summaries stay within Discord's five
    messages per five seconds: a rate-limited summary post holds up table edits.)"""
    fake = world.fake
    driver = await solo_game(world, preset="standard", target=1000)
    msg = table_message(fake, world.channel)
    start_edits = msg.edits
    loop = asyncio.get_running_loop()
    until = loop.time() + 3.5
    last: Response | Message | None = None
    # At least 20 actions over at least 3.5 s (a busy machine plays slower: it plays longer).
    while driver.actions < 20 or loop.time() < until:
        last = await act_until(driver, driver.can_act)
        await driver.act(driver.players[0], last)
        await asyncio.sleep(0.1)
    settled = await quiet_table(fake, world.channel)
    assert settled is msg, "the same message is edited, not re-posted"
    assert msg.edits - start_edits >= 3, "the table message followed the play"
    assert msg.max_edits_per(1.0) <= 2, sorted(msg.edit_times or ())
    # Once play stops, the last edit shows the latest state: whose turn it is.
    last = await act_until(driver, driver.can_act)
    footer = re.search(r"Hand (\d+)", last.text)
    assert footer
    latest = f"Hand {footer.group(1)} · ▶ **alice** (North)"
    await eventually(lambda: latest in msg.text)


async def test_hand_shows_only_the_callers_actions(world: World) -> None:
    """/hand during someone else's turn offers only Refresh."""
    driver = await quick_game(world, preset="standard", target=100)
    i = await whose_turn(driver)
    for j, p in enumerate(driver.players):
        r = await answer(world, p.user, "hand")
        assert r.ephemeral
        assert len(CARD_RE.findall(r.embeds[0]["description"])) == 13
        assert has(r, "bid") == (i == j)
        assert has(r, "refresh")


async def test_new_with_thread_needs_no_send_messages_in_the_parent(world: World) -> None:
    """A channel where the bot may not post but may open threads (and post in them)."""
    fake = world.fake
    world.channel.deny_bot("send_messages")
    r = await answer(world, world.users[0], "spades", "new", preset="standard", thread=True)
    assert "I need these permissions" not in r.text, r.text
    await fake.wait_until(lambda: fake.threads(world.channel))
    (thread,) = fake.threads(world.channel)
    msg = await fake.wait_for_message(thread, lambda m: bool(m.embeds))
    assert str(msg.embeds[0]["title"]).startswith("♠ Spades")
    world.channel.deny_bot("create_public_threads")
    r = await answer(world, world.users[1], "spades", "new", thread=True)
    assert "Create Public Threads" in r.text, r.text
