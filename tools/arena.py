"""Duplicate matches between computer players (and external programs); the one arena command.

    python -m tools.arena --ns hard --ew normal --deals 2000 --preset standard --seed 1
    python -m tools.arena --bench --deals 2000 --games 100 --jobs 2 --log arena.log
    python -m tools.arena --only prev --deals 200 --games 10 --clock virtual --results runs/m

Every deal is played twice with the partnerships swapped (duplicate), each time as a one-hand
game from 0-0; in solo presets (``solo``, ``cutthroat-3``) once per seat, one player of side A
against a field of side B, rotated round the table (:mod:`tools.solo_arena`).  Full games to
the target are played as well (``--games`` pairs, each pair the same deal stream with the
sides swapped, real bag penalties included; solo: one game per rotation): points per hand and
the share of games won (figures and intervals: :mod:`tools.arena_report`).  A side is a level
(``easy``, ``normal``, ``hard``), ``cmd:COMMAND`` for a program speaking docs/player-protocol.md,
``py:MODULE:CLASS`` for a player class importable from the working directory, or
``git:REV:LEVEL`` for a level as it was at a git revision (:mod:`tools.serve_player`).

The benchmark (``--bench``, or ``--only NAME`` for some) plays ``--side`` (``hard``) against
``normal``, the previous hard (``git:215363d:hard``) and the example external player in turn;
``--results`` is then a directory holding each match's journal, ``--json`` every summary.

Time: built-in and ``py:`` players are timed in CPU time of the deciding thread, and players
that search to a clock (``hard``) are given that CPU clock too, so a busy machine changes
neither what they do nor what is measured; external programs and ``git:`` sides (which search
to their own process's CPU clock) are timed in wall-clock time.  Run long matches under
``nice``; with ``--results`` a stopped match resumes from its journal (Ctrl-C or ``kill``).

Modules: :mod:`tools.arena_players` (the players of each side), :mod:`tools.arena_play` (one
hand or game at a table), :mod:`tools.arena_detail` (``--detail`` log, needless overtakes),
:mod:`tools.arena_report` (figures), :mod:`tools.arena_journal` (``--results``).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import multiprocessing.pool
import random
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.engine.actions import SEATS
from bot.engine.games import preset_names
from bot.engine.rules import Rules
from tools import solo_arena
from tools.arena_detail import DetailLog, hand_record
from tools.arena_journal import Journal, JournalMismatch, match_header
from tools.arena_play import (
    MAX_GAME_HANDS,
    bag_unit,
    make_deal,
    play_game,
    play_hand,
    team_lines,
)
from tools.arena_players import (
    CLOCKS,
    check_side,
    close_players,
    default_budget,
    problems,
    use_clock,
)
from tools.arena_report import (
    Summary,
    TaskResult,
    TeamLine,
    format_summary,
    merge_times,
    summarize,
)

# "The previous hard": the hard level as it was before issue 12 (docs/benchmarks.md).
PREV_HARD = "215363d"


# --------------------------------------------------------------------------- tasks
@dataclass(frozen=True)
class Task:
    kind: str  # "deal" or "game"
    number: int
    seed: int
    rules: Rules
    side_a: str
    side_b: str
    budgets: tuple[tuple[str, float], ...]
    clock: str = "cpu"  # what searching players search to: "cpu" or "virtual"


def run_task(task: Task) -> TaskResult:
    use_clock(task.clock)
    rules = task.rules
    budgets = dict(task.budgets)
    a, b = task.side_a, task.side_b
    result = TaskResult(task.kind, task.number)
    if rules.solo:  # no partnerships to swap: rotate one A round a field of B
        return _run_solo_task(task, result)
    if task.kind == "deal":
        dealer = SEATS[task.number % 4]
        deal = make_deal(rules, random.Random(f"{task.seed}:deal:{task.number}"), dealer)
        diff = 0.0
        diff_eff = 0.0
        for table, (ns, ew) in enumerate(((a, b), (b, a))):
            specs = (ns, ew, ns, ew)
            seed = (task.seed * 1_000_003 + task.number) * 2 + table
            res, times, over, events = play_hand(rules, deal, dealer, specs, seed, budgets)
            merge_times(result.times, times)
            for e in events:
                e["table"] = table
            result.events.extend(events)
            result.hands.append(hand_record(table, ns, res))
            sides = (0, 1) if table == 0 else (1, 0)
            for side, spec in ((sides[0], ns), (sides[1], ew)):
                result.overtakes[side] += over.get(spec, 0)
                result.overtakes_known[side] += over.get(spec + "\0known", 0)
            lines = team_lines(rules, res, sides)
            result.lines.extend(lines)
            pts = {ln.side: ln.points for ln in lines}
            diff += pts[0] - pts[1]
            eff = {ln.side: ln.effective for ln in lines}
            diff_eff += eff[0] - eff[1]
        result.diff = diff / 2
        result.diff_eff = diff_eff / 2
    else:
        for table, (ns, ew) in enumerate(((a, b), (b, a))):
            specs = (ns, ew, ns, ew)
            stream = (
                random.Random(f"{task.seed}:game:{task.number}:{k}")
                for k in range(MAX_GAME_HANDS + 1)
            )
            seed = (task.seed * 1_000_003 + task.number) * 2 + table + 10**12
            game, times = play_game(rules, stream, SEATS[task.number % 4], specs, seed, budgets)
            merge_times(result.times, times)
            sides = (0, 1) if table == 0 else (1, 0)
            for res in game.results:
                result.game_lines.extend(team_lines(rules, res, sides))
            result.game_hands += len(game.results)
            if game.winner is None:
                result.wins.append(-1)
            else:
                team = int(game.winner)
                result.wins.append(team if table == 0 else team ^ 1)
    result.problems = problems()
    return result


def _run_solo_task(task: Task, result: TaskResult) -> TaskResult:
    rules, budgets = task.rules, dict(task.budgets)
    dealer = SEATS[task.number % rules.players]
    seed = task.seed * 1_000_003 + task.number
    if task.kind == "deal":
        deal = make_deal(rules, random.Random(f"{task.seed}:deal:{task.number}"), dealer)
        lines, diff, diff_eff, times = solo_arena.play_deal(
            rules,
            deal,
            dealer,
            task.side_a,
            task.side_b,
            seed,
            budgets,
            play_hand,
            TeamLine,
            bag_unit(rules),
        )
        result.lines, result.diff, result.diff_eff = lines, diff, diff_eff
    else:
        stream = solo_arena.deal_stream(rules, task.seed, task.number, MAX_GAME_HANDS + 1)
        wins, times = solo_arena.play_games(
            rules, stream, dealer, task.side_a, task.side_b, seed + 10**12, budgets, play_game
        )
        result.wins = wins
    merge_times(result.times, times)
    result.problems = problems()
    return result


# --------------------------------------------------------------------------- running
class Progress:
    """A tiny progress bar on stderr."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total = total
        self.done = 0
        self.enabled = enabled
        self.start = time.monotonic()
        self.last = 0.0

    def update(self, n: int = 1) -> None:
        self.done += n
        now = time.monotonic()
        if not self.enabled or (now - self.last < 0.2 and self.done < self.total):
            return
        self.last = now
        width = 30
        frac = self.done / max(1, self.total)
        bar = "#" * int(width * frac) + "." * (width - int(width * frac))
        el = now - self.start
        eta = el / frac - el if frac else 0.0
        print(
            f"\r[{bar}] {self.done}/{self.total} {el:6.0f}s eta {eta:5.0f}s",
            end="",
            file=sys.stderr,
            flush=True,
        )
        if self.done >= self.total:
            print(file=sys.stderr)


