"""Who may see a finished game and share its replay (bot/review/access.py), against a real
database: the game must be this league's, its boards no longer in play, its record one that
replays; only its players share the replay, only its poster turns a shared replay's steps."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.engine import Seat
from bot.errors import Refusal
from bot.review.access import (
    Purpose,
    boards_withheld_refusal,
    check_poster,
    game_of_table,
    open_game,
)
from bot.store.db import Database
from bot.store.league import LeagueStore
from bot.store.reviews import ReviewStore
from tests.review.test_service import GUILD, a_game

PLAYER, OTHER = 101, 999  # a_game seats members 101 (North) and 103 (South)


class Altered:
    """The league's records, each changed by ``change`` (as a stored record could be)."""

    def __init__(self, db: Database, change: dict[str, Any]) -> None:
        self.history = LeagueStore(db).history
        self.change = change

    async def game_record(self, guild_id: int, game_id: int) -> dict[str, Any] | None:
        doc = await self.history.game_record(guild_id, game_id)
        return None if doc is None else {**doc, **self.change}


async def table_of(db: Database, game_id: int) -> str:
    """The table a recorded game was played at."""
    table_id = await db.fetchval("SELECT table_id FROM league_games WHERE game_id = ?", (game_id,))
    assert isinstance(table_id, str)
    return table_id


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    async with Database.open(str(tmp_path / "db.sqlite")) as database:
        yield database


async def test_a_player_sees_the_game_with_their_seats_and_may_share_it(db: Database) -> None:
    game_id, doc = await a_game(db)
    records, seats = LeagueStore(db).history, ReviewStore(db)
    review = await open_game(records, seats, GUILD, game_id, PLAYER, Purpose.REVIEW)
    assert review.doc == doc
    assert review.replay is not None
    assert review.viewer == frozenset({Seat.N})
    shared = await open_game(records, seats, GUILD, game_id, PLAYER, Purpose.SHARE)
    assert shared.viewer == frozenset({Seat.N})


async def test_anyone_here_sees_it_but_only_its_players_share_it(db: Database) -> None:
    game_id, doc = await a_game(db)
    records, seats = LeagueStore(db).history, ReviewStore(db)
    review = await open_game(records, seats, GUILD, game_id, OTHER, Purpose.REVIEW)
    assert review.viewer == frozenset()
    record = await open_game(records, seats, GUILD, game_id, OTHER, Purpose.RECORD)
    assert record.doc == doc
    assert record.replay is None
    with pytest.raises(Refusal, match="Only the players of that game can post its replay"):
        await open_game(records, seats, GUILD, game_id, OTHER, Purpose.SHARE)
    check_poster(PLAYER, PLAYER)
    with pytest.raises(Refusal, match="Only <@101>, who posted this replay, turns its steps"):
        check_poster(PLAYER, OTHER)


async def test_another_leagues_game_is_not_here(db: Database) -> None:
    game_id, _doc = await a_game(db)
    records, seats = LeagueStore(db).history, ReviewStore(db)
    table_id = await table_of(db, game_id)
    assert await game_of_table(seats, GUILD, table_id) == game_id
    for purpose, said in [
        (Purpose.RECORD, "not in this league"),
        (Purpose.REVIEW, "not in this league"),
        (Purpose.SHARE, "not on this server"),
    ]:
        with pytest.raises(Refusal, match=said):
            await open_game(records, seats, GUILD + 1, game_id, PLAYER, purpose)
    with pytest.raises(Refusal, match="was not recorded"):
        await game_of_table(seats, GUILD, "no-such-table")


async def test_boards_still_in_play_are_shown_by_nothing(db: Database) -> None:
    game_id, _doc = await a_game(db)
    withheld = Altered(db, {"commitment": "c0ffee"})  # the seed is held back: boards in play
    for purpose in Purpose:
        with pytest.raises(Refusal) as refused:
            await open_game(withheld, ReviewStore(db), GUILD, game_id, PLAYER, purpose)
        assert refused.value.reason == boards_withheld_refusal(game_id)


async def test_a_record_that_does_not_replay_has_no_review_or_replay(db: Database) -> None:
    game_id, _doc = await a_game(db)
    broken = Altered(db, {"rules": {"preset": "no-such-preset"}})
    seats = ReviewStore(db)
    record = await open_game(broken, seats, GUILD, game_id, PLAYER, Purpose.RECORD)
    assert record.doc["rules"] == {"preset": "no-such-preset"}
    with pytest.raises(Refusal, match="cannot be replayed, so it cannot be reviewed"):
        await open_game(broken, seats, GUILD, game_id, PLAYER, Purpose.REVIEW)
    with pytest.raises(Refusal, match=r"^That game's record cannot be replayed\.$"):
        await open_game(broken, seats, GUILD, game_id, PLAYER, Purpose.SHARE)
