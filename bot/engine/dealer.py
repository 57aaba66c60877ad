"""Drawing for the first dealer (rules.md §2): each seat draws, highest card deals, ties redraw."""

from __future__ import annotations

import random

from bot.engine.actions import SEATS, Seat
from bot.engine.cards import Card
from bot.engine.decks import DECKS
from bot.engine.shuffle import DRAW, shuffled


def draw_first_dealer(
    source: random.Random | bytes, seats: tuple[Seat, ...] = SEATS
) -> tuple[list[dict[Seat, Card]], Seat]:
    """Draw rounds (each seat's card, by seat) and the seat that deals first among ``seats``
    (all four, or N, E, S at a three-player table).

    Cards are drawn from a standard deck and compared by rank only; when the highest rank
    is shared, only the tied seats draw again (from a fresh deck).  ``source`` is a game's
    seed (docs/verifiable-deals.md: round *r*, from 1, shuffles the 52 cards in card order by
    the stream ``draw``/*r*, and the drawing seats, in seat order, take its first cards), or
    a generator (simulations and tests).
    """
    rounds: list[dict[Seat, Card]] = []
    drawing = list(seats)
    while True:
        deck = DECKS["standard"].cards
        if isinstance(source, bytes):
            drawn = shuffled(source, DRAW, len(rounds) + 1, deck)[: len(drawing)]
        else:
            drawn = source.sample(list(deck), len(drawing))
        draw = dict(zip(drawing, drawn, strict=True))
        rounds.append(draw)
        top = max(c.rank for c in drawn)
        tied = [s for s, c in draw.items() if c.rank == top]
        if len(tied) == 1:
            return rounds, tied[0]
        drawing = tied
