"""Discord's global rate limit through the fake and the real bot.

Discord allows a bot 50 requests a second with its token; interaction endpoints (callbacks,
the webhook routes of an interaction token) are not counted.  The fake answers the request
over the limit as Discord does (429, ``"global": true``, ``X-RateLimit-Global``,
``X-RateLimit-Scope: global``, ``Retry-After``), discord.py waits and the bot's writes still
arrive; and the bot spaces its requests so that a burst of table messages — bunched behind
discord.py's global lock, the worst case, where every waiting request is let go at once —
arrives within the limit as the fake counts them.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import aiohttp

from tests.e2e.driver import eventually, table_message
from tests.fakediscord import FakeDiscord, RateLimits, run_bot


async def bot_get(fake: FakeDiscord, http: aiohttp.ClientSession) -> tuple[int, Any, Any]:
    """One request with the bot's token, as the bot would make it."""
    headers = {"Authorization": f"Bot {fake.token}"}
    async with http.get(fake.api_base + "/users/@me", headers=headers) as r:
        return r.status, await r.json(), r.headers


async def spend_the_global_limit(fake: FakeDiscord, limit: int) -> tuple[Any, Any]:
    """``limit`` requests with the bot's token let through, then one more: the global limit's
    answer to it (the limit is then spent for a whole window from now)."""
    accepted = 0
    async with aiohttp.ClientSession() as http:
        for _ in range(200):
            status, body, headers = await bot_get(fake, http)
            if status == 200:
                accepted += 1
            elif status == 429 and accepted >= limit:
                return body, headers
            elif status == 429:  # the bot's own requests spent it: wait for the window
                await asyncio.sleep(body["retry_after"])
            else:
                raise AssertionError(body)
    raise AssertionError("the global limit never refused a request")


async def test_the_global_limit_answers_429_as_discord_does_and_the_bot_recovers(
    tmp_path: Path,
) -> None:
    # Three requests in five seconds (Discord: 50 in one), so that the bot runs into it
    # whatever the machine's speed; the answers are Discord's.
    limit = RateLimits(global_limit=3, global_window=5.0)
    async with FakeDiscord(rate_limits=limit) as fake:
        guild = fake.add_guild("Spades Club")
        channel = guild.add_text_channel("spades")
        alice = fake.add_user("alice")
        guild.add_member(alice)
        env = {"DATABASE_PATH": str(tmp_path / "spades.db"), "LOG_LEVEL": "INFO"}
        async with run_bot(fake, env=env, timeout=120) as bot:
            body, headers = await spend_the_global_limit(fake, 3)
            assert body["global"] is True
            assert body["message"] == "You are being rate limited."
            assert 0 < body["retry_after"] <= 5.0
            assert headers["X-RateLimit-Global"] == "true"
            assert headers["X-RateLimit-Scope"] == "global"
            assert int(headers["Retry-After"]) >= 1
            assert "X-RateLimit-Bucket" not in headers  # no route's bucket: the bot's whole limit

            # The limit is spent: the bot's table message (a bot-token request) is refused and
            # retried by discord.py once the limit allows; the player's command (an
            # interaction endpoint) is answered at once all the same.
            refused = fake.ratelimiter.refused["global"]
            opened = await fake.slash(alice, channel, "spades", "new")
            assert (await opened.response()).deferred
            await eventually(lambda: table_message(fake, channel), timeout=60)
            followup = await opened.wait_followup(timeout=60)
            assert "Table opened" in followup.text, followup.text
            assert fake.ratelimiter.refused["global"] > refused, "the bot ran into the limit"
            assert "Global rate limit has been hit" in bot.output  # discord.py waited
            assert "Traceback" not in bot.output
    peaks = fake.ratelimiter.peaks()
    assert set(peaks.refused) == {"global"}, "only the global limit refused anything"


async def test_a_burst_of_table_messages_arrives_within_the_global_limit(
    tmp_path: Path,
) -> None:
    """Sixty tables open at once while discord.py holds every request for a global 429 (as
    it does when another process of the bot spent the limit): the sixty table messages wait
    behind its global lock and are let go together.  Taken from the write budget before that
    wait, they used to reach Discord at once — over 50 in a second, and the global limit
    refused the rest; paced as they are sent (each counted until a second after its answer,
    so the machine's delays cannot bunch them), they arrive within it."""
    tables = 60
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Spades Club")
        hosts = [fake.add_user(f"host{i}") for i in range(tables)]
        channels = [guild.add_text_channel(f"table-{i}") for i in range(tables)]
        for user in hosts:
            guild.add_member(user)
        env = {"DATABASE_PATH": str(tmp_path / "spades.db"), "LOG_LEVEL": "INFO"}
        async with run_bot(fake, env=env, timeout=120) as bot:
            since = time.monotonic()
            fake.inject_429(
                retry_after=4.0, path_contains="/messages", method="POST", is_global=True
            )
            commands = await asyncio.gather(
                *(
                    fake.slash(user, ch, "spades", "new")
                    for user, ch in zip(hosts, channels, strict=True)
                )
            )
            for c in commands:
                assert (await c.response(timeout=60)).deferred
            for ch in channels:
                await eventually(lambda ch=ch: table_message(fake, ch), timeout=120)
            assert "Global rate limit has been hit" in bot.output  # the burst was held
            assert "Traceback" not in bot.output
        peaks = fake.ratelimiter.peaks(since=since)
    assert peaks.bot_1s <= 50, f"{peaks.bot_1s} bot-token requests reached Discord in 1 s"
    assert peaks.refused == {"injected": 1}, "the global limit refused nothing"
    assert peaks.channel_5s <= 5, "one message per channel (and per-route limits kept)"
