"""What the logs may hold: never a card of a hidden hand, never a token.

* Only the bot's own loggers follow ``LOG_LEVEL``.  discord.py's (``discord``,
  ``discord.http``, ``discord.gateway``, ``discord.client``, ``discord.webhook`` …) stay at INFO
  — at DEBUG they write every gateway event and HTTP body: every player's hand, every
  interaction token — unless ``DISCORD_LOG_LEVEL`` asks for more.  Every other library stays
  at INFO at least (aiosqlite at DEBUG writes each statement with its parameters: the deals).
* Every line that reaches the log handler has its interaction and webhook tokens masked (in
  URLs: discord.py's rate-limit warnings name the route; in JSON: ``"token": …``).
* :func:`custom_id` is how a component's custom id goes into a log line: the card it may carry
  (a Euchre dealer's face-down discard, a card of a player's own hand) masked.

The same holds in both formats (``LOG_FORMAT``: ``plain``, or ``json``: one object a line,
:mod:`bot.logcontext`): the tokens are masked in the line as written, quotes escaped or not.
"""

from __future__ import annotations

import logging
import re
import sys
import threading
from typing import Literal

from bot.logcontext import JsonLines

OUR_LOGGERS = ("bot", "cogs", "spades")
DISCORD_LOGGER = "discord"
HIDDEN = "***"
CUSTOM_ID_SHOWN = 100  # a custom id is at most 100 characters (Discord)

_TOKEN_IN_URL = re.compile(r"(/(?:webhooks|interactions)/\d+/)[^/\s?#'\"]+")
# ``"token": "…"`` in a message, or ``\"token\": \"…\"`` inside a JSON line's message.
_TOKEN_IN_JSON = re.compile(r"""(\\?["']token\\?["']\s*:\s*\\?["'])[^"'\\]*""")
LogFormat = Literal["plain", "json"]


def scrub(text: str) -> str:
    """``text`` with interaction and webhook tokens masked."""
    return _TOKEN_IN_JSON.sub(rf"\g<1>{HIDDEN}", _TOKEN_IN_URL.sub(rf"\g<1>{HIDDEN}", text))


class Scrubbed(logging.Formatter):
    """A handler's formatter, wrapped: each line it writes (message and traceback, however
    the inner formatter lays them out) has its tokens masked."""

    def __init__(self, inner: logging.Formatter) -> None:
        super().__init__()
        self.inner = inner

    def format(self, record: logging.LogRecord) -> str:
        return scrub(self.inner.format(record))


def custom_id(value: object) -> str:
    """A component's custom id for a log line.  A hand component's card
    (``spades:t:<table>:<verb>:<seat>:<hand>:<card>``) is masked; any custom id is cut to
    Discord's 100 characters and written on one line."""
    text = "".join(c if c.isprintable() else "?" for c in str(value)[:CUSTOM_ID_SHOWN])
    parts = text.split(":")
    if parts[:2] == ["spades", "t"] and len(parts) > 6:
        return ":".join([*parts[:6], HIDDEN])
    return text


def setup(
    level: str,
    discord_level: str | None = None,
    log_format: LogFormat = "plain",
    shards: str = "all",
) -> None:
    """Log to standard error: the bot's loggers at ``level``, discord.py's at
    ``discord_level`` (default: INFO, or ``level`` when higher), every other library at INFO
    or ``level`` when higher; tokens masked on every line.  ``log_format`` ``json``: one JSON
    object a line (:class:`bot.logcontext.JsonLines`, naming ``shards``), warnings and
    threads' uncaught errors included."""
    import discord  # here, not above: the worker processes log without it (setup_worker)

    levels = logging.getLevelNamesMapping()
    ours = levels[level]
    others = max(ours, logging.INFO)
    if log_format == "json":
        discord.utils.setup_logging(level=others, root=True, formatter=JsonLines(shards))
        logging.captureWarnings(True)
        threading.excepthook = _log_uncaught
    else:
        discord.utils.setup_logging(level=others, root=True)
    for name in OUR_LOGGERS:
        logging.getLogger(name).setLevel(ours)
    chosen = levels[discord_level] if discord_level else others
    logging.getLogger(DISCORD_LOGGER).setLevel(chosen)
    for handler in logging.getLogger().handlers:
        inner = handler.formatter or logging.Formatter()
        if not isinstance(inner, Scrubbed):
            handler.setFormatter(Scrubbed(inner))


def setup_worker(level: str, log_format: LogFormat = "plain", shards: str = "all") -> None:
    """A worker process's logging (the computer players' pool): its lines on standard error
    in the bot's format, tokens masked, without importing discord.py there."""
    handler = logging.StreamHandler(sys.stderr)
    plain = logging.Formatter("%(asctime)s %(levelname)-8s %(name)s %(message)s")
    handler.setFormatter(Scrubbed(JsonLines(shards) if log_format == "json" else plain))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(max(logging.getLevelNamesMapping()[level], logging.INFO))
    if log_format == "json":
        logging.captureWarnings(True)


def _log_uncaught(args: threading.ExceptHookArgs) -> None:
    """A thread's uncaught error, as a log line (not a bare traceback on standard error)."""
    if args.exc_type is SystemExit or args.exc_value is None:
        return
    name = args.thread.name if args.thread is not None else "?"
    logging.getLogger("spades").error(
        "uncaught error in thread %s",
        name,
        exc_info=(args.exc_type, args.exc_value, args.exc_traceback),
    )
