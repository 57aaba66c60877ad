"""Cooldowns (bot.cooldowns) on an injected clock: uses per window per key, all-or-none
takes, refusals that name when to try again, and memory that does not grow with old keys."""

from __future__ import annotations

import pytest

from bot import cooldowns
from bot.cooldowns import Cooldowns, CoolingDown, Limit, relative_time
from bot.errors import Refusal

TWICE_A_MINUTE = Limit("test/member", 2, 60.0, "You did that twice in the last minute.")
FIVE_A_MINUTE = Limit("test/server", 5, 60.0, "This server did that five times.")


class Clock:
    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def test_uses_within_the_limit_pass_and_the_next_is_refused_until_the_oldest_leaves() -> None:
    clock = Clock()
    limits = Cooldowns(clock)
    limits.take((TWICE_A_MINUTE, 1))
    clock.now += 10
    limits.take((TWICE_A_MINUTE, 1))
    clock.now += 5
    with pytest.raises(CoolingDown) as refused:
        limits.take((TWICE_A_MINUTE, 1))
    first = 1_700_000_000.0
    assert refused.value.retry_at == first + 60
    assert refused.value.limit is TWICE_A_MINUTE
    clock.now = first + 59.9
    assert limits.retry_at(TWICE_A_MINUTE, 1) == first + 60
    clock.now = first + 60
    assert limits.retry_at(TWICE_A_MINUTE, 1) is None
    limits.take((TWICE_A_MINUTE, 1))  # the first use has left the window
    with pytest.raises(CoolingDown) as again:
        limits.take((TWICE_A_MINUTE, 1))
    assert again.value.retry_at == first + 10 + 60  # now the second use must leave


def test_a_refusal_is_a_refusal_that_says_when_to_try_again() -> None:
    limits = Cooldowns(Clock(100.2))
    limits.take((TWICE_A_MINUTE, 7))
    limits.take((TWICE_A_MINUTE, 7))
    with pytest.raises(Refusal) as refused:
        limits.take((TWICE_A_MINUTE, 7))
    assert refused.value.reason == (
        "You did that twice in the last minute. Try again <t:161:R>."
    ), "the time rounds up: never before the limit frees"
    assert relative_time(160.0) == "<t:160:R>"


def test_each_key_counts_alone() -> None:
    limits = Cooldowns(Clock())
    for user in (1, 2, 3):
        limits.take((TWICE_A_MINUTE, user))
        limits.take((TWICE_A_MINUTE, user))
    with pytest.raises(CoolingDown):
        limits.take((TWICE_A_MINUTE, 1))
    limits.take((TWICE_A_MINUTE, 4))


def test_a_take_counts_under_every_limit_or_under_none() -> None:
    limits = Cooldowns(Clock())
    for user in (1, 2):  # four of the server's five
        limits.take((TWICE_A_MINUTE, user), (FIVE_A_MINUTE, "guild"))
        limits.take((TWICE_A_MINUTE, user), (FIVE_A_MINUTE, "guild"))
    with pytest.raises(CoolingDown) as refused:
        limits.take((TWICE_A_MINUTE, 1), (FIVE_A_MINUTE, "guild"))
    assert refused.value.limit is TWICE_A_MINUTE
    # The refused take did not count for the server: the fifth use is still there for user 3.
    limits.take((TWICE_A_MINUTE, 3), (FIVE_A_MINUTE, "guild"))
    with pytest.raises(CoolingDown) as server:
        limits.take((TWICE_A_MINUTE, 3), (FIVE_A_MINUTE, "guild"))
    assert server.value.limit is FIVE_A_MINUTE
    assert limits.retry_at(TWICE_A_MINUTE, 3) is None, "nor for the member it was refused to"


def test_when_two_limits_refuse_the_later_time_is_named() -> None:
    clock = Clock(0.0)
    limits = Cooldowns(clock)
    hourly = Limit("test/hour", 1, 3600.0, "Once an hour.")
    limits.take((TWICE_A_MINUTE, 1), (hourly, 1))
    limits.take((TWICE_A_MINUTE, 1))
    with pytest.raises(CoolingDown) as refused:
        limits.take((TWICE_A_MINUTE, 1), (hourly, 1))
    assert refused.value.limit is hourly
    assert refused.value.retry_at == 3600.0


def test_the_time_given_wins_over_the_clock() -> None:
    limits = Cooldowns(Clock(0.0))  # the interaction's own time (Discord's clock) is passed
    limits.take((TWICE_A_MINUTE, 1), now=1000.0)
    limits.take((TWICE_A_MINUTE, 1), now=1001.0)
    with pytest.raises(CoolingDown) as refused:
        limits.take((TWICE_A_MINUTE, 1), now=1002.0)
    assert refused.value.retry_at == 1060.0
    limits.take((TWICE_A_MINUTE, 1), now=1060.0)


def test_keys_whose_uses_left_their_window_are_forgotten() -> None:
    clock = Clock(0.0)
    limits = Cooldowns(clock)
    for user in range(cooldowns.SWEEP_EVERY - 1):
        limits.take((TWICE_A_MINUTE, user))
    assert len(limits) == cooldowns.SWEEP_EVERY - 1
    clock.now = 61.0
    limits.take((TWICE_A_MINUTE, "late"))  # the sweep's turn: only this key is recent
    assert len(limits) == 1


def test_a_limit_checks_its_numbers() -> None:
    with pytest.raises(ValueError, match="uses"):
        Limit("x", 0, 60.0, "never")
    with pytest.raises(ValueError, match="per_s"):
        Limit("x", 1, 0.0, "never")


def test_the_bots_limits_key_members_and_servers_apart() -> None:
    assert cooldowns.repost(10, 20) == (
        (cooldowns.REPOST_BY_MEMBER, 20),
        (cooldowns.REPOST_BY_SERVER, 10),
    )
    assert cooldowns.review(10, 20, own=True) == ((cooldowns.OWN_REVIEW_BY_MEMBER, 20),)
    assert [lim for lim, _ in cooldowns.review(10, 20, own=False)] == [
        cooldowns.OTHER_REVIEW_BY_MEMBER,
        cooldowns.OTHER_REVIEW_BY_SERVER,
    ]
    names = [
        lim.name
        for f in (cooldowns.repost, cooldowns.thread, cooldowns.chart)
        for lim, _ in f(1, 2)
    ]
    assert len(set(names)) == len(names) == 6, "every limit counts under its own name"
