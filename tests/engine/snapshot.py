"""A full snapshot of a game, to show that a refused action changed nothing."""

from __future__ import annotations

import json
from typing import Any

from bot.engine import SEATS, Game, seat_view
from bot.engine.record import export_record


def snapshot(game: Game) -> tuple[Any, ...]:
    return (
        json.dumps(export_record(game), sort_keys=True),
        tuple(seat_view(game, s) for s in (None, *SEATS)),
        game.phase,
        game.to_act,
        game.dealer,
        game.hand_number,
        tuple(game.scores),
        tuple(game.bag_counts),
        tuple(game.total_bags),
        tuple(getattr(game, "set_streak", ())),  # Spades only
        tuple(game.hand_mask(s) for s in SEATS),
        tuple(game.blind_open(s) for s in SEATS),
        (game.trump, game.calls, game.maker, game.alone, game.sitting_out),
        tuple(game.discarded(s) for s in SEATS),
    )