def run_match(
    side_a: str,
    side_b: str,
    deals: int,
    preset: str = "standard",
    seed: int = 1,
    jobs: int = 1,
    games: int = 0,
    budgets: dict[str, float] | None = None,
    progress: bool = False,
    rules: Rules | None = None,
    on_result: Callable[[list[TaskResult]], None] | None = None,
    detail: str | None = None,
    results_file: str | None = None,
    clock: str = "cpu",
) -> Summary:
    """Play the match; ``on_result`` is called with the results so far after each task.

    With ``results_file`` (a :class:`~tools.arena_journal.Journal`) every finished task is
    kept there, and the tasks it already holds are not played again: the summary covers them
    all (raises :class:`~tools.arena_journal.JournalMismatch` for another match's file)."""
    rules = rules or Rules.from_preset(preset)
    b = {spec: default_budget(spec) for spec in (side_a, side_b)}
    b.update(budgets or {})
    bt = tuple(sorted(b.items()))
    tasks = [Task("deal", i, seed, rules, side_a, side_b, bt, clock) for i in range(deals)]
    # Full games spread among the deals, so that the figures so far cover both.
    for g in range(games):
        task = Task("game", g, seed, rules, side_a, side_b, bt, clock)
        tasks.insert(g + (g * deals) // games, task)
    journal = None
    results: list[TaskResult] = []
    if results_file:
        journal = Journal(results_file, match_header(side_a, side_b, rules, seed, b, clock))
        wanted = {(t.kind, t.number) for t in tasks}
        results = [r for r in journal.results if (r.kind, r.number) in wanted]
        played = {(r.kind, r.number) for r in results}
        tasks = [t for t in tasks if (t.kind, t.number) not in played]
    bar = Progress(len(tasks), progress)

    log = DetailLog(detail)

    def done(r: TaskResult) -> None:
        results.append(r)
        if journal is not None:
            journal.add(r)
        if r.kind == "deal":
            log.deal(r.number, r.diff, r.diff_eff, r.hands, r.events)
        bar.update()
        if on_result is not None:
            on_result(results)

    if jobs <= 1:
        try:
            for t in tasks:
                done(run_task(t))
        finally:
            close_players()
    else:
        with _worker_pool(jobs) as pool:
            for r in pool.imap_unordered(run_task, tasks, chunksize=1):
                done(r)
    results.sort(key=lambda r: (r.kind, r.number))
    for r in results:
        for p in r.problems[:5]:
            print(f"[{r.kind} {r.number}] {p}", file=sys.stderr)
    return summarize(side_a, side_b, results)


def _worker_pool(jobs: int) -> multiprocessing.pool.Pool:
    """Worker processes that leave Ctrl-C to the parent, which stops the pool: one line, not a
    traceback per worker.  They are started with SIGINT ignored, which a new process inherits
    (and Python keeps), so a worker still starting up ignores it too."""
    ctx = multiprocessing.get_context("spawn")
    if threading.current_thread() is not threading.main_thread():
        return ctx.Pool(jobs)
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        return ctx.Pool(jobs)
    finally:
        signal.signal(signal.SIGINT, before)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def stop_on_term() -> None:
    """``kill`` (SIGTERM) stops a match as Ctrl-C does: the pool is stopped, the finished tasks
    stay in the journal."""
    signal.signal(signal.SIGTERM, _interrupt)


def stopped_line(results: str | None) -> str:
    """What a stopped match says (the command's one line on Ctrl-C or ``kill``)."""
    if results:
        return f"arena: stopped; the finished tasks are kept in {results}: the same command resumes"
    return "arena: stopped (without --results nothing is kept)"


# The benchmark's opponents of the measured side (``--only``), in the order they are played.
OPPONENTS = {
    "normal": "normal",
    "prev": f"git:{PREV_HARD}:hard",
    "external": "cmd:python -m tools.example_player",
}


class Log:
    """Appends the figures so far to a file every ``every`` tasks (``--log``)."""

    def __init__(self, path: str | None, sides: tuple[str, str], every: int) -> None:
        self.path = path
        self.sides = sides
        self.every = every
        self.start = time.monotonic()

    def write(self, text: str) -> None:
        if self.path:
            with open(self.path, "a", encoding="utf-8") as f:
                f.write(text + "\n")

    def __call__(self, results: list[TaskResult]) -> None:
        if not self.path or len(results) % self.every:
            return
        a, b = self.sides
        s = summarize(a, b, sorted(results, key=lambda r: (r.kind, r.number)))
        el = time.monotonic() - self.start
        self.write(f"-- {a} vs {b}: {len(results)} tasks, {el / 60:.1f} min\n{format_summary(s)}")


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="python -m tools.arena",
        description=__doc__.split("\n\n")[0],
        epilog="One match: --ns A --ew B.  The benchmark: --only NAME (repeatable) or --bench "
        f"plays --side against each of {', '.join(OPPONENTS)} ({', '.join(OPPONENTS.values())}).",
    )
    ap.add_argument("--ns", type=check_side, default=None, help="side A (seats N and S first)")
    ap.add_argument("--ew", type=check_side, default=None, help="side B")
    ap.add_argument(
        "--deals",
        type=int,
        default=None,
        help="duplicate deals, each played twice (200; the benchmark 2000)",
    )
    ap.add_argument("--games", type=int, default=0, help="pairs of full games to the target")
    ap.add_argument("--preset", choices=preset_names(), default="standard")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--jobs", type=int, default=None, help="worker processes (1; the benchmark 2 = both cores)"
    )
    ap.add_argument("--budget", type=float, default=None, help="hard: seconds per decision")
    ap.add_argument(
        "--budget-b", type=float, default=None, help="side B's budget (a py: or git: side)"
    )
    ap.add_argument(
        "--clock",
        choices=CLOCKS,
        default="cpu",
        help="what hard searches to: the CPU clock, or a virtual one (repeatable matches)",
    )
    ap.add_argument("--json", default=None, help="also write the summary (or each) as JSON here")
    ap.add_argument("--quiet", action="store_true", help="no progress bar")
    ap.add_argument(
        "--detail",
        default=None,
        help="write one JSON line per deal (difference, hands, each needless overtake) here",
    )
    ap.add_argument(
        "--results",
        default=None,
        help="keep every finished task in this file (the benchmark: NAME.jsonl in this "
        "directory) and resume the match from it",
    )
    ap.add_argument(
        "--only",
        choices=sorted(OPPONENTS),
        action="append",
        help="the benchmark: play --side against this opponent",
    )
    ap.add_argument("--bench", action="store_true", help="the benchmark against every opponent")
    ap.add_argument(
        "--side", type=check_side, default="hard", help="the benchmark's measured side (side A)"
    )
    ap.add_argument("--log", default=None, help="append the figures so far to this file")
    ap.add_argument("--every", type=int, default=50, help="log after this many tasks")
    return ap


