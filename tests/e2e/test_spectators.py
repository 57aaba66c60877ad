"""Spectators through the real bot: **Watch** and ``/spades watch`` give a member who does not
play a private view that follows the game live to its end; a seated player and a leaver are
refused with the reason; the table message shows how many watch; the host can close a table to
spectators, or show them each finished hand's deal."""

from __future__ import annotations

import asyncio
import re

from tests.e2e.conftest import World
from tests.e2e.driver import (
    CARD_RE,
    Driver,
    Seated,
    button,
    eventually,
    has,
    plain,
    table_message,
)
from tests.e2e.flows import answer, quick_game, rule
from tests.fakediscord import BotProcess, Message, Response, User


def newcomer(world: World, name: str = "erin") -> User:
    user = world.fake.add_user(name)
    world.guild.add_member(user)
    return user


async def click_watch(world: World, user: User) -> Response:
    await eventually(lambda: has(table_message(world.fake, world.channel), "watch"))
    msg = table_message(world.fake, world.channel)
    inter = await world.fake.click(user, msg, button(msg, "watch").custom_id)
    return await inter.response()


async def play_alice_to_the_end(driver: Driver, max_steps: int = 6000) -> None:
    alice = driver.players[0]
    for _ in range(max_steps):
        if driver.over():
            return
        hand = await driver.refresh(alice)
        if driver.can_act(hand):
            await driver.act(alice, hand)
        else:
            await asyncio.sleep(0.02)
    raise AssertionError("the game did not end")


async def test_a_spectator_follows_the_game_to_its_end_and_players_are_refused(
    world: World, bot: BotProcess
) -> None:
    fake = world.fake
    driver = await quick_game(world, humans=2, preset="standard", target=100)
    alice, bob = world.users[0], world.users[1]
    left = await answer(world, bob, "spades", "leave")
    assert "You left" in left.text, left.text

    # A seated player, and one who left the game, are refused with the reason.
    seated = await click_watch(world, alice)
    assert seated.ephemeral
    assert "you cannot watch it" in seated.text, seated.text
    assert "pass on" in seated.text
    leaver = await (await fake.slash(bob, world.channel, "spades", "watch")).response()
    assert leaver.ephemeral
    assert "you cannot watch it" in leaver.text, leaver.text

    erin = newcomer(world)
    first = await click_watch(world, erin)
    assert first.ephemeral
    assert first.message is not None
    view = first.message
    assert view.visible_to == erin.id
    assert "👁" in view.text
    assert "Watching table" in view.text
    assert "only you see this view" in view.text
    labels = {c.label for c in view.all_components}
    assert {"Refresh", "Stop watching"} <= labels
    await eventually(lambda: "👁 1 watching" in table_message(fake, world.channel).text)

    # Card by card, the view shows each of alice's cards on the table (live edits only).
    seen = 0
    while seen < 6:
        hand = await driver.refresh(driver.players[0])
        if not driver.can_act(hand) or not has(hand, "play"):
            if has(hand, "bid"):
                await driver.act(driver.players[0], hand)
            await asyncio.sleep(0.02)
            continue
        played = await driver.act(driver.players[0], hand)
        mine = CARD_RE.search(plain(played.text.split("You played", 1)[1]))
        assert mine is not None, played.text
        shown = f"North {mine.group(0)}"
        await eventually(lambda s=shown: s in plain(view.text), timeout=10)
        seen += 1
    await play_alice_to_the_end(driver)
    await eventually(lambda: "🏆" in view.text, timeout=30)
    assert not view.all_components, "a finished game's spectator view has no buttons"
    edits = [e for e in fake.webhook_edits if e.message is view]
    assert len(edits) >= 6, "the view followed the game by live edits"
    assert all(e.interaction.user.id == erin.id for e in edits)
    assert fake.ratelimiter.hits_429 == 0
    assert "Traceback" not in bot.output


