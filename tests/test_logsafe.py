"""What reaches the log: custom ids without their card, no token on any line, and discord.py
(and every other library) kept at INFO when the bot logs at DEBUG."""

from __future__ import annotations

import io
import json
import logging
import threading
from collections.abc import Iterator

import pytest

from bot import logcontext, logsafe

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


@pytest.fixture
def json_logs() -> Iterator[io.StringIO]:
    """As :func:`logs`, with ``LOG_FORMAT=json`` (the process serving shards 0-3 of 8)."""
    root = logging.getLogger()
    names = ("discord", "discord.http", "aiosqlite", *logsafe.OUR_LOGGERS)
    saved = (root.level, list(root.handlers), {n: logging.getLogger(n).level for n in names})
    try:
        logsafe.setup("DEBUG", log_format="json", shards="0-3")
        logcontext.know_shard_count(8)
        stream = io.StringIO()
        (added,) = [h for h in root.handlers if h not in saved[1]]
        assert isinstance(added, logging.StreamHandler)
        added.setStream(stream)
        yield stream
    finally:
        restore(*saved)
        logging.captureWarnings(False)
        threading.excepthook = threading.__excepthook__


def lines(stream: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_a_json_line_has_its_fields_and_says_what_it_is_about(json_logs: io.StringIO) -> None:
    guild = (5 << 22) + 17  # on shard 5 of 8
    table, server = logcontext.TABLE.set("k3x9QmZ2"), logcontext.GUILD.set(guild)
    try:
        logging.getLogger("bot.tables.moves").info("table %s: a move", "k3x9QmZ2")
    finally:
        logcontext.TABLE.reset(table)
        logcontext.GUILD.reset(server)
    logging.getLogger("discord.gateway").info("outside any table")
    about, outside = lines(json_logs)
    assert list(about)[:9] == [*logcontext.FIELDS, "exception"]
    assert about["level"] == "INFO"
    assert about["logger"] == "bot.tables.moves"
    assert about["message"] == "table k3x9QmZ2: a move"
    assert (about["table_id"], about["guild_id"], about["shard"]) == ("k3x9QmZ2", guild, 5)
    assert about["shards"] == "0-3"
    assert about["exception"] is None
    assert str(about["time"]).endswith("+00:00")
    assert (outside["table_id"], outside["guild_id"], outside["shard"]) == (None, None, None)


def test_a_json_line_carries_the_exception_as_a_field_without_its_token(
    json_logs: io.StringIO,
) -> None:
    try:
        raise RuntimeError(f"failed: /webhooks/2/{TOKEN}/messages/@original")
    except RuntimeError:
        logging.getLogger("bot.ui.live_editor").exception("an edit failed")
    logging.getLogger("discord.http").debug("not at discord's debug")
    logging.getLogger("bot.app").warning('sent {"token": "%s"} and a card %s', TOKEN, "***")
    (failed, warned) = lines(json_logs)
    assert failed["message"] == "an edit failed"
    assert "RuntimeError: failed: /webhooks/2/***/messages/@original" in str(failed["exception"])
    assert "Traceback" in str(failed["exception"])
    assert warned["message"] == 'sent {"token": "***"} and a card ***'
    assert TOKEN not in json_logs.getvalue()
