"""Every refusal explains itself in an ephemeral reply and changes nothing.

"Nothing changed" is checked on the table message (same text, not edited again once it had
settled) and on every seated player's own hand message (same cards, same trick, same turn,
same buttons), read before and after the refused action.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

import pytest
import pytest_asyncio

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
from tests.e2e.flows import (
    Shared,
    act_until,
    answer,
    fresh_world,
    open_table,
    quick_game,
    shared_bot,
    solo_game,
)
from tests.fakediscord import CommandNotAvailable, Message, Response, User
from tests.fakediscord.handles import APPLICATION_COMMAND, CHANNEL_MESSAGE, UPDATE_MESSAGE

# One bot process for the module; every test has its own channel and members.
pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Shared]:
    async with shared_bot(tmp_path_factory.mktemp("refusals")) as s:
        yield s


@pytest.fixture
def world(shared: Shared) -> World:
    return fresh_world(shared)


# ---------------------------------------------------------------------- helpers
@dataclass(frozen=True)
class State:
    table_text: str
    hands: tuple[str, ...]


async def shows(driver_or_world: Driver | World, predicate: Callable[[str], bool]) -> str:
    """The table message's text once ``predicate`` holds for it: the bot edits it at most
    once a second (later on a busy machine), so wait for the state the test caused to be
    shown rather than for a time."""
    fake, channel = driver_or_world.fake, driver_or_world.channel
    await eventually(lambda: predicate(table_message(fake, channel).text), timeout=30)
    return table_message(fake, channel).text


async def state(driver: Driver, *, settle: bool = True) -> State:
    """Every player's own hand message refreshed now, and the table message once it shows
    the seat whose turn the hands say it is (``settle``).  After a refusal (``settle=False``)
    the table message is read after a short pause: a change would have been published."""
    hands = tuple([await driver.refresh(p) for p in driver.players])
    if settle:
        acting = [seat_word(h) for h in hands if driver.can_act(h)]
        assert len(acting) == 1, acting  # four people play: one of them is on turn
        text = await shows(driver, lambda t: f"▶ {acting[0]}" in t)
    else:
        await asyncio.sleep(0.3)
        text = table_message(driver.fake, driver.channel).text
    return State(text, tuple(h.text for h in hands))


async def lobby_state(world: World, *seated: User) -> str:
    """The lobby's table message once it shows the host and everyone in ``seated``."""
    names = [u.name for u in (world.users[0], *seated)]
    return await shows(world, lambda t: all(n in t for n in names))


async def lobby_unchanged(world: World, before: str) -> None:
    await asyncio.sleep(0.3)
    assert table_message(world.fake, world.channel).text == before


def refused(r: Response | Message, *parts: str) -> None:
    """An ephemeral (flag 64) reply that says ``parts`` (a message when the bot deferred a
    slow answer and completed it with a follow-up)."""
    assert r.ephemeral, f"not ephemeral: {r!r}"
    assert isinstance(r, Message) or r.type in (CHANNEL_MESSAGE, UPDATE_MESSAGE), r
    for part in parts:
        assert part in r.text, f"{part!r} not in {r.text!r}"


def cards_of(hand: Response | Message) -> list[str]:
    return CARD_RE.findall(hand.embeds[0].get("description", ""))


def play_labels(hand: Response | Message) -> list[str]:
    return [str(c.label) for c in hand.all_components if c.custom_id and ":play:" in c.custom_id]


def suit_of(label: str) -> str:
    return label[-1]


def trick_cards(hand: Response | Message) -> list[str]:
    m = re.search(r"Trick: (.*)", hand.text)
    return CARD_RE.findall(m.group(1)) if m else []


async def bidding(world: World) -> Driver:
    """Four people at a standard table to 100, bidding."""
    return await quick_game(world, preset="standard", target=100)


async def after_bids(world: World) -> Driver:
    """Four people at a standard table, the four bids made: the first lead is next."""
    driver = await bidding(world)
    for _ in range(4):
        assert await driver.step()
    return driver


async def on_turn(driver: Driver) -> tuple[Seated, list[Seated]]:
    """The one player who can act now, and the three others."""
    acting = [p for p in driver.players if driver.can_act(await driver.refresh(p))]
    assert len(acting) == 1, acting
    return acting[0], [p for p in driver.players if p is not acting[0]]


