"""A sampling profile of the bot under load (``load.py --py-spy FILE``), and where it went.

:func:`record` starts ``py-spy record`` on the bot's process for the measured window (raw,
collapsed stacks, sampled without pausing the bot); :func:`attribute` reads that file and
charges each sample of the bot's main thread (the event loop) to what it was doing, by the
innermost frame of its stack that belongs to a known part.  Sampling proportions stay
meaningful on a busy machine: a sample is taken only while the thread is running.

    python benchmarks/probe/spy.py FILE [--top N]     # the table, and the top frames
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

# What a sample is charged to: the innermost frame of its stack matching one of these (in
# this order of precedence for one frame).  Frames are "function (path:line)".
PARTS: list[tuple[str, tuple[str, ...]]] = [
    ("translation lookups (bot/i18n, Babel, gettext)", ("bot/i18n/", "babel/", "gettext")),
    ("rendering: hand messages", ("bot/ui/hand/",)),
    ("rendering: table messages, summaries", ("bot/ui/table/", "bot/ui/text/")),
    ("rendering: spectators' views", ("bot/ui/spectator/", "bot/tables/spectators")),
    ("the pace and write budget", ("bot/ui/discord/pace", "bot/ui/discord/write_budget")),
    ("persistence (SQLite, commits)", ("bot/store/", "sqlite3", "aiosqlite", "bot/tables/persis")),
    ("rules engine", ("bot/engine/",)),
    ("the click's way through the bot (cogs, tables, timely, clicks)", ("bot/", "cogs/")),
    ("JSON (encode, decode)", ("json/", "orjson")),
    ("aiohttp (HTTP requests, websocket)", ("aiohttp/", "yarl/", "multidict/", "aiosignal")),
    ("discord.py (gateway, models, views, HTTP)", ("discord/",)),
    ("logging", ("logging/",)),
    ("event loop (asyncio, selectors, sockets)", ("asyncio/", "selectors", "ssl", "socket")),
]
OTHER = "other (interpreter, zlib, collections…)"
_PATH = re.compile(r"\((.*?):\d+\)$")


def record(pid: int, seconds: float, out: Path, rate: int = 100) -> subprocess.Popen[bytes]:
    """Start sampling ``pid`` for ``seconds`` into ``out`` (raw collapsed stacks)."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    cmd = [spy, "record", "--pid", str(pid), "--duration", str(int(seconds)), "--rate", str(rate)]
    cmd += ["--format", "raw", "--nonblocking", "--output", str(out)]
    return subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _path(frame: str) -> str:
    m = _PATH.search(frame)
    return m.group(1) if m else frame


def samples(raw: Path) -> list[tuple[list[str], int]]:
    """The main thread's stacks (the event loop's: rooted in the module run as ``-m``)."""
    out = []
    for line in raw.read_text().splitlines():
        stack, _, n = line.rpartition(" ")
        frames = stack.split(";")
        if frames and frames[0].startswith("_run_module_as_main"):
            out.append((frames, int(n)))
    return out


def attribute(raw: Path) -> tuple[int, Counter[str]]:
    """(samples of the main thread, samples per part)."""
    parts: Counter[str] = Counter()
    total = 0
    for frames, n in samples(raw):
        total += n
        part = OTHER
        for frame in reversed(frames):
            path = _path(frame)
            hit = next((name for name, keys in PARTS if any(k in path for k in keys)), None)
            if hit is not None:
                part = hit
                break
        parts[part] += n
    return total, parts


def table(raw: Path) -> str:
    total, parts = attribute(raw)
    lines = [f"| where the bot's main thread was (py-spy, {total} samples) | share |", "|---|---:|"]
    for name, n in parts.most_common():
        lines.append(f"| {name} | {n / max(1, total) * 100:.1f} % |")
    return "\n".join(lines)


def top(raw: Path, n: int) -> str:
    """The frames the main thread spent most time in, by themselves and with their callees
    (the bot's and the cogs' frames, for the latter)."""
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    total = 0
    for frames, k in samples(raw):
        total += k
        own[frames[-1]] += k
        for frame in set(frames):
            if _path(frame).startswith(("bot/", "cogs/")):
                inclusive[frame] += k
    lines = ["own time:"]
    lines += [f"  {k / total * 100:5.1f} % {f}" for f, k in own.most_common(n)]
    lines.append("with callees (bot, cogs):")
    lines += [f"  {k / total * 100:5.1f} % {f}" for f, k in inclusive.most_common(n)]
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("raw", type=Path)
    ap.add_argument("--top", type=int, default=0, help="also list the N busiest frames")
    args = ap.parse_args()
    print(table(args.raw))
    if args.top:
        print(top(args.raw, args.top))
    return 0


if __name__ == "__main__":
    sys.exit(main())
