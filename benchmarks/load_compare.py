"""Comparisons of the load benchmark (benchmarks/load.py) within one run: database backends and
process counts (``--database``, ``--processes``), and metrics on against off
(``--metrics both``).

    python benchmarks/load.py --tables 200 --duration 60 --think 1.0 --metrics both --pairs 3

Metrics on: ``METRICS_PORT`` set, and the endpoint scraped every ``--scrape-every`` seconds
during the measured window (Prometheus' default is 15 s: every 5 s is the harsher case).  Off:
no ``METRICS_PORT`` (the bot counts nothing).  Each run is a fresh bot process and database;
the pairs alternate their order (off-on, on-off, …) so that a machine growing busier or quieter
during the run weighs on both.  Printed: each run's answer latency (dispatch → answer, p50/p99)
and the bot's CPU per interaction, each pair's p99 ratio, their median, and the pooled ratio
(all the answers of each side together); the load average before and after each run.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time

from benchmarks.load import run_spades
from benchmarks.load_figures import Stats, show, show_pauses
from tests.fakediscord import Channel, FakeDiscord
from tests.pgserver import PostgresServer, free_port
from tests.scrape import scrape


async def compare(args: argparse.Namespace) -> None:
    """Every --database × --processes combination in one run; ratios to the first."""
    databases = args.database.split(",")
    counts = [int(n) for n in args.processes.split(",")]
    combos = [(d, n) for d in databases for n in counts if d == "postgresql" or n == 1]
    server = PostgresServer(durable=True).start() if "postgresql" in databases else None
    results = []
    try:
        for database, processes in combos:
            url = await server.create_database("load") if database == "postgresql" else None
            load0 = os.getloadavg()[0]
            stats, _, extra = await run_spades(
                args.tables, args.duration, args.think, url, processes
            )
            s = stats.summary()
            name = f"{database}/{processes}"
            show(name, s)
            print(
                f"        commits: {extra.get('commits', 0):.0f}, "
                f"p50 {extra.get('commit_p50_ms', 0):.2f} ms, "
                f"p99 {extra.get('commit_p99_ms', 0):.2f} ms; "
                f"load average {load0:.2f} → {os.getloadavg()[0]:.2f}; CPU: bots "
                f"{extra['bot_cpu_share'] * 100:.0f}%, "
                f"driver {extra['driver_cpu_share'] * 100:.0f}% of one core"
            )
            show_pauses(extra)
            results.append((name, processes * args.tables, s, extra))
    finally:
        if server is not None:
            server.stop()
    name0, _, s0, x0 = results[0]
    print(f"\nratios to {name0} (same run):")
    print(
        f"{'':>14} {'tables':>6} {'ack p50':>8} {'ack p99':>8} "
        f"{'commit p50':>10} {'commit p99':>10}"
    )
    for name, tables, s, x in results:

        def ratio(a: float | None, b: float | None) -> str:
            return f"{a / b:.2f}" if a and b else "-"

        print(
            f"{name:>14} {tables:>6} {ratio(s.get('p50_ms'), s0.get('p50_ms')):>8} "
            f"{ratio(s.get('p99_ms'), s0.get('p99_ms')):>8} "
            f"{ratio(x.get('commit_p50_ms'), x0.get('commit_p50_ms')):>10} "
            f"{ratio(x.get('commit_p99_ms'), x0.get('commit_p99_ms')):>10}"
        )


class Scraper:
    """Prometheus's part (an ``Extra`` of :func:`run_spades`): scrape the bot's endpoint every
    ``every`` seconds from the moment every table plays until the figures are taken."""

    def __init__(self, port: int, every: float) -> None:
        self.port, self.every = port, every
        self.took: list[float] = []
        self.series = 0
        self._task: asyncio.Task[None] | None = None

    async def ready(self, fake: FakeDiscord, channels: list[Channel]) -> None:
        self._task = asyncio.create_task(self._scrape())

    async def _scrape(self) -> None:
        while True:
            started = time.monotonic()
            exposition = await scrape(self.port)
            self.took.append(time.monotonic() - started)
            self.series = sum(1 for _ in exposition.samples())
            await asyncio.sleep(self.every)

    def figures(
        self, fake: FakeDiscord, channels: list[Channel], started: float, finished: float
    ) -> dict[str, float]:
        if self._task is not None:
            self._task.cancel()
        took = sorted(self.took) or [0.0]
        return {
            "scrapes": len(self.took),
            "scrape_max_ms": took[-1] * 1000,
            "scrape_p50_ms": took[len(took) // 2] * 1000,
            "series": self.series,
        }


async def metrics_run(args: argparse.Namespace, on: bool) -> tuple[Stats, dict[str, float]]:
    load0 = os.getloadavg()[0]
    scraper = Scraper(free_port(), args.scrape_every) if on else None
    env = {"METRICS_PORT": str(scraper.port)} if scraper is not None else {}
    stats, _, figures = await run_spades(
        args.tables, args.duration, args.think, extra=scraper, env=env
    )
    figures["load_before"], figures["load_after"] = load0, os.getloadavg()[0]
    name = "metrics on" if on else "metrics off"
    show(name, stats.summary())
    scraped = (
        f"; {figures['scrapes']:.0f} scrapes of {figures['series']:.0f} series, "
        f"p50 {figures['scrape_p50_ms']:.1f} ms, max {figures['scrape_max_ms']:.1f} ms"
        if on
        else ""
    )
    print(
        f"{'':>14}  bot CPU {figures['bot_cpu_ms_per_interaction']:.2f} ms an interaction, "
        f"load average {load0:.2f} → {figures['load_after']:.2f}{scraped}"
    )
    show_pauses(figures)
    return stats, figures


async def compare_metrics(args: argparse.Namespace) -> None:
    """``--pairs`` pairs of runs, metrics off and on, in alternating order."""
    pairs: list[tuple[Stats, Stats, float, float]] = []
    for i in range(args.pairs):
        order = (False, True) if i % 2 == 0 else (True, False)
        print(f"\npair {i + 1} ({' then '.join('on' if o else 'off' for o in order)}):")
        runs = {on: await metrics_run(args, on) for on in order}
        (off, off_x), (on, on_x) = runs[False], runs[True]
        pairs.append(
            (off, on, off_x["bot_cpu_ms_per_interaction"], on_x["bot_cpu_ms_per_interaction"])
        )
    print("\npair   off p99   on p99   ratio   CPU ms/interaction off → on")
    ratios = []
    for i, (off, on, cpu_off, cpu_on) in enumerate(pairs, 1):
        a, b = off.summary(), on.summary()
        ratios.append(b["p99_ms"] / a["p99_ms"])
        print(
            f"{i:>4} {a['p99_ms']:7.1f} ms {b['p99_ms']:6.1f} ms {ratios[-1]:6.2f}   "
            f"{cpu_off:.2f} → {cpu_on:.2f}"
        )
    pooled = [Stats(latencies=[x for p in pairs for x in p[side].latencies]) for side in (0, 1)]
    off_all, on_all = (p.summary() for p in pooled)
    print(
        f"median ratio {statistics.median(ratios):.2f}; pooled p99 {off_all['p99_ms']:.1f} → "
        f"{on_all['p99_ms']:.1f} ms, ratio {on_all['p99_ms'] / off_all['p99_ms']:.2f} "
        f"({off_all['count']:.0f} and {on_all['count']:.0f} answers)"
    )
