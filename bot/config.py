"""Settings, read only from the environment (``.env`` is loaded by ``python -m bot``)."""

from __future__ import annotations

import ipaddress
import os
import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from bot.logsafe import LogFormat
from bot.sharding import ShardingError, ShardPlan, parse_shard_ids, shards_label
from bot.store.errors import SetupError
from bot.store.url import DEFAULT_URL, parse_database_url

# A bot token is three base64url segments: the bot's id, a timestamp, and an HMAC.
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}$")
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
# Every environment variable the bot reads (``.env.example`` and docs/operations.md list them all).
SETTINGS = (
    "DISCORD_TOKEN",
    "DATABASE_PATH",
    "DATABASE_URL",
    "SQLITE_SYNCHRONOUS",
    "SHARD_COUNT",
    "SHARD_IDS",
    "CLUSTER_COUNT",
    "DEV_GUILD_ID",
    "LOG_LEVEL",
    "DISCORD_LOG_LEVEL",
    "SPADES_BOT_DELAY",
    "REVIEW_CPU_BUDGET",
    "SPADES_AI_BUDGET_MS",
    "HEALTH_FILE",
    "METRICS_PORT",
    "METRICS_HOST",
    "LOG_FORMAT",
    "SPADES_TEST_MODE",
    "DISCORD_API_BASE",
    "SPADES_TEST_SEED",
)
_TRUE = ("1", "true", "yes", "on")


class ConfigError(Exception):
    """A setting is missing or malformed; the message is one line for the operator."""


@dataclass(frozen=True, slots=True)
class Settings:
    token: str
    database_url: str = DEFAULT_URL  # sqlite:///file or postgresql://… (DATABASE_PATH: a file)
    sqlite_synchronous: str = "normal"  # "normal" or "full": docs/operations.md, "Durability"
    shard_count: int | None = None  # None: Discord's recommendation (GET /gateway/bot)
    shard_ids: tuple[int, ...] | None = None  # this process's shards; None: all of them
    cluster_count: int = 1  # processes sharing the bot's global request budget
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    discord_log_level: str | None = None  # discord.py's loggers; None: INFO (see bot.logsafe)
    api_base: str | None = None  # only for tests: point discord.py at a fake Discord API
    test_seed: int | None = None  # only for tests: seeded shuffles instead of SystemRandom
    bot_delay: float = 1.0  # seconds a computer player "thinks" before playing
    review_budget: float = 60.0  # CPU seconds the hard player may spend reviewing one game
    ai_budget_ms: int = 100  # the hard player's search time per decision (wall clock)
    health_file: str | None = None  # touched while connected (liveness); None: no file
    metrics_port: int | None = None  # GET /metrics for Prometheus there; None: no metrics
    metrics_host: str = "127.0.0.1"  # the address it listens on (docs/operations.md: Metrics)
    log_format: str = "plain"  # "plain" or "json" (one object a line: bot.logcontext)

    def log_setup(self) -> tuple[str, str | None, LogFormat, str]:
        """:func:`bot.logsafe.setup`'s arguments: the levels, the format, and the shards the
        process serves (as its lines name them)."""
        log_format: LogFormat = "json" if self.log_format == "json" else "plain"
        return self.log_level, self.discord_log_level, log_format, shards_label(self.shard_ids)

    def __repr__(self) -> str:  # never print the token
        database = parse_database_url(self.database_url).redacted()
        return f"Settings(database={database!r}, dev_guild_id={self.dev_guild_id})"

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        e = os.environ if env is None else env
        token = e.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise ConfigError("DISCORD_TOKEN is not set: put it in .env (see .env.example)")
        if token.lower().startswith("bot "):
            token = token[4:].strip()
        if not _TOKEN.match(token):
            raise ConfigError(
                "DISCORD_TOKEN does not look like a bot token: copy it from the Bot page "
                "of your application in the Discord Developer Portal"
            )
        level = _log_level(e, "LOG_LEVEL") or "INFO"
        database_url = _database_url(e)
        api_base, test_seed = _test_settings(e)
        shard_count, shard_ids, cluster_count = _sharding(e)
        return cls(
            token=token,
            database_url=database_url,
            sqlite_synchronous=_choice(e, "SQLITE_SYNCHRONOUS", ("normal", "full")),
            shard_count=shard_count,
            shard_ids=shard_ids,
            cluster_count=cluster_count,
            dev_guild_id=_optional_int(e, "DEV_GUILD_ID"),
            log_level=level,
            discord_log_level=_log_level(e, "DISCORD_LOG_LEVEL"),
            api_base=api_base,
            test_seed=test_seed,
            bot_delay=_optional_float(e, "SPADES_BOT_DELAY", 1.0),
            review_budget=_optional_float(e, "REVIEW_CPU_BUDGET", 60.0, high=600.0),
            ai_budget_ms=_ai_budget(e),
            health_file=_health_file(e, database_url),
            metrics_port=_metrics_port(e),
            metrics_host=_metrics_host(e),
            log_format=_choice(e, "LOG_FORMAT", ("plain", "json")),
        )


