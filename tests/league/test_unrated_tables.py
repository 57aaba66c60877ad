"""A table can rule its game out of the ratings whatever the server's settings (issue 23: a
turn timer under the minimum); such a game is stored and counted like any unrated game."""

from __future__ import annotations

import dataclasses

from bot.league.settings import RATED_TIMER_MIN, TURN_TIMER_RANGE, rates_turn_timer
from bot.store.league import LeagueStore
from tests.league.games import finished_game


def test_rated_tables_have_no_timer_or_one_a_server_could_set() -> None:
    assert rates_turn_timer(0)
    assert rates_turn_timer(TURN_TIMER_RANGE[0])
    assert rates_turn_timer(TURN_TIMER_RANGE[1])
    assert not any(rates_turn_timer(s) for s in range(1, RATED_TIMER_MIN))


async def test_an_unrateable_game_is_stored_unrated_even_where_computers_are_rated(
    store: LeagueStore,
) -> None:
    await store.settings.update(1, rate_bot_games=True)
    game = dataclasses.replace(finished_game(7, (1, 2, 3, 4)), rateable=False)
    recorded = await store.recorder.record(game)
    assert not recorded.rated
    assert recorded.changes == ()
    stats = await store.standings.stats(1, 1)
    assert stats is not None
    assert (stats.games, stats.rated_games, stats.rating) == (1, 0, 1000)
    assert (await store.history.games(1, 1)).entries[0].rating_change is None
