"""The store contract, on both backends: the same calls leave the same rows.

Each test runs once per backend (the ``database_url`` fixture); ``test_same_inputs_same_rows``
runs one script of table-store and league calls against SQLite and PostgreSQL side by side and
compares every row of every table.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.engine import Bid, Deal, Play, Seat, card
from bot.store.db import Database
from bot.store.errors import IntegrityError, UniqueViolation
from bot.store.league import LeagueStore
from bot.store.migrations import BACKENDS, latest, migrations
from bot.store.tables import SeatRow, TableRow, TableStore
from tests.league.games import finished_game
from tests.pgserver import PostgresServer

GUILD = 1_234_567_890_123_456_789  # a real-sized snowflake: needs 64 bits
CHANNEL = 987_654_321_098_765_432

TABLES = ("tables", "seats", "actions", "meta")
LEAGUE = (
    "league_settings",
    "league_allowed_channels",
    "league_seasons",
    "league_games",
    "league_records",
    "league_seats",
    "league_standings",
    "league_partnerships",
)


def a_table(table_id: str, channel: int = CHANNEL, status: str = "lobby") -> TableRow:
    return TableRow(
        id=table_id,
        guild_id=GUILD,
        channel_id=channel,
        host_id=GUILD + 1,
        status=status,
        rules={"preset": "standard", "target": 500},
        turn_timer=30,
        created_at=1_700_000_000.25,
    )


def a_deal() -> Deal:
    every = [card(r + s) for s in "SHDC" for r in "AKQJT98765432"]
    return Deal((tuple(every[0::4]), tuple(every[1::4]), tuple(every[2::4]), tuple(every[3::4])))


async def script(db: Database) -> None:
    """Every kind of write the bot makes, with fixed values."""
    tables = TableStore(db)
    async with db.transaction() as tx:
        await tables.insert_table(tx, a_table("t1"))
        await tables.put_seat(tx, "t1", SeatRow(Seat.N, GUILD + 1, "alice"))
        await tables.put_seat(tx, "t1", SeatRow(Seat.E, None, "Computer (hard)", "hard"))
    async with db.transaction() as tx:
        await tables.put_seat(tx, "t1", SeatRow(Seat.E, GUILD + 2, "bob", None, 2))
        await tables.update_table(
            tx,
            "t1",
            status="playing",
            first_dealer="W",
            dealer_draw=[{"N": "AS"}],
            started_at=1_700_000_001.5,
            deadline=1_700_000_031.125,
            message_id=CHANNEL + 7,
        )
        await tables.append_action(tx, "t1", 1, a_deal(), None)
        await tables.append_action(tx, "t1", 2, Bid(Seat.N, 3), GUILD + 99)
        await tables.append_action(tx, "t1", 3, Play(Seat.E, card("2C")), None)
    async with db.transaction() as tx:
        await tables.insert_table(tx, a_table("t2", channel=CHANNEL + 1))
        await tables.delete_seat(tx, "t1", Seat.E)
    await tables.set_meta("command_hash:global", "abc")
    await tables.set_meta("command_hash:global", "def")
    league = LeagueStore(db)
    await league.settings.update(GUILD, min_games=2, allowed_channels={CHANNEL, CHANNEL + 1})
    await league.recorder.record(finished_game(1, (1, 2, 3, 4), guild_id=GUILD))
    await league.recorder.record(finished_game(2, (1, 2, 5, None), guild_id=GUILD))
    await league.settings.start_season(GUILD, "Winter", now=datetime(2026, 1, 1, tzinfo=UTC))
    await league.recorder.record(finished_game(3, (1, 3, 2, 4), guild_id=GUILD))


async def dump(db: Database) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table; ``actions.created_at`` (the clock at the write) left out."""
    out = {}
    for name in TABLES + LEAGUE:
        rows = await db.fetch(f"SELECT * FROM {name}")
        out[name] = sorted(
            (tuple(r[i] for i in range(len(r)) if (name, i) != ("actions", 4)) for r in rows),
            key=repr,
        )
    return out


def test_every_migration_exists_for_both_backends_with_the_same_numbers_and_names() -> None:
    names = {b: [(m.version, m.name) for m in migrations(b)] for b in BACKENDS}
    assert names["sqlite"] == names["postgresql"]
    assert latest("sqlite") == latest("postgresql") == len(names["sqlite"])


