"""``DATABASE_URL``: the password never shows (in every form a URL can carry one), and a URL
that asyncpg would read wrongly is refused with one line that quotes none of it."""

from __future__ import annotations

import urllib.parse

import pytest

from bot.config import ConfigError, Settings
from bot.store.errors import SetupError
from bot.store.url import parse_database_url, redact
from tests.fakediscord.snowflakes import make_token

SECRET = "Zq8-secret"  # the password of every URL below: none of it may show
PIECES = ("Zq8", "secret")  # nor either half of it, when a URL cuts it in two


def shows_none_of_the_password(text: str) -> bool:
    return not any(p in text for p in PIECES)


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        (f"postgresql://spades:{SECRET}@db:5432/spades", "postgresql://spades:***@db:5432/spades"),
        (
            f"postgres://spades:{urllib.parse.quote(SECRET + '#/?@', safe='')}@db/spades",
            "postgres://spades:***@db/spades",
        ),
        (
            f"postgresql://spades@db:5432/spades?password={SECRET}",
            "postgresql://spades@db:5432/spades?password=***",
        ),
        (
            f"postgresql://spades@db/spades?sslmode=require&sslpassword={SECRET}&PASSWORD={SECRET}",
            "postgresql://spades@db/spades?sslmode=require&sslpassword=***&PASSWORD=***",
        ),
        (
            f"postgresql:///spades?host=/run/postgresql&password={SECRET}",
            "postgresql:///spades?host=/run/postgresql&password=***",
        ),
        (
            f"postgresql://spades:{SECRET}@h1:5432,h2:5433/spades",
            "postgresql://spades:***@h1:5432,h2:5433/spades",
        ),
        (f"postgresql://spades:{SECRET}@[::1]:5432/db", "postgresql://spades:***@[::1]:5432/db"),
        ("postgresql://spades@db/spades", "postgresql://spades@db/spades"),
    ],
)
def test_a_valid_url_is_shown_without_its_password(url: str, shown: str) -> None:
    parsed = parse_database_url(url)
    assert parsed.backend == "postgresql"
    assert parsed.dsn == url, "asyncpg gets the URL as written"
    assert parsed.redacted() == shown
    assert redact(url) == shown


# The password holds a character with a meaning in URLs, unencoded: asyncpg would take part of
# it for a host, port, path, query or fragment.
BROKEN = {
    "#": "postgresql://spades:Zq8#secret@db:5432/spades",
    "/": "postgresql://spades:Zq8/secret@db:5432/spades",
    "?": "postgresql://spades:Zq8?secret@db:5432/spades",
    "@": "postgresql://spades:Zq8@secret@db:5432/spades",
    "& in ?password=": "postgresql://spades@db:5432/spades?password=Zq8&secret",
    "# in ?password=": "postgresql://spades@db:5432/spades?password=Zq8#secret",
}


@pytest.mark.parametrize("kind", BROKEN)
def test_an_unencoded_character_in_the_password_is_refused_without_quoting_it(kind: str) -> None:
    url = BROKEN[kind]
    with pytest.raises(SetupError) as refused:
        parse_database_url(url)
    reason = refused.value.args[0]
    assert "\n" not in reason
    assert reason.startswith("DATABASE_URL")
    assert shows_none_of_the_password(reason), reason
    assert shows_none_of_the_password(redact(url)), redact(url)


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://spades:Zq8-secret@db:54x2/spades",  # a port that is not a number
        "postgresql://spades:Zq8-secret@db:99999/spades",
        "postgresql://spades:Zq8-secret@[::1/spades",
        "postgresql://spades:Zq8-secret@/spades",  # no host
        "spades:Zq8-secret@db:5432/spades",  # the scheme forgotten: not a file to create
        "host=db user=spades password=Zq8-secret",  # libpq's keywords are not a URL
    ],
)
def test_other_malformed_urls_are_one_line_without_the_password(url: str) -> None:
    with pytest.raises(SetupError) as refused:
        parse_database_url(url)
    assert shows_none_of_the_password(refused.value.args[0]), refused.value.args[0]
    assert shows_none_of_the_password(redact(url)), redact(url)


def test_the_settings_refuse_a_malformed_url_and_never_print_a_password() -> None:
    token = make_token(123_456_789_012_345_678)
    with pytest.raises(ConfigError) as refused:
        Settings.from_env({"DISCORD_TOKEN": token, "DATABASE_URL": BROKEN["#"]})
    assert shows_none_of_the_password(str(refused.value))
    settings = Settings.from_env(
        {"DISCORD_TOKEN": token, "DATABASE_URL": f"postgresql://u@db/s?password={SECRET}"}
    )
    assert shows_none_of_the_password(repr(settings)), repr(settings)
    assert token not in repr(settings)


def test_sqlite_paths_are_shown_as_they_are() -> None:
    assert parse_database_url("sqlite:///data/spades.db").redacted() == "sqlite:///data/spades.db"
    assert parse_database_url("data/a@b.db").redacted() == "sqlite:///data/a@b.db"
    assert redact("data/spades.db") == "data/spades.db"
