"""What a log line is about — its table, its server, that server's shard — and the JSON lines
that say so (``LOG_FORMAT=json``).

The table and the server come from context, not from each call: :data:`GUILD` is set where an
interaction's handling starts (:func:`bot.timely.guard`), :data:`TABLE` (with the table's
server) while a table's lock is held (:class:`bot.tables.state.TableLock`: every action on a
table, a person's or a computer's, runs under it).  Both are context variables, so each task
sees its own: a click's handler and the tasks it starts, never another click's.

:class:`JsonLines` is ``python-json-logger``'s formatter (a :class:`logging.Formatter`, so
discord.py's loggers and every other library's write the same lines) with these fields, one
object per line::

    {"time": "2026-11-27T21:04:05.123456+00:00", "level": "INFO", "logger": "bot.tables.moves",
     "message": "…", "table_id": "k3x9", "guild_id": 1234, "shard": 0, "shards": "0-3",
     "exception": null}

``shard`` is the server's shard (``None`` until the process knows its shard count),
``shards`` the shards this process serves; ``exception`` the traceback as text.  What the
lines may hold is :mod:`bot.logsafe`'s business, in this format as in the plain one.
"""

from __future__ import annotations

import logging
from contextvars import ContextVar
from typing import Any, Final

from pythonjsonlogger.json import JsonFormatter

TABLE: Final[ContextVar[str | None]] = ContextVar("log_table", default=None)
GUILD: Final[ContextVar[int | None]] = ContextVar("log_guild", default=None)
FIELDS: Final = ("time", "level", "logger", "message", "table_id", "guild_id", "shard", "shards")


class JsonLines(JsonFormatter):
    """One JSON object a line: :data:`FIELDS`, then ``exception`` (``null`` without one)."""

    def __init__(self, shards: str = "all") -> None:
        super().__init__(
            "{levelname}{name}{message}",
            style="{",
            rename_fields={"levelname": "level", "name": "logger", "exc_info": "exception"},
            timestamp="time",
            json_ensure_ascii=False,
        )
        self.shards = shards
        self.shard_count: int | None = None

    def add_fields(
        self, log_data: dict[str, Any], record: logging.LogRecord, message_dict: dict[str, Any]
    ) -> None:
        super().add_fields(log_data, record, message_dict)
        guild = GUILD.get()
        count = self.shard_count
        log_data["table_id"] = TABLE.get()
        log_data["guild_id"] = guild
        log_data["shard"] = (guild >> 22) % count if guild is not None and count else None
        log_data["shards"] = self.shards

    def process_log_record(self, log_data: dict[str, Any]) -> dict[str, Any]:
        ordered = {name: log_data.pop(name, None) for name in FIELDS}
        ordered["exception"] = log_data.pop("exception", None)
        ordered.update(log_data)  # anything a library passed in ``extra``
        return ordered


def json_formatters() -> list[JsonLines]:
    """The JSON formatters of the root logger's handlers (wrapped or not)."""
    found = []
    for handler in logging.getLogger().handlers:
        formatter = handler.formatter
        inner = getattr(formatter, "inner", formatter)
        if isinstance(inner, JsonLines):
            found.append(inner)
    return found


def know_shard_count(count: int) -> None:
    """The process knows the bot's shard count now: lines name their server's shard."""
    for formatter in json_formatters():
        formatter.shard_count = count
