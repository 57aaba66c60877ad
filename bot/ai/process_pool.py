"""A process pool that survives its workers: rebuilt when one of them dies.

When a worker of a :class:`~concurrent.futures.ProcessPoolExecutor` dies (SIGKILL, the kernel's
out-of-memory killer, a crash in native code), the executor is *broken*: every call running or
queued fails with :class:`~concurrent.futures.process.BrokenProcessPool`, and so does every
later ``submit`` — for good.  :class:`RebuildingProcessPool` is an executor in front of one:

* a call that was running or queued when a worker died fails with ``BrokenProcessPool`` (the
  caller decides what to do instead: a hard decision falls back to ``normal``, a review chunk
  is tried again);
* the broken executor is then replaced, so the next call runs on fresh workers;
* a ``submit`` that finds the executor broken before it noticed replaces it at once and goes on.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.context import BaseContext
from typing import Any, ParamSpec, TypeVar

log = logging.getLogger(__name__)
P = ParamSpec("P")
T = TypeVar("T")


class RebuildingProcessPool(Executor):
    def __init__(
        self,
        workers: int,
        context: BaseContext,
        initializer: Callable[..., object] | None = None,
        initargs: tuple[Any, ...] = (),
    ) -> None:
        self.workers = workers
        self._context = context
        self._initializer, self._initargs = initializer, initargs  # run by each new worker
        self._lock = threading.Lock()  # futures complete on the executor's own thread
        self._pool = self._new()
        self._broken: ProcessPoolExecutor | None = None
        self._shut = False
        self.rebuilds = 0

    def _new(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            self.workers,
            mp_context=self._context,
            initializer=self._initializer,
            initargs=self._initargs,
        )

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        with self._lock:
            if self._shut:
                raise RuntimeError("cannot schedule new futures after shutdown")
            pool = self._current()
            try:
                future = pool.submit(fn, *args, **kwargs)
            except BrokenProcessPool:  # it broke while idle: a worker died between calls
                self._broken = pool
                pool = self._current()
                future = pool.submit(fn, *args, **kwargs)
        future.add_done_callback(lambda f: self._done(pool, f))
        return future

    def _current(self) -> ProcessPoolExecutor:
        """The live executor, replacing a broken one (the caller holds the lock)."""
        if self._broken is self._pool:
            old = self._pool
            self._pool = self._new()
            self._broken = None
            self.rebuilds += 1
            log.warning("a worker process died; the process pool is rebuilt")
            old.shutdown(wait=False, cancel_futures=True)
        return self._pool

    def _done(self, pool: ProcessPoolExecutor, future: Future[Any]) -> None:
        if future.cancelled() or not isinstance(future.exception(), BrokenProcessPool):
            return
        with self._lock:
            if pool is self._pool:
                self._broken = pool  # replaced on the next submit

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        with self._lock:
            self._shut = True
            pool = self._pool
        pool.shutdown(wait=wait, cancel_futures=cancel_futures)
