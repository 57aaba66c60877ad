"""The shared channel-write budget: posts people wait for (hand summaries) go before the
table-message edits queued ahead of them, which coalesce and lose nothing by waiting."""

from __future__ import annotations

import asyncio

from bot.app import REQUESTS_IN_A_SECOND, REQUESTS_PER_SECOND, WRITES_PER_SECOND
from bot.token_bucket import TokenBucket
from bot.ui.discord.write_budget import write_budget


async def test_an_urgent_write_overtakes_the_queued_edits() -> None:
    bucket = TokenBucket(rate=50, burst=1)
    await bucket.take()  # the burst is spent: everyone below waits for the refill
    order: list[str] = []

    async def take(name: str, urgent: bool) -> None:
        await bucket.take(urgent)
        order.append(name)

    edits = [asyncio.create_task(take(f"edit {i}", False)) for i in range(3)]
    summary = asyncio.create_task(take("summary", True))
    await asyncio.gather(*edits, summary)
    assert order[0] == "summary"
    assert order[1:] == ["edit 0", "edit 1", "edit 2"], "edits keep their order"


async def test_the_budget_still_holds_for_urgent_writes() -> None:
    bucket = TokenBucket(rate=0.001, burst=2)  # no refill to speak of during the test
    await bucket.take(urgent=True)
    await bucket.take(urgent=True)
    assert bucket.tokens < 1, "urgent writes spend the same tokens"
    assert bucket.wait_s() > 100, "a third write would wait for the refill"


def test_the_tables_budget_fits_inside_the_pace_of_all_requests() -> None:
    """The tables' writes in one second (the rate, plus a burst) fit within what the pace of all the
    bot's requests lets arrive in a second (bot/ui/discord/pace.py: 45, within Discord's 50),
    leaving room for the bot's other requests — split over a cluster's processes too."""
    for processes in (1, 2, 3):
        bucket = write_budget(WRITES_PER_SECOND / processes)
        assert bucket.burst >= 1
        assert bucket.rate + bucket.burst <= REQUESTS_IN_A_SECOND // processes
        assert bucket.rate < REQUESTS_PER_SECOND / processes
    assert REQUESTS_IN_A_SECOND <= 50
