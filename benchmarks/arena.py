"""The computer players' benchmark: duplicate matches of ``hard`` against ``normal``, against
the frozen previous hard level and against an external rule player over the JSON-lines
protocol, each with its 95 % confidence intervals and per-level figures, in one-hand deals
(raw and with bags charged) and in pairs of full games to the target.

    python -m benchmarks.arena --deals 2000 --games 100 --jobs 2 --log arena.log   # full run
    python -m benchmarks.arena --deals 200 --games 10 --only prev                   # tuning

Run it under ``nice -n 10`` on a shared machine: the hard player searches to the CPU clock of
its thread in the arena, so other jobs change neither its play nor its measured time.  With
``--log`` the figures so far are appended to the file every ``--every`` tasks (a long run that
is stopped still leaves its figures).  With ``--results DIR`` each match keeps every finished
task in ``DIR/NAME.jsonl`` and a rerun of the same command resumes it (same seed, sides and
code only), so a 2,000-deal match can be played in several sittings:

    chrt --idle 0 nice -n 19 python -m benchmarks.arena --deals 2000 --jobs 2 --results runs/m
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.ai.arena import run_match, stop_on_term, stopped_line
from bot.ai.arena_journal import JournalMismatch
from bot.ai.arena_report import TaskResult, format_summary, summarize

OPPONENTS = {
    "normal": "normal",
    "prev": "py:benchmarks.prev_hard:PrevHardPlayer",
    "external": "cmd:python -m bot.ai.example_player",
}
DEFAULT = ("normal", "prev", "external")


class Log:
    """Appends the figures so far to a file every ``every`` tasks."""

    def __init__(self, path: str | None, title: str, every: int) -> None:
        self.path = path
        self.title = title
        self.every = every
        self.start = time.monotonic()

    def write(self, text: str) -> None:
        if self.path:
            with open(self.path, "a", encoding="utf-8") as f:
                f.write(text + "\n")

    def __call__(self, results: list[TaskResult]) -> None:
        if len(results) % self.every:
            return
        s = summarize(*self.title.split(" vs "), sorted(results, key=lambda r: (r.kind, r.number)))
        el = time.monotonic() - self.start
        self.write(f"-- {self.title}: {len(results)} tasks, {el / 60:.1f} min\n{format_summary(s)}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.arena", description=__doc__)
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--games", type=int, default=0, help="pairs of full games")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--preset", default="standard")
    ap.add_argument("--only", choices=sorted(OPPONENTS), action="append")
    ap.add_argument("--side", default="hard", help="the player measured (side A)")
    ap.add_argument("--json", default=None, help="write every summary to this file")
    ap.add_argument("--log", default=None, help="append the figures so far to this file")
    ap.add_argument("--every", type=int, default=50, help="log after this many tasks")
    ap.add_argument(
        "--results",
        default=None,
        help="a directory: each match keeps its finished tasks in NAME.jsonl there and resumes",
    )
    args = ap.parse_args(argv)
    if args.results:
        Path(args.results).mkdir(parents=True, exist_ok=True)
    out = {}
    stop_on_term()
    for name in args.only or list(DEFAULT):
        log = Log(args.log, f"{args.side} vs {OPPONENTS[name]}", args.every)
        log.write(f"== {args.side} vs {name}: {args.deals} deals, {args.games} game pairs")
        try:
            s = run_match(
                args.side,
                OPPONENTS[name],
                args.deals,
                args.preset,
                args.seed,
                args.jobs,
                args.games,
                progress=not args.log,
                on_result=log,
                results_file=str(Path(args.results) / f"{name}.jsonl") if args.results else None,
            )
        except JournalMismatch as e:
            print(f"arena: {e}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            print(stopped_line(args.results), file=sys.stderr)
            return 130
        text = format_summary(s)
        log.write(f"== final: {args.side} vs {name}\n{text}")
        print(f"== {args.side} vs {name}")
        print(text, flush=True)
        out[name] = s.to_json()
        if args.json:
            Path(args.json).write_text(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
