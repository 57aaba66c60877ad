"""CPU time of the metrics' hooks for one click, in this process (no bot, no Discord): the
counter and histogram calls a played card makes with metrics on, and the same calls with
metrics off.  CPU seconds, not wall clock, so that a busy machine changes little.

    python benchmarks/metrics_hooks.py            # 200,000 clicks each way

A played card, with metrics on: received, answered (its outcome), the first answer's delay,
one commit, two requests to Discord (the callback, one hand's live edit through its token:
each a route template made from the path, and a counter) and one table-message edit
coalesced.  Compare with the bot's CPU per interaction (docs/benchmarks.md, *Discord load*).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import metrics
from bot.monitor import route_template

TOKEN = "aW50ZXJhY3Rpb246MTQ1MjM0NTY3ODkwMTIzNDU2Nzox"  # an interaction token's shape
CALLBACK = f"/api/v10/interactions/1452345678901234567/{TOKEN}/callback"
EDIT = f"/api/v10/webhooks/1234567890123456789/{TOKEN}/messages/1452345678901234999"


def one_click(requests_counted: bool) -> None:
    metrics.received("component", "play")
    metrics.first_answer("component", 0.012)
    metrics.commit("sqlite", "table", 0.00006)
    if requests_counted:  # off, the HTTP trace has no counting hook at all
        metrics.discord_request("POST", route_template(CALLBACK), "2xx")
        metrics.discord_request("PATCH", route_template(EDIT), "2xx")
    metrics.table_write("coalesced")
    metrics.answered("component", "play", "answered")


def cpu_per_click(clicks: int, on: bool) -> float:
    started = time.process_time()
    for _ in range(clicks):
        one_click(on)
    return (time.process_time() - started) / clicks


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--clicks", type=int, default=200_000)
    args = ap.parse_args()
    off = cpu_per_click(args.clicks, on=False)
    metrics.enable("sqlite", ("table",), ("spades",))
    cpu_per_click(1000, on=True)  # the label children made once
    on = cpu_per_click(args.clicks, on=True)
    print(f"metrics off: {off * 1e6:.2f} µs of CPU a click; on: {on * 1e6:.2f} µs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