def seat_word(hand: Response | Message) -> str:
    m = re.search(r"Your hand — (\w+)", hand.text)
    assert m, hand.text
    return m.group(1)


SEAT_WORDS = ("North", "East", "South", "West")


def next_seat(seat: str) -> str:
    """The seat after ``seat``, clockwise (whose turn follows a play that leads a trick)."""
    return SEAT_WORDS[(SEAT_WORDS.index(seat) + 1) % 4]


def new_member(world: World, name: str, **perms: bool) -> User:
    user = world.fake.add_user(name)
    world.guild.add_member(user, **perms)
    return user


# ---------------------------------------------------------------------- out of turn
async def test_play_out_of_turn_is_refused(world: World) -> None:
    driver = await after_bids(world)
    actor, others = await on_turn(driver)
    before = await state(driver)
    other = others[0]
    assert other.hand is not None
    card = cards_of(other.hand)[0]
    r = await answer(world, other.user, "play", card=card)
    assert actor.hand is not None
    refused(r, f"It is {seat_word(actor.hand)}'s turn to play")
    assert await state(driver, settle=False) == before


async def test_bid_out_of_turn_is_refused(world: World) -> None:
    driver = await bidding(world)
    actor, others = await on_turn(driver)
    assert actor.hand is not None
    assert has(actor.hand, "bid")
    before = await state(driver)
    r = await answer(world, others[1].user, "bid", bid="3")
    refused(r, f"It is {seat_word(actor.hand)}'s turn to bid")
    assert await state(driver, settle=False) == before


async def test_play_during_bidding_is_refused(world: World) -> None:
    driver = await bidding(world)
    actor, _ = await on_turn(driver)
    assert actor.hand is not None
    before = await state(driver)
    r = await answer(world, actor.user, "play", card=cards_of(actor.hand)[0])
    refused(r, "Bidding is not over yet")
    assert await state(driver, settle=False) == before


async def test_card_click_out_of_turn_is_refused(world: World) -> None:
    driver = await after_bids(world)
    actor, _ = await on_turn(driver)
    # The player on turn has a second hand message open (``/hand`` again) with its card
    # buttons; they play from the first one, then click a card on the second.
    spare = await answer(world, actor.user, "hand")
    assert len(play_labels(spare)) >= 2
    assert actor.hand is not None
    played = await driver.act(actor, actor.hand)
    assert "You played" in played.text
    assert "Not your turn" in played.text
    after_play = next_seat(seat_word(played))
    before = await state(driver)
    card = next(c for c in spare.all_components if c.custom_id and ":play:" in c.custom_id)
    assert card.label in cards_of(played), "a card the player still holds"
    r = await (await world.fake.click(actor.user, spare, card.custom_id)).response()
    refused(r, "⚠", f"It is {after_play}'s turn to play")
    assert r.type == UPDATE_MESSAGE, "the second hand message is brought up to date"
    assert not play_labels(r), "no card buttons while it is not their turn"
    assert await state(driver, settle=False) == before


# ---------------------------------------------------------------------- rules of play
async def test_not_following_the_suit_led_is_refused(world: World) -> None:
    driver = await after_bids(world)

    def can_revoke(r: Response | Message) -> bool:
        illegal = set(cards_of(r)) - set(play_labels(r))
        return bool(play_labels(r)) and bool(trick_cards(r)) and bool(illegal)

    r = await act_until(driver, can_revoke, max_steps=400)
    actor = next(p for p in driver.players if p.hand is r)
    led = suit_of(trick_cards(r)[0])
    assert all(suit_of(c) == led for c in play_labels(r)), "only the suit led is offered"
    off_suit = next(c for c in cards_of(r) if c not in play_labels(r))
    before = await state(driver)
    reply = await answer(world, actor.user, "play", card=off_suit)
    refused(reply, f"You must follow {led}")
    assert await state(driver, settle=False) == before


