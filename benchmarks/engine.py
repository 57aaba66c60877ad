"""Engine speed: complete random hands per second per game, the engine before the shared core
against today's on Spades, and the cost of legal_actions() and apply().

    python benchmarks/engine.py [--seconds 3] [--runs 3] [--seed 1] [--games spades,...]

``--games variants`` measures the games.md G2 presets (solo, cutthroat-3, suicide, whiz,
mirror) and ``renege = claim`` beside standard Spades, and prints each one's ratio to it
(issue 10 asks for every one ≥ 0.8 × standard).

One core.  A "complete random hand" is a deal, the game's own phases (bids; calls and the
dealer's discard) and every card played, each action chosen at random (``random.Random``)
among ``Game.legal_actions()``; a finished game is replaced by a new one.  Euchre hands that
everyone passes (void, no card played) are not counted, though their time is.

Spades is measured twice in the same run: with the frozen copy of the engine as it was before
the shared trick-taking core (``benchmarks/frozen_engine``) and with today's ``bot.engine``;
their runs alternate, so both see the same machine load, and the ratio of the medians is
printed (issue 11 asks for new ≥ 0.9 × old).  Hands per second are measured ``--runs`` times
for ``--seconds`` each; the best and the median run are reported.  A game is restarted after
25 hands (random bids never end a Spades game).  ``legal_actions()`` and ``apply()`` are then
timed alone over states collected from standard Spades hands (game copies made beforehand, so
copying is not counted).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import frozen_engine.game as old_engine
import frozen_engine.rules as old_rules

from bot.engine import Action, Game, Phase, Rules

# Uniformly random bids are nearly always set, so a game would never end and one Game would
# pile up thousands of hand results; a real game lasts 10-25 hands, so start a new one then.
HANDS_PER_GAME = 25

# name: (make a game, the engine's DEAL and OVER phases)
Maker = Callable[[], Any]
SUBJECTS: dict[str, tuple[Maker, Any, Any]] = {
    "spades (engine before the core)": (
        lambda: old_engine.Game(old_rules.Rules.from_preset("standard")),
        old_engine.Phase.DEAL,
        old_engine.Phase.OVER,
    ),
    "spades": (lambda: Game(Rules.from_preset("standard")), Phase.DEAL, Phase.OVER),
    "whist": (lambda: Game(Rules.from_preset("whist")), Phase.DEAL, Phase.OVER),
    "euchre": (lambda: Game(Rules.from_preset("euchre")), Phase.DEAL, Phase.OVER),
}
# games.md G1-G2 (issue 10): each preset, and renege claims, beside standard Spades.
VARIANTS: dict[str, dict[str, Any]] = {
    "solo": {},
    "cutthroat-3": {},
    "suicide": {},
    "whiz": {},
    "mirror": {},
    "standard renege=claim": {"renege": "claim"},
}


def _variant_maker(name: str, overrides: dict[str, Any]) -> Maker:
    preset = name.split()[0]
    return lambda: Game(Rules.from_preset(preset, **overrides))


for _name, _overrides in VARIANTS.items():
    SUBJECTS[_name] = (_variant_maker(_name, _overrides), Phase.DEAL, Phase.OVER)
GAMES = {
    "spades": ("spades (engine before the core)", "spades"),
    "whist": ("whist",),
    "euchre": ("euchre",),
    "variants": ("spades", *VARIANTS),
}


def random_hands(
    subject: tuple[Maker, Any, Any], seconds: float, rng: random.Random
) -> tuple[int, float, float]:
    """Play complete random hands for about ``seconds``: (hands, wall seconds, CPU seconds)."""
    make, deal_phase, over_phase = subject
    game = make()
    hands = 0
    clock = time.perf_counter
    cpu_start = time.process_time()
    start = clock()
    deadline = start + seconds
    while True:
        phase = game.phase
        if phase is deal_phase:
            if clock() >= deadline:
                break
            if game.hand_number > HANDS_PER_GAME:
                game = make()
            game.deal(rng)
            continue
        if phase is over_phase:
            game = make()
            continue
        legal = game.legal_actions()
        before = len(game.results)
        game.apply(legal[rng.randrange(len(legal))])
        if len(game.results) != before and game.results[-1].plays:
            hands += 1
    return hands, clock() - start, time.process_time() - cpu_start


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
    parser.add_argument("--games", default=",".join(GAMES), help="games to measure")
    args = parser.parse_args(argv)
    names = list(dict.fromkeys(n for g in args.games.split(",") for n in GAMES[g.strip()]))
    rng = random.Random(args.seed)
    load = os.getloadavg()[0]
    print(f"machine: {cpu_model()}, {os.cpu_count()} CPUs; one core used")
    print(f"python:  {platform.python_version()} ({platform.python_implementation()})")
    rates: dict[str, list[float]] = {n: [] for n in names}
    cpu_rates: dict[str, list[float]] = {n: [] for n in names}
    for run in range(1, args.runs + 1):
        for name in names:
            hands, wall, cpu = random_hands(SUBJECTS[name], args.seconds, rng)
            rates[name].append(hands / wall)
            cpu_rates[name].append(hands / cpu)
            print(f"run {run} {name}: {hands} hands in {wall:.2f} s = {hands / wall:,.0f} hands/s "
                  f"({hands / cpu:,.0f} per CPU second)")  # fmt: skip
    print("complete random hands per second (best, median; per CPU second best, median):")
    for name in names:
        r, c = rates[name], cpu_rates[name]
        print(f"  {name:32} {max(r):8,.0f} {statistics.median(r):8,.0f}   "
              f"{max(c):8,.0f} {statistics.median(c):8,.0f}")  # fmt: skip
    old, new = GAMES["spades"]
    if old in rates and new in rates:
        ratio = statistics.median(cpu_rates[new]) / statistics.median(cpu_rates[old])
        print(f"spades new/old (median per CPU second): {ratio:.2f}×")
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
