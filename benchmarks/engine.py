"""Engine speed: complete random hands per second per game, an older revision's engine against
today's on Spades, OpenSpiel's Spades and a bare loop beside them, and the cost of
legal_actions() and apply().

    python benchmarks/engine.py [--seconds 3] [--runs 3] [--seed 1] [--games spades,...]
                                [--baseline REV ...]

``--games variants`` measures the games.md G2 presets (solo, cutthroat-3, suicide, whiz,
mirror) and ``renege = claim`` beside standard Spades, and prints each one's ratio to it
(issue 10 asks for every one ≥ 0.8 × standard).

One core.  Random hands are played by ``benchmarks/engine_hands.py`` (what a "complete random
hand" is: there), one process per engine: this checkout's, and for each ``--baseline`` the
engine of that git revision, run from its worktree (:mod:`tools.revisions`) with the worktree
first on ``PYTHONPATH``.  The default baseline, 215363d, is the engine before the shared
trick-taking core (issue 11 asks for new ≥ 0.9 × old); ``--baseline HEAD`` (or any revision)
measures a change against the code before it.  Spades is played by every engine in the same
run, the runs alternating so that all see the same machine load, and the ratio of the medians
is printed.  Beside them (``--games spades``): OpenSpiel's ``spades`` driven from Python the same
way, when ``pyspiel`` imports (``pip install open-spiel``: optional, not a dependency), and the
bare loop, a minimal pure-Python hand with the same semantics (``engine_hands.py``), with the
ratios of today's engine to each.  Hands per second are measured ``--runs`` times for
``--seconds`` each; the best and the median run are reported.  ``legal_actions()`` and
``apply()`` are then timed alone over states collected from standard Spades hands (game copies
made beforehand, so copying is not counted).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # as a script: bot and tools

from bot.engine import Action, Game, Phase, Rules
from tools import revisions

ROOT = Path(__file__).resolve().parents[1]
HANDS = Path(__file__).resolve().parent / "engine_hands.py"
HANDS_PER_GAME = 25  # as engine_hands.py: a game is restarted after this many hands
BASELINE = "215363d"  # the engine before the shared trick-taking core (issue 11)

# games.md G1-G2 (issue 10): each preset, and renege claims, beside standard Spades.
VARIANTS: dict[str, dict[str, Any]] = {
    "solo": {},
    "cutthroat-3": {},
    "suicide": {},
    "whiz": {},
    "mirror": {},
    "standard renege=claim": {"renege": "claim"},
}


class Engine:
    """``engine_hands.py`` running one tree's engine in a process of its own."""

    def __init__(self, root: Path) -> None:
        env = {**os.environ, "PYTHONPATH": str(root)}
        self.proc = subprocess.Popen(
            [sys.executable, str(HANDS)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        self.stdin: IO[str] = self.proc.stdin  # type: ignore[assignment]
        self.stdout: IO[str] = self.proc.stdout  # type: ignore[assignment]
        hello = json.loads(self.stdout.readline())
        found = Path(hello["engine"]).resolve()
        if not found.is_relative_to(root.resolve()):
            raise SystemExit(f"engine.py: the engine of {root} was imported from {found}")
        self.build: str = hello["build"]

    def hands(
        self,
        preset: str,
        overrides: dict[str, Any],
        seconds: float,
        seed: int,
        subject: str = "engine",
    ) -> Any:
        request = {
            "preset": preset,
            "overrides": overrides,
            "seconds": seconds,
            "seed": seed,
            "subject": subject,
        }
        self.stdin.write(json.dumps(request) + "\n")
        self.stdin.flush()
        return json.loads(self.stdout.readline())

    def close(self) -> None:
        self.stdin.close()
        self.proc.wait()


# Hands that are not the engine's, played by engine_hands.py beside it: by subject name.
OTHERS: dict[str, str] = {"openspiel": "openspiel", "bare loop": "bare"}


def has_openspiel() -> bool:
    return importlib.util.find_spec("pyspiel") is not None


def subjects(baselines: list[str]) -> dict[str, tuple[str | None, str, dict[str, Any]]]:
    """Every subject by name: (the revision, or None for this checkout; preset; overrides)."""
    out: dict[str, tuple[str | None, str, dict[str, Any]]] = {
        f"spades @{rev}": (rev, "standard", {}) for rev in baselines
    }
    out.update({"spades": (None, "standard", {}), "whist": (None, "whist", {}),
                "euchre": (None, "euchre", {})})  # fmt: skip
    for name, overrides in VARIANTS.items():
        out[name] = (None, name.split()[0], overrides)
    for name in OTHERS:
        out[name] = (None, "standard", {})
    return out


def collect_states(count: int, rng: random.Random) -> list[tuple[Game, Action]]:
    """``count`` decision points of random standard games, each a game copy and its action."""
    rules = Rules.from_preset("standard")
    states: list[tuple[Game, Action]] = []
    game = Game(rules)
    while len(states) < count:
        if game.phase is Phase.DEAL:
            if game.hand_number > HANDS_PER_GAME:
                game = Game(rules)
            game.deal(rng)
            continue
        if game.phase is Phase.OVER:
            game = Game(rules)
            continue
        legal = game.legal_actions()
        action = legal[rng.randrange(len(legal))]
        states.append((game.clone(), action))
        game.apply(action)
    return states


def time_legal_actions(states: list[tuple[Game, Action]], repeat: int) -> float:
    """Mean seconds per legal_actions() call (best of ``repeat`` passes)."""
    games = [g for g, _ in states]
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for g in games:
            g.legal_actions()
        best = min(best, time.perf_counter() - start)
    return best / len(games)


def time_apply(states: list[tuple[Game, Action]], repeat: int) -> float:
    """Mean seconds per apply() of a legal action (best of ``repeat`` passes on fresh copies)."""
    best = float("inf")
    for _ in range(repeat):
        pairs = [(g.clone(), a) for g, a in states]
        start = time.perf_counter()
        for g, a in pairs:
            g.apply(a)
        best = min(best, time.perf_counter() - start)
    return best / len(states)


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="length of each run")
    parser.add_argument("--runs", type=int, default=3, help="number of runs per subject")
    parser.add_argument("--states", type=int, default=50_000, help="states for the call timings")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", default="spades,whist,euchre,variants", help="games measured")
    parser.add_argument(
        "--baseline",
        action="append",
        default=None,
        help=f"a git revision whose engine plays Spades too (default {BASELINE})",
    )
    args = parser.parse_args(argv)
    baselines = args.baseline or [BASELINE]
    try:
        roots = {rev: revisions.worktree(rev) for rev in baselines}
    except revisions.RevisionError as e:
        parser.error(str(e))
    others = [n for n in OTHERS if n != "openspiel" or has_openspiel()]
    games = {
        "spades": (*(f"spades @{rev}" for rev in baselines), "spades", *others),
        "whist": ("whist",),
        "euchre": ("euchre",),
        "variants": ("spades", *VARIANTS),
    }
    wanted = [g.strip() for g in args.games.split(",")]
    if unknown := [g for g in wanted if g not in games]:
        parser.error(f"no game {unknown[0]!r}: choose among {', '.join(games)}")
    names = list(dict.fromkeys(n for g in wanted for n in games[g]))
    table = subjects(baselines)
    engines = {rev: Engine(roots[rev] if rev else ROOT) for rev in {table[n][0] for n in names}}
    rng = random.Random(args.seed)
    load = os.getloadavg()[0]
    print(f"machine: {cpu_model()}, {os.cpu_count()} CPUs; one core used")
    print(f"python:  {platform.python_version()} ({platform.python_implementation()})")
    for rev in baselines:
        print(f"baseline {rev}: {revisions.resolve(rev)[:12]}, run from {roots[rev]}")
    for rev, engine in engines.items():
        print(f"engine of {rev or 'this checkout'}: {engine.build}")
    rates: dict[str, list[float]] = {n: [] for n in names}
    cpu_rates: dict[str, list[float]] = {n: [] for n in names}
    for run in range(1, args.runs + 1):
        for name in names:
            rev, preset, overrides = table[name]
            subject = OTHERS.get(name, "engine")
            got = engines[rev].hands(preset, overrides, args.seconds, rng.getrandbits(32), subject)
            hands, wall, cpu = got["hands"], got["wall"], got["cpu"]
            rates[name].append(hands / wall)
            cpu_rates[name].append(hands / cpu)
            print(f"run {run} {name}: {hands} hands in {wall:.2f} s = {hands / wall:,.0f} hands/s "
                  f"({hands / cpu:,.0f} per CPU second)")  # fmt: skip
    for engine in engines.values():
        engine.close()
    print("complete random hands per second (best, median; per CPU second best, median):")
    for name in names:
        r, c = rates[name], cpu_rates[name]
        print(f"  {name:32} {max(r):8,.0f} {statistics.median(r):8,.0f}   "
              f"{max(c):8,.0f} {statistics.median(c):8,.0f}")  # fmt: skip
    for rev in baselines:
        old = f"spades @{rev}"
        if old in rates and "spades" in rates:
            ratio = statistics.median(cpu_rates["spades"]) / statistics.median(cpu_rates[old])
            print(f"spades new/{rev} (median per CPU second): {ratio:.3f}×")
    for other in OTHERS:
        if other in rates and "spades" in rates:
            ratio = statistics.median(cpu_rates["spades"]) / statistics.median(cpu_rates[other])
            print(f"spades / {other} (median per CPU second): {ratio:.3f}×")
    if "spades" in rates and "spades" in wanted and not has_openspiel():
        print("openspiel: not installed (pip install open-spiel to measure it beside)")
    if "spades" in rates:
        base = statistics.median(cpu_rates["spades"])
        for name in VARIANTS:
            if name in rates:
                ratio = statistics.median(cpu_rates[name]) / base
                print(f"{name} / standard (median per CPU second): {ratio:.2f}×")
    print(f"load average before the runs: {load:.2f}")

    states = collect_states(args.states, rng)
    plays = sum(1 for g, _ in states if g.phase is Phase.PLAY)
    legal = time_legal_actions(states, 5)
    apply = time_apply(states, 5)
    print(f"legal_actions(): {legal * 1e6:.2f} µs per call (mean over {len(states):,} states, "
          f"{plays / len(states):.0%} of them in play)")  # fmt: skip
    print(f"apply():         {apply * 1e6:.2f} µs per call (a random legal action)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
