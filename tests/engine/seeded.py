"""Games dealt from a seed as the table service deals them (the draw for first dealer, then each
hand's ``seeded_deal``), played at random: the games whose records the verifiable-deals and
record-fields tests check."""

from __future__ import annotations

import random

from bot.engine import Game, Phase, Rules
from bot.engine.dealer import draw_first_dealer
from bot.engine.shuffle import GameSeed


def seeded_game(rules: Rules, seed: GameSeed, hands: int, choices: int = 1) -> Game:
    """A game dealt from ``seed`` as the table service deals it, played at random (the
    generator seeded with ``choices``) until ``hands`` hands are finished (or the game is
    over)."""
    _, dealer = draw_first_dealer(seed.secret, rules.seats)
    game = Game(rules, dealer)
    rng = random.Random(choices)
    while not game.over and len(game.results) < hands:
        if game.phase is Phase.DEAL:
            game.apply(game.seeded_deal(seed.secret))
        else:
            game.apply(rng.choice(game.legal_actions()))
    return game
