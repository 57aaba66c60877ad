"""Rate limits as Discord applies them: per-route buckets with Discord-style headers, the bot's
global limit, optional 429 injection, and what arrived, counted per kind.

Discord (https://discord.com/developers/docs/topics/rate-limits#global-rate-limit): "All bots
can make up to 50 requests per second to our API", and "Interaction endpoints are not bound to
the bot's Global Rate Limit" — the interaction callback and the webhook routes an interaction
token opens (``@original`` edits, follow-ups), which have their per-route limits instead.  So
a request with the bot's token to any other route counts against the global limit: the 51st
within one second is answered 429 with ``"global": true`` and the headers
``X-RateLimit-Global: true``, ``X-RateLimit-Scope: global`` and ``Retry-After``.

Everything that arrives is timestamped (``time.monotonic()``, first thing in the middleware) by
kind, so a test or benchmark reads :meth:`RateLimiter.peaks`: the most bot-token requests that
arrived in any 1 s, the most to one channel in any 5 s, the most through one interaction token
in any 2 s, and the 429s by kind.
"""

from __future__ import annotations

import re
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Final, TypeVar

from .messages import max_in_window

GLOBAL_LIMIT: Final = 50  # bot-token requests a second (Discord's global rate limit)
GLOBAL_WINDOW: Final = 1.0
# Interaction endpoints: not bound to the global limit; their token is the second group.
_INTERACTION_ROUTE = re.compile(r"/api/v\d+/(interactions/\d+|webhooks/\d+)/([^/]+)")
_CHANNEL_ROUTE = re.compile(r"/api/v\d+/channels/(\d+)")
_KEYS_BOUND = 50_000  # channels or tokens remembered before the old ones are dropped
K = TypeVar("K")


@dataclass(slots=True)
class BucketSpec:
    limit: int
    window: float  # seconds


def _default_specs() -> dict[str, BucketSpec]:
    return {
        # Discord's documented-by-experience per-channel limits.
        "message_create": BucketSpec(5, 5.0),
        "message_edit": BucketSpec(5, 5.0),
        "message_delete": BucketSpec(5, 1.0),
        "thread_create": BucketSpec(10, 10.0),
        "reaction": BucketSpec(1, 0.25),
        # interaction webhooks (follow-ups / @original edits), per token
        "webhook": BucketSpec(5, 2.0),
        # interaction callbacks are not really limited
        "callback": BucketSpec(1000, 1.0),
        "default": BucketSpec(50, 1.0),
    }


@dataclass
class RateLimits:
    """Configuration. ``enabled=False`` sends no headers; ``enforce=False`` never answers 429."""

    enabled: bool = True
    enforce: bool = True
    specs: dict[str, BucketSpec] = field(default_factory=_default_specs)
    # bot-token requests in any second before a global 429 (None: never; also off with
    # ``enabled`` or ``enforce`` False)
    global_limit: int | None = GLOBAL_LIMIT
    global_window: float = GLOBAL_WINDOW  # seconds (Discord: one)


@dataclass(frozen=True, slots=True)
class Arrival:
    """What a request is to Discord's limits: sent with the bot's token (and not to an
    interaction endpoint: counted against the global limit), and the channel or interaction
    token its route names."""

    bot: bool
    channel: int | None = None
    token: str | None = None


@dataclass(frozen=True, slots=True)
class Peaks:
    """What arrived (between two moments): the most bot-token requests in any 1 s (Discord's
    global limit: 50), the most bot-token requests to one channel in any 5 s (its routes'
    buckets: 5 messages in 5 s), the most requests to the webhook routes of one interaction
    token in any 2 s (Discord: 5), and the 429s by kind (``global``, ``route`` — a channel's
    bucket —, ``token``, ``injected``)."""

    bot_1s: int
    channel_5s: int
    token_2s: int
    refused: dict[str, int]


@dataclass(slots=True)
class Injected429:
    remaining: int
    retry_after: float
    path_contains: str | None
    method: str | None
    is_global: bool


