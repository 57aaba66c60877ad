"""The post-game review through the real bot: game over → Review → a progress reply that turns
into the review → every hand's page in order; a second request (another member, or from
``/history``) reads the stored analysis at once."""

from __future__ import annotations

import asyncio
import re

from tests.e2e.conftest import World
from tests.e2e.flows import quick_game
from tests.e2e.test_spectators import play_alice_to_the_end
from tests.fakediscord import Message, Response, run_bot

TRICK = re.compile(r"^`\s*(\d+)` ", re.MULTILINE)


def game_over(world: World) -> Message | None:
    return next((m for m in world.fake.messages(world.channel) if "Game over" in m.text), None)


def review_id(message: Message | Response) -> str:
    return next(
        c.custom_id
        for c in message.all_components
        if c.custom_id and c.custom_id.startswith("spades:rv:") and c.custom_id.count(":") == 3
    )


def button(message: Message | Response, label: str) -> str:
    found = next(c for c in message.all_components if c.label == label)
    assert found.custom_id is not None
    return found.custom_id


async def test_game_over_then_review_then_every_page(world: World) -> None:
    fake, users = world.fake, world.users
    env = world.env(REVIEW_CPU_BUDGET="6", SPADES_BOT_DELAY="0")
    async with run_bot(fake, env=env) as proc:
        driver = await quick_game(world, humans=1, preset="standard", target=100)
        alice = driver.players[0]
        for _ in range(4000):
            if driver.over():
                break
            hand = await driver.refresh(alice)
            if driver.can_act(hand):
                await driver.act(alice, hand)
            else:
                await asyncio.sleep(0.02)
        over = await fake.wait_for_message(world.channel, lambda m: "Game over" in m.text)
        opener = review_id(over)
        assert opener.startswith("spades:rv:t:")

        first = await (await fake.click(users[0], over, opener)).response()
        assert first.ephemeral
        message = first.message
        assert message is not None
        if "Page 1 of" not in first.text:
            assert "decisions" in first.text, "a progress reply while the hard player works"
            await fake.wait_for_edit(message, lambda m: "Page 1 of" in m.text, timeout=240)
        await proc.wait_for_line("reviewed game")
        overview = message.text
        assert "Your biggest differences" in overview
        pages = int(re.search(r"Page 1 of (\d+)", overview).group(1))  # type: ignore[union-attr]

        # Page through to the end: every hand, every trick, in order.
        current: Message | Response = message
        hands: list[int] = []
        tricks: dict[int, list[int]] = {}
        for number in range(2, pages + 1):
            current = await (
                await fake.click(users[0], current, button(current, "Next ▶"))
            ).response()
            assert f"Page {number} of {pages}" in current.text
            hand = int(re.search(r"Hand (\d+) of", current.text).group(1))  # type: ignore[union-attr]
            if not hands or hands[-1] != hand:
                hands.append(hand)
            tricks.setdefault(hand, []).extend(int(n) for n in TRICK.findall(current.text))
        assert hands == list(range(1, len(hands) + 1))
        assert len(hands) >= 1
        for hand in hands:
            assert tricks[hand] == list(range(1, 14)), hand

        # Another member asks: the stored analysis, at once (no progress, no new work).
        other = await (await fake.click(users[1], over, opener)).response()
        assert other.ephemeral
        assert "Page 1 of" in other.text
        assert "Your biggest differences" not in other.text, "bob did not play"

        # /history: a Review button per game, reading the same stored analysis.
        hist = await (await fake.slash(users[0], world.channel, "history")).response()
        from_history = next(
            c.custom_id
            for c in hist.all_components
            if c.custom_id and c.custom_id.startswith("spades:rv:g:")
        )
        again = await (await fake.click(users[0], hist, from_history)).response()
        assert again.ephemeral
        assert "Page 1 of" in again.text
        assert proc.output.count("reviewed game") == 1, "analysed once, read twice"


async def test_a_reviews_pages_are_rendered_once_for_its_page_turns(world: World) -> None:
    """A Whist game (reviewed as its replay): the pages are rendered when the review opens and
    each page turn — Next, Previous, the menu, the overview — shows a kept page; another
    reader (other seats: other words) has the pages rendered once for them."""
    fake, users = world.fake, world.users
    async with run_bot(fake, env=world.env()) as proc:
        await play_alice_to_the_end(await quick_game(world, humans=1, preset="whist", target=1))
        over = await fake.wait_for_message(world.channel, lambda m: "Game over" in m.text)
        opened = await (await fake.click(users[0], over, review_id(over))).response()
        assert "Page 1 of" in opened.text, opened.text
        pages = int(re.search(r"Page 1 of (\d+)", opened.text).group(1))  # type: ignore[union-attr]
        assert pages >= 2
        current: Message | Response = opened
        for label, number in (("Next ▶", 2), ("◀ Previous", 1), ("Next ▶", 2), ("Overview", 1)):
            current = await (await fake.click(users[0], current, button(current, label))).response()
            assert f"Page {number} of {pages}" in current.text, current.text
        jump = next(
            c for c in current.all_components if c.custom_id and c.custom_id.endswith(":jump")
        )
        current = await (
            await fake.select(users[0], current, jump.custom_id, [str(pages - 1)])
        ).response()
        assert f"Page {pages} of {pages}" in current.text, current.text
        assert proc.output.count("review pages of game") == 1, "rendered once, turned five times"

        other = await (await fake.click(users[1], over, review_id(over))).response()
        assert "Page 1 of" in other.text
        current = await (await fake.click(users[1], other, button(other, "Next ▶"))).response()
        assert f"Page 2 of {pages}" in current.text
        assert proc.output.count("review pages of game") == 2, "once more, for bob's review"
        assert "Traceback" not in proc.output