async def test_leading_a_spade_before_spades_are_broken_is_refused(world: World) -> None:
    driver = await after_bids(world)

    def can_lead_spade(r: Response | Message) -> bool:
        held = [c for c in cards_of(r) if suit_of(c) == "♠"]
        return (
            bool(play_labels(r))
            and not trick_cards(r)
            and bool(held)
            and not any(suit_of(c) == "♠" for c in play_labels(r))
        )

    r = await act_until(driver, can_lead_spade, max_steps=400)
    assert "spades broken" not in table_message(world.fake, world.channel).text
    actor = next(p for p in driver.players if p.hand is r)
    spade = next(c for c in cards_of(r) if suit_of(c) == "♠")
    before = await state(driver)
    reply = await answer(world, actor.user, "play", card=spade)
    refused(reply, "Spades are not broken yet")
    assert await state(driver, settle=False) == before


# ---------------------------------------------------------------------- who and where
async def test_hand_by_a_member_not_seated_is_refused(world: World) -> None:
    driver = await solo_game(world)
    eve = new_member(world, "eve")
    before = await state(driver)
    r = await answer(world, eve, "hand")
    refused(r, "You are not seated at a table in this server")
    assert not r.embeds
    assert not CARD_RE.search(r.text)
    assert await state(driver, settle=False) == before


async def test_play_by_a_member_not_seated_is_refused(world: World) -> None:
    driver = await solo_game(world)
    eve = new_member(world, "eve")
    before = await state(driver)
    r = await answer(world, eve, "play", card="AS")
    refused(r, "You are not seated at a table in this server")
    assert await state(driver, settle=False) == before


async def test_my_hand_clicked_by_a_member_not_seated_is_refused(world: World) -> None:
    driver = await solo_game(world)
    eve = new_member(world, "eve")
    before = await state(driver)
    msg = table_message(world.fake, world.channel)
    r = await (await world.fake.click(eve, msg, button(msg, "hand").custom_id)).response()
    refused(r, "You are not seated at this table")
    assert not r.embeds, "no cards are shown"
    assert not CARD_RE.search(r.text)
    assert await state(driver, settle=False) == before


async def test_join_where_there_is_no_table_is_refused(world: World) -> None:
    await open_table(world, preset="standard")
    other = world.guild.add_text_channel("elsewhere")
    before = await lobby_state(world)
    r = await answer(world, world.users[1], "spades", "join", channel=other)
    refused(r, "There is no table in this channel", "/spades new")
    assert not world.fake.messages(other)
    await lobby_unchanged(world, before)
    r = await answer(world, world.users[1], "hand")
    assert "not seated" in r.text, "the join did not seat anyone anywhere"


async def test_new_table_while_seated_at_another_is_refused(world: World) -> None:
    await open_table(world, preset="standard")
    other = world.guild.add_text_channel("elsewhere")
    before = await lobby_state(world)
    r = await answer(world, world.users[0], "spades", "new", channel=other)
    refused(r, "You are already seated at a table in", world.channel.mention)
    assert not world.fake.messages(other), "no table was opened"
    await lobby_unchanged(world, before)


async def test_second_table_in_a_channel_is_refused(world: World) -> None:
    await open_table(world, preset="standard")
    before = await lobby_state(world)
    count = len(world.fake.messages(world.channel))
    r = await answer(world, world.users[1], "spades", "new")
    refused(r, "This channel already has a table", "thread")
    assert len(world.fake.messages(world.channel)) == count
    await lobby_unchanged(world, before)
    r = await answer(world, world.users[1], "hand")
    assert "not seated" in r.text


# ---------------------------------------------------------------------- bad input
async def test_unknown_card_text_is_refused(world: World) -> None:
    driver = await after_bids(world)
    actor, _ = await on_turn(driver)
    before = await state(driver)
    r = await answer(world, actor.user, "play", card="xyz")
    refused(r, "I don't know the card `xyz`")
    assert await state(driver, settle=False) == before


async def test_bid_out_of_range_is_refused(world: World) -> None:
    driver = await bidding(world)
    actor, _ = await on_turn(driver)
    before = await state(driver)
    r = await answer(world, actor.user, "bid", bid="14")
    refused(r, "`14` is not a bid", "1 to 13")
    assert await state(driver, settle=False) == before


async def test_blind_nil_when_not_trailing_is_refused(world: World) -> None:
    driver = await bidding(world)
    actor, _ = await on_turn(driver)
    assert actor.hand is not None
    assert not has(actor.hand, "blind")
    before = await state(driver)
    r = await answer(world, actor.user, "bid", bid="blind nil")
    refused(r, "Blind nil needs your team at least 100 points behind")
    assert await state(driver, settle=False) == before


