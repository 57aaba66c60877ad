"""SQLite specifics: the durability setting, and the translation of the portable dialect."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.config import ConfigError, Settings
from bot.store.db import Database
from bot.store.sql import to_postgresql, to_sqlite
from bot.store.sqlite import SQLiteDatabase
from tests.fakediscord.snowflakes import make_token

TOKEN = make_token(123_456_789_012_345_678)


@pytest.mark.parametrize(("setting", "pragma"), [("normal", 1), ("full", 2)])
async def test_sqlite_synchronous_is_applied(tmp_path: Path, setting: str, pragma: int) -> None:
    settings = Settings.from_env(
        {
            "DISCORD_TOKEN": TOKEN,
            "DATABASE_PATH": str(tmp_path / "s.db"),
            "SQLITE_SYNCHRONOUS": setting.upper(),
        }
    )
    assert settings.sqlite_synchronous == setting
    async with Database.open(settings.database_url, synchronous=setting) as db:  # type: ignore[arg-type]
        assert isinstance(db, SQLiteDatabase)
        assert await db.fetchval("PRAGMA synchronous") == pragma
        assert await db.fetchval("PRAGMA journal_mode") == "wal"


def test_database_settings_default_and_aliases() -> None:
    assert Settings.from_env({"DISCORD_TOKEN": TOKEN}).database_url == "sqlite:///data/spades.db"
    old = Settings.from_env({"DISCORD_TOKEN": TOKEN, "DATABASE_PATH": "/srv/spades.db"})
    assert old.database_url == "sqlite:////srv/spades.db"
    pg = Settings.from_env(
        {"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "postgresql://bot:hunter2@db:5432/spades"}
    )
    assert "hunter2" not in repr(pg)
    both = Settings.from_env(
        {"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "sqlite:///x.db", "DATABASE_PATH": "y.db"}
    )
    assert both.database_url == "sqlite:///x.db", "DATABASE_URL wins (the image sets the path)"
    with pytest.raises(ConfigError, match="DATABASE_URL"):
        Settings.from_env({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "mysql://db/x"})


def test_the_dialect_translates_marks_and_row_locks() -> None:
    sql = "SELECT a FROM t WHERE b = ? AND c = 'what?' AND d = ? FOR UPDATE"
    assert (
        to_postgresql(sql) == "SELECT a FROM t WHERE b = $1 AND c = 'what?' AND d = $2 FOR UPDATE"
    )
    assert to_sqlite(sql) == "SELECT a FROM t WHERE b = ? AND c = 'what?' AND d = ?"
    assert to_postgresql("SELECT ?2, ?1, ?2") == "SELECT $2, $1, $2"
    with pytest.raises(ValueError, match="both"):
        to_postgresql("SELECT ?1, ?")


async def test_connections_opening_one_new_file_at_once_all_open_and_migrate_once(
    tmp_path: Path,
) -> None:
    """Turning a new file into WAL fails at once with "database is locked" for the others
    while one connection does it (no busy handler applies); this raced one CI run red. Many
    rounds of four at once, so the race is hit many times over."""
    from bot.store.migrations import latest

    async def open_and_read(path: Path) -> int:
        async with Database.open(str(path)) as db:
            return await db.schema_version()

    for i in range(25):
        path = tmp_path / f"new{i}.db"
        versions = await asyncio.gather(*(open_and_read(path) for _ in range(4)))
        assert versions == [latest("sqlite")] * 4
        async with Database.open(str(path), migrate=False) as db:
            assert await db.fetchval("PRAGMA journal_mode") == "wal"
