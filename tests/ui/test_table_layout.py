"""The table message lays the seats out as a table: partners in two rows with their team's
score, players without partners three to a row or two rows of two — never one player alone on
a row (Discord puts up to three inline fields on a row)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine import Game, Rules, seat_view
from bot.tables.randomness import TableRandomness
from bot.tables.state import Occupant, Table, TableStatus
from bot.ui.table.render import BLANK, table_embed


def table_of(preset: str, status: str) -> Table:
    rules = Rules.from_preset(preset)
    table = Table(id="t4ble123", guild_id=1, channel_id=2, host_id=1, rules=rules)
    for i, seat in enumerate(table.seat_order):
        table.seats[seat] = Occupant(i + 1, f"player{i + 1}")
    table.status = TableStatus(status)
    if status == "playing":
        game = Game(rules, table.seat_order[0])
        game.apply(TableRandomness(test_seed=3).deal(table, game))
        table.game = game
    return table


def rows(embed: dict[str, Any]) -> list[list[str]]:
    """The inline fields row by row, as Discord lays them out (three to a row)."""
    out: list[list[str]] = [[]]
    for f in embed["fields"]:
        if not f.get("inline", False):
            break  # the trick, below the seats
        if len(out[-1]) == 3:
            out.append([])
        out[-1].append(f["name"].removeprefix("▶ ").split(" ")[0])
    return out


@pytest.mark.parametrize("status", ["lobby", "playing"])
@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        ("standard", [["North", "South", "North–South"], ["East", "West", "East–West"]]),
        ("solo", [["North", "East", BLANK], ["South", "West", BLANK]]),
        ("cutthroat-3", [["North", "East", "South"]]),
    ],
)
def test_no_player_sits_alone_on_a_row(preset: str, expected: list[list[str]], status: str) -> None:
    table = table_of(preset, status)
    view = seat_view(table.game, None) if table.game is not None else None
    assert rows(table_embed(table, view).to_dict()) == expected