async def test_commands_in_direct_messages_are_refused(world: World) -> None:
    fake, alice = world.fake, world.users[0]
    # Discord does not even offer the commands in a DM: they are registered guild-only.
    for path in (("hand",), ("bid",), ("play",), ("spades", "new")):
        cmd = fake.command(path[0])
        assert cmd is not None
        assert cmd.get("contexts") in ([0], None)
        assert cmd.get("dm_permission") is False
        with pytest.raises(CommandNotAvailable):
            await fake.slash(alice, None, *path, **({"bid": "2"} if path == ("bid",) else {}))
    # Should one arrive anyway (an old client, a cached command), the bot refuses it clearly.
    dm = fake.dm_channel(alice)
    for name in ("hand", "spades"):
        cmd = fake.command(name)
        assert cmd is not None
        data: dict[str, object] = {"id": cmd["id"], "name": name, "type": 1}
        if name == "spades":
            data["options"] = [{"name": "new", "type": 1, "options": []}]
        inter = fake._new_interaction(APPLICATION_COMMAND, alice, dm, data, "/" + name)
        r = await inter.response()
        refused(r, "server channel, not in direct messages")
    assert not any(m.embeds for m in fake.messages(world.channel)), "no table anywhere"


# ---------------------------------------------------------------------- host only
@pytest.mark.parametrize(
    ("path", "options", "expected"),
    [
        (("spades", "start"), {}, "Only the host (alice) can start the game."),
        (
            ("spades", "rule"),
            {"name": "target", "value": "300"},
            "Only the host (alice) can change the rules.",
        ),
        (("spades", "bot"), {}, "Only the host (alice) can add computer players."),
    ],
    ids=["start", "rule", "bot"],
)
async def test_host_only_commands_by_a_guest_are_refused(
    world: World,
    path: tuple[str, ...],
    options: dict[str, str],
    expected: str,
) -> None:
    await open_table(world, preset="standard", target=100)
    bob = world.users[1]
    r = await answer(world, bob, "spades", "join")
    assert "You sit" in r.text
    before = await lobby_state(world, bob)
    r = await answer(world, bob, *path, **options)
    refused(r, expected)
    await lobby_unchanged(world, before)
    assert "to 100" in before
    assert "Waiting for players" in before


async def test_abandon_by_a_guest_is_refused(world: World) -> None:
    await open_table(world, preset="standard")
    bob = world.users[1]
    assert "You sit" in (await answer(world, bob, "spades", "join")).text
    before = await lobby_state(world, bob)
    r = await answer(world, bob, "spades", "abandon")
    refused(r, "Only the host (alice) or a member with Manage Server can abandon the table.")
    await lobby_unchanged(world, before)


async def test_abandon_by_a_member_with_manage_server_works(world: World) -> None:
    driver = await quick_game(world, humans=2, preset="standard")
    mod = new_member(world, "mod", manage_guild=True)
    r = await answer(world, mod, "spades", "abandon")
    assert r.ephemeral
    assert "The table is closed." in r.text
    await world.fake.wait_for_message(world.channel, lambda m: "This table was closed" in m.text)
    await world.fake.wait_for_edit(
        driver.table(), lambda m: "abandoned" in m.text and not m.buttons
    )
    for user in world.users[:2]:
        r = await answer(world, user, "hand")
        assert "not seated" in r.text, "the players are free again"
    r = await answer(world, world.users[0], "spades", "join")
    assert "There is no table in this channel" in r.text


async def test_abandoning_a_lobby_updates_its_table_message(world: World) -> None:
    fake = world.fake
    await open_table(world, preset="standard")
    mod = new_member(world, "mod", manage_guild=True)
    r = await answer(world, mod, "spades", "abandon")
    assert "The table is closed." in r.text
    msg = table_message(fake, world.channel)
    await fake.wait_for_message(world.channel, lambda m: "This table was closed" in m.text)
    await fake.wait_for_edit(msg, lambda m: not m.buttons)


