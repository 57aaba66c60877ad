"""A duplicate round's table (a shared seed, ``deal_source``) shows its spectators no finished
hand's deal while that seed is in play, even with ``spectators: hands after each hand``: the
boards are the ones other tables of the round may still be playing (docs/tournaments.md).
Whole games driven by the normal computer player, rendered as the bot renders them."""

from __future__ import annotations

import json
import random

import pytest

from bot.engine import Game, Rules, Seat, seat_view
from bot.tables.state import Table, TableStatus
from bot.ui.spectator.spectator import Stage, spectator_message
from tests.ui.test_spectator_view import (
    MAX_ACTIONS,
    act,
    cards_named,
    low_target,
    new_table,
    public_cards,
)

SEED = "ab" * 32


def deal_field(table: Table, game: Game) -> tuple[dict[str, object] | None, str, bool]:
    """The view's "Hand n as dealt" field, the whole payload as text, and whether a picture
    is attached."""
    view = seat_view(game, None)
    message = spectator_message(Stage.of(table, view), view)
    embed = json.loads(json.dumps(message.embed, ensure_ascii=False))
    fields = [f for f in embed["fields"] if f["name"].endswith(" as dealt")]
    shown = json.dumps([embed, message.json()["components"]], ensure_ascii=False)
    return (fields[0] if fields else None), shown, message.picture is not None


@pytest.mark.parametrize("preset", ["standard", "euchre", "whist"])
def test_a_shared_seeds_boards_stay_unseen_while_it_is_in_play(preset: str) -> None:
    rng = random.Random(7)
    game = Game(low_target(preset), Seat(rng.randrange(len(Rules.from_preset(preset).seats))))
    table = new_table(preset, "hands", game)
    table.deal_source = SEED
    finished_hands = 0
    for _ in range(MAX_ACTIONS):
        table.status = TableStatus.FINISHED if game.over else TableStatus.PLAYING
        # Once over, the table got seed_in_play's answer: another table still deals from it.
        table.seed_withheld = game.over
        field, shown, picture = deal_field(table, game)
        if game.results:
            finished_hands += 1
            assert field is not None
            assert "is shown when the round's last table ends" in str(field["value"])
            assert not cards_named(str(field["value"])), field
            assert not picture
            # The whole payload names no card that is not public in play.
            if not game.over:
                assert cards_named(shown) <= public_cards(game), shown
        if game.over:
            break
        act(game, rng)
    else:
        raise AssertionError(f"the game did not end within {MAX_ACTIONS} actions")
    assert finished_hands
    # The round's last table has ended (no table deals from the seed): the deal is shown.
    table.seed_withheld = False
    field, _shown, picture = deal_field(table, game)
    assert field is not None
    assert picture
    last = game.results[-1]
    assert cards_named(str(field["value"])) == {c for s in game.rules.seats for c in last.deal[s]}
