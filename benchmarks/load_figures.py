"""What the load benchmark (benchmarks/load.py) measures and how it prints it: latency
quantiles, live-edit rates, hand-summary delays, the bot's memory and CPU, and what the bot
logs when it stops (its commit latency and its garbage collector's passes)."""

from __future__ import annotations

import contextlib
import os
import platform
import re
import statistics
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import psutil

from tests.fakediscord import Channel, FakeDiscord, max_in_window


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    late: int = 0
    ended: int = 0  # plays that ended their table's game (no next turn to show)
    started: float = 0.0
    finished: float = 0.0
    plays: dict[int, list[float]] = field(default_factory=dict)  # channel -> card click times
    # The same answers on the fake's Discord clock (tests/fakediscord/clock.py): without the
    # time the fake's own loop stood still.  Reported beside the wall-clock figures, never
    # instead of them.
    on_discord_clock: list[float] = field(default_factory=list)

    def add(self, latency: float | None) -> None:
        if latency is None:
            self.errors += 1
        else:
            self.latencies.append(latency)

    def summary(self) -> dict[str, float]:
        xs = sorted(self.latencies)
        if not xs:
            return {"count": 0}

        def pct(p: float) -> float:
            return xs[min(len(xs) - 1, int(p * len(xs)))] * 1000

        span = max(1e-9, self.finished - self.started)
        clock = sorted(self.on_discord_clock)

        def on_clock(p: float) -> float:
            return clock[min(len(clock) - 1, int(p * len(clock)))] * 1000 if clock else 0.0

        return {
            "clock_p50_ms": on_clock(0.50),
            "clock_p95_ms": on_clock(0.95),
            "clock_p99_ms": on_clock(0.99),
            "clock_max_ms": clock[-1] * 1000 if clock else 0.0,
            "count": len(xs),
            "per_second": len(xs) / span,
            "p50_ms": pct(0.50),
            "p95_ms": pct(0.95),
            "p99_ms": pct(0.99),
            "max_ms": xs[-1] * 1000,
            "mean_ms": statistics.fmean(xs) * 1000,
            "over_3s": sum(1 for x in xs if x >= 3.0),
            "errors": self.errors,
            "ended": self.ended,
            "late": self.late,
        }


def webhook_rates(fake: FakeDiscord, started: float, finished: float) -> dict[str, float]:
    """Live edits in the measured window: per second, the most through one interaction token
    in any 2 s (Discord: 5), the most to one table's hands in any 1 s."""
    edits = [e for e in fake.webhook_edits if started <= e.at <= finished]
    by_token: dict[int, list[float]] = defaultdict(list)
    by_table: dict[int, list[float]] = defaultdict(list)
    for e in edits:
        by_token[e.interaction.id].append(e.at)
        by_table[e.message.channel.id].append(e.at)
    return {
        "edits": len(edits),
        "per_second": len(edits) / max(1e-9, finished - started),
        "max_per_token_2s": max((max_in_window(t, 2.0) for t in by_token.values()), default=0),
        "max_per_table_1s": max((max_in_window(t, 1.0) for t in by_table.values()), default=0),
    }


def summary_latencies(fake: FakeDiscord, channels: list[Channel], stats: Stats) -> dict[str, float]:
    """Last card's click → the hand summary in the channel, for every hand that ended."""
    delays = []
    pictures = 0
    for ch in channels:
        clicks = stats.plays.get(ch.id, [])
        for m in fake.messages(ch):
            if "— scores" not in m.text:
                continue
            before = [t for t in clicks if t <= m.created_at]
            if not before:
                continue
            delays.append(m.created_at - before[-1])
            pictures += any(a.filename.startswith("deal-") for a in m.attachments)
    delays.sort()
    if not delays:
        return {"hands": 0}
    return {
        "hands": len(delays),
        "with_picture": pictures,
        "p50_s": delays[len(delays) // 2],
        "p95_s": delays[min(len(delays) - 1, int(0.95 * len(delays)))],
        "max_s": delays[-1],
        "within_2s": sum(1 for d in delays if d <= 2.0) / len(delays),
    }


def rss(pid: int) -> int:
    return int(psutil.Process(pid).memory_info().rss)


def cpu_seconds(pid: int) -> float:
    t = psutil.Process(pid).cpu_times()
    return float(t.user + t.system)


COMMITS = re.compile(r"commit latency over the last (\d+) commits: p50 ([\d.]+) ms, p99 ([\d.]+)")


def machine() -> str:
    model = "unknown cpu"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}"