class RateLimiter:
    def __init__(self, config: RateLimits) -> None:
        self.config = config
        self._windows: dict[tuple[str, object], list[float]] = {}  # key -> [start, count]
        self.injected: list[Injected429] = []
        self.hits_429 = 0
        self.refused: Counter[str] = Counter()  # 429s by kind (see Peaks)
        self._refused_at: deque[tuple[float, str]] = deque(maxlen=100_000)
        # arrival times (monotonic) of bot-token requests, and per channel and token
        self.bot_arrivals: deque[float] = deque(maxlen=1_000_000)
        self.channel_arrivals: dict[int, deque[float]] = {}
        self.token_arrivals: dict[str, deque[float]] = {}
        self._accepted: deque[float] = deque()  # bot-token requests let through, last second

    # ----- what arrived --------------------------------------------------------------------
    def arrive(self, path: str, authorization: str | None, bot_token: str) -> Arrival:
        """Count a request as it arrives (before anything else looks at it)."""
        now = time.monotonic()
        m = _INTERACTION_ROUTE.match(path)
        if m is not None:
            if m.group(1).startswith("webhooks/"):  # a callback is one per interaction
                _remember(self.token_arrivals, m.group(2), now)
            return Arrival(False, token=m.group(2))
        if authorization != f"Bot {bot_token}":
            return Arrival(False)
        self.bot_arrivals.append(now)
        c = _CHANNEL_ROUTE.match(path)
        channel = int(c.group(1)) if c is not None else None
        if channel is not None:
            _remember(self.channel_arrivals, channel, now)
        return Arrival(True, channel=channel)

    def hit_global(self) -> tuple[dict[str, str], float] | None:
        """A bot-token request against the global limit: ``None`` if it may go on, else the
        429's headers and retry-after (requests refused do not use up the second)."""
        cfg = self.config
        limit = cfg.global_limit
        if not (cfg.enabled and cfg.enforce) or limit is None:
            return None
        now = time.monotonic()
        accepted = self._accepted
        while accepted and accepted[0] <= now - cfg.global_window:
            accepted.popleft()
        if len(accepted) < limit:
            accepted.append(now)
            return None
        retry_after = max(accepted[0] + cfg.global_window - now, 0.001)
        self.count_refused("global")
        headers = {
            "Via": "1.1 google",
            "Retry-After": str(max(int(retry_after + 0.999), 1)),
            "X-RateLimit-Global": "true",
            "X-RateLimit-Scope": "global",
        }
        return headers, retry_after

    def count_refused(self, kind: str) -> None:
        self.hits_429 += 1
        self.refused[kind] += 1
        self._refused_at.append((time.monotonic(), kind))

    def peaks(self, since: float | None = None, until: float | None = None) -> Peaks:
        """The peaks of what arrived between ``since`` and ``until`` (monotonic; ``None``: from
        the start, up to now)."""
        lo = float("-inf") if since is None else since
        hi = float("inf") if until is None else until

        def most(times: deque[float], window: float) -> int:
            return max_in_window((t for t in times if lo <= t <= hi), window)

        refused = Counter(kind for t, kind in self._refused_at if lo <= t <= hi)
        return Peaks(
            bot_1s=most(self.bot_arrivals, 1.0),
            channel_5s=max((most(t, 5.0) for t in self.channel_arrivals.values()), default=0),
            token_2s=max((most(t, 2.0) for t in self.token_arrivals.values()), default=0),
            refused=dict(refused),
        )

    def hit(self, bucket: str, major: object) -> tuple[dict[str, str], float | None]:
        """Count one request. Returns (headers, retry_after-if-limited)."""
        cfg = self.config
        if not cfg.enabled:
            return {}, None
        spec = cfg.specs.get(bucket) or cfg.specs["default"]
        now = time.monotonic()
        key = (bucket, major)
        win = self._windows.get(key)
        if win is None or now >= win[0] + spec.window:
            if win is None and len(self._windows) >= 50_000:
                self._prune(now)
            win = self._windows[key] = [now, 0.0]
        win[1] += 1
        reset_after = max(win[0] + spec.window - now, 0.001)
        remaining = max(spec.limit - int(win[1]), 0)
        headers = {
            "X-RateLimit-Limit": str(spec.limit),
            "X-RateLimit-Remaining": str(remaining),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": f"fake-{bucket}",
            "Via": "1.1 google",
        }
        if cfg.enforce and win[1] > spec.limit:
            self.count_refused("token" if bucket == "webhook" else "route")
            headers["Retry-After"] = str(max(int(reset_after + 0.999), 1))
            headers["X-RateLimit-Scope"] = "user"
            return headers, reset_after
        return headers, None

    def _prune(self, now: float) -> None:
        specs, default = self.config.specs, self.config.specs["default"]
        expired = [
            k
            for k, (start, _) in self._windows.items()
            if now >= start + (specs.get(k[0]) or default).window
        ]
        for k in expired:
            del self._windows[k]

    def inject(
        self,
        count: int = 1,
        retry_after: float = 0.5,
        *,
        path_contains: str | None = None,
        method: str | None = None,
        is_global: bool = False,
    ) -> None:
        """Answer the next ``count`` matching requests with 429 + ``retry_after``."""
        self.injected.append(Injected429(count, retry_after, path_contains, method, is_global))

    def take_injected(self, method: str, path: str) -> Injected429 | None:
        for inj in self.injected:
            if (inj.method is None or inj.method == method) and (
                inj.path_contains is None or inj.path_contains in path
            ):
                inj.remaining -= 1
                if inj.remaining <= 0:
                    self.injected.remove(inj)
                self.count_refused("injected")
                return inj
        return None


def _remember(arrivals: dict[K, deque[float]], key: K, now: float) -> None:
    times = arrivals.get(key)
    if times is None:
        if len(arrivals) >= _KEYS_BOUND:  # forget the keys quiet for the longest
            quiet = sorted(arrivals, key=lambda k: arrivals[k][-1])[: _KEYS_BOUND // 2]
            for k in quiet:
                del arrivals[k]
        times = arrivals[key] = deque(maxlen=10_000)
    times.append(now)
