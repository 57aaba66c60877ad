"""The CPU a review and a hint cost: this tree beside an earlier revision's, in one run.

Reviews and hints search a fixed number of worlds (48 a decision: bot/review/analysis.py,
bot/ai/hints.py), not a time, so a faster engine and simulator show as less CPU for the same
answer.  Each subject runs in a process of its own on a tree of its own (``--baseline REV``: that
revision's worktree, :mod:`tools.revisions`), rounds alternating, and the medians are compared:

    python benchmarks/search_cpu.py --baseline 7bfff83            # reviews and hints
    python benchmarks/search_cpu.py --baseline 7bfff83 --rounds 3 --hints 40

Review: every decision of ``tests/engine/records/standard.json`` (a 10-hand game) analysed in
the service's chunks, CPU (``time.process_time``) per judged decision.  Hints: the hint the
bot would give (``hint_for``: the hard player's choice and its runner-up) at the first
``--hints`` decisions of that game that have more than one legal action, CPU per hint.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tools import revisions  # noqa: E402 - after the project's root is on the path

RECORD = ROOT / "tests" / "engine" / "records" / "standard.json"


def child(tree: Path, hints: int) -> dict[str, Any]:
    """Measure in this process, importing ``bot`` from ``tree``."""
    sys.path.insert(0, str(tree))
    from bot.ai.hints import hint_for
    from bot.review.analysis import CHUNK, DECISION_WORLDS, analyse_chunk
    from bot.review.decisions import decision_views, replay_game

    doc = json.loads(RECORD.read_text(encoding="utf-8"))
    total = len(replay_game(doc).decisions)
    cpu = 0.0
    judged = 0
    for start in range(0, total, CHUNK):
        part = analyse_chunk(doc, list(range(start, min(total, start + CHUNK))), "bench")
        cpu += part.cpu_s
        judged += len(part.opinions)
    positions = [view for _d, view in decision_views(doc, set(range(total))) if len(view.legal) > 1]
    asked = positions[:hints]
    t0 = time.process_time()
    for i, view in enumerate(asked):
        hint_for(view, 1000 + i)
    hint_cpu = time.process_time() - t0
    engine = "?"
    try:
        from bot.engine import build

        engine = "compiled" if getattr(build, "COMPILED", False) else "pure Python"
    except ImportError:
        engine = "pure Python (before the compiled build)"
    return {
        "worlds": DECISION_WORLDS,
        "review_cpu_s": cpu,
        "review_ms_per_judged": cpu / max(1, judged) * 1000,
        "judged": judged,
        "hints": len(asked),
        "hint_ms": hint_cpu / max(1, len(asked)) * 1000,
        "engine": engine,
        "from": str(Path(sys.modules["bot"].__file__ or "").parent),
    }


def measure(tree: Path, hints: int) -> dict[str, Any]:
    cmd = [sys.executable, __file__, "--child", str(tree), "--hints", str(hints)]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=tree)
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--baseline", help="a git revision to measure beside this tree")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--hints", type=int, default=40, help="positions asked for a hint")
    ap.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child is not None:
        print(json.dumps(child(args.child, args.hints)))
        return 0
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.1f}"
    )
    subjects = {"this tree": ROOT}
    if args.baseline:
        try:
            subjects[args.baseline] = revisions.worktree(args.baseline)
        except revisions.RevisionError as e:
            ap.error(str(e))
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in subjects}
    for _ in range(args.rounds):
        for name, tree in subjects.items():
            runs[name].append(measure(tree, args.hints))
    first = next(iter(runs.values()))[0]
    print(
        f"{RECORD.name}: {first['judged']} judged decisions, {first['worlds']} worlds each; "
        f"{first['hints']} hints; {args.rounds} rounds, alternating; medians of CPU"
    )
    med = {
        name: {k: statistics.median(r[k] for r in rs) for k in ("review_ms_per_judged", "hint_ms")}
        for name, rs in runs.items()
    }
    for name, m in med.items():
        print(
            f"  {name:>12} ({runs[name][0]['engine']}): review {m['review_ms_per_judged']:.1f} ms "
            f"a judged decision, hint {m['hint_ms']:.1f} ms   [bot from {runs[name][0]['from']}]"
        )
    if args.baseline:
        ours, base = med["this tree"], med[args.baseline]
        print(
            f"  this tree / {args.baseline}: review "
            f"{ours['review_ms_per_judged'] / base['review_ms_per_judged']:.2f}x the CPU, "
            f"hint {ours['hint_ms'] / base['hint_ms']:.2f}x"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
