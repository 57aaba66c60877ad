"""A hand's buttons are described once (bot/ui/table/controls.py) and sent two ways: as a discord.py
View in answers and as raw JSON in live edits.  Both must say the same thing, in every state of
every kind of game: bids (and blind nil, New York proposals), passes, card plays."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.ai.levels import get_player
from bot.engine import Game, Rules, Seat, seat_view
from bot.tables.randomness import TableRandomness
from bot.tables.state import Occupant, Table, TableStatus
from bot.ui.hand.hand import hand_components, hand_controls
from bot.ui.table.controls import controls_json

DEFAULTS = {"disabled": False, "required": True}


def normal(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """discord.py's JSON without the keys it adds with their default values."""
    out = []
    for row in components:
        items = []
        for item in row["components"]:
            kept = {k: v for k, v in item.items() if DEFAULTS.get(k, object()) != v}
            if "emoji" in kept:  # discord.py adds "animated" and a null id to unicode emoji
                kept["emoji"] = {
                    k: v for k, v in kept["emoji"].items() if k in ("name", "id") and v
                }
            items.append(kept)
        out.append({"type": row["type"], "components": items})
    return out


@pytest.mark.parametrize("preset", ["standard", "house", "new-york", "joker", "tennessee"])
def test_the_view_and_the_json_of_a_hand_agree_in_every_state(preset: str) -> None:
    rules = Rules.from_preset(preset)
    table = Table(id="t3st1234", guild_id=1, channel_id=2, host_id=1, rules=rules)
    for seat in Seat:
        table.seats[seat] = Occupant(int(seat) + 1, seat.word)
    table.status = TableStatus.PLAYING
    game = Game(rules, Seat.N)
    table.game = game
    randomness = TableRandomness(test_seed=5)
    player = get_player("easy")
    rng = random.Random(preset)
    checked = 0
    for _ in range(400):
        if game.over:
            break
        if game.to_act is None:
            game.apply(randomness.deal(table, game))
            continue
        for seat in Seat:
            view = seat_view(game, seat)
            raw = controls_json(hand_controls(table, view))
            assert normal(hand_components(table, view).to_components()) == raw
            checked += 1
        game.apply(player.decide(seat_view(game, game.to_act), rng, 0.01))
    assert checked > 400
