"""How the bot asks a computer player for a move: off the event loop, from the seat's view."""

from __future__ import annotations

import random

from bot.engine import Action, Bid, Look, SeatView


def simple_decision(view: SeatView, level: str, seed: int) -> Action:
    """A legal move from the seat's view (stand-in until the computer players are wired)."""
    rng = random.Random(seed)
    legal = list(view.legal)
    looks = [a for a in legal if isinstance(a, Look)]
    if looks:
        return looks[0]
    bids = [a for a in legal if isinstance(a, Bid) and a.value >= 1]
    if bids:
        return min(bids, key=lambda b: abs(b.value - 3))
    return rng.choice(legal)
