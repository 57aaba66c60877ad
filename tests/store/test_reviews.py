"""The review and card-style stores on both backends: analyses kept per game and version (the
first one kept wins), a table's league game, a game's seats, and each server's card colours."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.engine import Seat
from bot.league.recording import prepare_game
from bot.store.card_styles import CardStyleStore
from bot.store.db import Database
from bot.store.league import LeagueStore
from bot.store.reviews import ReviewStore
from tests.league.games import finished_game

GUILD = 1_234_567_890_123_456_789
OTHER = GUILD + 1


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[Database]:
    async with Database.open(database_url) as database:
        yield database


async def recorded(db: Database, guild: int = GUILD) -> int:
    league = LeagueStore(db)
    game = finished_game(3, (101, None, 103, 104), guild_id=guild)
    async with db.transaction() as tx:
        await league.recorder.record_game(tx, prepare_game(game))
    reviews = ReviewStore(db)
    game_id = await reviews.game_of_table(guild, game.table_id)
    assert game_id is not None
    return game_id


async def test_an_analysis_is_kept_and_the_first_one_wins(db: Database) -> None:
    store = ReviewStore(db)
    game_id = await recorded(db)
    assert await store.load_analysis(game_id, 1) is None
    await store.save_analysis(game_id, 1, b"first", 12.5)
    await store.save_analysis(game_id, 1, b"second", 3.0)
    assert await store.load_analysis(game_id, 1) == b"first"
    assert await store.load_analysis(game_id, 2) is None, "another version is another analysis"
    await store.save_analysis(game_id, 2, b"newer")
    assert await store.load_analysis(game_id, 2) == b"newer"


async def test_a_table_finds_its_game_and_the_games_seats(db: Database) -> None:
    store = ReviewStore(db)
    game_id = await recorded(db)
    seats = await store.seats_of_game(GUILD, game_id)
    assert set(seats) == set(Seat)
    assert any(uid is not None for uid in seats.values())
    assert await store.seats_of_game(OTHER, game_id) == {}, "another server sees nothing"
    assert await store.game_of_table(OTHER, "nope") is None


async def test_card_colours_per_server(db: Database) -> None:
    store = CardStyleStore(db)
    assert await store.schemes() == {}
    await store.set_scheme(GUILD, "four")
    await store.set_scheme(OTHER, "four")
    await store.set_scheme(OTHER, "two")
    assert await store.schemes() == {GUILD: "four"}
