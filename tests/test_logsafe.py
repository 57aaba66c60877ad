"""What reaches the log: custom ids without their card, no token on any line, and discord.py
(and every other library) kept at INFO when the bot logs at DEBUG."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest

from bot import logsafe

TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEyMzQ1Njc4OnNlY3JldA"


@pytest.mark.parametrize(
    ("custom_id", "logged"),
    [
        ("spades:t:ab12:discard:S:3:9H", "spades:t:ab12:discard:S:3:***"),  # face down
        ("spades:t:ab12:play:E:1:AS", "spades:t:ab12:play:E:1:***"),
        ("spades:t:ab12:call:N:2:H+", "spades:t:ab12:call:N:2:***"),
        ("spades:t:ab12:play:E:1:AS:more:parts", "spades:t:ab12:play:E:1:***"),
        ("spades:t:ab12:refresh:E:1", "spades:t:ab12:refresh:E:1"),
        ("spades:t:ab12:join:E", "spades:t:ab12:join:E"),
        ("spades:lb:r:0:1:rating:2", "spades:lb:r:0:1:rating:2"),
        ("bad\nline" + "x" * 200, "bad?line" + "x" * 92),
        (None, "None"),
    ],
)
def test_a_custom_id_is_logged_without_its_card(custom_id: object, logged: str) -> None:
    assert logsafe.custom_id(custom_id) == logged


def test_tokens_are_masked_in_urls_and_json() -> None:
    line = (
        f"PATCH https://discord.com/api/v10/webhooks/123/{TOKEN}/messages/@original "
        f"with {{'token': '{TOKEN}', \"token\": \"{TOKEN}\"}} responded with 429; "
        f"POST /interactions/456/{TOKEN}/callback"
    )
    clean = logsafe.scrub(line)
    assert TOKEN not in clean
    assert "/webhooks/123/***/messages/@original" in clean
    assert "/interactions/456/***/callback" in clean
    assert "'token': '***'" in clean
    assert '"token": "***"' in clean


@pytest.fixture
def logs() -> Iterator[io.StringIO]:
    """The root logger as :func:`bot.logsafe.setup` leaves it, writing to a buffer; the
    logging configuration is put back afterwards."""
    root = logging.getLogger()
    names = ("discord", "discord.http", "aiosqlite", *logsafe.OUR_LOGGERS)
    saved = (root.level, list(root.handlers), {n: logging.getLogger(n).level for n in names})
    try:
        logsafe.setup("DEBUG")
        stream = io.StringIO()
        (added,) = [h for h in root.handlers if h not in saved[1]]
        assert isinstance(added, logging.StreamHandler)
        added.setStream(stream)
        yield stream
    finally:
        restore(*saved)


def restore(level: int, handlers: list[logging.Handler], levels: dict[str, int]) -> None:
    root = logging.getLogger()
    root.handlers[:] = handlers
    root.setLevel(level)
    for handler in handlers:
        if isinstance(handler.formatter, logsafe.Scrubbed):
            handler.setFormatter(handler.formatter.inner)
    for name, was in levels.items():
        logging.getLogger(name).setLevel(was)


def test_at_debug_only_the_bots_loggers_write_debug_lines(logs: io.StringIO) -> None:
    logging.getLogger("bot.tables.moves").debug("ours at debug")
    logging.getLogger("cogs.play").debug("a cog at debug")
    logging.getLogger("discord.http").debug("PATCH with {'embeds': 'A♠ K♠'}")
    logging.getLogger("discord.gateway").debug("INTERACTION_CREATE")
    logging.getLogger("aiosqlite").debug("executing INSERT … ('AS', 'KH')")
    logging.getLogger("discord.http").info("discord at info")
    text = logs.getvalue()
    assert "ours at debug" in text
    assert "a cog at debug" in text
    assert "discord at info" in text
    assert "A♠" not in text
    assert "INTERACTION_CREATE" not in text
    assert "executing" not in text


def test_every_line_and_traceback_has_its_tokens_masked(logs: io.StringIO) -> None:
    logging.getLogger("discord.http").warning(
        "We are being rate limited. %s %s responded with 429.",
        "POST",
        f"https://discord.com/api/v10/interactions/1/{TOKEN}/callback",
    )
    try:
        raise RuntimeError(f"failed: /webhooks/2/{TOKEN}/messages/@original")
    except RuntimeError:
        logging.getLogger("bot.ui.hand.live_editor").exception("an edit failed")
    text = logs.getvalue()
    assert "rate limited" in text
    assert "RuntimeError" in text
    assert TOKEN not in text


def test_discord_log_level_asks_for_discord_pys_own_debug_lines() -> None:
    root = logging.getLogger()
    names = ("discord", "aiosqlite", *logsafe.OUR_LOGGERS)
    saved = (root.level, list(root.handlers), {n: logging.getLogger(n).level for n in names})
    try:
        logsafe.setup("WARNING", "DEBUG")
        assert logging.getLogger("discord.gateway").getEffectiveLevel() == logging.DEBUG
        assert logging.getLogger("bot.app").getEffectiveLevel() == logging.WARNING
        logsafe.setup("ERROR")
        assert logging.getLogger("discord.http").getEffectiveLevel() == logging.ERROR
        assert logging.getLogger("aiosqlite").getEffectiveLevel() == logging.ERROR
    finally:
        restore(*saved)
