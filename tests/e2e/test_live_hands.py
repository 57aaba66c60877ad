"""Live private hands: each player's hand message follows the game by itself, so a whole game
is played with one click per card and nobody ever presses Refresh."""

from __future__ import annotations

import re
from collections import defaultdict

from tests.e2e.conftest import World
from tests.e2e.driver import CARD_RE, Driver, Seated, button, eventually, table_message
from tests.e2e.flows import four_player_game
from tests.fakediscord import BotProcess, FakeDiscord, Message, Response, User

SEAT_OF_TITLE = re.compile(r"Your hand — (North|East|South|West)")
HAND_OF_FOOTER = re.compile(r"Hand (\d+) ·")
SEAT_LETTER = {"North": "N", "East": "E", "South": "S", "West": "W"}


def reminders_for(fake: FakeDiscord, world: World, user: User) -> list[Message]:
    return [
        m
        for m in fake.messages(world.channel, include_deleted=True)
        if f"<@{user.id}>" in m.content and "your turn" in m.content
    ]


async def open_hands(driver: Driver) -> dict[int, Message]:
    """Each player presses **My hand** once; the message they get is theirs from then on."""
    out = {}
    for p in driver.players:
        r = await driver.open_hand(p)
        assert r.message is not None
        out[p.user.id] = r.message
    return out


async def play_on_live_messages(
    driver: Driver,
    hands: dict[int, Message],
    *,
    max_actions: int = 3000,
) -> dict[str, int]:
    """Play until game over, each player acting only on the buttons of their own hand message
    as the bot left it.  Returns counts: actions, and how many of them were offered by a live
    edit (rather than by the answer to the player's own previous click)."""
    fake = driver.fake
    counts = {"actions": 0, "live": 0}
    ready: list[Seated] = []

    def someone_can_act() -> bool:
        ready[:] = [p for p in driver.players if driver.can_act(hands[p.user.id])]
        return bool(ready) or driver.over()

    while counts["actions"] < max_actions:
        await eventually(someone_can_act, timeout=20)
        if not ready:
            return counts
        assert len(ready) == 1, "only the player on turn is offered actions"
        p = ready[0]
        msg = hands[p.user.id]
        counts["live"] += int(any(e.state is msg.state for e in fake.webhook_edits))
        out = await driver.act(p, msg)
        shown = out.message if isinstance(out, Response) else out
        assert shown is msg, "a click on the hand message updates that same message"
        counts["actions"] += 1
    raise AssertionError(f"the game did not end within {max_actions} actions")


def assert_live_edits_are_private(fake: FakeDiscord, seats: dict[int, str]) -> None:
    """Every live edit went to a message of the player whose token made it, showing that
    player's own seat; and within one hand no two players were shown a common card."""
    assert fake.webhook_edits, "the bot edited hand messages"
    cards: dict[int, dict[int, set[str]]] = defaultdict(lambda: defaultdict(set))
    for edit in fake.webhook_edits:
        owner = edit.interaction.user.id
        assert edit.message.visible_to == owner, "a live edit went to someone else's message"
        state = edit.state
        title = SEAT_OF_TITLE.search(state.text)
        assert title, state.text
        assert title.group(1) == seats[owner]
        letter = SEAT_LETTER[seats[owner]]
        for cid in state.custom_ids:
            if cid and cid.startswith("spades:t:") and len(cid.split(":")) > 5:
                assert cid.split(":")[4] == letter, cid
        hand = HAND_OF_FOOTER.search(state.text)
        assert hand, state.text
        description = state.embeds[0].get("description", "") if state.embeds else ""
        cards[int(hand.group(1))][owner] |= set(CARD_RE.findall(description))
    for number, by_player in cards.items():
        players = list(by_player)
        for i, a in enumerate(players):
            for b in players[i + 1 :]:
                common = by_player[a] & by_player[b]
                assert not common, f"hand {number}: {common} shown to two players"


def seats_of(driver: Driver, world: World) -> dict[int, str]:
    return {p.user.id: ("North", "East", "South", "West")[i] for i, p in enumerate(driver.players)}


async def test_a_whole_game_with_one_click_per_action_and_no_refresh(
    world: World, bot: BotProcess
) -> None:
    fake = world.fake
    driver = await four_player_game(world, preset="standard", target=100)
    hands = await open_hands(driver)
    counts = await play_on_live_messages(driver, hands)

    assert "🏆" in table_message(fake, world.channel).text
    assert counts["actions"] >= 56, "at least a whole hand was played"
    assert counts["live"] >= counts["actions"] // 2, counts
    refreshes = [i for i in fake.interactions.values() if ":refresh:" in i.name]
    assert refreshes == [], "nobody pressed Refresh"
    hand_presses = [i for i in fake.interactions.values() if i.name.endswith(":hand")]
    assert len(hand_presses) == 4, "each player pressed My hand once, at the start"
    for msg in hands.values():
        await eventually(lambda m=msg: "The game is over" in m.text or "🏆" in m.text)
        assert not msg.all_components, "a finished game's hand has no buttons"
    assert_live_edits_are_private(fake, seats_of(driver, world))
    assert fake.ratelimiter.hits_429 == 0


