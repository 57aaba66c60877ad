"""The computer players' benchmark: duplicate matches of ``hard`` against ``normal``, against
the frozen previous hard level and against an external rule player over the JSON-lines
protocol, each with its 95 % confidence interval and per-level figures.

    python -m benchmarks.arena --deals 2000 --jobs 2          # the full run (hours)
    python -m benchmarks.arena --deals 200 --only prev        # one match while tuning

Run it under ``nice -n 10`` on a shared machine: the hard player searches to the CPU clock of
its thread in the arena, so other jobs change neither its play nor its measured time.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.ai.arena import format_summary, run_match

OPPONENTS = {
    "normal": "normal",
    "prev": "py:benchmarks.prev_hard:PrevHardPlayer",
    "external": "cmd:python -m bot.ai.example_player",
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.arena", description=__doc__)
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--preset", default="standard")
    ap.add_argument("--only", choices=sorted(OPPONENTS), action="append")
    ap.add_argument("--json", default=None, help="write every summary to this file")
    args = ap.parse_args(argv)
    out = {}
    for name in args.only or list(OPPONENTS):
        s = run_match(
            "hard", OPPONENTS[name], args.deals, args.preset, args.seed, args.jobs, progress=True
        )
        print(f"== hard vs {name}")
        print(format_summary(s), flush=True)
        out[name] = s.to_json()
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
