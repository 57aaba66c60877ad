"""Shared fixtures of the computer-player tests."""

from __future__ import annotations

import random
from collections.abc import Sequence

from bot.ai.hard import HardPlayer
from bot.ai.players import Player
from bot.engine import Game, Rules, Seat, seat_view


def fast_hard() -> HardPlayer:
    """A hard player with a tiny, fixed search (a few worlds), to keep the tests quick and
    independent of the machine's speed."""
    return HardPlayer(clock=_frozen_clock, max_worlds=4)


def _frozen_clock() -> float:
    """A clock that never moves: the search stops at ``max_worlds``, whatever the machine."""
    return 0.0


def play_game(
    rules: Rules,
    players: Sequence[Player],
    seed: int,
    max_hands: int = 80,
    budget_s: float = 0.001,
    scores: tuple[int, int] | None = None,
    hands: int | None = None,
) -> Game:
    """Play a game (or ``hands`` hands) with the players by seat; every action must be legal."""
    rng = random.Random(seed)
    g = Game(rules, Seat(seed % 4))
    if scores is not None:
        g.scores = list(scores)
    while not g.over and g.hand_number <= max_hands:
        if hands is not None and len(g.results) >= hands:
            break
        if g.to_act is None:
            g.deal(rng)
            continue
        seat = g.to_act
        view = seat_view(g, seat)
        action = players[seat].decide(view, random.Random(rng.getrandbits(32)), budget_s)
        assert action in view.legal, (players[seat], action, view.legal)
        g.apply(action)
    return g
