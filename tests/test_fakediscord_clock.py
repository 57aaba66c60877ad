"""The fake counts an interaction's 3 seconds as Discord does: the time the fake itself stands
still (its test process collecting garbage, or not scheduled on a busy machine) is not the
bot's."""

from __future__ import annotations

import asyncio
import time

import aiohttp

from tests.fakediscord import FakeDiscord, run_bot
from tests.fakediscord.clock import TICK, DiscordClock
from tests.fakediscord.fixtures import BAREBOT, build_world


async def test_the_clock_stands_still_while_the_loop_does() -> None:
    clock = DiscordClock()
    clock.start()
    try:
        await asyncio.sleep(0)  # the ticker sets its first due time
        before, wall = clock.now(), time.monotonic()
        time.sleep(0.3)  # noqa: ASYNC251 - the loop blocked, as by a long garbage collection
        blocked = clock.now()
        assert time.monotonic() - wall >= 0.3
        assert blocked - before <= TICK + 1e-6
        await asyncio.sleep(2 * TICK)  # the loop runs again: so does the clock
        after = clock.now()
        assert blocked < after
        assert after - blocked <= time.monotonic() - wall  # never faster than real time
    finally:
        await clock.stop()


async def test_an_answer_that_waited_on_a_stalled_fake_is_in_time() -> None:
    async with FakeDiscord() as fake:
        world = build_world(fake)
        async with run_bot(fake, module=BAREBOT):
            inter = await fake.slash(world.alice, world.channel, "ping")
            # The fake stalls past the deadline (blocking its loop); the bot answers meanwhile.
            time.sleep(3.2)  # noqa: ASYNC251
            reply = await inter.response()
            assert reply.content == "pong"
            assert not inter.expired
            assert inter.latency is not None
            assert inter.latency > 3.0
            assert inter.discord_latency is not None
            assert inter.discord_latency < 3.0


async def test_tokens_expire_15_minutes_after_their_interaction_on_discords_clock() -> None:
    """Discord's clock moved ahead (as if nobody had clicked for a while): a token works up to
    15 minutes after its interaction and is refused (401, 50027) on every webhook route after."""
    async with FakeDiscord() as fake:
        world = build_world(fake)
        async with run_bot(fake, module=BAREBOT):
            inter = await fake.slash(world.alice, world.channel, "ping")
            await inter.response()
        url = f"{fake.api_base}/webhooks/{fake.application_id}/{inter.token}"
        async with aiohttp.ClientSession() as http:
            fake.clock.advance(15 * 60 - 5)
            async with http.patch(url + "/messages/@original", json={"content": "mine"}) as r:
                assert r.status == 200
            fake.clock.advance(10)
            for method, path in (("PATCH", "/messages/@original"), ("POST", "")):
                async with http.request(method, url + path, json={"content": "late"}) as r:
                    assert r.status == 401, method
                    assert (await r.json())["code"] == 50027
        assert fake.expired_token_refusals == 2
