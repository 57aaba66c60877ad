"""The running bot, seen from Prometheus: the endpoint, and what is read when it scrapes.

With ``METRICS_PORT`` set, :func:`start` turns the hooks of :mod:`bot.metrics` on and serves
``GET /metrics`` (the client's exposition, text or OpenMetrics as asked) on ``METRICS_HOST``
(``127.0.0.1`` by default), on the bot's own event loop: a scrape reads the services while
nothing else changes them, with no lock and no thread.  Besides the counters it adds:

* :class:`BotState`, read at each scrape — open tables by game and status, people seated,
  spectators, live hands, tournaments, the review and hint queues, the pace's queue, the
  worker pool's rebuilds, PostgreSQL's pool, each shard's gateway latency;
* the Discord requests, counted in the bot's aiohttp trace (:func:`count_requests`) by route
  template (:func:`route_template`: no id, no token) and status class, and the 429s by scope;
* the event loop's lag, from a probe that asks to wake every half second (:func:`probe_lag`);
* games that ended (the table service's ``on_closed``).

An operator's mistake (a port in use, an address not of this machine) is a
:class:`MetricsError`: one line, and the bot does not start.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import math
import re
import socket
from collections import Counter
from collections.abc import Iterable, Iterator
from types import SimpleNamespace
from typing import Any, Final, NoReturn, Protocol

import aiohttp
from aiohttp import web
from prometheus_client.exposition import choose_encoder
from prometheus_client.metrics_core import CounterMetricFamily, GaugeMetricFamily, Metric

from bot import metrics
from bot.ai.worker import AIPool
from bot.config import Settings
from bot.engine.games import entries
from bot.events.pairing.model import OPEN_STATES
from bot.events.service import TournamentService
from bot.review.service import ReviewService
from bot.sharding import shards_label
from bot.store.base import OPERATIONS, Database
from bot.tables.service import TableService
from bot.tables.state import OPEN, Table, TableStatus
from bot.ui.discord.pace import Pace

log = logging.getLogger(__name__)

LAG_PROBE_S: Final = 0.5
_API: Final = re.compile(r"^/api/v\d+")
_WORD: Final = re.compile(r"[a-z][a-z0-9_.-]{0,31}|@[a-z]{1,16}")
_TOKEN_AFTER: Final = frozenset({"webhooks", "interactions"})
_STATUS: Final = ("0xx", "1xx", "2xx", "3xx", "4xx", "5xx")
# Discord's X-RateLimit-Scope → ours: "user" is the bot's own per-route bucket.
_SCOPES: Final = {"global": "global", "user": "route", "shared": "shared"}


class MetricsError(Exception):
    """The endpoint cannot listen as configured; the message is one line for the operator."""


class Observed(Protocol):
    """What a scrape reads (the bot, :class:`bot.app.SpadesBot`)."""

    tables: TableService
    tournaments: TournamentService
    reviews: ReviewService
    ai: AIPool
    pace: Pace
    db: Database

    @property
    def latencies(self) -> list[tuple[int, float]]: ...


def route_template(path: str) -> str:
    """A request's path as a label: ``/api/v10/channels/123/messages/456`` →
    ``/channels/{id}/messages/{id}``; the token after a webhook's or an interaction's id →
    ``{token}``; a reaction's emoji → ``{emoji}``; any other segment that is not a plain word →
    ``{x}`` (however odd the path, the labels stay few and hold nothing private)."""
    out: list[str] = []
    for part in _API.sub("", path).split("/"):
        if not part:
            continue
        if part.isascii() and part.isdigit():
            shown = "{id}"
        elif len(out) >= 2 and out[-1] == "{id}" and out[-2] in _TOKEN_AFTER:
            shown = "{token}"
        elif out and out[-1] == "reactions":
            shown = "{emoji}"
        else:
            shown = part if _WORD.fullmatch(part) else "{x}"
        out.append(shown)
    return "/" + "/".join(out)


def count_requests(trace: aiohttp.TraceConfig) -> None:
    """Count every request of the bot's HTTP session (``trace`` is the one discord.py gives
    it) by method, route template and status class; a 429 also by its scope."""

    async def on_end(session: aiohttp.ClientSession, context: SimpleNamespace, params: Any) -> None:
        status = params.response.status
        shown = _STATUS[status // 100] if 0 <= status < 600 else "error"
        metrics.discord_request(params.method, route_template(params.url.path), shown)
        if status == 429:
            headers = params.response.headers
            scope = _SCOPES.get(headers.get("X-RateLimit-Scope", ""))
            if scope is None:
                scope = "global" if headers.get("X-RateLimit-Global") == "true" else "route"
            metrics.rate_limited(scope)

    async def on_error(
        session: aiohttp.ClientSession, context: SimpleNamespace, params: Any
    ) -> None:
        metrics.discord_request(params.method, route_template(params.url.path), "error")

    trace.on_request_end.append(on_end)
    trace.on_request_exception.append(on_error)


async def probe_lag(interval: float = LAG_PROBE_S) -> None:
    """Ask the loop to wake every ``interval`` seconds and record how late it did (run as a
    task): the time it spent on other work meanwhile, that every click waited for too."""
    loop = asyncio.get_running_loop()
    while True:
        asked = loop.time()
        await asyncio.sleep(interval)
        metrics.loop_lag(max(0.0, loop.time() - asked - interval))


def game_ended(table: Table) -> None:
    """The table service's ``on_closed`` observer: a game that had started ended."""
    if table.game is not None:
        how = "finished" if table.status == TableStatus.FINISHED else "abandoned"
        metrics.game_ended(table.rules.game.value, how)


