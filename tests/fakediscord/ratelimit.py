"""Per-bucket rate limit bookkeeping with Discord-style headers and optional 429 injection."""

from __future__ import annotations

import time
from dataclasses import dataclass, field


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
            self.hits_429 += 1
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
                self.hits_429 += 1
                return inj
        return None
