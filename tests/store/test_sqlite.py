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


def _size(path: Path) -> int:
    return path.stat().st_size


async def _other_work_ran_during(db: SQLiteDatabase, rows: int) -> bool:
    """Whether a callback scheduled just before a write transaction ran before it committed."""
    ran = asyncio.Event()
    asyncio.get_running_loop().call_soon(ran.set)
    async with db.transaction() as tx:
        for i in range(rows):
            await tx.execute("INSERT INTO t (id, v) VALUES (?, ?)", (i, f"row {i}"))
        assert await tx.fetchval("SELECT count(*) FROM t") == rows, "reads see the writes"
        return ran.is_set()


@pytest.mark.parametrize(("setting", "in_loop"), [("normal", True), ("full", False)])
async def test_with_normal_durability_a_transaction_never_lets_the_loop_run_others(
    tmp_path: Path, setting: str, in_loop: bool
) -> None:
    """With ``normal``, a transaction runs on the loop's thread and so holds the write lock
    for no loop turn: other work never queues behind it.  With ``full`` (an fsync per commit)
    it runs in aiosqlite's thread, and the loop goes on meanwhile."""
    async with Database.open(str(tmp_path / "w.db"), synchronous=setting) as db:  # type: ignore[arg-type]
        assert isinstance(db, SQLiteDatabase)
        async with db.transaction() as tx:
            await tx.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)")
        assert await _other_work_ran_during(db, 3) is not in_loop
        assert [tuple(r) for r in await db.fetch("SELECT id, v FROM t ORDER BY id")] == [
            (0, "row 0"),
            (1, "row 1"),
            (2, "row 2"),
        ], "committed rows are seen by reads in aiosqlite's thread"


async def test_a_failed_transaction_on_the_loop_leaves_nothing(tmp_path: Path) -> None:
    from bot.store.errors import UniqueViolation

    async with Database.open(str(tmp_path / "r.db")) as db:
        async with db.transaction() as tx:
            await tx.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)")

        async def twice() -> None:
            async with db.transaction() as tx:
                await tx.execute("INSERT INTO t (id, v) VALUES (1, 'a')")
                await tx.execute("INSERT INTO t (id, v) VALUES (1, 'b')")

        with pytest.raises(UniqueViolation):
            await twice()
        assert await db.fetchval("SELECT count(*) FROM t") == 0
        async with db.transaction() as tx:  # the next transaction starts clean
            await tx.execute("INSERT INTO t (id, v) VALUES (1, 'c')")
        assert await db.fetchval("SELECT v FROM t") == "c"


async def test_the_wal_is_checkpointed_in_the_thread_and_does_not_grow(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The loop's connection never checkpoints (that fsyncs); every CHECKPOINT_EVERY commits a
    passive checkpoint runs in aiosqlite's thread, so the WAL starts over instead of growing
    with every commit."""
    import bot.store.sqlite as sqlite_module

    monkeypatch.setattr(sqlite_module, "CHECKPOINT_EVERY", 20)
    path = tmp_path / "c.db"
    async with Database.open(str(path)) as db:
        assert isinstance(db, SQLiteDatabase)
        async with db.transaction() as tx:
            await tx.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)")
        page = int(await db.fetchval("PRAGMA page_size"))
        for i in range(400):
            async with db.transaction() as tx:
                await tx.execute("INSERT INTO t (id, v) VALUES (?, ?)", (i, "x" * 3000))
            checkpoint = db._checkpoint
            if checkpoint is not None:
                await checkpoint  # let each one finish, so the WAL can start over
        wal_pages = _size(Path(f"{path}-wal")) // page
        # 400 commits of a row that fills a page: ≥ 800 WAL frames without checkpoints.
        assert wal_pages < 200, wal_pages
        assert await db.fetchval("SELECT count(*) FROM t") == 400


async def test_the_wal_starts_over_while_writes_keep_coming(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Commits that never stop (a busy bot) land while each passive checkpoint runs, so none
    copies every page and the WAL never started over: once it holds WAL_RESET_PAGES, a
    checkpoint holds the write lock and truncates it."""
    import bot.store.sqlite as sqlite_module

    monkeypatch.setattr(sqlite_module, "CHECKPOINT_EVERY", 20)
    monkeypatch.setattr(sqlite_module, "WAL_RESET_PAGES", 100)
    path = tmp_path / "busy.db"
    async with Database.open(str(path)) as db:
        assert isinstance(db, SQLiteDatabase)
        async with db.transaction() as tx:
            await tx.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)")
        page = int(await db.fetchval("PRAGMA page_size"))
        most = 0
        for i in range(1500):
            async with db.transaction() as tx:
                await tx.execute("INSERT INTO t (id, v) VALUES (?, ?)", (i, "x" * 3000))
            await asyncio.sleep(0)  # the next click: the checkpoint's thread runs meanwhile
            most = max(most, _size(Path(f"{path}-wal")) // page)
        while db._checkpoint is not None:
            await db._checkpoint
        # 1,500 commits of a page each: ≥ 3,000 WAL frames if it never started over.
        assert most < 1500, most
        assert await db.fetchval("SELECT count(*) FROM t") == 1500


async def test_a_write_lock_held_elsewhere_is_waited_for_while_the_loop_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process holds the file's write lock (a backup, the sqlite3 shell): the
    transaction waits for it in sleeps, the loop keeps running meanwhile, and the write goes
    through once the lock is free — or fails with one reason after the patience runs out."""
    import sqlite3

    import bot.store.sqlite as sqlite_module
    from bot.store.errors import StoreUnavailable

    path = tmp_path / "b.db"
    async with Database.open(str(path)) as db:
        async with db.transaction() as tx:
            await tx.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)")

        async def write(i: int) -> None:
            async with db.transaction() as tx:
                await tx.execute("INSERT INTO t (id, v) VALUES (?, 'x')", (i,))

        blocker = sqlite3.connect(path, isolation_level=None)
        try:
            blocker.execute("BEGIN IMMEDIATE")
            waiting = asyncio.create_task(write(1))
            for _ in range(3):
                await asyncio.sleep(0)  # this test runs on: the loop is not blocked
            assert not waiting.done()
            blocker.execute("ROLLBACK")
            await waiting
            assert await db.fetchval("SELECT count(*) FROM t") == 1

            monkeypatch.setattr(sqlite_module, "_BUSY_PATIENCE", 0.05)
            blocker.execute("BEGIN IMMEDIATE")
            with pytest.raises(StoreUnavailable, match="locked"):
                await write(2)
        finally:
            blocker.close()
        assert await db.fetchval("SELECT count(*) FROM t") == 1