async def test_same_inputs_same_rows(tmp_path: Path, postgres_server: PostgresServer) -> None:
    pg_url = await postgres_server.create_database()
    async with (
        Database.open(f"sqlite:///{tmp_path / 's.db'}") as sqlite,
        Database.open(pg_url) as pg,
    ):
        await asyncio.gather(script(sqlite), script(pg))
        left, right = await dump(sqlite), await dump(pg)
    for name in TABLES + LEAGUE:
        assert left[name] == right[name], name
    assert len(left["league_games"]) == 3
    assert left["actions"][0][0] == "t1"


async def test_a_block_that_raises_commits_nothing(database_url: str) -> None:
    async with Database.open(database_url) as db:
        store = TableStore(db)

        async def insert_then_fail() -> None:
            async with db.transaction() as tx:
                await store.insert_table(tx, a_table("t1"))
                raise RuntimeError("after the insert")

        with pytest.raises(RuntimeError):
            await insert_then_fail()
        assert await db.fetch("SELECT id FROM tables") == []


async def test_a_duplicate_interaction_is_a_unique_violation_and_rolls_back(
    database_url: str,
) -> None:
    async with Database.open(database_url) as db:
        store = TableStore(db)
        async with db.transaction() as tx:
            await store.insert_table(tx, a_table("t1"))
            await store.append_action(tx, "t1", 1, Bid(Seat.N, 3), 42)

        async def seat_then_repeat() -> None:
            async with db.transaction() as tx:
                await store.put_seat(tx, "t1", SeatRow(Seat.S, 5, "carol"))
                await store.append_action(tx, "t1", 2, Bid(Seat.E, 3), 42)

        with pytest.raises(UniqueViolation) as caught:
            await seat_then_repeat()
        assert (caught.value.table, caught.value.columns) == ("actions", ("interaction_id",))
        assert await db.fetch("SELECT seat FROM seats") == []
        assert await db.fetchval("SELECT COUNT(*) FROM actions") == 1


async def test_one_open_table_per_channel(database_url: str) -> None:
    async with Database.open(database_url) as db:
        store = TableStore(db)
        async with db.transaction() as tx:
            await store.insert_table(tx, a_table("t1"))
        with pytest.raises(UniqueViolation) as caught:
            async with db.transaction() as tx:
                await store.insert_table(tx, a_table("t1", channel=CHANNEL + 5))
        assert (caught.value.table, caught.value.columns) == ("tables", ("id",))
        with pytest.raises(UniqueViolation) as caught:
            async with db.transaction() as tx:
                await store.insert_table(tx, a_table("t2"))
        assert caught.value.columns == ("channel_id",)
        with pytest.raises(IntegrityError):
            async with db.transaction() as tx:
                await store.insert_table(tx, a_table("t3", channel=5, status="nonsense"))


async def test_unfinished_tables_load_with_seats_and_actions_and_a_guild_filter(
    database_url: str,
) -> None:
    async with Database.open(database_url) as db:
        await script(db)
        store = TableStore(db)
        loaded = await store.load_unfinished()
        assert [t.row.id for t in loaded] == ["t1", "t2"]
        t1 = loaded[0]
        assert t1.row.guild_id == GUILD
        assert t1.row.deadline == 1_700_000_031.125
        assert t1.row.dealer_draw == [{"N": "AS"}]
        assert [s.seat for s in t1.seats] == [Seat.N]
        assert t1.actions[1:] == (Bid(Seat.N, 3), Play(Seat.E, card("2C")))
        assert await store.load_unfinished(lambda guild: guild != GUILD) == []
        assert await store.get_meta("command_hash:global") == "def"
        assert await store.get_meta("missing") is None


async def test_reopening_migrates_nothing_and_keeps_the_rows(database_url: str) -> None:
    async with Database.open(database_url) as db:
        await TableStore(db).set_meta("k", "v")
        assert await db.schema_version() == latest(db.backend)
    async with Database.open(database_url) as db:
        assert await db.schema_version() == latest(db.backend)
        assert await TableStore(db).get_meta("k") == "v"
