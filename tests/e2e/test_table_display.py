"""What the channel shows: seats laid out as the table, whose turn it is and until when, the
dealer draw in suit symbols, a title and footer that follow the rules, the rules in sentences,
help, and Play again."""

from __future__ import annotations

import re
import time
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from tests.e2e.conftest import World
from tests.e2e.driver import button, eventually, has, table_message
from tests.e2e.flows import (
    Shared,
    act_until,
    answer,
    fresh_world,
    open_table,
    quick_game,
    rule,
    seat_everyone,
    shared_bot,
    start,
)
from tests.fakediscord import Message

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Shared]:
    async with shared_bot(tmp_path_factory.mktemp("display")) as s:
        yield s


@pytest.fixture
def world(shared: Shared) -> World:
    return fresh_world(shared)


# The seat fields, row by row: each partnership on its own row, with its score.
ROWS = ["North", "South", "North–South", "East", "West", "East–West"]


def fields(msg: Message) -> list[tuple[str, str]]:
    return [(str(f["name"]), str(f["value"])) for f in msg.embeds[0].get("fields", [])]


async def test_the_table_shows_partners_in_rows_whose_turn_and_a_countdown(world: World) -> None:
    fake, ch = world.fake, world.channel
    await open_table(world, preset="standard", target=300, turn_timer=120)
    lobby = table_message(fake, ch)
    assert lobby.embeds[0]["title"] == "♠ Spades · Standard · to 300"
    assert [n for n, _ in fields(lobby)] == ROWS, "two rows of partners, never a seat alone"
    footer = lobby.embeds[0]["footer"]["text"]
    assert "nil ±100" in footer
    assert "loses at −500" in footer
    assert "500" not in footer.replace("−500", ""), "no preset text contradicting target 300"
    await seat_everyone(world)
    started_at = time.time()
    await start(world)
    msg = table_message(fake, ch)
    names = [n for n, _ in fields(msg)]
    assert [n.removeprefix("▶ ").split(" ")[0] for n in names[:6]] == ROWS
    on_turn = [n for n in names if n.startswith("▶ ")]
    assert len(on_turn) == 1, names
    seat = on_turn[0].removeprefix("▶ ").split(" ")[0]
    description = msg.embeds[0]["description"]
    assert re.search(rf"Hand 1 · ▶ \*\*\w+\*\* \({seat}\) to bid", description), description
    stamps = [int(t) for t in re.findall(r"<t:(\d+):R>", description)]
    assert stamps, "the deadline is a Discord timestamp that counts down by itself"
    assert started_at + 100 <= stamps[0] <= time.time() + 121
    seat_field = next(v for n, v in fields(msg) if n.startswith("▶ "))
    assert f"<t:{stamps[0]}:R>" in seat_field
    draw = re.search(r"Draw for dealer: (.*) → \*\*(\w+)\*\* deals first", description)
    assert draw, description
    assert re.fullmatch(
        r"((North|East|South|West) (10|[2-9JQKA])[♠♥♦♣]( · (then )?)?)+", draw.group(1)
    ), draw.group(1)


async def test_rules_are_sentences_by_topic_with_changes_marked(world: World) -> None:
    await open_table(world, preset="house", target=500)
    assert "now **-300**" in (await rule(world, "lose_at", "-300")).text
    shown = await answer(world, world.users[0], "spades", "rules")
    assert shown.ephemeral
    topics = [f["name"] for f in shown.embeds[0]["fields"]]
    assert topics == [
        "Cards and tricks",
        "Bidding",
        "Scoring",
        "Nil",
        "Bags",
        "End of the game",
    ]
    text = shown.text
    assert "`" not in text, "no raw option keys"
    assert "After bidding, a blind nil bidder passes 2 cards to their partner" in text
    assert "Equal scores at the end: the team with more bags over the game wins" in text
    assert "Mercy rule: a team whose score falls to −300 or below loses" in text
    marked = [ln for ln in text.splitlines() if ln.endswith("✎")]
    assert marked == [ln for ln in marked if "Mercy rule" in ln], "only the change is marked"
    assert len(marked) == 1
    # The Rules button shows the same.
    table = table_message(world.fake, world.channel)
    inter = await world.fake.click(world.users[1], table, button(table, "rules").custom_id)
    assert (await inter.response()).text == text


async def test_the_mercy_rule_is_on_by_default_and_can_be_switched_off(world: World) -> None:
    await open_table(world, preset="standard")
    shown = await answer(world, world.users[0], "spades", "rules")
    assert "Mercy rule: a team whose score falls to −500 or below loses" in shown.text
    assert "✎" not in shown.text, "the mercy rule is the table's default, not a change"
    assert "off" in (await rule(world, "lose_at", "off")).text
    shown = await answer(world, world.users[0], "spades", "rules")
    assert "No mercy rule: scores may fall without limit. ✎" in shown.text


async def test_help_fits_one_screen_and_only_the_asker_sees_it(world: World) -> None:
    r = await answer(world, world.users[2], "spades", "help")
    assert r.ephemeral
    assert len(r.embeds) == 1
    assert len(r.text) < 2500, "one screen"
    for words in ("My hand", "updates by itself", "/bid", "/play", "/spades new", "Refresh"):
        assert words in r.text, words


async def test_play_again_opens_the_same_seats_and_rules_with_one_click(world: World) -> None:
    fake, ch, alice = world.fake, world.channel, world.users[0]
    driver = await quick_game(world, humans=1, preset="short", target=100)
    first = table_message(fake, ch)

    def over(r: object) -> bool:
        return "game is over" in getattr(r, "text", "").lower()

    await act_until(driver, over, max_steps=3000)
    game_over = await fake.wait_for_message(ch, lambda m: "Game over" in m.text)
    assert has(game_over, "again")
    bob = world.users[1]
    again = button(game_over, "again").custom_id
    refused = await (await fake.click(bob, game_over, again)).response()
    assert refused.ephemeral
    assert "Only the players of that game can start another one" in refused.text
    inter = await fake.click(alice, game_over, again)
    assert (await inter.response()).deferred
    follow = await inter.wait_followup()
    assert "A new game has started" in follow.text

    def fresh() -> Message | None:
        msg = table_message(fake, ch)
        return msg if msg.id != first.id and "Hand 1 ·" in msg.text else None

    await eventually(fresh)
    new = table_message(fake, ch)
    assert new.embeds[0]["title"] == "♠ Spades · Short game · to 100", "same rules"
    occupants = {n.removeprefix("▶ ").split(" ")[0]: v.split("\n")[0] for n, v in fields(new)}
    assert occupants["North"].strip("*") == "alice"
    assert all(occupants[s].strip("*").startswith("Computer") for s in ("East", "South", "West"))
    twice = await (await fake.click(alice, game_over, again)).response()
    assert "A new table is already open in this channel" in twice.text
