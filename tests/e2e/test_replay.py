"""Shared replay through the real bot: after a game, a player's review offers **Share as
replay**, which posts the game in a thread; the message steps trick by trick with Previous /
Next for the member who posted it, and refuses anyone else's click."""

from __future__ import annotations

import asyncio
import re

from tests.e2e.conftest import World
from tests.e2e.flows import quick_game
from tests.e2e.test_review import review_id
from tests.fakediscord import Message, Response, run_bot

STEP = re.compile(r"Step (\d+) of (\d+)")


def labelled(message: Message | Response, label: str) -> str:
    found = next(c for c in message.all_components if c.label == label)
    assert found.custom_id is not None
    return found.custom_id


async def test_a_player_shares_the_replay_and_steps_it_alone(world: World) -> None:
    fake, (alice, bob) = world.fake, world.users[:2]
    env = world.env(REVIEW_CPU_BUDGET="6", SPADES_BOT_DELAY="0")
    async with run_bot(fake, env=env) as proc:
        driver = await quick_game(world, humans=1, preset="standard", target=100)
        me = driver.players[0]
        for _ in range(4000):
            if driver.over():
                break
            hand = await driver.refresh(me)
            if driver.can_act(hand):
                await driver.act(me, hand)
            else:
                await asyncio.sleep(0.02)
        over = await fake.wait_for_message(world.channel, lambda m: "Game over" in m.text)
        opened = await (await fake.click(alice, over, review_id(over))).response()
        review = opened.message
        assert review is not None
        await fake.wait_for_edit(review, lambda m: "Page 1 of" in m.text, timeout=240)
        assert any(c.label == "Share as replay" for c in review.all_components)
        # Bob did not play: his review has no Share button.
        his = await (await fake.click(bob, over, review_id(over))).response()
        assert "Page 1 of" in his.text
        assert not any(c.label == "Share as replay" for c in his.all_components)

        shared = await (
            await fake.click(alice, review, labelled(review, "Share as replay"))
        ).answer()
        assert shared.ephemeral
        assert "Your replay is posted" in shared.text, shared.text
        [thread] = fake.threads(world.channel)
        assert thread.name.startswith("Replay of game #")
        post = await fake.wait_for_message(thread, lambda m: "Replay of game" in m.text)
        assert post.visible_to is None, "the replay is public"
        assert f"<@{alice.id}>" in post.content
        first = STEP.search(post.text)
        assert first is not None
        assert first.group(1) == "1"
        total = int(first.group(2))
        assert "the deal" in post.text
        assert "North — alice (as dealt)" in post.text

        refused = await (await fake.click(bob, post, labelled(post, "Next ▶"))).response()
        assert refused.ephemeral
        assert "Only" in refused.text
        assert STEP.search(post.text).group(1) == "1"  # type: ignore[union-attr]

        tricks = []
        for number in range(2, total + 1):
            r = await (await fake.click(alice, post, labelled(post, "Next ▶"))).response()
            assert r.message is post
            assert STEP.search(post.text).group(1) == str(number)  # type: ignore[union-attr]
            trick = re.search(r"hand (\d+) of \d+, (?:trick (\d+) of 13|the deal)", post.text)
            assert trick is not None
            tricks.append((int(trick.group(1)), int(trick.group(2) or 0)))
        expected = [(h, t) for h in range(1, tricks[-1][0] + 1) for t in range(14)][1:]
        assert tricks == expected, "every trick of every hand in order"
        back = await (await fake.click(alice, post, labelled(post, "◀ Previous"))).response()
        assert STEP.search(back.text).group(1) == str(total - 1)  # type: ignore[union-attr]
        assert "Traceback" not in proc.output


async def test_sharing_replays_into_a_thread_has_a_cooldown_that_says_when(world: World) -> None:
    """A replay shared from a thread is posted in that thread (no new thread is counted):
    three shares in ten minutes per member, then a refusal naming when to try again."""
    fake, alice = world.fake, world.users[0]
    hall = world.guild.add_thread(world.channel, "hall", alice)
    here = World(fake, world.guild, hall, world.users, world.db_path)
    env = world.env(REVIEW_CPU_BUDGET="6", SPADES_BOT_DELAY="0")
    async with run_bot(fake, env=env):
        driver = await quick_game(here, humans=1, preset="standard", target=100)
        me = driver.players[0]
        while not driver.over():
            hand = await driver.refresh(me)
            if driver.can_act(hand):
                await driver.act(me, hand)
            else:
                await asyncio.sleep(0.02)
        over = await fake.wait_for_message(hall, lambda m: "Game over" in m.text)
        review = (await (await fake.click(alice, over, review_id(over))).response()).message
        assert review is not None
        await fake.wait_for_edit(review, lambda m: "Page 1 of" in m.text, timeout=240)
        share = labelled(review, "Share as replay")
        with fake.snowflakes.held():  # within ten minutes on Discord's clock
            began = fake.snowflakes.now()
            for _ in range(3):
                shared = await (await fake.click(alice, review, share)).answer()
                assert "Your replay is posted" in shared.text, shared.text
            refused = await (await fake.click(alice, review, share)).answer()
        assert refused.text.startswith(
            "You have shared three replays in the last 10 minutes. Try again <t:"
        ), refused.text
        when = int(re.findall(r"<t:(\d+):R>", refused.text)[-1])
        assert began + 600 <= when <= began + 602
        posts = [m for m in fake.messages(hall) if "Replay of game" in m.text]
        assert len(posts) == 3, "the refused share posted nothing"
        assert fake.threads(world.channel) == [hall], "shared in the thread, no new one"
