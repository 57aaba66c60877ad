"""Discord's identifiers and timestamps as the fake hands them out: snowflake ids, bot tokens,
ISO-8601 times."""

from __future__ import annotations

import base64
import contextlib
import secrets
import time
from collections.abc import Iterator
from datetime import UTC, datetime

DISCORD_EPOCH_MS = 1420070400000


def iso(ts: float | None = None) -> str:
    """ISO-8601 timestamp the way Discord formats them."""
    return datetime.fromtimestamp(time.time() if ts is None else ts, UTC).isoformat()


class Snowflakes:
    """Generates realistic, strictly increasing snowflake ids.

    An id carries the time Discord made it, and bots read it (``interaction.created_at``).
    :meth:`advance` moves that clock ahead, as if the time had passed, and :meth:`held` keeps
    it still, as if everything happened at one moment: a test of something the bot measures
    on Discord's clock (a cooldown) neither waits for it nor depends on the machine's speed."""

    def __init__(self, worker: int = 1, process: int = 0) -> None:
        self._last_ms = 0
        self._inc = 0
        self._tail = (worker & 0x1F) << 17 | (process & 0x1F) << 12
        self.offset_ms = 0  # how far Discord's clock is ahead of this machine's
        self._held_ms: int | None = None

    def advance(self, seconds: float) -> None:
        """Ids made from now on carry a time ``seconds`` later than they would have."""
        if seconds < 0:
            raise ValueError("Discord's clock only moves ahead")
        self.offset_ms += round(seconds * 1000)

    def now(self) -> float:
        """Discord's time now (epoch seconds), as the next id will carry it."""
        return time.time() + self.offset_ms / 1000

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        """Ids made meanwhile carry the moment this began (still strictly increasing); then
        the clock goes on at this machine's time plus the offset."""
        self._held_ms = self._now_ms()
        try:
            yield
        finally:
            self._held_ms = None

    def _now_ms(self) -> int:
        if self._held_ms is not None:
            return self._held_ms
        return int(time.time() * 1000) + self.offset_ms - DISCORD_EPOCH_MS

    def next(self) -> int:
        ms = self._now_ms()
        if ms <= self._last_ms:
            self._inc += 1
            if self._inc > 0xFFF:
                self._last_ms += 1
                self._inc = 0
            ms = self._last_ms
        else:
            self._last_ms = ms
            self._inc = 0
        return ms << 22 | self._tail | self._inc

    def next_on_shard(self, shard: int, count: int) -> int:
        """The next id whose ``(id >> 22) % count == shard`` (a guild on that shard)."""
        ms = max(self._now_ms(), self._last_ms + 1)
        while ms % count != shard:
            ms += 1
        self._last_ms, self._inc = ms, 0
        return ms << 22 | self._tail


def make_token(bot_id: int) -> str:
    """A token shaped like a real bot token: base64(id).timestamp.hmac."""
    head = base64.b64encode(str(bot_id).encode()).decode().rstrip("=")
    return f"{head}.{secrets.token_urlsafe(5)}.{secrets.token_urlsafe(27)}"