def show(name: str, s: dict[str, float]) -> None:
    print(
        f"{name:>14}: {s.get('count', 0):>7.0f} interactions, {s.get('per_second', 0):7.1f}/s, "
        f"p50 {s.get('p50_ms', 0):6.1f} ms, p95 {s.get('p95_ms', 0):6.1f} ms, "
        f"p99 {s.get('p99_ms', 0):6.1f} ms, max {s.get('max_ms', 0):7.1f} ms, "
        f"over 3 s: {s.get('over_3s', 0) + s.get('late', 0):.0f}"
    )
    if s.get("clock_p50_ms"):
        print(
            f"{'':>14}  the same on Discord's clock (the fake's own stalls left out): "
            f"p50 {s['clock_p50_ms']:6.1f} ms, p95 {s['clock_p95_ms']:6.1f} ms, "
            f"p99 {s['clock_p99_ms']:6.1f} ms, max {s['clock_max_ms']:7.1f} ms"
        )


PAUSES = re.compile(
    r"garbage collections: gen0 (\d+) \(longest ([\d.]+) ms, freed (\d+)\), "
    r"gen1 (\d+) \(longest ([\d.]+) ms, freed (\d+)\), full (\d+) \(longest ([\d.]+) ms, "
    r"freed (\d+)\)"
)


def collector_pauses(output: str) -> dict[str, float]:
    """The bot's garbage-collector passes from start-up's end to shutdown (its last log line
    of them; bot/collector.py): passes, longest pause and objects freed, young and full."""
    found = list(PAUSES.finditer(output))
    if not found:
        return {}
    g = [float(x) for x in found[-1].groups()]
    return {
        "gc_young": g[0] + g[3],
        "gc_young_longest_ms": max(g[1], g[4]),
        "gc_young_freed": g[2] + g[5],
        "gc_full": g[6],
        "gc_full_longest_ms": g[7],
        "gc_full_freed": g[8],
    }


def show_pauses(figures: dict[str, float]) -> None:
    if "gc_full" not in figures:
        return
    print(
        f"bot's garbage collections (start-up to shutdown): young {figures['gc_young']:.0f}, "
        f"longest {figures['gc_young_longest_ms']:.1f} ms, freed "
        f"{figures['gc_young_freed']:.0f} objects; full {figures['gc_full']:.0f}, longest "
        f"{figures['gc_full_longest_ms']:.1f} ms, freed {figures['gc_full_freed']:.0f}"
    )


def show_run(ours: dict[str, float], shown: dict[str, float], memory: dict[str, float]) -> None:
    """One spades run: acks, the next player's hand showing their turn, live edits, memory,
    CPU, commits, collections, hand summaries."""
    show("spades", ours)
    print(
        f"  turn: {shown.get('count', 0):>7.0f} plays, from a play to the next player's hand "
        f"showing their buttons: p50 {shown.get('p50_ms', 0):6.1f} ms, "
        f"p95 {shown.get('p95_ms', 0):6.1f} ms, p99 {shown.get('p99_ms', 0):6.1f} ms, "
        f"max {shown.get('max_ms', 0):7.1f} ms, over 3 s: {shown.get('over_3s', 0):.0f}, "
        f"never shown: {shown.get('errors', 0):.0f}, games ended: {shown.get('ended', 0):.0f}"
    )
    print(
        f"live edits: {memory['live_edits']:.0f} ({memory['live_edits_per_s']:.1f}/s); most "
        f"through one token in 2 s: {memory['max_live_edits_per_token_2s']:.0f} (Discord: 5); "
        f"most to one table's hands in 1 s: {memory['max_live_edits_per_table_1s']:.0f}; "
        f"429s: {memory['rate_limited_429']:.0f}"
    )
    print(
        f"memory: base {memory['rss_base_mb']:.1f} MB, loaded {memory['rss_loaded_mb']:.1f} MB, "
        f"{memory['kb_per_table']:.1f} KB per active table; set-up {memory['setup_s']:.1f} s; "
        f"most writes to one channel in 1 s: {memory['max_writes_per_channel_per_s']}"
    )
    print(
        f"bot CPU: {memory['bot_cpu_ms_per_interaction']:.2f} ms per interaction "
        f"(edits and computer moves included), {memory['bot_cpu_share'] * 100:.0f}% of one core; "
        f"the fake Discord and its users: {memory['driver_cpu_share'] * 100:.0f}%"
    )
    if "commit_p50_ms" in memory:
        print(
            f"commits: p50 {memory['commit_p50_ms']:.2f} ms, p99 {memory['commit_p99_ms']:.2f} ms"
        )
    show_pauses(memory)
    if memory.get("summary_hands"):
        print(
            f"hand summaries: {memory['summary_hands']:.0f} hands ended, "
            f"{memory['summary_with_picture']:.0f} with the deal picture; last card → summary "
            f"p50 {memory['summary_p50_s']:.2f} s, p95 {memory['summary_p95_s']:.2f} s, "
            f"max {memory['summary_max_s']:.2f} s, within 2 s: "
            f"{memory['summary_within_2s'] * 100:.1f}%"
        )
    else:
        print("hand summaries: no hand ended (run longer)")