async def test_watching_stops_closes_and_re_arms(world: World, bot: BotProcess) -> None:
    fake = world.fake
    driver = await quick_game(world, humans=1, preset="standard", target=300)
    erin, frank = newcomer(world, "erin"), newcomer(world, "frank")
    mine = await (await fake.slash(erin, world.channel, "spades", "watch")).response()
    theirs = await click_watch(world, frank)
    assert mine.message is not None
    assert theirs.message is not None
    await eventually(lambda: "👁 2 watching" in table_message(fake, world.channel).text)

    # Refresh answers with the view anew (a fresh token: the message follows the game again).
    fake.age_tokens(erin, 16 * 60)
    inter = await fake.click(erin, mine.message, button(mine.message, "rewatch").custom_id)
    again = await inter.response()
    assert again.message is mine.message
    assert "Watching table" in again.text

    stop = await (
        await fake.click(frank, theirs.message, button(theirs.message, "unwatch").custom_id)
    ).response()
    assert "stopped watching" in stop.text
    assert not theirs.message.all_components
    await eventually(lambda: "👁 1 watching" in table_message(fake, world.channel).text)
    before = len([e for e in fake.webhook_edits if e.message is theirs.message])

    alice = driver.players[0]
    for _ in range(8):  # a few of alice's moves: erin's view follows, frank's stays stopped
        hand = await driver.refresh(alice)
        while not driver.can_act(hand):
            await asyncio.sleep(0.05)
            hand = await driver.refresh(alice)
        await driver.act(alice, hand)
    await eventually(
        lambda: any(e.message is mine.message for e in list(fake.webhook_edits)[-50:]), timeout=10
    )
    assert len([e for e in fake.webhook_edits if e.message is theirs.message]) == before
    assert fake.expired_token_refusals == 0, "no edit used the aged token"


async def test_the_host_closes_a_table_to_spectators(world: World, bot: BotProcess) -> None:
    fake = world.fake
    await answer(world, world.users[0], "spades", "new", preset="standard")
    r = await rule(world, "spectators", "off")
    assert "`spectators` is now **off**" in r.text, r.text
    await eventually(lambda: "No spectators" in table_message(fake, world.channel).text)
    not_host = await (
        await fake.slash(world.users[1], world.channel, "spades", "rule", name="spectators",
                         value="public")
    ).response()  # fmt: skip
    assert "Only the host" in not_host.text
    await answer(world, world.users[0], "spades", "bot")
    await answer(world, world.users[0], "spades", "bot")
    await answer(world, world.users[0], "spades", "bot")
    await answer(world, world.users[0], "spades", "start")
    await eventually(lambda: "Hand 1" in table_message(fake, world.channel).text)
    assert not any(
        c.custom_id and c.custom_id.endswith(":watch")
        for c in table_message(fake, world.channel).all_components
    ), "no Watch button"
    refused = await (await fake.slash(newcomer(world), world.channel, "spades", "watch")).response()
    assert "closed this table to spectators" in refused.text
    late = await rule(world, "spectators", "public")
    assert "fixed once the game has started" in late.text


async def test_spectators_get_each_finished_hands_deal(world: World, bot: BotProcess) -> None:
    """``spectators: hands after each hand``: once a hand is over, its deal (the picture and
    the hands in words) is in the spectator's view — and never before."""
    await answer(world, world.users[0], "spades", "new", preset="standard", target=1000)
    r = await rule(world, "spectators", "hands after each hand")
    assert "hands after each hand" in r.text, r.text
    driver = await quick_game_started(world)
    erin = newcomer(world)
    first = await click_watch(world, erin)
    assert first.message is not None
    view: Message = first.message
    assert "as dealt" not in view.text
    assert not view.attachments
    alice = driver.players[0]
    for _ in range(3000):
        if "as dealt" in view.text:
            break
        hand = await driver.refresh(alice)
        if driver.can_act(hand):
            await driver.act(alice, hand)
        else:
            await asyncio.sleep(0.02)
    shown = re.search(r"Hand (\d+) as dealt", view.text)
    assert shown is not None, view.text
    number = int(shown.group(1))
    now = re.search(r"Watching table \S+ · hand (\d+)", view.text)
    assert now is not None
    assert int(now.group(1)) > number or "🏆" in view.text, "only a finished hand's deal"
    assert [a.filename for a in view.attachments] == [f"deal-{table_id(view)}-{number}.png"]
    assert view.attachments[0].data.startswith(b"\x89PNG")
    for line in ("North", "East", "South", "West"):
        assert f"**{line}**" in view.text


async def quick_game_started(world: World) -> Driver:
    """The table opened already: three computers, start, alice's hand."""
    for _ in range(3):
        await answer(world, world.users[0], "spades", "bot")
    r = await answer(world, world.users[0], "spades", "start")
    assert "deals first" in r.text, r.text
    driver = Driver(world.fake, world.channel, [])
    alice = Seated(world.users[0])
    alice.hand = await answer(world, alice.user, "hand")
    driver.players.append(alice)
    return driver


def table_id(view: Message) -> str:
    return view.text.split("Watching table ", 1)[1].split(" ", 1)[0]
