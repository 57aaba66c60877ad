"""The hard player's simulator: play-outs, card searches and bid searches per CPU second, this
checkout against a git revision in the same run.

    python benchmarks/sim.py [--baseline 7bfff83] [--runs 3] [--positions 40] [--worlds 40]

Positions are drawn once (seeded) from random standard games: the deal, the bids of the
``normal`` bidder, then random legal cards for a random number of tricks; a card position is
the seat on turn's view there, a bid position the first bidder's view.  Three measures, each on
the same positions in both trees (each tree in a process of its own, the tree first on
``PYTHONPATH``, as ``benchmarks/engine.py`` runs engines), the trees' runs alternating:

* **play-outs**: a world drawn for the view, played out to the end of the hand by the play-out
  policy (``SpadesHand.start(world).run()``), the worlds drawn beforehand;
* **card worlds**: the hard player's card search (``card_choice`` + ``search_card``) with a
  fixed number of worlds and no clock limit: worlds searched per CPU second;
* **bid worlds**: the bid search (``estimate_bids``) likewise.

Standalone worker (``--worker``): the standard library and that tree's ``bot`` only, through
functions every revision since the simulator has had.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
MEASURES = ("playouts", "card_worlds", "bid_worlds")


def positions(count: int, seed: int) -> tuple[list[Any], list[Any]]:
    """``count`` card views and ``count`` bid views of random standard games."""
    import random

    from bot.ai.rule_bidding import choose_bid
    from bot.engine.game import Game, Phase
    from bot.engine.rules import Rules
    from bot.engine.views import seat_view

    rng = random.Random(seed)
    rules = Rules.from_preset("standard")
    cards: list[Any] = []
    bids: list[Any] = []
    while len(cards) < count:
        game = Game(rules)
        game.deal(rng)
        bids.append(seat_view(game, game.to_act))
        while game.phase is Phase.BID:
            game.apply(choose_bid(seat_view(game, game.to_act)))
        stop = rng.randrange(0, 48)
        while game.phase is Phase.PLAY and len(game.plays) < stop:
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        if game.phase is Phase.PLAY and len(game.legal_actions()) > 1:
            cards.append(seat_view(game, game.to_act))
    return cards, bids[:count]


def measure(count: int, seed: int, worlds: int) -> dict[str, float]:
    """Each measure's rate per CPU second in this process's tree."""
    import random

    from bot.ai.search.bidding import estimate_bids
    from bot.ai.search.spades import SpadesHand
    from bot.ai.search.spades_play import card_choice, search_card

    cards, bids = positions(count, seed)
    out: dict[str, float] = {}
    # Play-outs from every card position, the worlds drawn first.
    starts = []
    for view in cards:
        choice = card_choice(view, random.Random(seed))
        if choice.sampler is None:
            continue
        game = SpadesHand(view)
        starts += [(game, choice.sampler.sample()) for _ in range(worlds)]
    cpu = time.process_time()
    for game, world in starts:
        game.start(world.copy()).run()
    out["playouts"] = len(starts) / (time.process_time() - cpu)
    # Card searches: a fixed number of worlds, no clock limit.
    searched = 0
    cpu = time.process_time()
    for view in cards:
        choice = card_choice(view, random.Random(seed))
        searched += search_card(choice, time.process_time, 1e9, worlds).worlds
    out["card_worlds"] = searched / (time.process_time() - cpu)
    searched = 0
    cpu = time.process_time()
    for view in bids:
        searched += estimate_bids(view, random.Random(seed), 1e9, time.process_time, worlds).worlds
    out["bid_worlds"] = searched / (time.process_time() - cpu)
    return out


def run_tree(root: Path, count: int, seed: int, worlds: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(root)}
    args = [sys.executable, __file__, "--worker", f"--positions={count}", f"--seed={seed}"]
    done = subprocess.run(
        [*args, f"--worlds={worlds}"], env=env, capture_output=True, text=True, check=True
    )
    answer: dict[str, Any] = json.loads(done.stdout)
    found = Path(answer.pop("bot")).resolve()
    if not found.is_relative_to(root.resolve()):
        raise SystemExit(f"sim.py: the code of {root} was imported from {found}")
    return answer


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="7bfff83", help="the git revision compared")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--worlds", type=int, default=40, help="worlds per search")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        import bot
        import bot.engine

        rates = measure(args.positions, args.seed, args.worlds)
        build = getattr(bot.engine, "build_name", lambda: "pure Python")()
        print(json.dumps({"bot": bot.__file__, "build": build, **rates}))
        return 0
    sys.path.insert(0, str(ROOT))
    from tools import revisions

    old_root = revisions.worktree(args.baseline)
    trees = {args.baseline: old_root, "this tree": ROOT}
    load = os.getloadavg()[0]
    print(f"baseline {args.baseline}: {revisions.resolve(args.baseline)[:12]}, run from {old_root}")
    rates: dict[str, dict[str, list[float]]] = {t: {m: [] for m in MEASURES} for t in trees}
    for run in range(1, args.runs + 1):
        for name, root in trees.items():
            got = run_tree(root, args.positions, args.seed, args.worlds)
            if run == 1:
                print(f"{name}: {got['build']}")
            for m in MEASURES:
                rates[name][m].append(got[m])
            print(f"run {run} {name}: " + ", ".join(f"{m} {got[m]:,.0f}/s" for m in MEASURES))
    print("per CPU second, median of the runs (this tree / baseline):")
    for m in MEASURES:
        new = statistics.median(rates["this tree"][m])
        old = statistics.median(rates[args.baseline][m])
        print(f"  {m:12} {old:10,.0f} {new:10,.0f}   {new / old:.2f}×")
    print(f"load average before the runs: {load:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