async def test_a_player_whose_hand_expired_is_reminded_once_and_recovers_with_my_hand(
    world: World, bot: BotProcess
) -> None:
    fake = world.fake
    driver = await four_player_game(world, preset="standard", target=100)
    hands = await open_hands(driver)
    bob = driver.players[1]

    async def act_once(who: list[Seated]) -> Seated:
        """The next of ``who`` to be offered an action acts on their live message."""
        ready: list[Seated] = []

        def offered() -> bool:
            ready[:] = [p for p in who if driver.can_act(hands[p.user.id])]
            return bool(ready)

        await eventually(offered, timeout=20)
        await driver.act(ready[0], hands[ready[0].user.id])
        return ready[0]

    while await act_once(driver.players) is not bob:
        pass
    # Bob has just played; now his hand message is more than 15 minutes old, and Discord
    # refuses to edit it.
    assert fake.age_tokens(bob.user, 16 * 60) >= 1
    old_message = hands[bob.user.id]
    earlier = {m.id for m in reminders_for(fake, world, bob.user)}

    def new_reminders() -> list[Message]:
        return [m for m in reminders_for(fake, world, bob.user) if m.id not in earlier]

    others = [p for p in driver.players if p is not bob]
    while not new_reminders():
        if any(driver.can_act(hands[p.user.id]) for p in others):
            await act_once(others)
            continue
        await eventually(
            lambda: new_reminders() or any(driver.can_act(hands[p.user.id]) for p in others),
            timeout=20,
        )
    assert fake.expired_token_refusals >= 1, "the bot tried the old message and was refused"
    assert not driver.can_act(old_message), "the old message was never updated"
    [reminder] = new_reminders()
    assert "My hand" in reminder.content
    table = table_message(fake, world.channel)
    inter = await fake.click(bob.user, table, button(table, "hand").custom_id)
    r = await inter.response()
    assert r.ephemeral
    assert driver.can_act(r), r.text
    assert r.message is not None
    hands[bob.user.id] = r.message

    counts = await play_on_live_messages(driver, hands)
    assert counts["actions"] > 0
    assert "🏆" in table_message(fake, world.channel).text
    assert new_reminders() == [reminder], "reminded once: his new message was live again"
    assert reminder.deleted, "the reminder is removed once its turn has passed"
    assert_live_edits_are_private(fake, seats_of(driver, world))
    # Dropped silently: the refused edit is no logged failure (the player saw only the reminder).
    assert "Traceback" not in bot.output
    assert "live edit of a hand" not in bot.output


async def test_a_player_who_keeps_playing_has_a_fresh_token_all_game(
    world: World, bot: BotProcess
) -> None:
    """Each click on the hand message hands the bot a new token for it, and live edits use the
    newest: over a game far longer than one token's 15 minutes (every token is made 5 minutes
    older after every four actions: 75 minutes here), no edit is refused and nobody has to be
    reminded."""
    fake = world.fake
    driver = await four_player_game(world, preset="standard", target=100)
    hands = await open_hands(driver)
    first_tokens = [i for i in fake.interactions.values() if i.name.endswith(":hand")]
    assert len(first_tokens) == 4
    # (the first bidder may have been reminded at the start, before pressing My hand)
    before = {m.id for p in driver.players for m in reminders_for(fake, world, p.user)}
    actions = 0
    ready: list[Seated] = []

    def offered() -> bool:
        ready[:] = [p for p in driver.players if driver.can_act(hands[p.user.id])]
        return bool(ready)

    while actions < 60:  # the whole first hand (4 bids, 52 cards) and into the second
        await eventually(offered, timeout=20)
        assert len(ready) == 1
        await driver.act(ready[0], hands[ready[0].user.id])
        actions += 1
        if actions % 4 == 0:
            for p in driver.players:
                fake.age_tokens(p.user, 5 * 60)
    await eventually(offered)  # the new deal's edits went out with the latest tokens
    assert all(i.token_age > fake.token_lifetime for i in first_tokens), "outlived the first"
    assert fake.expired_token_refusals == 0, "every live edit used a token still valid"
    reminded = [m for p in driver.players for m in reminders_for(fake, world, p.user)]
    assert [m.content for m in reminded if m.id not in before] == [], "nobody was reminded"
    assert len(fake.webhook_edits) >= actions // 2, "the hands were edited live throughout"
