"""Attribute the load benchmark's slow answers to their causes, from ``load.py --probe DIR``.

    python benchmarks/probe/attribute.py DIR [--over 100]

For every answer slower than ``--over`` ms (dispatch on the fake's gateway → the callback in
the fake), splits its time into: the fake → the bot parsing the INTERACTION_CREATE, the bot's
handler until it starts the callback request, and the callback's trip back; and counts what
overlapped it: the bot's loop steps over 20 ms (CPU they used; what they ran), the bot's
and the driver's loop lag, the bot drawing deal pictures, and the machine's steal time.  Each
slow answer is charged to one cause: the largest of the bot's long steps, the driver's stall,
and the rest (queueing behind many short steps).
"""

from __future__ import annotations

import argparse
import bisect
import json
import statistics
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any


def load(path: Path) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    with path.open() as f:
        for line in f:
            r = json.loads(line)
            out[r["k"]].append(r)
    return out


def overlap(a0: float, a1: float, b0: float, b1: float) -> float:
    return max(0.0, min(a1, b1) - max(a0, b0))


class Intervals:
    def __init__(self, spans: list[tuple[float, float, Any]]) -> None:
        self.spans = sorted(spans, key=lambda s: s[0])
        self.starts = [s[0] for s in self.spans]
        self.longest = max((s[1] - s[0] for s in self.spans), default=0.0)

    def within(self, t0: float, t1: float) -> list[tuple[float, float, Any]]:
        i = bisect.bisect_left(self.starts, t0 - self.longest)
        out = []
        while i < len(self.spans) and self.spans[i][0] < t1:
            s = self.spans[i]
            if s[1] > t0:
                out.append(s)
            i += 1
        return out

    def covered(self, t0: float, t1: float) -> float:
        return sum(overlap(t0, t1, s[0], s[1]) for s in self.within(t0, t1))


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))] if xs else 0.0


