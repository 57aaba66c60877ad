"""Engine speed: complete random hands per second, and the cost of legal_actions() and apply().

    python benchmarks/engine.py [--seconds 3] [--runs 3] [--seed 1]

One core, standard preset.  A "complete random hand" is a deal, four bids and 52 plays, every
action chosen at random (``random.Random``) among ``Game.legal_actions()``; a finished game is
replaced by a new one.  Hands per second are measured ``--runs`` times for ``--seconds`` each;
the best and the median run are reported.  A game is restarted after 25 hands (random bids
never end one).  ``legal_actions()`` and ``apply()`` are then timed
alone over states collected from such hands (game copies made beforehand, so copying is not
counted).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.engine import Action, Game, Phase, Rules

RULES = Rules.from_preset("standard")
# Uniformly random bids are nearly always set, so a game would never end and one Game would
# pile up thousands of hand results; a real game lasts 10-25 hands, so start a new one then.
HANDS_PER_GAME = 25


def random_hands(seconds: float, rng: random.Random) -> tuple[int, float, float]:
    """Play complete random hands for about ``seconds``: (hands, wall seconds, CPU seconds)."""
    game = Game(RULES)
    hands = 0
    clock = time.perf_counter
    cpu_start = time.process_time()
    start = clock()
    deadline = start + seconds
    while True:
        if game.phase is Phase.DEAL:
            if clock() >= deadline:
                break
            if game.hand_number > HANDS_PER_GAME:
                game = Game(RULES)
            game.deal(rng)
        elif game.phase is Phase.OVER:
            game = Game(RULES)
            continue
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
        if game.phase is Phase.DEAL or game.phase is Phase.OVER:
            hands += 1
    return hands, clock() - start, time.process_time() - cpu_start


def collect_states(count: int, rng: random.Random) -> list[tuple[Game, Action]]:
    """``count`` decision points of random standard games, each a game copy and its action."""
    states: list[tuple[Game, Action]] = []
    game = Game(RULES)
    while len(states) < count:
        if game.phase is Phase.DEAL:
            if game.hand_number > HANDS_PER_GAME:
                game = Game(RULES)
            game.deal(rng)
            continue
        if game.phase is Phase.OVER:
            game = Game(RULES)
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
    parser.add_argument("--runs", type=int, default=3, help="number of runs")
    parser.add_argument("--states", type=int, default=50_000, help="states for the call timings")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    load = os.getloadavg()[0]
    print(f"machine: {cpu_model()}, {os.cpu_count()} CPUs; one core used")
    print(f"python:  {platform.python_version()} ({platform.python_implementation()})")
    rates = []
    cpu_rates = []
    for run in range(1, args.runs + 1):
        hands, wall, cpu = random_hands(args.seconds, rng)
        rates.append(hands / wall)
        cpu_rates.append(hands / cpu)
        print(f"run {run}: {hands} hands in {wall:.2f} s = {hands / wall:,.0f} hands/s "
              f"({hands / cpu:,.0f} per CPU second)")  # fmt: skip
    print(f"complete random hands per second: best {max(rates):,.0f}, "
          f"median {statistics.median(rates):,.0f}")  # fmt: skip
    print(f"  per CPU second (unaffected by other load): best {max(cpu_rates):,.0f}, "
          f"median {statistics.median(cpu_rates):,.0f}")  # fmt: skip
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
