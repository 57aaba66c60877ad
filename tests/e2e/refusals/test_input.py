"""Input the bot must read strictly: numbers in ASCII digits only (``/bid ²``, a forged bid or
export value in other digits), custom ids that fit a template but carry values the bot never
writes (left by an older version, say), and display names written to be markdown.  Each is
refused in one ephemeral line or shown as plain text; nothing is logged at ERROR, and a custom
id's content is not logged at all."""

from __future__ import annotations

import re

import pytest

from bot.ui.discord.clicks import UNREADABLE
from tests.e2e.conftest import World
from tests.e2e.driver import table_message
from tests.e2e.flows import Shared, answer, open_table
from tests.e2e.refusals.checks import bidding, on_turn, refused, shows
from tests.fakediscord import Message, Response
from tests.fakediscord.handles import UPDATE_MESSAGE

pytestmark = pytest.mark.asyncio(loop_scope="package")


def mark(shared: Shared) -> int:
    return len(shared.proc.output.splitlines())


def no_error_since(shared: Shared, start: int, *secrets: str) -> None:
    """Nothing at ERROR and no traceback since line ``start`` of the bot's log, and none of
    ``secrets`` anywhere in it."""
    lines = shared.proc.output.splitlines()[start:]
    bad = [ln for ln in lines if " ERROR " in ln or "Traceback" in ln]
    assert not bad, "\n".join(lines)
    for secret in secrets:
        assert secret not in shared.proc.output, secret


def plain_reason(r: Response | Message) -> None:
    refused(r)
    assert "something went wrong" not in r.text, r.text
    assert "\n" not in r.text.strip(), "one line"


def table_id(world: World) -> str:
    msg = table_message(world.fake, world.channel)
    custom_id = next(c for c in msg.custom_ids if c.startswith("spades:t:"))
    return custom_id.split(":")[2]


# ---------------------------------------------------------------------- numbers
@pytest.mark.parametrize("bid", ["²", "١٢", "1²"])
async def test_a_bid_in_other_digits_is_refused(world: World, shared: Shared, bid: str) -> None:
    start = mark(shared)
    await open_table(world, preset="standard")
    r = await answer(world, world.users[0], "bid", bid=bid)
    plain_reason(r)
    assert "is not a bid" in r.text, r.text
    no_error_since(shared, start)


async def test_a_rule_value_in_other_digits_is_refused(world: World, shared: Shared) -> None:
    start = mark(shared)
    await open_table(world, preset="standard")
    for value in ("³", "٣"):
        r = await answer(world, world.users[0], "spades", "rule", name="players", value=value)
        plain_reason(r)
        assert "players must be one of 4, 3" in r.text, r.text
    r = await answer(world, world.users[0], "spades", "rule", name="target", value="٥٠٠")
    assert "target must be a whole number" in r.text, r.text
    no_error_since(shared, start)


async def test_a_forged_bid_menu_value_in_other_digits_is_refused(
    world: World, shared: Shared
) -> None:
    """``١٢`` is Arabic-Indic 12: ``int`` reads it, so it was bid as 12; ``²`` is a digit to
    ``str.isdigit`` that ``int`` refuses, so it was a traceback."""
    start = mark(shared)
    driver = await bidding(world)
    actor, _ = await on_turn(driver)
    hand = actor.hand
    assert hand is not None
    menu = next(c for c in hand.all_components if c.custom_id and ":bid:" in c.custom_id)
    assert menu.custom_id is not None
    for forged in ("١٢", "²", "blind²"):
        inter = await world.fake.select(actor.user, hand, menu.custom_id, [forged], force=True)
        r = await inter.response()
        assert r.type == UPDATE_MESSAGE, "the hand message, with the reason on it"
        assert "is not a bid: pick one from the menu" in r.text, r.text
        assert "Your turn to bid" in r.text, "nothing was bid"
        hand = r
    no_error_since(shared, start)


