"""The hand-picked deals of the variant examples (games.md G1-G2, G7).

The renege hand (dealer N, so E leads and bids first):
  N: 2H and the twelve spades 3S..AS     E: the twelve hearts 3H..AH and 2S
  S: the thirteen diamonds               W: the thirteen clubs
Trick 1: E leads AH, S 2D, W 2C, N ruffs with 3S although N holds 2H: **N reneges**; N wins.
Trick 2: N leads AS, E follows 2S (or, in the "both" hand, **E reneges** with 3H and keeps 2S,
which it plays on trick 3); S, W discard; N wins.  Tricks 3-12: N leads its spades, all win.
Trick 13: N leads 2H, E wins it with a heart.  N takes 12 tricks, E 1, S and W none.
"""

from __future__ import annotations

from bot.engine import Deal, Seat, card
from tests.engine.builders import RANKS

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def suit(s: str, ranks: str = RANKS) -> list[str]:
    return [r + s for r in ranks]


RENEGE_DEAL = {
    "N": ["2H", *suit("S", RANKS[1:])],
    "E": [*suit("H", RANKS[1:]), "2S"],
    "S": suit("D"),
    "W": suit("C"),
}


def deal(hands: dict[str, list[str]], seats: str = "NESW") -> Deal:
    return Deal(tuple(tuple(card(c) for c in hands[s]) for s in seats))
