"""State kept per key whose memory stays bounded however many keys come (chats, servers,
positions, reviews): :class:`Recent`, a map of the most recently used keys; :class:`KeyedLocks`,
a lock per key that exists only while someone holds or waits for it."""

from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from collections.abc import AsyncIterator, Hashable
from typing import Generic, TypeVar, overload

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
D = TypeVar("D")


class Recent(Generic[K, V]):
    """At most ``size`` keys; setting or reading a key makes it the newest, and the oldest
    goes when a new one would be one too many."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"a Recent map keeps at least one key, not {size}")
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()

    @overload
    def get(self, key: K) -> V | None: ...
    @overload
    def get(self, key: K, default: D) -> V | D: ...
    def get(self, key: K, default: object = None) -> object:
        if key not in self._items:
            return default
        self._items.move_to_end(key)
        return self._items[key]

    def __setitem__(self, key: K, value: V) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)

    def pop(self, key: K) -> V | None:
        return self._items.pop(key, None)

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __len__(self) -> int:
        return len(self._items)


class KeyedLocks(Generic[K]):
    """One :class:`asyncio.Lock` per key, forgotten once nobody holds or waits for it."""

    def __init__(self) -> None:
        self._locks: dict[K, tuple[asyncio.Lock, int]] = {}  # the lock, and who uses it

    @contextlib.asynccontextmanager
    async def hold(self, key: K) -> AsyncIterator[None]:
        lock, users = self._locks.get(key, (None, 0))
        lock = asyncio.Lock() if lock is None else lock
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users == 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)

    def __len__(self) -> int:
        return len(self._locks)