class BotState:
    """What the bot holds now, read from its services at each scrape."""

    def __init__(self, bot: Observed) -> None:
        self.bot = bot

    def describe(self) -> Iterable[Metric]:
        return []  # read at each scrape only

    def collect(self) -> Iterator[Metric]:
        yield from self._tables()
        bot = self.bot
        yield _gauge("spectators", "Members watching a game live.", self._watching())
        yield _gauge("live_hands", "Players' hand messages followed live.", bot.tables.live.held)
        tournaments = GaugeMetricFamily(
            "spades_tournaments_open", "Tournaments not over, by status.", labels=["status"]
        )
        by_status = Counter(t.status for t in bot.tournaments.open.values())
        for status in OPEN_STATES:
            tournaments.add_metric([status], by_status[status])
        yield tournaments
        yield _gauge("reviews_queued", "Game reviews waiting or working.", bot.reviews.queued)
        yield _gauge("hints_working", "Hints being worked out.", bot.ai.hints_working)
        yield _gauge(
            "discord_pace_queued", "Bot-token requests waiting for the pace.", bot.pace.queued
        )
        rebuilds = CounterMetricFamily(
            "spades_ai_pool_rebuilds", "Worker pools rebuilt after a worker died."
        )
        rebuilds.add_metric([], bot.ai.rebuilds)
        yield rebuilds
        yield from self._pool()
        latency = GaugeMetricFamily(
            "spades_gateway_latency_seconds",
            "Each shard's last heartbeat round trip to Discord's gateway.",
            labels=["shard"],
        )
        for shard, seconds in bot.latencies:
            if math.isfinite(seconds):
                latency.add_metric([str(shard)], seconds)
        yield latency

    def _tables(self) -> Iterator[Metric]:
        games = [entry.kind.value for entry in entries()]
        open_ = Counter({(g, str(s)): 0 for g in games for s in sorted(OPEN)})
        seated = Counter(dict.fromkeys(games, 0))
        for table in self.bot.tables.registry.listed():
            game = table.rules.game.value
            open_[(game, str(table.status))] += 1
            seated[game] += len(table.humans())
        tables = GaugeMetricFamily(
            "spades_tables_open", "Open tables by game and status.", labels=["game", "status"]
        )
        for (game, status), n in sorted(open_.items()):
            tables.add_metric([game, status], n)
        yield tables
        people = GaugeMetricFamily(
            "spades_players_seated", "People seated at open tables, by game.", labels=["game"]
        )
        for game, n in sorted(seated.items()):
            people.add_metric([game], n)
        yield people

    def _watching(self) -> int:
        return sum(t.watching for t in self.bot.tables.registry.listed())

    def _pool(self) -> Iterator[Metric]:
        pool = getattr(self.bot.db, "pool", None)  # PostgreSQL's (asyncpg), if any
        if pool is None:
            return
        connections = GaugeMetricFamily(
            "spades_db_pool_connections",
            "PostgreSQL pool connections by state (in_use, idle).",
            labels=["state"],
        )
        size, idle = pool.get_size(), pool.get_idle_size()
        connections.add_metric(["in_use"], size - idle)
        connections.add_metric(["idle"], idle)
        yield connections
        yield _gauge(
            "db_pool_max_connections", "The PostgreSQL pool's size limit.", pool.get_max_size()
        )


