"""Migration 007 on both backends: a table's game is recorded once (``league_games.table_id``
is unique, and games recorded twice before are kept under a renamed table id), and tables carry
the revision that makes their writes conditional."""

from __future__ import annotations

import pytest

import bot.store.postgres
import bot.store.sqlite
from bot.league.errors import AlreadyRecorded
from bot.store.db import Database
from bot.store.league import LeagueStore
from bot.store.migrations import latest, migrations
from tests.league.games import finished_game

GUILD = 7


async def test_a_game_recorded_twice_is_refused_by_the_unique_key(database_url: str) -> None:
    async with Database.open(database_url) as db:
        league = LeagueStore(db)
        game = finished_game(1, (1, 2, 3, 4), guild_id=GUILD)
        await league.recorder.record(game)
        standings = await db.fetch("SELECT user_id, games FROM league_standings ORDER BY user_id")
        with pytest.raises(AlreadyRecorded, match="t1"):
            await league.recorder.record(game)
        assert await db.fetchval("SELECT COUNT(*) FROM league_games") == 1
        again = await db.fetch("SELECT user_id, games FROM league_standings ORDER BY user_id")
        assert [tuple(r) for r in again] == [tuple(r) for r in standings], "nothing changed"
        await league.recorder.record(finished_game(2, (1, 2, 3, 4), guild_id=GUILD))
        assert await db.fetchval("SELECT COUNT(*) FROM league_games") == 2


_GAME = (
    "INSERT INTO league_games (game_id, guild_id, season, channel_id, table_id, started_at, "
    "ended_at, abandoned, rated, preset, rules, hands, score_ns, score_ew, winner, game) "
    "VALUES (?, 7, 1, 10, ?, 0, 1, 0, 0, 'standard', '{}', 1, 0, 0, NULL, 'spades')"
)


async def test_migration_007_keeps_games_recorded_twice_under_a_renamed_table_id(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = {b: migrations(b)[:6] for b in ("sqlite", "postgresql")}
    for module in (bot.store.sqlite, bot.store.postgres):
        monkeypatch.setattr(module, "migrations", lambda b: before[b])
        monkeypatch.setattr(module, "latest", lambda b: 6)
    async with Database.open(database_url) as db:
        assert await db.schema_version() == 6
        async with db.transaction() as tx:
            for game_id, table_id in ((1, "a"), (2, "b"), (3, "a"), (4, "a"), (5, "c")):
                await tx.execute(_GAME, (game_id, table_id))
            await tx.execute(
                "INSERT INTO tables (id, guild_id, channel_id, host_id, status, rules, "
                "created_at) VALUES ('x', 7, 10, 1, 'lobby', '{}', 0)"
            )
    monkeypatch.undo()
    async with Database.open(database_url) as db:
        assert await db.schema_version() == latest(db.backend)  # 007 and every later one
        rows = await db.fetch("SELECT game_id, table_id FROM league_games ORDER BY game_id")
        assert [tuple(r) for r in rows] == [
            (1, "a"),
            (2, "b"),
            (3, "a~dup3"),
            (4, "a~dup4"),
            (5, "c"),
        ]
        assert await db.fetchval("SELECT revision FROM tables WHERE id = 'x'") == 0
