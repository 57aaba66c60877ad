"""The pace of the bot's requests (bot/ui/discord/pace.py): which requests Discord counts against
the bot's global limit; that the pace lets them through one at a time, however they come and however
late a busy loop wakes them; and that no window can hold more than its limit of arrivals, however
late the answers come (on a clock the test moves: counts, no timings)."""

from __future__ import annotations

import asyncio
import itertools
import random

import aiohttp
import pytest

from bot.ui.discord.pace import Pace, counted, pacing_trace
from tests.fakediscord import FakeDiscord, RateLimits, max_in_window

BOT = {"Authorization": "Bot abc.def"}


@pytest.mark.parametrize(
    ("path", "headers", "expected"),
    [
        ("/api/v10/channels/1/messages", BOT, True),
        ("/api/v10/channels/1/messages/2", BOT, True),
        ("/api/v10/applications/1/commands", BOT, True),
        ("/api/v10/webhooks/1", BOT, True),  # a webhook read with the bot's token
        ("/api/v10/interactions/1/tok/callback", BOT, False),
        ("/api/v10/interactions/1/tok/callback", {}, False),
        ("/api/v10/webhooks/1/tok/messages/@original", {}, False),
        ("/api/v10/webhooks/1/tok", BOT, False),  # a follow-up, even with the token sent
        ("/api/v10/channels/1/messages", {}, False),  # no token: not the bot's limit
    ],
)
def test_what_discord_counts_against_the_global_limit(
    path: str, headers: dict[str, str], expected: bool
) -> None:
    assert counted(path, headers) is expected


class Clock:
    """A clock that moves only when told, and a sleep that moves it — ``late`` seconds more
    than asked (a busy loop wakes its sleepers late)."""

    def __init__(self, late: float = 0.0) -> None:
        self.now = 100.0
        self.late = late

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(0)
        self.now += seconds + self.late


@pytest.mark.parametrize("late", [0.0, 0.01, 0.3])
async def test_requests_are_let_through_one_gap_apart_in_their_order(late: float) -> None:
    clock = Clock(late)
    pace = Pace(40, limit=1000, clock=clock, sleep=clock.sleep)
    granted: list[tuple[int, float]] = []

    async def request(i: int) -> None:
        await pace.take()
        granted.append((i, clock.now))

    await asyncio.gather(*(request(i) for i in range(120)))  # all at once
    assert [i for i, _ in granted] == list(range(120)), "first come, first served"
    times = [t for _, t in granted]
    assert all(b - a >= pace.gap - 1e-9 for a, b in itertools.pairwise(times))
    assert max_in_window(times, 1.0) <= 41
    assert pace.taken == 120
    assert pace.waited == 119


async def test_a_request_after_a_quiet_spell_goes_at_once() -> None:
    clock = Clock()
    pace = Pace(40, limit=1000, clock=clock, sleep=clock.sleep)
    await pace.take()
    clock.now += 5.0
    await pace.take()
    assert pace.waited == 0
    with pytest.raises(ValueError, match="positive"):
        Pace(0, limit=45)
    with pytest.raises(ValueError, match="positive"):
        Pace(40, limit=0)


def most_that_could_arrive_in_a_window(spans: list[tuple[float, float]], window: float) -> int:
    """The most requests that could reach Discord within one ``window``: each arrives some
    time after it was let through and before its answer came, so those whose span meets the
    window ``[a, a + window)``, over every ``a`` where that count can change."""
    starts = [a for start, end in spans for a in (start - window + 1e-9, end)]
    return max(sum(1 for s, e in spans if s < a + window and e >= a) for a in starts)


@pytest.mark.parametrize("seed", range(5))
async def test_no_window_holds_more_than_the_limit_however_late_the_answers(seed: int) -> None:
    """Answers that come late (a busy loop reads them late, or Discord is slow) hold the
    requests let through after them: whenever each request really arrived, no second can
    have held more than the limit."""
    clock = Clock()
    pace = Pace(rate=1000, limit=5, window=1.0, clock=clock, sleep=clock.sleep)
    rng = random.Random(seed)
    spans: list[tuple[float, float]] = []

    async def request() -> None:
        await clock.sleep(rng.uniform(0, 0.5))  # they come at random
        ticket = await pace.take()
        start = clock.now
        await clock.sleep(rng.choice([0.001, 0.01, 0.3, 1.5]))  # its answer takes a while
        pace.answered(ticket)
        spans.append((start, clock.now))

    await asyncio.gather(*(request() for _ in range(60)))
    assert len(spans) == 60
    assert most_that_could_arrive_in_a_window(spans, 1.0) <= 5
    assert pace.held > 0, "the limit held some back"
    assert pace.counted_now() <= 5


async def test_the_trace_paces_the_bots_requests_and_not_the_interaction_endpoints() -> None:
    """Through aiohttp, as discord.py sends: each bot-token request takes the pace, the
    interaction routes (and anything without the bot's token) do not — and the fake's global
    limit (here three a minute: no clock involved) refuses the fourth bot-token request but
    not the interaction endpoints."""
    pace = Pace(1000, limit=1000)
    limits = RateLimits(global_limit=3, global_window=60.0)
    async with (
        FakeDiscord(rate_limits=limits, check_api=False) as fake,  # bodies Discord would refuse
        aiohttp.ClientSession(trace_configs=[pacing_trace(pace)]) as http,
    ):
        bot = {"Authorization": f"Bot {fake.token}"}
        statuses = []
        for _ in range(4):
            async with http.get(fake.api_base + "/users/@me", headers=bot) as r:
                statuses.append(r.status)
        assert statuses == [200, 200, 200, 429]
        async with http.post(fake.api_base + "/interactions/1/tok/callback", json={}) as r:
            assert r.status == 404  # an unknown interaction, but not the bot's limit
        async with http.patch(fake.api_base + "/webhooks/1/tok/messages/@original", json={}) as r:
            assert r.status == 404
        async with http.get(fake.api_base + "/users/@me") as r:
            assert r.status == 401
        assert pace.taken == 4
        assert pace.counted_now() == 4, "answered within the second: still counted"
        peaks = fake.ratelimiter.peaks()
        assert peaks.bot_1s == 4  # the fake counted the same four
        assert peaks.token_2s == 1  # the webhook route, by its token
        assert peaks.refused == {"global": 1}
