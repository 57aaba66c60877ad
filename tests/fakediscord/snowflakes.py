"""Discord's identifiers and timestamps as the fake hands them out: snowflake ids, bot tokens,
ISO-8601 times."""

from __future__ import annotations

import base64
import secrets
import time
from datetime import UTC, datetime

DISCORD_EPOCH_MS = 1420070400000


def iso(ts: float | None = None) -> str:
    """ISO-8601 timestamp the way Discord formats them."""
    return datetime.fromtimestamp(time.time() if ts is None else ts, UTC).isoformat()


class Snowflakes:
    """Generates realistic, strictly increasing snowflake ids."""

    def __init__(self, worker: int = 1, process: int = 0) -> None:
        self._last_ms = 0
        self._inc = 0
        self._tail = (worker & 0x1F) << 17 | (process & 0x1F) << 12

    def next(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
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
        ms = max(int(time.time() * 1000) - DISCORD_EPOCH_MS, self._last_ms + 1)
        while ms % count != shard:
            ms += 1
        self._last_ms, self._inc = ms, 0
        return ms << 22 | self._tail


def make_token(bot_id: int) -> str:
    """A token shaped like a real bot token: base64(id).timestamp.hmac."""
    head = base64.b64encode(str(bot_id).encode()).decode().rstrip("=")
    return f"{head}.{secrets.token_urlsafe(5)}.{secrets.token_urlsafe(27)}"
