"""Drawing for the first dealer (rules.md §2): each seat draws, highest card deals, ties redraw."""

from __future__ import annotations

import random

from bot.engine.actions import SEATS, Seat
from bot.engine.cards import Card
from bot.engine.decks import DECKS


def draw_first_dealer(
    rng: random.Random, seats: tuple[Seat, ...] = SEATS
) -> tuple[list[dict[Seat, Card]], Seat]:
    """Draw rounds (each seat's card, by seat) and the seat that deals first among ``seats``
    (all four, or N, E, S at a three-player table).

    Cards are drawn from a standard deck and compared by rank only; when the highest rank
    is shared, only the tied seats draw again (from a fresh deck).
    """
    rounds: list[dict[Seat, Card]] = []
    drawing = list(seats)
    while True:
        deck = list(DECKS["standard"].cards)
        drawn = rng.sample(deck, len(drawing))
        draw = dict(zip(drawing, drawn, strict=True))
        rounds.append(draw)
        top = max(c.rank for c in drawn)
        tied = [s for s, c in draw.items() if c.rank == top]
        if len(tied) == 1:
            return rounds, tied[0]
        drawing = tied
