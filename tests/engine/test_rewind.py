"""A game as it stood some tricks ago (:mod:`bot.engine.rewind`, a delayed spectator's view):
for random games in presets of every game, rewinding ``k`` tricks gives exactly the public
view the game showed just after its completed tricks were ``k`` fewer — never anything the
game reached later."""

from __future__ import annotations

import dataclasses
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import Game, Phase, Rules, SeatView, seat_view
from bot.engine.rewind import rewound, tricks_completed

PRESETS = ("standard", "joker", "new-york", "solo", "cutthroat-3", "whist", "euchre")


def play(preset: str, seed: int, hands: int) -> tuple[Game, dict[int, SeatView]]:
    """A random game of ``hands`` hands and, by completed tricks, the public view just after
    each trick completed (the last state with that many tricks, before anything else)."""
    game = Game(Rules.from_preset(preset))
    rng = random.Random(seed)
    after: dict[int, SeatView] = {}
    while not game.over and len(game.results) < hands:
        if game.phase is Phase.DEAL:
            game.deal(rng)
            continue
        before = tricks_completed(game)
        game.apply(rng.choice(game.legal_actions()))
        done = tricks_completed(game)
        if done > before:
            after[done] = seat_view(game, None)
    return game, after


@settings(max_examples=30, deadline=None)
@given(
    preset=st.sampled_from(PRESETS),
    seed=st.integers(0, 2**32),
    hands=st.integers(1, 3),
    back=st.integers(0, 40),
)
def test_rewinding_shows_the_game_as_it_stood_that_many_tricks_ago(
    preset: str, seed: int, hands: int, back: int
) -> None:
    game, after = play(preset, seed, hands)
    done = tricks_completed(game)
    past = rewound(game, back)
    if back == 0:
        assert past is game
        return
    if done - back <= 0:
        assert past is None  # not that far yet: nothing to show
        return
    assert past is not None
    reached = tricks_completed(past)
    assert reached == min(k for k in after if k >= done - back)
    shown, then = seat_view(past, None), after[reached]
    if preset == "new-york":  # a record keeps each team's final bid, not its proposals
        assert shown.part is not None
        assert then.part is not None
        forget = {"bid_log": (), "proposals": ()}
        shown = dataclasses.replace(shown, part=dataclasses.replace(shown.part, **forget))
        then = dataclasses.replace(then, part=dataclasses.replace(then.part, **forget))
    assert shown == then
    assert tricks_completed(game) == done, "the live game is untouched"


def test_a_rewound_game_holds_no_card_played_after_it() -> None:
    game, _ = play("standard", 7, 2)
    past = rewound(game, 5)
    assert past is not None
    later = {c for _, c in game.plays} - {c for _, c in past.plays}
    shown = seat_view(past, None)
    assert not later & {c for _, c in shown.current_trick}
    assert tricks_completed(game) - tricks_completed(past) == 5