def _log_level(env: Mapping[str, str], name: str) -> str | None:
    """``LOG_LEVEL`` or ``DISCORD_LOG_LEVEL``: one of :data:`LOG_LEVELS` (``None``: unset)."""
    level = env.get(name, "").strip().upper()
    if level and level not in LOG_LEVELS:
        raise ConfigError(f"{name} must be one of {', '.join(LOG_LEVELS)}, not {level[:20]!r}")
    return level or None


def _test_settings(env: Mapping[str, str]) -> tuple[str | None, int | None]:
    """``DISCORD_API_BASE`` and ``SPADES_TEST_SEED``: only with ``SPADES_TEST_MODE=1``, and
    only against a Discord on this machine.  In production the first would send the token to
    whatever host it names, and the second would make every deal predictable."""
    api_base = env.get("DISCORD_API_BASE", "").strip() or None
    test_seed = _optional_int(env, "SPADES_TEST_SEED")
    test_mode = env.get("SPADES_TEST_MODE", "").strip().lower() in _TRUE
    given = (("DISCORD_API_BASE", api_base), ("SPADES_TEST_SEED", test_seed))
    used = [name for name, value in given if value is not None]
    if not test_mode:
        if used:
            verb, them = ("are", "them") if len(used) > 1 else ("is", "it")
            raise ConfigError(
                f"{' and '.join(used)} {verb} for tests only: remove {them} from the "
                "environment (the tests set SPADES_TEST_MODE=1 as well)"
            )
        return None, None
    if api_base is None:
        raise ConfigError(
            "SPADES_TEST_MODE=1 runs against a test Discord only: set DISCORD_API_BASE to its "
            "address on this machine (or unset SPADES_TEST_MODE to use the real Discord)"
        )
    host = urlsplit(api_base).hostname or ""
    if not _is_loopback(host):
        raise ConfigError(
            "DISCORD_API_BASE must point at a test Discord on this machine (localhost, "
            f"127.0.0.1 or ::1), not {host[:60]!r}: the bot token is sent there"
        )
    return api_base, test_seed


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _health_file(env: Mapping[str, str], database_url: str) -> str | None:
    """Where the liveness signal goes: ``HEALTH_FILE``; else beside a SQLite database, or in
    the temporary folder with PostgreSQL; none with an in-memory database."""
    raw = env.get("HEALTH_FILE", "").strip()
    if raw:
        return raw
    database = parse_database_url(database_url)
    if database.backend != "sqlite":
        return str(Path(tempfile.gettempdir()) / "spades-bot.alive")
    if database.path == ":memory:":
        return None
    return str(Path(database.path).parent / "spades-bot.alive")


def _optional_int(env: Mapping[str, str], name: str) -> int | None:
    raw = env.get(name, "").strip()
    if not raw:
        return None
    try:
        return int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number, not {raw!r}") from None