async def test_a_forged_export_value_in_other_digits_is_refused(
    world: World, shared: Shared
) -> None:
    start = mark(shared)
    viewer = world.users[0]
    lg = f"spades:lg:pick:{viewer.id}:{viewer.id}:0:rating:0"
    msg = world.fake.bot_message(world.channel, _select_message(lg, ["1"]))
    for forged in ("²", "١", "1_0"):
        r = await (await world.fake.select(viewer, msg, lg, [forged], force=True)).response()
        plain_reason(r)
        assert r.text == "Pick a game from the list.", r.text
    no_error_since(shared, start)


# ---------------------------------------------------------------------- custom ids
def _button_message(*custom_ids: str) -> dict[str, object]:
    buttons = [
        {"type": 2, "style": 2, "label": f"b{i}", "custom_id": c} for i, c in enumerate(custom_ids)
    ]
    return {"content": "An older message", "components": [{"type": 1, "components": buttons}]}


def _select_message(custom_id: str, values: list[str]) -> dict[str, object]:
    options = [{"label": v, "value": v} for v in values]
    select = {"type": 3, "custom_id": custom_id, "options": options}
    return {"content": "An older message", "components": [{"type": 1, "components": [select]}]}


BAD_IDS = {
    "a game id that is no number": "spades:rv:g:notanumber",
    "a game id no database holds": "spades:rv:g:99999999999999999999",
    "a sort there is not": "spades:lg:players:{viewer}:0:0:cleverest:0",
    "a game there is not": "spades:lg:players:{viewer}:0:0:rating:0:@chess",
    "a member id no database holds": "spades:lg:hist:{viewer}:99999999999999999999:0:rating:0",
    "a renege claim naming no seat": "spades:t:{table}:claimon",
    "a play of no card": "spades:t:{table}:play:N:1:order+",
    "a call of a card": "spades:t:{table}:call:N:1:QS",
    "a seat on a button that takes none": "spades:t:{table}:start:W",
    "a shape of no version": "spades:zz:{table}:whatever",
}


@pytest.mark.parametrize("case", list(BAD_IDS))
async def test_a_malformed_custom_id_is_refused_in_one_line_and_not_logged(
    world: World, shared: Shared, case: str
) -> None:
    start = mark(shared)
    await open_table(world, preset="standard")
    viewer = world.users[0]
    custom_id = BAD_IDS[case].format(viewer=viewer.id, table=table_id(world))
    before = table_message(world.fake, world.channel).text
    msg = world.fake.bot_message(world.channel, _button_message(custom_id))
    r = await (await world.fake.click(viewer, msg, custom_id)).response()
    plain_reason(r)
    assert r.text == UNREADABLE
    assert table_message(world.fake, world.channel).text == before
    value = custom_id.split(":", 3)[-1]
    no_error_since(shared, start, custom_id, value)


# ---------------------------------------------------------------------- names
HOSTILE = {
    "E": "[x](https://evil)",
    "S": "# big",
    "W": "\u202e@everyone",
}


async def test_hostile_display_names_are_plain_text_on_the_table_message(world: World) -> None:
    fake = world.fake
    await open_table(world, preset="standard")
    for seat, nick in HOSTILE.items():
        member = fake.add_user(f"m{seat.lower()}")
        world.guild.add_member(member, nick=nick)
        r = await answer(world, member, "spades", "join", seat=seat)
        assert "You sit" in r.text, r.text
    await shows(world, lambda t: all(w in t for w in ("big", "evil", "everyone")))
    embed = table_message(fake, world.channel).embeds[0]
    parts = [str(embed.get("description", ""))]
    for field in embed.get("fields", []):
        parts += [str(field["name"]), str(field["value"])]
    text = "\n".join(parts)
    assert "\\[x\\](https://evil)" in text, text
    assert "[x](https://evil)" not in text, "no masked link"
    assert not any(re.match(r"\s*#", line) for line in text.splitlines()), "no heading"
    assert "\\# big" in text, text
    assert "\u202e" not in text, "no right-to-left override"
    assert "@everyone" not in text
    assert "@\u200beveryone" in text, text
