"""Complete random hands of one engine, for ``benchmarks/engine.py``: run with a tree first on
``PYTHONPATH`` (this checkout, or the worktree of an older revision), it reads one JSON request
a line and answers each with one line.

    {"preset": "standard", "overrides": {}, "seconds": 3.0, "seed": 7}
    -> {"hands": 9120, "wall": 3.0002, "cpu": 2.9981}

With ``"subject": "openspiel"`` the hands are OpenSpiel's ``spades`` game (``pyspiel``, when it
is installed) driven from Python the same way; with ``"subject": "bare"``, a minimal
pure-Python loop of the same hand (:func:`bare_hands`): the floor beside the engine.

Standalone on purpose (the standard library and that tree's ``bot.engine`` only: ``Game``,
``Phase``, ``Rules.from_preset``, ``deal(rng)``, ``legal_actions()``, ``apply()``, which every
revision has had), so that an old engine is measured from its own code in its own process.
A "complete random hand" is a deal, the game's own phases and every card played, each action
chosen at random among ``legal_actions()``; a finished game is replaced by a new one, and so is
a game past 25 hands (random bids never end a Spades game).  Euchre hands that everyone passes
(no card played) are not counted, though their time is.
"""

from __future__ import annotations

import itertools
import json
import random
import sys
import time
from collections.abc import Callable
from typing import Any, Final

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
    randrange = rng.randrange
    # The phases as local names: an Enum member read from its class costs about a
    # microsecond, as much as the rest of the loop's own work per action.
    deal, over = Phase.DEAL, Phase.OVER
    game = Game(rules)
    hands = 0
    seen = 0  # game.results counted so far
    clock = time.perf_counter
    cpu_start = time.process_time()
    start = clock()
    deadline = start + seconds
    while True:
        phase = game.phase
        if phase is deal or phase is over:
            results = game.results
            hands += sum(1 for r in results[seen:] if r.plays)
            seen = len(results)
            if clock() >= deadline:
                break
            if phase is over or game.hand_number > HANDS_PER_GAME:
                game = Game(rules)
                seen = 0
                continue
            game.deal(rng)
            continue
        legal = game.legal_actions()
        game.apply(legal[randrange(len(legal))])
    return {"hands": hands, "wall": clock() - start, "cpu": time.process_time() - cpu_start}


def openspiel_hands(seconds: float, seed: int) -> dict[str, Any]:
    """OpenSpiel's ``spades``, one game a hand: the deal (52 chance actions, a card each), four
    bids and 52 cards, every action drawn from ``legal_actions()`` and applied with
    ``apply_action()``, as our loop does (OpenSpiel's game is one hand, scored at its end)."""
    import pyspiel  # type: ignore[import-not-found]

    game = pyspiel.load_game("spades")
    randrange = random.Random(seed).randrange

    def one_hand() -> None:
        state = game.new_initial_state()
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[randrange(len(legal))])

    return hands_for(seconds, one_hand)


def hands_for(seconds: float, one_hand: Callable[[], None]) -> dict[str, Any]:
    """Play ``one_hand()`` again and again for about ``seconds``: hands, wall and CPU seconds."""
    hands = 0
    clock = time.perf_counter
    cpu_start = time.process_time()
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        one_hand()
        hands += 1
    return {"hands": hands, "wall": clock() - start, "cpu": time.process_time() - cpu_start}


SPADES: Final = (1 << 13) - 1  # cards 0..51 are suit * 13 + rank: spades, then three suits
BID_CHOICES: Final = tuple(range(14))  # nil, 1..13


def bare_hands(seconds: float, seed: int) -> dict[str, Any]:
    """The floor: one Spades hand in a few lines of plain Python with the engine's semantics
    for random play (the dealer rotates; four bids drawn among nil and 1..13; every card
    drawn among the legal ones: follow suit, no spade led before spades are broken unless the
    hand holds nothing else; the trick's winner leads; each side's contract, bags and nils
    scored), hands as bitmasks, no objects, no checks."""
    rng = random.Random(seed)
    randrange = rng.randrange
    deck = list(range(52))
    dealers = itertools.cycle(range(4))

    def one_hand() -> None:
        dealer = next(dealers)
        rng.shuffle(deck)
        held = [0, 0, 0, 0]
        for i, c in enumerate(deck):
            held[i & 3] |= 1 << c
        bids = [0, 0, 0, 0]
        for k in range(1, 5):
            bids[(dealer + k) & 3] = BID_CHOICES[randrange(len(BID_CHOICES))]
        turn = (dealer + 1) & 3
        broken = False
        tricks = [0, 0, 0, 0]
        for _ in range(13):
            lead = 0
            best = -1
            winner = turn
            for _ in range(4):
                hand = held[turn]
                allowed = lead or (-1 if broken else ~SPADES)
                legal = hand & allowed or hand
                cards = []
                while legal:
                    low = legal & -legal
                    cards.append(low.bit_length() - 1)
                    legal ^= low
                card = cards[randrange(len(cards))]
                bit = 1 << card
                held[turn] ^= bit
                suit = SPADES << card // 13 * 13
                if not lead:
                    lead = suit
                if bit & SPADES:
                    broken = True
                    power = 100 + card
                else:
                    power = card if suit == lead else -1
                if power > best:
                    best = power
                    winner = turn
                turn = (turn + 1) & 3
            tricks[winner] += 1
            turn = winner
        for side in (0, 1):
            contract = taken = score = 0
            for seat in (side, side + 2):
                if bids[seat]:
                    contract += bids[seat]
                    taken += tricks[seat]
                else:
                    score += -100 if tricks[seat] else 100
                    score += tricks[seat]  # a nil's tricks are bags
            if contract:
                score += 10 * contract + taken - contract if taken >= contract else -10 * contract

    return hands_for(seconds, one_hand)


def main() -> int:
    import bot.engine

    # How this tree's engine runs (compiled by mypyc or pure Python; a revision before the
    # compiled build has no build_name and is pure).
    build = getattr(bot.engine, "build_name", lambda: "pure Python")()
    print(json.dumps({"engine": bot.engine.__file__, "build": build}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        subject = request.get("subject", "engine")
        if subject == "openspiel":
            answer = openspiel_hands(request["seconds"], request["seed"])
        elif subject == "bare":
            answer = bare_hands(request["seconds"], request["seed"])
        else:
            answer = random_hands(
                request["preset"], request["overrides"], request["seconds"], request["seed"]
            )
        print(json.dumps(answer), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
