"""What the refusal tests read and check: a refused reply, the cards and buttons of a hand
message, and "nothing changed".

"Nothing changed" compares what everyone sees before and after the refused action: every
seated player's own hand message (refreshed, so the bot answers after the refusal) and the
table message.  The table message is read through a barrier rather than after a pause: once
the refusal is answered, ``/spades table`` has the bot post the table message again, rendered
from the table as it is now, and the test waits for that post.  A refused action that had
changed the table shows in the repost however slow the machine; a fixed pause could end
before a (coalesced) edit was published.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from tests.e2e.conftest import World
from tests.e2e.driver import CARD_RE, Driver, Seated, eventually, table_message
from tests.e2e.flows import quick_game
from tests.fakediscord import Channel, FakeDiscord, Message, Response, User
from tests.fakediscord.handles import CHANNEL_MESSAGE, UPDATE_MESSAGE

HAND_NO_RE = re.compile(r"Hand \d+ ·")


@dataclass(frozen=True)
class State:
    """The table message's text and every seated player's hand message, as they read them."""

    table_text: str
    hands: tuple[str, ...]


def refused(r: Response | Message, *parts: str) -> None:
    """An ephemeral (flag 64) reply that says ``parts`` (a message when the bot deferred a
    slow answer and completed it with a follow-up)."""
    assert r.ephemeral, f"not ephemeral: {r!r}"
    assert isinstance(r, Message) or r.type in (CHANNEL_MESSAGE, UPDATE_MESSAGE), r
    for part in parts:
        assert part in r.text, f"{part!r} not in {r.text!r}"


# ---------------------------------------------------------------------- the table message
async def shows(driver_or_world: Driver | World, predicate: Callable[[str], bool]) -> str:
    """The table message's text once ``predicate`` holds for it: the bot edits it at most
    once a second (later on a busy machine), so wait for the state the test caused to be
    shown rather than for a time."""
    fake, channel = driver_or_world.fake, driver_or_world.channel
    await eventually(lambda: predicate(table_message(fake, channel).text), timeout=30)
    return table_message(fake, channel).text


async def table_now(fake: FakeDiscord, channel: Channel, user: User) -> str:
    """The barrier: ``user`` asks for the table message again (``/spades table``) after the
    refusal was answered; the bot renders the table as it is now and posts it before it
    answers.  Returns the text of that new table message."""
    posted = len(fake.messages(channel))
    r = await (await fake.slash(user, channel, "spades", "table")).answer()
    assert "Here it is" in r.text, r.text
    assert len(fake.messages(channel)) == posted + 1, "the table message, posted again"
    return table_message(fake, channel).text


async def state(driver: Driver) -> State:
    """Every player's own hand message refreshed now, and the table message once it shows
    the seat whose turn the hands say it is."""
    hands = tuple([await driver.refresh(p) for p in driver.players])
    acting = [h for h in hands if driver.can_act(h)]
    assert len(acting) == 1, acting  # the table waits for one of the people seated
    # the hand's number too: on a busy machine the table message may still show an earlier
    # hand's moment when the same seat was to act (its last edit not yet made)
    hand_no = HAND_NO_RE.search(acting[0].text)
    turn = f"▶ {seat_word(acting[0])}"
    text = await shows(driver, lambda t: turn in t and (hand_no is None or hand_no.group(0) in t))
    return State(text, tuple(h.text for h in hands))


async def state_after_refusal(driver: Driver) -> State:
    """The same reading after a refused action: hands refreshed (the bot answers each after
    the refusal), the table message through the :func:`table_now` barrier."""
    hands = tuple([await driver.refresh(p) for p in driver.players])
    text = await table_now(driver.fake, driver.channel, driver.players[0].user)
    return State(text, tuple(h.text for h in hands))


async def refused_changing_nothing(
    driver: Driver, user: User, command: str, *says: str, **options: str
) -> Response | Message:
    """``user``'s ``/command`` at the driver's table is refused in a reply that says ``says``,
    and nobody sees anything change (read as :func:`state`, then :func:`state_after_refusal`).
    Returns the reply."""
    before = await state(driver)
    r = await (await driver.fake.slash(user, driver.channel, command, **options)).answer()
    refused(r, *says)
    assert await state_after_refusal(driver) == before
    return r


async def lobby_state(world: World, *seated: User) -> str:
    """The lobby's table message once it shows the host and everyone in ``seated``."""
    names = [u.name for u in (world.users[0], *seated)]
    return await shows(world, lambda t: all(n in t for n in names))


async def lobby_unchanged(world: World, before: str) -> None:
    """The lobby reads as ``before`` once the bot has answered the refusal (the barrier of
    :func:`table_now`: the table message is posted again)."""
    assert await table_now(world.fake, world.channel, world.users[0]) == before


# ---------------------------------------------------------------------- hand messages
def cards_of(hand: Response | Message) -> list[str]:
    return CARD_RE.findall(hand.embeds[0].get("description", ""))


def play_labels(hand: Response | Message) -> list[str]:
    return [str(c.label) for c in hand.all_components if c.custom_id and ":play:" in c.custom_id]


def suit_of(label: str) -> str:
    return label[-1]


def trick_cards(hand: Response | Message) -> list[str]:
    m = re.search(r"Trick: (.*)", hand.text)
    return CARD_RE.findall(m.group(1)) if m else []


def seat_word(hand: Response | Message) -> str:
    m = re.search(r"Your hand — (\w+)", hand.text)
    assert m, hand.text
    return m.group(1)


SEAT_WORDS = ("North", "East", "South", "West")


def next_seat(seat: str) -> str:
    """The seat after ``seat``, clockwise (whose turn follows a play that leads a trick)."""
    return SEAT_WORDS[(SEAT_WORDS.index(seat) + 1) % 4]


# ---------------------------------------------------------------------- tables and people
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


def new_member(world: World, name: str, **perms: bool) -> User:
    user = world.fake.add_user(name)
    world.guild.add_member(user, **perms)
    return user