def _optional_float(
    env: Mapping[str, str], name: str, default: float, *, high: float = 10.0
) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number of seconds, not {raw!r}") from None
    if not 0 <= value <= high:
        raise ConfigError(f"{name} must be between 0 and {high:g} seconds")
    return value


AI_BUDGET_RANGE_MS = (10, 300)


def _ai_budget(env: Mapping[str, str]) -> int:
    """``SPADES_AI_BUDGET_MS``: the hard player's time per decision, 10-300 ms (default 100)."""
    raw = env.get("SPADES_AI_BUDGET_MS", "").strip()
    if not raw:
        return 100
    lo, hi = AI_BUDGET_RANGE_MS
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(
            f"SPADES_AI_BUDGET_MS must be a whole number of ms, not {raw!r}"
        ) from None
    if not lo <= value <= hi:
        raise ConfigError(f"SPADES_AI_BUDGET_MS must be between {lo} and {hi} ms, not {value}")
    return value


def _metrics_port(env: Mapping[str, str]) -> int | None:
    """``METRICS_PORT``: a TCP port, 1-65535 (unset: no metrics)."""
    raw = env.get("METRICS_PORT", "").strip()
    if not raw:
        return None
    if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= 65535:
        raise ConfigError(f"METRICS_PORT must be a port number from 1 to 65535, not {raw[:20]!r}")
    return int(raw)


_HOSTNAME = re.compile(r"^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,62})(\.[A-Za-z0-9-]{1,63})*$")


def _metrics_host(env: Mapping[str, str]) -> str:
    """``METRICS_HOST``: an IP address or a host name to listen on (default ``127.0.0.1``)."""
    raw = env.get("METRICS_HOST", "").strip()
    if not raw:
        return "127.0.0.1"
    try:
        return str(ipaddress.ip_address(raw.strip("[]")))
    except ValueError:
        pass
    if not _HOSTNAME.match(raw):
        raise ConfigError(
            f"METRICS_HOST must be an IP address (e.g. 127.0.0.1, 0.0.0.0) or a host name, "
            f"not {raw[:40]!r}"
        )
    return raw


def _database_url(env: Mapping[str, str]) -> str:
    """``DATABASE_URL``; else ``DATABASE_PATH`` (a SQLite file, the older setting, which the
    Docker image sets); else the default.  ``DATABASE_URL`` wins when both are set."""
    url = env.get("DATABASE_URL", "").strip()
    if not url:
        path = env.get("DATABASE_PATH", "").strip()
        url = f"sqlite:///{path}" if path else DEFAULT_URL
    try:
        parse_database_url(url)
    except SetupError as e:
        raise ConfigError(str(e)) from None
    return url


def _choice(env: Mapping[str, str], name: str, allowed: tuple[str, ...]) -> str:
    """One of ``allowed`` (case-insensitive), the first being the default."""
    raw = env.get(name, "").strip().lower() or allowed[0]
    if raw not in allowed:
        raise ConfigError(f"{name} must be {' or '.join(allowed)}, not {raw!r}")
    return raw


def _sharding(env: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None, int]:
    """``SHARD_COUNT``, ``SHARD_IDS`` and ``CLUSTER_COUNT``, checked against each other."""
    count = _optional_int(env, "SHARD_COUNT")
    clusters = _optional_int(env, "CLUSTER_COUNT")
    raw_ids = env.get("SHARD_IDS", "").strip()
    try:
        ids = parse_shard_ids(raw_ids) if raw_ids else None
        if count is not None:
            ShardPlan.make(count, ids)
    except ShardingError as e:
        raise ConfigError(str(e)) from None
    if ids is not None and count is None:
        # Discord's recommended count changes as the bot grows: processes that each read it
        # at start-up could split the guilds differently, serving some twice and some never.
        raise ConfigError(
            "SHARD_IDS needs SHARD_COUNT: set SHARD_COUNT to the total number of shards, the "
            "same in every process"
        )
    if clusters is not None and not 1 <= clusters <= 1000:
        raise ConfigError(f"CLUSTER_COUNT must be between 1 and 1000, not {clusters}")
    return count, ids, clusters or 1
