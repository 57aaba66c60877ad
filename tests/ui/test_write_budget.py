"""The shared channel-write budget: posts people wait for (hand summaries) go before the
table-message edits queued ahead of them, which coalesce and lose nothing by waiting."""

from __future__ import annotations

import asyncio

from bot.ui.publisher import TokenBucket, write_budget


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
    assert bucket._refill_s() > 100, "a third write would wait for the refill"


def test_no_second_holds_more_than_discords_fifty_requests() -> None:
    """A full bucket spent at once, then refilled for one second: at most the rate plus the
    burst, which must stay within Discord's 50 requests a second per bot (split over a
    cluster's processes)."""
    for processes in (1, 2, 3):
        bucket = write_budget(40 / processes)
        assert bucket.burst >= 1
        assert (bucket.rate + bucket.burst) * processes <= 45  # room for jitter under 50