def main(argv: list[str] | None = None) -> int:
    ap = parser()
    args = ap.parse_args(argv)
    bench = bool(args.only or args.bench)
    if bench and (args.ns or args.ew):
        ap.error("a match is --ns and --ew, or the benchmark (--only/--bench), not both")
    if args.deals is None:
        args.deals = 2000 if bench else 200
    if args.jobs is None:
        args.jobs = 2 if bench else 1
    matches = (
        [(name, args.side, OPPONENTS[name]) for name in args.only or list(OPPONENTS)]
        if bench
        else [(None, args.ns or "normal", args.ew or "easy")]
    )
    if bench and args.results:
        Path(args.results).mkdir(parents=True, exist_ok=True)
    out: dict[str, Any] = {}
    stop_on_term()
    for name, side_a, side_b in matches:
        log = Log(args.log, (side_a, side_b), args.every)
        log.write(f"== {side_a} vs {name or side_b}: {args.deals} deals, {args.games} game pairs")
        budgets = {"hard": args.budget} if args.budget is not None else {}
        if args.budget_b is not None:
            budgets[side_b] = args.budget_b
        results = args.results
        if name and results:
            results = str(Path(results) / f"{name}.jsonl")
        try:
            summary = run_match(
                side_a,
                side_b,
                args.deals,
                args.preset,
                args.seed,
                args.jobs,
                args.games,
                budgets,
                progress=not (args.quiet or args.log),
                on_result=log,
                detail=args.detail,
                results_file=results,
                clock=args.clock,
            )
        except JournalMismatch as e:
            print(f"arena: {e}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            print(stopped_line(args.results), file=sys.stderr)
            return 130
        text = format_summary(summary)
        log.write(f"== final: {side_a} vs {name or side_b}\n{text}")
        if name:
            print(f"== {side_a} vs {name}")
        print(text, flush=True)
        out[name or "match"] = summary.to_json()
        if args.json:
            Path(args.json).write_text(json.dumps(out if bench else out["match"], indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