# ---------------------------------------------------------------------- buttons
async def test_another_players_hand_buttons_are_refused(world: World) -> None:
    driver = await after_bids(world)
    actor, others = await on_turn(driver)
    before = await state(driver)
    hand = actor.hand
    assert hand is not None
    cards = cards_of(hand)
    card = next(c for c in hand.all_components if c.custom_id and ":play:" in c.custom_id)
    intruder = others[0]
    seen = set(CARD_RE.findall(plain(world.fake.all_visible_text(intruder.user))))
    r = await (await world.fake.click(intruder.user, hand, card.custom_id, force=True)).response()
    refused(r, f"These buttons are {actor.user.name}'s ({seat_word(hand)})", "/hand")
    assert r.type == CHANNEL_MESSAGE, "a new private reply, the owner's message is untouched"
    assert not CARD_RE.search(r.text), "no card is revealed"
    assert not r.embeds
    assert not r.all_components
    now_seen = set(CARD_RE.findall(plain(world.fake.all_visible_text(intruder.user))))
    assert now_seen == seen, "the intruder can read no card they could not read before"
    assert cards_of(hand) == cards, "the owner's hand message is untouched"
    assert await state(driver, settle=False) == before


async def test_a_button_from_an_earlier_hand_is_refused(world: World) -> None:
    fake = world.fake
    driver = await solo_game(world, preset="standard", target=500)
    alice = driver.players[0]
    await act_until(driver, lambda r: bool(play_labels(r)))
    # A second hand message, opened during hand 1 with its card buttons, left alone.
    old = await answer(world, alice.user, "hand")
    old_cards = play_labels(old)
    assert old_cards
    assert "Hand 1 ·" in old.text
    # Play hand 1 out; stop when it is Alice's turn in hand 2 (the table then waits for her).
    r = await act_until(driver, lambda r: "Hand 2 ·" in r.text and driver.can_act(r))
    if has(r, "look"):  # her team trails by 100+: blind nil is offered first; she looks
        r = await (await fake.click(alice.user, r, button(r, "look").custom_id)).response()
        alice.hand = r
    assert has(r, "bid")
    await fake.wait_for_message(world.channel, lambda m: "Hand 1 — scores" in m.text)
    before = await state(driver)
    stale = next(c for c in old.all_components if c.custom_id and ":play:" in c.custom_id)
    reply = await (await fake.click(alice.user, old, stale.custom_id)).response()
    refused(reply, "earlier hand")
    assert reply.type == UPDATE_MESSAGE, "the old message is replaced by the current hand"
    assert "Hand 2 ·" in reply.text
    assert len(cards_of(reply)) == 13, "no card was played"
    assert not play_labels(reply), "bidding, not playing, in hand 2"
    assert await state(driver, settle=False) == before


# ---------------------------------------------------------------------- permissions
@pytest.mark.parametrize(
    ("perm", "name"),
    [("send_messages", "Send Messages"), ("embed_links", "Embed Links")],
)
async def test_new_table_without_channel_permissions_is_refused(
    world: World, perm: str, name: str
) -> None:
    world.channel.deny_bot(perm)
    r = await answer(world, world.users[0], "spades", "new")
    refused(r, "I need these permissions in this channel", name)
    await asyncio.sleep(0.3)
    assert not world.fake.messages(world.channel), "nothing was posted"
    r = await answer(world, world.users[0], "hand")
    assert "not seated" in r.text, "no table was opened"


async def test_seats_are_unchanged_by_refusals_in_the_lobby(world: World) -> None:
    """A join of a taken seat and a second join are refused; the seats shown stay the same."""
    await open_table(world, preset="standard")
    for user, seat in zip(world.users[1:], ("E", "S", "W"), strict=True):
        assert "You sit" in (await answer(world, user, "spades", "join", seat=seat)).text
    before = await lobby_state(world, *world.users[1:])
    bob = world.users[1]
    r = await answer(world, bob, "spades", "join", seat="N")
    refused(r, "North is taken by alice")
    r = await answer(world, bob, "spades", "join")
    refused(r, "You are already seated (East)")
    await lobby_unchanged(world, before)


async def test_table_repost_without_channel_permissions_is_refused(world: World) -> None:
    await open_table(world, preset="standard")
    before = await lobby_state(world)
    count = len(world.fake.messages(world.channel))
    world.channel.deny_bot("embed_links")
    r = await answer(world, world.users[1], "spades", "table")
    refused(r, "I need these permissions in this channel", "Embed Links")
    assert "went wrong" not in r.text
    assert len(world.fake.messages(world.channel)) == count, "nothing was posted"
    await lobby_unchanged(world, before)
