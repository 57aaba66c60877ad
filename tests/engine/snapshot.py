"""A full snapshot of a game, to show that a refused action changed nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.engine import SEATS, Game, IllegalAction, seat_view
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
        # the game's own state as each seat sees it: bids, blind nil, calls, the discard
        tuple(game.view_part(s) for s in (None, *SEATS)),
        (game.trump, game.sitting_out),
    )


def refused(game: Game, action: object, kind: type[IllegalAction], reason: str) -> None:
    """``action`` is refused with ``kind`` and ``reason`` and nothing changes."""
    before = snapshot(game)
    assert not game.is_legal(action)  # type: ignore[arg-type]
    with pytest.raises(kind) as info:
        game.apply(action)  # type: ignore[arg-type]
    assert info.value.reason == reason
    assert snapshot(game) == before
