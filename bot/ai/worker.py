"""Computer decisions off the event loop, for the Discord layer.

>>> pool = AIPool()                                        # doctest: +SKIP
>>> action = await pool.decide(view, "hard", seed=1234)   # doctest: +SKIP
>>> pool.close()                                           # doctest: +SKIP

``easy`` and ``normal`` decisions (well under a millisecond) run in a small thread pool; ``hard``
decisions run in a process pool so a search never holds the event loop or the GIL.  Every
decision is followed by a short, configurable "thinking" pause so people can follow the cards.

The process pool has one worker per CPU the process may use (:func:`bot.ai.cpus.usable_cpus`:
its affinity and a container's CPU limit).  A worker that dies (killed, out of memory) breaks
the whole pool; the pool is then rebuilt (:mod:`bot.ai.process_pool`) and the hard decision
that was running falls back to ``normal`` for that one decision, with a log line.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import random
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Final

from bot.ai.cpus import usable_cpus
from bot.ai.hints import Hint, hint_for
from bot.ai.levels import DEFAULT_BUDGET_S, LEVELS, get_player
from bot.ai.players import Player
from bot.ai.process_pool import RebuildingProcessPool
from bot.engine.actions import Action
from bot.engine.views import SeatView

log = logging.getLogger(__name__)
DEFAULT_REPLACEMENT_LEVEL: Final = "normal"
DEFAULT_THINKING_DELAY_S: Final = 0.8
#: Hard decisions in a row lost to dead workers before the pool counts as not working (the
#: health check then fails, so that the container is restarted).
CRASHES_UNHEALTHY: Final = 3

_CACHE: dict[str, Player] = {}


def decide_view(view: SeatView, level: str, seed: int, budget_s: float | None = None) -> Action:
    """One decision, from the seat view only (runs in a worker; never raises for a bad AI).

    The same ``view``, ``level`` and ``seed`` always give the same action.
    """
    player = _CACHE.get(level)
    if player is None:
        player = get_player(level)
        _CACHE[level] = player
    budget = DEFAULT_BUDGET_S[level] if budget_s is None else budget_s
    try:
        action = player.decide(view, random.Random(seed), budget)
    except Exception:  # a computer player must never stall a table
        fallback = "the first legal action" if level == DEFAULT_REPLACEMENT_LEVEL else "normal"
        log.exception(
            "the %s computer player failed (seed %d); %s plays instead", level, seed, fallback
        )
        if level == DEFAULT_REPLACEMENT_LEVEL:
            return view.legal[0]
        return decide_view(view, DEFAULT_REPLACEMENT_LEVEL, seed, budget_s)
    if action not in view.legal:
        return view.legal[0]
    return action


def _ignore(*_: object) -> None:
    pass


class AIPool:
    """Runs computer decisions in worker threads / processes; one pool per bot."""

    def __init__(
        self,
        processes: int | None = None,
        threads: int = 2,
        thinking_delay_s: float = DEFAULT_THINKING_DELAY_S,
        budgets: dict[str, float] | None = None,
        *,
        worker_setup: Callable[..., object] | None = None,
        worker_setup_args: tuple[Any, ...] = (),
        on_decision: Callable[[str, float], None] = _ignore,
        on_crash: Callable[[str], None] = _ignore,
    ) -> None:
        """``worker_setup(*worker_setup_args)`` runs in each new worker process (the bot's
        logging there); ``on_decision(level, seconds)`` is told of every decision and
        ``on_crash(during)`` of every worker that died under one (the bot's metrics: given
        from outside, so that the workers import none of it)."""
        self.thinking_delay_s = thinking_delay_s
        self.budgets = {**DEFAULT_BUDGET_S, **(budgets or {})}
        self._threads: Executor = ThreadPoolExecutor(threads, thread_name_prefix="spades-ai")
        # One hard search per usable CPU at a time; workers start on the first hard decision.
        self.process_count = processes or usable_cpus()
        self._processes = RebuildingProcessPool(
            self.process_count,
            multiprocessing.get_context("spawn"),
            worker_setup,
            worker_setup_args,
        )
        self.on_decision, self.on_crash = on_decision, on_crash
        self._closed = False
        self.fallbacks = 0  # hard decisions a dead worker handed to ``normal``
        self._crashes_in_a_row = 0
        self.hints_working = 0  # hints being worked out now (the metrics' queue length)

    @property
    def working(self) -> bool:
        """``False`` once :data:`CRASHES_UNHEALTHY` hard decisions in a row lost their worker
        (rebuilt pools keep dying: out of memory?); the next hard decision that completes
        makes it ``True`` again.  The health check reads it."""
        return self._crashes_in_a_row < CRASHES_UNHEALTHY

    @property
    def rebuilds(self) -> int:
        """How many times the process pool was rebuilt after a worker died."""
        return self._processes.rebuilds

    def executor_for(self, level: str) -> Executor:
        return self._processes if level == "hard" else self._threads

    async def decide(
        self,
        view: SeatView,
        level: str = DEFAULT_REPLACEMENT_LEVEL,
        seed: int | None = None,
        budget_s: float | None = None,
        thinking_delay_s: float | None = None,
    ) -> Action:
        """The computer's action for ``view.seat`` after at least the thinking delay."""
        if self._closed:
            raise RuntimeError("AIPool is closed")
        if level not in LEVELS:
            raise ValueError(f"Unknown level {level!r}: choose one of {', '.join(LEVELS)}")
        loop = asyncio.get_running_loop()
        start = loop.time()
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        budget = self.budgets[level] if budget_s is None else budget_s
        try:
            action = await loop.run_in_executor(
                self.executor_for(level), decide_view, view, level, seed, budget
            )
        except BrokenProcessPool:
            # A worker died mid-search (killed, out of memory): the pool is rebuilt for the
            # next decision, and this one is the normal player's, on a thread.
            self.fallbacks += 1
            self._crashes_in_a_row += 1
            self.on_crash("decision")
            log.warning(
                "a worker process died during a %s decision (seed %d); the normal player "
                "decides this one and the pool is rebuilt",
                level,
                seed,
            )
            level = DEFAULT_REPLACEMENT_LEVEL
            action = await loop.run_in_executor(
                self._threads, decide_view, view, level, seed, self.budgets[level]
            )
        else:
            if level == "hard":
                self._crashes_in_a_row = 0
        self.on_decision(level, loop.time() - start)
        delay = self.thinking_delay_s if thinking_delay_s is None else thinking_delay_s
        rest = delay - (loop.time() - start)
        if rest > 0:
            await asyncio.sleep(rest)
        return action

    async def hint(self, view: SeatView, seed: int) -> Hint:
        """The hint for ``view.seat`` (:mod:`bot.ai.hints`): two hard searches, in a worker
        process like the hard player's moves (a thread if the pool just broke)."""
        if self._closed:
            raise RuntimeError("AIPool is closed")
        loop = asyncio.get_running_loop()
        self.hints_working += 1
        try:
            return await loop.run_in_executor(self._processes, hint_for, view, seed)
        except BrokenProcessPool:
            log.warning("a worker process died during a hint; the hint is worked out here")
            self.on_crash("hint")
            return await loop.run_in_executor(self._threads, hint_for, view, seed)
        finally:
            self.hints_working -= 1

    def close(self) -> None:
        """Stop the workers (pending decisions are cancelled)."""
        if self._closed:
            return
        self._closed = True
        self._threads.shutdown(wait=False, cancel_futures=True)
        self._processes.shutdown(wait=False, cancel_futures=True)

    async def __aenter__(self) -> AIPool:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.close()
