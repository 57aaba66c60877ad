"""The one rate limiter: ``rate`` tokens a second, ``burst`` at once, on an injected clock
(the live hands ask and nap themselves; the spectators and the publisher wait in turn)."""

from __future__ import annotations

import pytest

from bot.token_bucket import TokenBucket


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_full_bucket_gives_its_burst_then_one_token_per_refill() -> None:
    clock = Clock()
    bucket = TokenBucket(rate=1.0, burst=2, clock=clock)
    assert bucket.try_take()
    assert bucket.try_take()
    assert not bucket.try_take(), "the burst is spent"
    assert bucket.wait_s() == pytest.approx(1.0)
    clock.now += 0.25
    assert not bucket.try_take()
    assert bucket.wait_s() == pytest.approx(0.75), "a quarter of a token came meanwhile"
    clock.now += 0.75
    assert bucket.try_take()
    assert not bucket.try_take()


def test_an_idle_bucket_fills_up_to_its_burst_only() -> None:
    clock = Clock()
    bucket = TokenBucket(rate=1.0, burst=2, clock=clock)
    assert bucket.try_take()
    assert bucket.try_take()
    clock.now += 3600.0
    taken = 0
    while bucket.try_take():
        taken += 1
    assert taken == 2


def test_refill_is_a_fresh_allowance_now() -> None:
    """A live hand's new interaction token: its edits start from a full bucket."""
    clock = Clock()
    bucket = TokenBucket(rate=1e-9, burst=2, clock=clock)
    assert bucket.try_take()
    assert bucket.try_take()
    assert not bucket.try_take()
    bucket.refill()
    assert bucket.try_take()
    assert bucket.try_take()
    assert not bucket.try_take()


async def test_waiting_takers_get_their_token_once_it_is_there() -> None:
    bucket = TokenBucket(rate=1000.0, burst=1)
    await bucket.take()
    await bucket.take()  # waits for the refill (a millisecond), then takes it
    assert bucket.tokens < 1
