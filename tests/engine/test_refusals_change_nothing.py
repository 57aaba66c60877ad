"""Every action the engine refuses, in every phase, leaves the game exactly as it was."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.engine import (
    SEATS,
    Bid,
    Game,
    IllegalAction,
    Look,
    PassCards,
    Play,
    Seat,
)
from tests.engine.builders import (
    game_in_play,
    new_york_second_hand,
    passing_game,
    play,
    trailing_ns,
)
from tests.engine.snapshot import snapshot


def _scenes() -> list[tuple[str, Callable[[], Game]]]:
    def bidding() -> Game:
        return trailing_ns("house")

    def passing() -> Game:
        return passing_game()

    def mid_trick() -> Game:
        game = game_in_play("joker", {"E": ["5H"], "S": ["9H"]})
        play(game, "5H")
        return game

    def new_york_answer() -> Game:
        game = new_york_second_hand({"N": 1, "E": 6, "S": 0, "W": 6})
        game.apply(Bid(Seat.S, 5, True))
        return game

    return [("bidding", bidding), ("passing", passing), ("mid-trick", mid_trick),
            ("new-york", new_york_answer)]  # fmt: skip


@pytest.mark.parametrize(("name", "make"), _scenes(), ids=[n for n, _ in _scenes()])
def test_every_refused_action_leaves_the_state_unchanged(
    name: str, make: Callable[[], Game]
) -> None:
    game = make()
    legal = {a for s in SEATS for a in game.legal_actions(s)}
    candidates: list[object] = [Look(s) for s in SEATS]
    candidates += [Bid(s, v, b) for s in SEATS for v in range(-1, 15) for b in (False, True)]
    candidates += [Play(s, c) for s in SEATS for c in game.deck.cards]
    candidates += [PassCards(s, game.hand(s)[:2]) for s in SEATS]
    refusals = 0
    for action in candidates:
        if action in legal:
            continue
        before = snapshot(game)
        with pytest.raises(IllegalAction) as info:
            game.apply(action)  # type: ignore[arg-type]
        assert info.value.reason
        assert snapshot(game) == before
        refusals += 1
    assert refusals > 100
