"""Database mistakes an operator can make: each stops ``python -m bot`` with one line on
standard error and exit code 2, never a traceback (run as a subprocess, as a user would)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.store.migrations import latest
from tests.fakediscord.process import PROJECT_ROOT
from tests.fakediscord.snowflakes import make_token
from tests.pgserver import PostgresServer, free_port

# Without the capabilities that let root ignore file permissions, root meets a read-only
# folder as any other user would (CI runs the tests as root).
DROP_ROOT_POWERS = [
    "setpriv",
    "--bounding-set=-dac_override,-dac_read_search",
    "--inh-caps=-dac_override,-dac_read_search",
    "--",
]


def start_bot(env: dict[str, str], *, as_plain_user: bool = False) -> tuple[int, list[str]]:
    """Run ``python -m bot`` to its end; the exit code and its standard-error lines."""
    full = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "SPADES_"))}
    full.pop("DATABASE_URL", None)
    full.pop("DATABASE_PATH", None)
    full.update(
        PYTHONUNBUFFERED="1",
        SPADES_TEST_MODE="1",
        DISCORD_TOKEN=make_token(123_456_789_012_345_678),
        # Nothing listens there: should the database open after all, the bot fails fast.
        DISCORD_API_BASE=f"http://127.0.0.1:{free_port()}/api/v10",
    )
    full.update(env)
    prefix: list[str] = []
    if as_plain_user and os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("running as root and setpriv (util-linux) is missing")
        prefix = DROP_ROOT_POWERS
    proc = subprocess.run(
        [*prefix, sys.executable, "-m", "bot"],
        cwd=PROJECT_ROOT,
        env=full,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    return proc.returncode, proc.stderr.splitlines()


def assert_one_line(code: int, lines: list[str], *words: str) -> str:
    assert code == 2, (code, lines)
    assert len(lines) == 1, lines
    assert "Traceback" not in lines[0]
    for w in words:
        assert w in lines[0], (w, lines[0])
    return lines[0]


def test_a_database_folder_that_cannot_be_created(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("a file where the folder should be")
    code, lines = start_bot({"DATABASE_PATH": str(blocker / "spades.db")})
    assert_one_line(code, lines, "cannot create the database folder", str(blocker))


def test_a_database_folder_that_is_not_writable(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        code, lines = start_bot(
            {"DATABASE_URL": f"sqlite:///{folder / 'spades.db'}"}, as_plain_user=True
        )
    finally:
        folder.chmod(0o755)
    assert_one_line(code, lines, "cannot write the database folder", str(folder))
    assert not (folder / "spades.db").exists()


def test_a_database_file_that_is_not_writable(tmp_path: Path) -> None:
    db = tmp_path / "spades.db"
    sqlite3.connect(db).close()
    db.chmod(0o444)
    code, lines = start_bot({"DATABASE_PATH": str(db)}, as_plain_user=True)
    assert_one_line(code, lines, "cannot write the database", str(db))


def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    db = tmp_path / "spades.db"
    text = "these are my notes, not a database\n" * 200
    db.write_text(text)
    code, lines = start_bot({"DATABASE_PATH": str(db)})
    assert_one_line(code, lines, "is not a SQLite database", str(db))
    assert db.read_text() == text, "the file is left as it was"


def test_a_sqlite_database_migrated_by_a_newer_version_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "spades.db"
    newer = latest("sqlite") + 1
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE from_the_future (x)")
        conn.execute(f"PRAGMA user_version = {newer}")
    code, lines = start_bot({"DATABASE_PATH": str(db)})
    assert_one_line(code, lines, "newer version", f"schema {newer}", "never downgraded")
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == newer


@pytest.mark.parametrize("url", ["mysql://u:p@db/spades", "sqlite://spades.db"])
def test_a_database_url_of_no_known_kind(url: str) -> None:
    code, lines = start_bot({"DATABASE_URL": url})
    assert_one_line(code, lines, "DATABASE_URL")


@pytest.mark.parametrize("char", ["#", "/", "?", "@"])
def test_a_postgresql_password_with_an_unencoded_character_is_one_line_without_it(
    char: str,
) -> None:
    # Unencoded, the character cuts the password in two: a host, port or path made of its
    # halves, which asyncpg (or urllib) would quote back in a traceback.
    url = f"postgresql://spades:Zq8{char}secret@127.0.0.1:{free_port()}/spades"
    code, lines = start_bot({"DATABASE_URL": url})
    line = assert_one_line(code, lines, "DATABASE_URL", "percent-encode")
    assert "Zq8" not in line
    assert "secret" not in line


def test_an_unknown_sqlite_synchronous_value(tmp_path: Path) -> None:
    code, lines = start_bot(
        {"DATABASE_PATH": str(tmp_path / "s.db"), "SQLITE_SYNCHRONOUS": "sometimes"}
    )
    assert_one_line(code, lines, "SQLITE_SYNCHRONOUS", "normal or full")


def test_postgresql_that_is_unreachable() -> None:
    port = free_port()  # nothing listens there
    url = f"postgresql://spades:secret-pw@127.0.0.1:{port}/spades"
    code, lines = start_bot({"DATABASE_URL": url})
    line = assert_one_line(code, lines, "cannot reach PostgreSQL", f"127.0.0.1:{port}")
    assert "secret-pw" not in line


def test_postgresql_refusing_the_credentials(postgres_server: PostgresServer) -> None:
    url = postgres_server.url(password="wrong-password")
    code, lines = start_bot({"DATABASE_URL": url})
    line = assert_one_line(code, lines, "refused the credentials")
    assert "wrong-password" not in line


async def test_a_postgresql_database_migrated_by_a_newer_version_is_refused(
    postgres_server: PostgresServer,
) -> None:
    import asyncpg

    url = await postgres_server.create_database()
    newer = latest("postgresql") + 1
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(
            "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
            "applied_at DOUBLE PRECISION NOT NULL)"
        )
        await conn.execute("INSERT INTO schema_migrations VALUES ($1, 'future', 0)", newer)
    finally:
        await conn.close()
    code, lines = start_bot({"DATABASE_URL": url})
    assert_one_line(code, lines, "newer version", f"schema {newer}")
    conn = await asyncpg.connect(url)
    try:
        assert await conn.fetchval("SELECT to_regclass('tables')") is None, "nothing migrated"
    finally:
        await conn.close()