def short(stack: list[str], ours: bool = True) -> str:
    """The innermost frame of our code and the innermost frame overall."""
    inner = stack[0] if stack else "?"
    mine = next((f for f in stack if not f.startswith(("asyncio/", "discord/", "aiohttp/"))), inner)
    return inner if mine == inner else f"{mine} … {inner}"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("dir", type=Path)
    ap.add_argument("--over", type=float, default=100.0)
    args = ap.parse_args()
    bots = [load(p) for p in sorted(args.dir.glob("bot-*.jsonl"))]
    bot = max(bots, key=lambda b: len(b["recv"]))
    driver = load(next(iter(args.dir.glob("driver-*.jsonl"))))
    run = driver["run"][0]
    t_start, t_end = run["t"], run["t1"]
    recv = {r["id"]: r["t"] for r in bot["recv"]}
    cbs = {r["id"]: (r["t"], r["t1"]) for r in bot["cb"]}
    acks = [a for a in driver["ack"] if a["id"] in recv and a["id"] in cbs]
    over = args.over / 1000
    slow = [a for a in acks if a["t1"] - a["t"] > over]
    print(f"answers: {len(driver['ack'])}, matched with the bot's records: {len(acks)}")
    lat = [a["t1"] - a["t"] for a in acks]
    print(
        f"ack p50 {pct(lat, 0.5) * 1e3:.1f} p95 {pct(lat, 0.95) * 1e3:.1f} "
        f"p99 {pct(lat, 0.99) * 1e3:.1f} max {max(lat) * 1e3:.1f} ms; "
        f"over {args.over:.0f} ms: {len(slow)} ({len(slow) / len(acks) * 100:.2f} %)"
    )

    bot_steps = Intervals([(s["t"], s["t"] + s["wall"], s) for s in bot["step"]])
    drv_lag = Intervals([(g["t"], g["t"] + g["late"], g) for g in driver["lag"]])
    drv_steps = Intervals([(s["t"], s["t"] + s["wall"], s) for s in driver["step"]])
    pics = Intervals([(p["t"] - 0.01, p["t"], None) for p in bot["pic"]])
    gcs = Intervals([(g["t"], g["t"] + g["wall"], g) for g in bot["gc"]])
    stacks: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for s in bot["stack"]:
        stacks[s["id"]].append(s)

    # Split each slow answer's time.
    seg = defaultdict(list)
    for a in slow:
        r, (c0, _c1) = recv[a["id"]], cbs[a["id"]]
        seg["gateway → bot parsed"].append(r - a["t"])
        seg["bot handler → callback sent"].append(c0 - r)
        seg["callback → fake received"].append(a["t1"] - c0)
    print(f"\nslow answers (> {args.over:.0f} ms): where their time went (median / mean / max ms)")
    for k, xs in seg.items():
        print(
            f"  {k:<30} {statistics.median(xs) * 1e3:7.1f} {statistics.fmean(xs) * 1e3:7.1f} "
            f"{max(xs) * 1e3:7.1f}"
        )

    # Charge each slow answer to a cause.
    causes: Counter[str] = Counter()
    share: defaultdict[str, float] = defaultdict(float)
    for a in slow:
        t0, t1 = a["t"], a["t1"]
        total = t1 - t0
        steps = bot_steps.within(t0, t1)
        in_steps = sum(overlap(t0, t1, s0, s1) for s0, s1, _ in steps)
        drv = drv_lag.covered(t0, t1)
        parts = {"bot: long loop steps (> 20 ms)": in_steps, "driver: its loop late": drv}
        rest = max(0.0, total - in_steps - drv)
        parts["rest (short steps queued, transport)"] = rest
        cause = max(parts, key=lambda k: parts[k])
        causes[cause] += 1
        for k, v in parts.items():
            share[k] += v
    # The bot's loop lag during the slow answers: the main thread running, or waiting.
    blag = Intervals([(g["t"], g["t"] + g["late"], g) for g in bot["lag"] if "span" in g])
    span = ran = queued = 0.0
    for a in slow:
        for _, _, g in blag.within(a["t"], a["t1"]):
            span, ran, queued = span + g["span"], ran + g["ran"], queued + g["queued"]
    if span:
        print(
            f"\nthe bot's late timers during slow answers: of {span:.2f} s its main thread ran "
            f"{ran / span * 100:.0f} %, waited for a CPU {queued / span * 100:.0f} %, neither "
            f"(the interpreter lock, select) {(span - ran - queued) / span * 100:.0f} %"
        )

    print(f"\nslow answers charged to their largest part ({len(slow)}):")
    for k, n in causes.most_common():
        print(f"  {k:<40} {n:5d} ({n / len(slow) * 100:4.1f} %)")
    tot = sum(share.values())
    print("their time in all, by part:")
    for k, v in sorted(share.items(), key=lambda kv: -kv[1]):
        print(f"  {k:<40} {v:7.2f} s ({v / tot * 100:4.1f} %)")

    # The bot's long steps: what they ran, and whether they computed or waited.
    steps = [s for s in bot["step"] if t_start <= s["t"] <= t_end]
    wall = sum(s["wall"] for s in steps)
    print(
        f"\nbot loop steps > 20 ms in the run: {len(steps)}, in all {wall:.2f} s wall, "
        f"{sum(s['cpu'] for s in steps):.2f} s CPU"
    )
    for lo, hi in ((0.02, 0.05), (0.05, 0.1), (0.1, 0.2), (0.2, 10)):
        band = [s for s in steps if lo <= s["wall"] < hi]
        if band:
            drawing = sum(1 for s in band if pics.covered(s["t"], s["t"] + s["wall"]) > 0)
            gc_in = sum(gcs.covered(s["t"], s["t"] + s["wall"]) for s in band)
            print(
                f"  {lo * 1e3:4.0f}-{hi * 1e3:5.0f} ms: {len(band):5d} steps, wall "
                f"{sum(s['wall'] for s in band):6.2f} s, CPU {sum(s['cpu'] for s in band):6.2f} s,"
                f" a picture drawn meanwhile in {drawing}, collector inside {gc_in * 1e3:.0f} ms"
            )
    by_what: Counter[str] = Counter()
    wall_what: defaultdict[str, float] = defaultdict(float)
    for s in steps:
        key = s["what"].split(" > ")[0:3]
        k = " > ".join(key)
        by_what[k] += 1
        wall_what[k] += s["wall"]
    print("  by what they ran (top 15 by wall time):")
    for k, v in sorted(wall_what.items(), key=lambda kv: -kv[1])[:15]:
        print(f"    {v:6.2f} s {by_what[k]:5d}×  {k[:110]}")
    frames: Counter[str] = Counter()
    for ss in stacks.values():
        for s in ss:
            frames[short(s["stack"])] += 1
    print("  stacks sampled inside steps > 40 ms (innermost frames, top 20):")
    for k, n in frames.most_common(20):
        print(f"    {n:5d}  {k[:130]}")
    in_pic = sum(1 for ss in stacks.values() for s in ss if s["drawing"])
    n_st = sum(len(ss) for ss in stacks.values())
    print(f"  samples with a picture thread drawing: {in_pic} of {n_st}")

    # Where slow handlers were suspended (sampled every 20 ms in the bot's loop).
    waits = [w for w in bot["wait"] if t_start <= w["t"] <= t_end]
    if waits:
        ours: Counter[str] = Counter()
        inner: Counter[str] = Counter()
        for w in waits:
            chain = w["chain"]
            mine = [f for f in chain if f.startswith(("bot/", "cogs/"))]
            ours[mine[-1] if mine else "?"] += 1
            inner[" > ".join(chain[-3:])] += 1
        print(f"\nhandlers in flight > 60 ms, sampled every 20 ms: {len(waits)} samples")
        print("  by the innermost frame of our code:")
        for k, n in ours.most_common(15):
            print(f"    {n:6d} ({n / len(waits) * 100:4.1f} %)  {k}")
        print("  by the innermost three frames:")
        for k, n in inner.most_common(12):
            print(f"    {n:6d} ({n / len(waits) * 100:4.1f} %)  {k[:150]}")

    # Loop lag on both sides.
    for name, lags in (("bot", bot["lag"]), ("driver", driver["lag"])):
        lags = [g for g in lags if t_start <= g["t"] <= t_end]
        ls = [g["late"] for g in lags]
        print(
            f"\n{name} loop lag > 5 ms: {len(ls)} times, > 50 ms: "
            f"{sum(1 for x in ls if x > 0.05)}, > 100 ms: {sum(1 for x in ls if x > 0.1)}, "
            f"max {max(ls, default=0) * 1e3:.0f} ms, in all {sum(ls):.2f} s"
        )
        for lo in (0.02, 0.05):
            big = [g for g in lags if g["late"] > lo and "span" in g]
            if big:
                span = sum(g["span"] for g in big)
                ran = sum(g["ran"] for g in big)
                queued = sum(g["queued"] for g in big)
                print(
                    f"  the {len(big)} lags > {lo * 1e3:.0f} ms: of the main thread's time since "
                    f"the previous tick ({span:.2f} s) it ran {ran / span * 100:.0f} %, waited "
                    f"for a CPU {queued / span * 100:.0f} %, neither (the GIL, select) "
                    f"{(span - ran - queued) / span * 100:.0f} %"
                )
    dsteps = [s for s in driver["step"] if t_start <= s["t"] <= t_end]
    print(f"driver loop steps > 20 ms: {len(dsteps)}, top what:")
    dw: defaultdict[str, float] = defaultdict(float)
    for s in dsteps:
        dw[s["what"][:100]] += s["wall"]
    for k, v in sorted(dw.items(), key=lambda kv: -kv[1])[:6]:
        print(f"    {v:6.2f} s  {k}")
    del drv_steps

    # The machine.
    cpu = [c for c in driver["cpu"] if t_start <= c["t"] <= t_end]
    if cpu:
        tot_j = [sum(c["d"]) for c in cpu]
        steal = [c["d"][7] for c in cpu]
        idle = [c["d"][3] + c["d"][4] for c in cpu]
        worst = max(s / max(1, t) for s, t in zip(steal, tot_j, strict=True))
        print(
            f"\nmachine over the run: steal {sum(steal) / max(1, sum(tot_j)) * 100:.2f} % of all "
            f"CPU time (worst 0.5 s: {worst * 100:.1f} %), "
            f"idle {sum(idle) / max(1, sum(tot_j)) * 100:.1f} %"
        )
        first, last = cpu[0]["procs"], cpu[-1]["procs"]
        span = cpu[-1]["t"] - cpu[0]["t"]
        hz_busy = sum(sum(c["d"]) - c["d"][3] - c["d"][4] - c["d"][7] for c in cpu) / 100
        ours = sum(last[k] - first[k] for k in last)
        print(
            f"  busy CPU {hz_busy / span:.2f} cores; "
            f"bot {(last['bot'] - first['bot']) / span:.2f}, "
            f"driver {(last['driver'] - first['driver']) / span:.2f}, everything else "
            f"{(hz_busy - ours) / span:.2f}"
        )
        # Steal and others' CPU around slow answers.
        times = [c["t"] for c in cpu]
        near = []
        for a in slow:
            i = bisect.bisect_left(times, a["t"])
            if i < len(cpu):
                c = cpu[i]
                near.append(c["d"][7] / max(1, sum(c["d"])))
        if near:
            print(
                f"  steal in the 0.5 s sample after each slow answer's start: mean "
                f"{statistics.fmean(near) * 100:.2f} %, max {max(near) * 100:.1f} %"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
