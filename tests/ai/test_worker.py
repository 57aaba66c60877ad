"""The asyncio pool for the Discord layer."""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from bot.ai import decide, worker
from bot.ai.worker import AIPool, decide_view
from bot.engine import Game, Rules, seat_view


def _view_in_play() -> object:
    game = Game(Rules.from_preset("standard"))
    rng = random.Random(4)
    game.deal(rng)
    while game.phase.value != "play" or len(game.plays) < 5:
        seat = game.to_act
        assert seat is not None
        game.apply(decide(game, seat, "normal", rng))
    assert game.to_act is not None
    return seat_view(game, game.to_act)


async def test_pool_decides_off_the_loop_with_thinking_delay() -> None:
    view = _view_in_play()
    pool = AIPool(processes=1, thinking_delay_s=0.2)
    try:
        # Off the loop: while a hard search (no thinking delay) is pending, other tasks run.
        search = asyncio.ensure_future(
            pool.decide(view, "hard", seed=1, budget_s=0.05, thinking_delay_s=0)  # type: ignore[arg-type]
        )
        ran = asyncio.Event()

        async def other_work() -> None:
            ran.set()

        await asyncio.create_task(other_work())
        assert ran.is_set()
        assert not search.done(), "the event loop ran other work while the search was pending"
        assert await search in view.legal  # type: ignore[attr-defined]
        start = time.monotonic()
        hard, normal, easy = await asyncio.gather(
            pool.decide(view, "hard", seed=1, budget_s=0.05),  # type: ignore[arg-type]
            pool.decide(view, "normal", seed=1),  # type: ignore[arg-type]
            pool.decide(view, "easy", seed=1),  # type: ignore[arg-type]
        )
        elapsed = time.monotonic() - start
        for a in (hard, normal, easy):
            assert a in view.legal  # type: ignore[attr-defined]
        assert elapsed >= 0.2, "each decision waits out the thinking delay"
        # Same seed, same view: same decision as in-process.
        assert hard == decide_view(view, "hard", 1, 0.05)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="Unknown level"):
            await pool.decide(view, "expert")  # type: ignore[arg-type]
    finally:
        pool.close()
    with pytest.raises(RuntimeError):
        await pool.decide(view, "normal")  # type: ignore[arg-type]


def test_a_crashing_player_is_logged_and_replaced(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    view = _view_in_play()

    class Broken:
        def decide(self, *args: object) -> object:
            raise RuntimeError("boom")

    monkeypatch.setitem(worker._CACHE, "hard", Broken())
    with caplog.at_level("ERROR", logger="bot.ai.worker"):
        action = decide_view(view, "hard", 3)  # type: ignore[arg-type]
    assert action == decide_view(view, "normal", 3)  # type: ignore[arg-type]
    (record,) = caplog.records
    assert "the hard computer player failed" in record.getMessage()
    assert record.exc_info is not None
