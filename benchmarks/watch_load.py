"""Spectators under load: the load benchmark's players (benchmarks/load.py) with ``--spectators``
members watching every table, against the same load without spectators, in one run.

    python benchmarks/watch_load.py --tables 50 --spectators 20 --duration 120 --think 1.0

Each round runs the same players' load twice, once without and once with spectators (the
order alternates from round to round, so a machine that gets busier does not favour one);
with spectators, once every table is playing, ``--spectators`` new members of each table's
server press **Watch** on its table message and then only watch (the bot edits their views).

Reported per run: the players' interaction latency (dispatch → answer, p50/p95/p99, on the wall
clock and on the fake's Discord clock); for the spectators' views, edits a second, the most
through one interaction token in any 2 s (Discord: 5), and how long after a player's click every
spectator of that table was shown a newer view (p50/p95); the bot's writes to channels (table
messages, summaries: its 40 writes a second) in any 1 s, all channels together and per
channel, and 429s.  Then the ratio of the players' p99 with spectators to without (target:
within 1.2×).

The fake Discord runs without checking requests against Discord's API description (the
tests do that): the instrument shares the machine's cores with the bot.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import os
import statistics
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.load import run_spades
from benchmarks.load_figures import machine, show
from tests.e2e.driver import button, eventually, has, table_message
from tests.fakediscord import Channel, FakeDiscord, Message, max_in_window


class Spectators:
    """``count`` members per table press **Watch** once every table is playing."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.views: dict[int, list[Message]] = defaultdict(list)  # channel id → their views
        self.refused = 0

    async def ready(self, fake: FakeDiscord, channels: list[Channel]) -> None:
        sem = asyncio.Semaphore(32)

        async def watch(ch: Channel, k: int) -> None:
            assert ch.guild is not None
            user = fake.add_user(f"w{ch.id % 100_000}-{k}")
            ch.guild.add_member(user)
            async with sem:
                msg = table_message(fake, ch)
                r = await (await fake.click(user, msg, button(msg, "watch").custom_id)).response(
                    timeout=30
                )
            if r.message is None or "Watching table" not in r.text:
                self.refused += 1
                return
            self.views[ch.id].append(r.message)

        if not self.count:
            return
        for ch in channels:
            await eventually(lambda c=ch: has(table_message(fake, c), "watch"), 60)
        await asyncio.gather(*(watch(ch, k) for ch in channels for k in range(self.count)))

    def figures(
        self, fake: FakeDiscord, channels: list[Channel], started: float, finished: float
    ) -> dict[str, float]:
        views = {m.id for ms in self.views.values() for m in ms}
        edits = [e for e in fake.webhook_edits if e.message.id in views]
        window = [e for e in edits if started <= e.at <= finished]
        by_token: dict[int, list[float]] = defaultdict(list)
        by_view: dict[int, list[float]] = defaultdict(list)
        for e in edits:
            by_token[e.interaction.id].append(e.at)
            by_view[e.message.id].append(e.at)
        lags = []
        for ch in channels:
            clicks = sorted(
                i.dispatched_at
                for i in fake.interactions.values()
                if i.channel is ch and ":play:" in i.name and started <= i.dispatched_at <= finished
            )
            for t in clicks[::5]:  # every fifth card: plenty, and cheap
                worst = 0.0
                for view in self.views.get(ch.id, []):
                    times = by_view.get(view.id, [])
                    k = bisect.bisect_left(times, t)
                    if k == len(times):
                        worst = float("inf")
                        break
                    worst = max(worst, times[k] - t)
                if worst != float("inf"):
                    lags.append(worst)
        lags.sort()
        writes = sorted(t for ch in channels for t in ch.write_times if started <= t <= finished)

        def q(p: float) -> float:
            return lags[min(len(lags) - 1, int(p * len(lags)))] if lags else 0.0

        return {
            "spectators": float(len(views)),
            "spectators_refused": float(self.refused),
            "spectator_edits_per_s": len(window) / max(1e-9, finished - started),
            "spectator_max_per_token_2s": float(
                max((max_in_window(t, 2.0) for t in by_token.values()), default=0)
            ),
            "spectator_lag_p50_s": q(0.50),
            "spectator_lag_p95_s": q(0.95),
            "channel_writes_max_1s": float(max_in_window(writes, 1.0)),
            "channel_writes_max_5s_per_s": max_in_window(writes, 5.0) / 5.0,
            "channel_writes_per_s": len(writes) / max(1e-9, finished - started),
            "channel_writes_max_one_channel_1s": float(
                max((fake.max_writes_per(ch, 1.0) for ch in channels), default=0)
            ),
        }


async def one(
    args: argparse.Namespace, spectators: int
) -> tuple[dict[str, float], dict[str, float]]:
    extra = Spectators(spectators)  # with 0: it only measures
    stats, _, figures = await run_spades(
        args.tables, args.duration, args.think, extra=extra, check_api=False
    )
    summary = stats.summary()
    name = f"{spectators} watching"
    show(name, summary)
    if spectators:
        print(
            f"{'':>14}  spectators: {figures['spectators']:.0f} "
            f"(refused {figures['spectators_refused']:.0f}); their views edited "
            f"{figures['spectator_edits_per_s']:.1f}/s, most through one token in 2 s "
            f"{figures['spectator_max_per_token_2s']:.0f} (Discord: 5); a click → every "
            f"spectator of the table shown newer: p50 {figures['spectator_lag_p50_s']:.2f} s, "
            f"p95 {figures['spectator_lag_p95_s']:.2f} s"
        )
    print(
        f"{'':>14}  channel writes: {figures['channel_writes_per_s']:.1f}/s, "
        f"most in 1 s {figures['channel_writes_max_1s']:.0f}, in 5 s "
        f"{figures['channel_writes_max_5s_per_s']:.1f}/s (the bot's budget: 40/s, bursts of 5), "
        f"most to one channel in 1 s {figures['max_writes_per_channel_per_s']}; "
        f"429s {figures['rate_limited_429']:.0f}; bot CPU {figures['bot_cpu_share'] * 100:.0f}%, "
        f"fake + players {figures['driver_cpu_share'] * 100:.0f}% of one core"
    )
    return summary, figures


async def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--spectators", type=int, default=20, help="spectators per table")
    ap.add_argument("--duration", type=float, default=120.0)
    ap.add_argument("--think", type=float, default=1.0)
    ap.add_argument("--rounds", type=int, default=2, help="pairs of runs (with and without)")
    args = ap.parse_args()
    print(f"machine: {machine()}")
    print(
        f"tables: {args.tables}, spectators per table: {args.spectators}, "
        f"duration: {args.duration:.0f} s, think: {args.think} s, rounds: {args.rounds}"
    )
    without: list[float] = []
    with_: list[float] = []
    for r in range(args.rounds):
        order = (0, args.spectators) if r % 2 == 0 else (args.spectators, 0)
        for n in order:
            print(f"\nround {r + 1}, {n} spectators a table; load average {os.getloadavg()[0]:.2f}")
            summary, _ = await one(args, n)
            (with_ if n else without).append(summary.get("p99_ms", 0.0))
    a, b = statistics.median(without), statistics.median(with_)
    paired = [w / o for w, o in zip(with_, without, strict=True) if o]
    print(
        f"\nplayers' p99: without spectators {', '.join(f'{x:.1f}' for x in without)} ms; "
        f"with {', '.join(f'{x:.1f}' for x in with_)} ms; ratio of the medians "
        f"{b / a if a else float('nan'):.2f}, round by round "
        f"{', '.join(f'{r:.2f}' for r in paired)} (target ≤ 1.2)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
