"""Where a tournament's tables play: one thread per table number under the tournament's
channel ("Friday Swiss · Table 5"), made once and used again by table 5 of every later round
(and by the later games of a knock-out match).

Discord lets a channel make only a few threads a second (the fake Discord, like Discord, about
ten in ten seconds): making a 32-table round's threads at its turn took 20–40 s.  So each
table number's thread is made once, and the first round's are made during sign-up, in the
background, one at a time, as entries come in; the start and every later round seat at once.
Which thread is table k's is stored (``tournament_threads``), so a restart keeps them.

A thread is not used again while a table is still open in it (a new one is made for the game,
and kept for that table number) nor once it is gone from Discord."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Protocol

from bot.events.pairing.model import Tournament, TournamentStatus
from bot.i18n import Text, later
from bot.store.db import Tx
from bot.store.tournaments import TournamentStore
from bot.tables.registry import TableRegistry

log = logging.getLogger(__name__)


class ThreadMaker(Protocol):
    """The Discord side's part in threads."""

    async def make_thread(self, t: Tournament, title: str) -> int: ...

    async def thread_usable(self, t: Tournament, thread_id: int) -> bool: ...


def title(t: Tournament, slot: int) -> Text:
    """A table's thread name ("Friday Swiss · Table 5"): the announcer writes it in the
    server's language (and cuts it to Discord's 100 characters)."""
    return later("{name} · Table {table}", name=t.plain_name, table=slot)


class TableThreads:
    def __init__(
        self,
        store: TournamentStore,
        write: Callable[[], contextlib.AbstractAsyncContextManager[Tx]],
        maker: ThreadMaker,
        registry: TableRegistry,
        current: Callable[[int], Tournament | None],
    ) -> None:
        self.store = store
        self.write = write
        self.maker = maker
        self.registry = registry
        self.current = current  # the tournament as the director holds it now
        self._wanted: dict[int, int] = {}
        self._preparing: dict[int, asyncio.Task[None]] = {}
        self._stop: set[int] = set()

    async def for_table(self, t: Tournament, slot: int) -> int:
        """The thread table ``slot`` plays in now (the caller holds the tournament's lock):
        the table number's own, made and stored now if it has none (or if that one is busy
        or gone)."""
        thread = t.threads.get(slot)
        if (
            thread is not None
            and self.registry.find_in_channel(thread) is None
            and await self.maker.thread_usable(t, thread)
        ):
            return thread
        return await self.renew(t, slot)

    async def renew(self, t: Tournament, slot: int) -> int:
        """A new thread for table ``slot``, kept for that table number from now on (its old
        one is gone, or another table is open there)."""
        made = await self.maker.make_thread(t, title(t, slot))
        async with self.write() as tx:
            await self.store.set_thread(tx, t.id, slot, made, replace=True)
        t.threads[slot] = made
        return made

    # ------------------------------------------------------------------ during sign-up
    def prepare(self, t: Tournament, tables: int) -> None:
        """Sign-up changed: the first round would seat ``tables`` tables now.  Their threads
        are made in the background, one at a time (a thread a table number, never removed:
        one made for an entry that left is used by a later round or stays empty)."""
        self._wanted[t.id] = tables
        task = self._preparing.get(t.id)
        if task is None or task.done():
            self._preparing[t.id] = asyncio.create_task(
                self._prepare(t.id), name=f"tournament-{t.id}-threads"
            )

    async def _prepare(self, tid: int) -> None:
        while tid not in self._stop:
            t = self.current(tid)
            if t is None or t.status != TournamentStatus.SIGNUP:
                return
            missing = [k for k in range(1, self._wanted.get(tid, 0) + 1) if k not in t.threads]
            if not missing:
                return
            slot = missing[0]
            try:
                made = await self.maker.make_thread(t, title(t, slot))
                async with self.write() as tx:
                    stored = await self.store.set_thread(tx, tid, slot, made, replace=False)
            except Exception as e:  # the start makes whatever is missing
                log.warning("tournament %s: could not make table %s's thread: %s", tid, slot, e)
                return
            if not stored:
                log.warning("tournament %s: table %s already had a thread", tid, slot)
                return
            now = self.current(tid)
            if now is not None:
                now.threads[slot] = made

    async def settle(self, tid: int) -> None:
        """The start: no more threads are made ahead; one being made now is waited for (so
        that it is used, not made twice)."""
        self._stop.add(tid)
        try:
            task = self._preparing.pop(tid, None)
            if task is not None:
                with contextlib.suppress(Exception):
                    await task
        finally:
            self._stop.discard(tid)
            self._wanted.pop(tid, None)

    def forget(self, tid: int) -> None:
        """The tournament ended: nothing of it is kept (a thread being made finishes)."""
        self._wanted.pop(tid, None)
        self._preparing.pop(tid, None)

    async def close(self) -> None:
        for task in self._preparing.values():
            task.cancel()
        for task in self._preparing.values():
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
