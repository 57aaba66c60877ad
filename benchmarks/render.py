"""CPU a click spends rendering: microseconds of CPU per hand message (``hand_json``, the JSON
every answer and live edit of a hand sends: two per click) in several states, and per table
message (its embed and buttons as discord.py sends them), this checkout against a git revision
in the same run.

    python benchmarks/render.py [--baseline REV] [--runs 3] [--calls 400]

The states are drawn once (seeded) by random legal actions, the same in both trees: Spades
bidding and play, blind nil's face-down hand (House rules), a three-player game, Whist's play,
Euchre's calling, a finished game, each rendered for every seat in English and in French, with
a turn timer and a notice.  Each tree runs in a process of its own (the tree first on
``PYTHONPATH``), the trees' runs alternating; the baseline is the revision's worktree
(:mod:`tools.revisions`) with this tree's compiled engine copied in when the compiled modules'
sources are the same in both (otherwise the baseline runs the pure-Python engine, and says so).
CPU time (``time.process_time``), the median of the runs; the ratio is baseline / this tree.

Standalone worker (``--worker``): the standard library and that tree's ``bot`` only, through
functions both revisions have.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
STATES = (
    # (name, preset, random legal actions after the deal, finish the game)
    ("spades bidding", "standard", 1, False),
    ("spades play", "standard", 14, False),
    ("blind nil (face down)", "house", 0, False),
    ("three players, play", "cutthroat-3", 25, False),
    ("whist play", "short-whist", 9, False),
    ("euchre calling", "euchre", 1, False),
    ("game over", "short", 0, True),
)
LANGUAGES = ("en", "fr")


def tables(seed: int) -> list[tuple[str, Any]]:
    """The tables of :data:`STATES`, each with its game in that state."""
    import random

    from bot.engine import Game, Rules, Seat
    from bot.tables.state import Occupant, Table, TableStatus

    out = []
    for name, preset, actions, finish in STATES:
        rng = random.Random(f"{seed}{name}")
        rules = Rules.from_preset(preset)
        table = Table(id="bench123", guild_id=1, channel_id=2, host_id=3, rules=rules)
        for seat in rules.seats:
            table.seats[seat] = Occupant(100 + int(seat), f"player {seat.name}")
        table.status = TableStatus.PLAYING
        game = Game(rules, Seat.N)
        table.game = game
        game.deal(rng)
        for _ in range(100_000 if finish else actions):
            if game.over:
                break
            if game.to_act is None:
                game.deal(rng)
                continue
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        if finish:
            table.status = TableStatus.FINISHED
        else:
            table.deadline = 1_900_000_000.0
        table.version = 1
        out.append((name, table))
    return out


def measure(seed: int, calls: int) -> dict[str, float]:
    """µs of CPU per hand message of each state (every seat, both languages, alternately) and
    per table message (all states)."""
    from bot.engine import seat_view
    from bot.i18n import use
    from bot.ui.hand.hand import hand_json
    from bot.ui.table.render import table_components, table_embed

    out: dict[str, float] = {}
    states = tables(seed)
    for name, table in states:
        seats = table.game.seating.seats
        pairs = [(lang, s) for lang in LANGUAGES for s in seats]
        jobs = [
            (lang, s, "⚠ Not your turn." if i % 2 else None) for i, (lang, s) in enumerate(pairs)
        ]
        for lang, seat, notice in jobs:  # warm: catalogs compiled, caches as in a running bot
            with use(lang):
                hand_json(table, seat, notice)
        rounds = max(1, calls // len(jobs))
        cpu = time.process_time()
        for _ in range(rounds):
            for lang, seat, notice in jobs:
                with use(lang):
                    hand_json(table, seat, notice)
        out[f"hand: {name}"] = (time.process_time() - cpu) / (rounds * len(jobs)) * 1e6
    total = 0.0
    for table_calls in (calls // 10, calls):
        cpu = time.process_time()
        for i in range(table_calls):
            name, table = states[i % len(states)]
            with use(LANGUAGES[i % 2]):
                view = seat_view(table.game, None)
                table_embed(table, view).to_dict()
                table_components(table).to_components()
        total = (time.process_time() - cpu) / table_calls * 1e6  # the first pass warms
    out["table message (all states)"] = total
    return out


def baseline_tree(rev: str) -> tuple[Path, str]:
    """The worktree of ``rev``, with this tree's compiled modules in it when their sources are
    the same at ``rev``; and which engine it runs."""
    from tools import revisions

    root = revisions.worktree(rev)
    compiled = [*ROOT.glob("*.so"), *(ROOT / "bot").rglob("*.so")]
    if not compiled:
        return root, "pure Python (this tree has no compiled engine)"
    sources = []
    for so in compiled:
        source = so.parent / (so.name.split(".")[0] + ".py")
        if source.exists():
            sources.append(str(source.relative_to(ROOT)))
    same = subprocess.run(["git", "diff", "--quiet", rev, "--", *sources], cwd=ROOT, check=False)
    if same.returncode != 0:
        return root, "pure Python (the compiled modules' sources differ)"
    for so in compiled:
        target = root / so.relative_to(ROOT)
        if not target.exists():
            shutil.copy(so, target)  # newer than its source: not taken for a stale build
    return root, "this tree's compiled engine"


def run_tree(root: Path, seed: int, calls: int) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    args = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--worker",
        f"--seed={seed}",
        f"--calls={calls}",
    ]
    done = subprocess.run(args, env=env, capture_output=True, text=True, check=True, cwd=root)
    answer: dict[str, Any] = json.loads(done.stdout)
    found = Path(answer.pop("bot")).resolve()
    if not found.is_relative_to(root.resolve()):
        raise SystemExit(f"render.py: the code of {root} was imported from {found}")
    return answer


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", help="a git revision measured beside this tree")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--calls", type=int, default=400, help="renders per state and run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        import bot
        import bot.engine

        figures = measure(args.seed, args.calls)
        build = getattr(bot.engine, "build_name", lambda: "pure Python")()
        print(json.dumps({"bot": bot.__file__, "build": build, **figures}))
        return 0
    sys.path.insert(0, str(ROOT))
    trees = {"this tree": ROOT}
    load = os.getloadavg()
    if args.baseline:
        from tools import revisions

        old_root, engine = baseline_tree(args.baseline)
        trees = {args.baseline: old_root, **trees}
        commit = revisions.resolve(args.baseline)[:12]
        print(f"baseline {args.baseline}: {commit}, run from {old_root} with {engine}")
    figures: dict[str, dict[str, list[float]]] = {t: {} for t in trees}
    for run in range(1, args.runs + 1):
        for name, root in trees.items():
            got = run_tree(root, args.seed, args.calls)
            if run == 1:
                print(f"{name}: engine {got.pop('build')}")
            got.pop("build", None)
            for measure_name, value in got.items():
                figures[name].setdefault(measure_name, []).append(value)
    print(f"µs of CPU per render, median of {args.runs} runs:")
    names = list(trees)
    print(
        f"  {'':28}" + "".join(f"{n[:12]:>14}" for n in names) + ("      ratio" * (len(names) > 1))
    )
    for measure_name in figures["this tree"]:
        values = [statistics.median(figures[n][measure_name]) for n in names]
        ratio = f"   {values[0] / values[-1]:.2f}×" if len(values) > 1 else ""
        print(f"  {measure_name:28}" + "".join(f"{v:14.1f}" for v in values) + ratio)
    print(f"load average before the runs: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
