"""A cheap liveness signal: the running bot touches a file; ``python -m bot.health`` checks it.

While the bot is connected to Discord and its event loop is responsive, it rewrites
``HEALTH_FILE`` (by default ``spades-bot.alive`` beside the database) every
:data:`INTERVAL_S` seconds.  The check (the Docker ``HEALTHCHECK``) passes when the file was
written within :data:`MAX_AGE_S` seconds, so a stuck event loop, a lost gateway connection
that does not come back, or a bot still retrying an unreachable Discord all show as unhealthy.
The check reads the file's age only: it imports neither discord.py nor the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

INTERVAL_S = 20.0
MAX_AGE_S = 90.0

log = logging.getLogger(__name__)


def touch(path: str, now: float | None = None) -> None:
    """Write the current time to ``path`` (atomically: a reader never sees half a file)."""
    target = Path(path)
    tmp = target.with_name(f".{target.name}.tmp")
    tmp.write_text(f"{time.time() if now is None else now:.3f}\n", encoding="utf-8")
    os.replace(tmp, target)


def age(path: str, now: float | None = None) -> float | None:
    """Seconds since the bot last wrote ``path``; ``None`` if it never did."""
    try:
        written = float(Path(path).read_text(encoding="utf-8").strip())
    except (OSError, ValueError):
        return None
    return (time.time() if now is None else now) - written


async def beat(
    path: str, alive: Callable[[], bool], interval: float = INTERVAL_S, tick: float = 1.0
) -> None:
    """Touch ``path`` as soon as ``alive()`` holds and then every ``interval`` seconds while it
    does (run as a task; ``alive`` is looked at every ``tick`` seconds)."""
    warned = False
    last = -interval
    while True:
        now = time.monotonic()
        if now - last >= interval and alive():
            try:
                touch(path)
                last = now
                warned = False
            except OSError as e:
                if not warned:  # one line, not one per beat
                    log.warning("cannot write the health file %s: %s", path, e.strerror or e)
                    warned = True
        await asyncio.sleep(tick)


def remove(path: str) -> None:
    with contextlib.suppress(OSError):
        Path(path).unlink()


def main() -> int:
    from dotenv import load_dotenv

    from bot.config import ConfigError, Settings

    load_dotenv()
    try:
        settings = Settings.from_env()
    except ConfigError as e:
        print(f"unhealthy: {e}", file=sys.stderr)
        return 1
    if settings.health_file is None:
        print("unhealthy: no HEALTH_FILE (the database is in memory)", file=sys.stderr)
        return 1
    seconds = age(settings.health_file)
    if seconds is None:
        print(f"unhealthy: the bot has not written {settings.health_file} yet", file=sys.stderr)
        return 1
    if seconds > MAX_AGE_S:
        print(
            f"unhealthy: no sign of life for {seconds:.0f} s (not connected to Discord?)",
            file=sys.stderr,
        )
        return 1
    print(f"healthy: alive {seconds:.0f} s ago")
    return 0


if __name__ == "__main__":
    sys.exit(main())
