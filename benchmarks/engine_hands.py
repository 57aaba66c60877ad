"""Complete random hands of one engine, for ``benchmarks/engine.py``: run with a tree first on
``PYTHONPATH`` (this checkout, or the worktree of an older revision), it reads one JSON request
a line and answers each with one line.

    {"preset": "standard", "overrides": {}, "seconds": 3.0, "seed": 7}
    -> {"hands": 9120, "wall": 3.0002, "cpu": 2.9981}

Standalone on purpose (the standard library and that tree's ``bot.engine`` only: ``Game``,
``Phase``, ``Rules.from_preset``, ``deal(rng)``, ``legal_actions()``, ``apply()``, which every
revision has had), so that an old engine is measured from its own code in its own process.
A "complete random hand" is a deal, the game's own phases and every card played, each action
chosen at random among ``legal_actions()``; a finished game is replaced by a new one, and so is
a game past 25 hands (random bids never end a Spades game).  Euchre hands that everyone passes
(no card played) are not counted, though their time is.
"""

from __future__ import annotations

import json
import random
import sys
import time
from typing import Any

# Uniformly random bids are nearly always set, so a game would never end and one Game would
# pile up thousands of hand results; a real game lasts 10-25 hands, so start a new one then.
HANDS_PER_GAME = 25


def random_hands(
    preset: str, overrides: dict[str, Any], seconds: float, seed: int
) -> dict[str, Any]:
    """Play complete random hands for about ``seconds``: hands, wall and CPU seconds."""
    from bot.engine.game import Game, Phase
    from bot.engine.rules import Rules

    rules = Rules.from_preset(preset, **overrides)
    rng = random.Random(seed)
    game = Game(rules)
    hands = 0
    clock = time.perf_counter
    cpu_start = time.process_time()
    start = clock()
    deadline = start + seconds
    while True:
        phase = game.phase
        if phase is Phase.DEAL:
            if clock() >= deadline:
                break
            if game.hand_number > HANDS_PER_GAME:
                game = Game(rules)
            game.deal(rng)
            continue
        if phase is Phase.OVER:
            game = Game(rules)
            continue
        legal = game.legal_actions()
        before = len(game.results)
        game.apply(legal[rng.randrange(len(legal))])
        if len(game.results) != before and game.results[-1].plays:
            hands += 1
    return {"hands": hands, "wall": clock() - start, "cpu": time.process_time() - cpu_start}


def main() -> int:
    import bot.engine

    print(json.dumps({"engine": bot.engine.__file__}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        answer = random_hands(
            request["preset"], request["overrides"], request["seconds"], request["seed"]
        )
        print(json.dumps(answer), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