def _gauge(name: str, doc: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(f"{metrics.PREFIX}_{name}", doc, value=value)


class Endpoint:
    """``GET /metrics`` on ``host:port``, served on the running event loop."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        app = web.Application()
        app.router.add_get("/metrics", self._scrape)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)

    async def start(self) -> None:
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)  # a listener there: in use
        try:
            await site.start()
        except OSError as e:
            await self._runner.cleanup()
            _refuse(e, self.host, self.port)
        log.info("metrics on http://%s:%d/metrics", _shown(self.host), self.port)

    async def stop(self) -> None:
        await self._runner.cleanup()

    @staticmethod
    async def _scrape(request: web.Request) -> web.Response:
        encoder, content_type = choose_encoder(request.headers.get("Accept", ""))
        return web.Response(body=encoder(metrics.REGISTRY), headers={"Content-Type": content_type})


def _shown(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _refuse(e: OSError, host: str, port: int) -> NoReturn:
    """Raise the one line an operator reads for ``e`` (English, like every setting's)."""
    where = f"{_shown(host)}:{port}"
    if isinstance(e, socket.gaierror):
        raise MetricsError(
            f"METRICS_HOST {host!r} is not a name or address this machine can resolve"
        ) from None
    if e.errno == errno.EADDRINUSE:
        raise MetricsError(
            f"METRICS_PORT {port} is in use on {_shown(host)} (another bot process, or another "
            "program): give each process its own port"
        ) from None
    if e.errno == errno.EADDRNOTAVAIL:
        raise MetricsError(f"METRICS_HOST {host} is not an address of this machine") from None
    if e.errno == errno.EACCES:
        raise MetricsError(
            f"cannot listen on {where} for metrics: permission denied (use a port above 1023)"
        ) from None
    raise MetricsError(f"cannot listen on {where} for metrics: {e.strerror or e}") from None


class Monitor:
    """Everything :func:`start` turned on, to be stopped together."""

    def __init__(self, endpoint: Endpoint, probe: asyncio.Task[None]) -> None:
        self.endpoint, self.probe = endpoint, probe

    async def stop(self) -> None:
        self.probe.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.probe
        await self.endpoint.stop()


async def start(bot: Observed, trace: aiohttp.TraceConfig, settings: Settings) -> Monitor | None:
    """With ``METRICS_PORT`` set, turn the metrics on for ``bot`` (before it logs in:
    ``trace`` is its HTTP session's) and serve them; raises :class:`MetricsError`."""
    if settings.metrics_port is None:
        return None
    endpoint = Endpoint(settings.metrics_host, settings.metrics_port)
    await endpoint.start()
    games = [entry.kind.value for entry in entries()]
    metrics.enable(bot.db.backend, OPERATIONS, games)
    metrics.REGISTRY.label_all(shards=shards_label(settings.shard_ids))
    metrics.REGISTRY.register(BotState(bot))
    count_requests(trace)
    bot.tables.on_closed(game_ended)
    return Monitor(endpoint, asyncio.create_task(probe_lag(), name="metrics-loop-lag"))
