"""The asyncio pool for the Discord layer, and the arena command."""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from bot.ai import decide
from bot.ai.arena import main, run_match
from bot.ai.worker import AIPool, decide_view, replacement_level
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
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        t = asyncio.create_task(ticker())
        start = time.monotonic()
        hard, normal, easy = await asyncio.gather(
            pool.decide(view, "hard", seed=1, budget_s=0.05),  # type: ignore[arg-type]
            pool.decide(view, "normal", seed=1),  # type: ignore[arg-type]
            pool.decide(view, "easy", seed=1),  # type: ignore[arg-type]
        )
        elapsed = time.monotonic() - start
        t.cancel()
        for a in (hard, normal, easy):
            assert a in view.legal  # type: ignore[attr-defined]
        assert elapsed >= 0.2
        assert ticks >= 10  # the event loop kept running
        # Same seed, same view: same decision as in-process.
        assert hard == decide_view(view, "hard", 1, 0.05)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="Unknown level"):
            await pool.decide(view, "expert")  # type: ignore[arg-type]
    finally:
        pool.close()
    with pytest.raises(RuntimeError):
        await pool.decide(view, "normal")  # type: ignore[arg-type]


def test_replacement_level() -> None:
    assert replacement_level() == "normal"
    assert replacement_level("hard") == "hard"
    assert replacement_level("nonsense") == "normal"


def test_arena_is_deterministic_and_uses_jobs() -> None:
    a = run_match("normal", "easy", deals=6, games=1, seed=2, jobs=2)
    b = run_match("normal", "easy", deals=6, games=1, seed=2, jobs=1)
    assert a.diff_mean == b.diff_mean
    assert a.sides == b.sides
    assert a.game_wins == b.game_wins
    assert a.games == 2
    assert a.deals == 6


def test_arena_cli_prints_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--ns", "normal", "--ew", "easy", "--deals", "3", "--seed", "4"]) == 0
    out = capsys.readouterr()
    assert "points per deal, A - B" in out.out
    assert "95% CI" in out.out
    assert "decision time" in out.out
    assert "3/3" in out.err  # the progress bar
