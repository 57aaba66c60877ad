"""What the bot counts for Prometheus (``METRICS_PORT``; docs/operations.md names every series).

One registry per process, :data:`REGISTRY`, never the client's global one: every series it
exposes carries this process's shards as a constant label (:meth:`ProcessRegistry.label_all`),
and the client's process, platform and garbage-collector collectors are on it.

The series here are the ones something *happens* to — a click answered, a request to Discord,
a commit, a decision — and the code where it happens calls one function of this module: a
counter's ``inc`` or a histogram's ``observe`` on a label child looked up once and kept
(:class:`_Children`), so a hook costs a dictionary lookup and the client's own increment.
Until :func:`enable` (the bot calls it when ``METRICS_PORT`` is set) every hook returns at
once.  What the bot *holds* — open tables, seats, spectators, queues — is read from its
services when Prometheus scrapes (``bot/monitor.py``), never counted up and down here.

No label carries a user, a channel, a table, a token or a card: every label value comes from
a small set the code names (a command, a button's verb, a route template, a level…), and
``tests/e2e/test_metrics.py`` checks every exposed series against that.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, Generic, TypeVar

from prometheus_client import (
    CollectorRegistry,
    Counter,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    disable_created_metrics,
)
from prometheus_client.metrics import MetricWrapperBase
from prometheus_client.metrics_core import Metric

PREFIX: Final = "spades"
# Seconds.  Discord's window is 3 s and the bot defers at 2 s: the buckets are fine there.
ANSWER_BUCKETS: Final = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0)
COMMIT_BUCKETS: Final = (
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 5.0,
)  # fmt: skip
DECISION_BUCKETS: Final = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0, 2.5)
LAG_BUCKETS: Final = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
WAIT_BUCKETS: Final = (0.001, 0.005, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class ProcessRegistry(CollectorRegistry):
    """The registry of one bot process.  Every sample it yields carries the constant labels
    given to :meth:`label_all` (added when Prometheus scrapes, not at each increment)."""

    def __init__(self) -> None:
        super().__init__()
        self.constant: dict[str, str] = {}

    def label_all(self, **labels: str) -> None:
        self.constant = dict(labels)

    def collect(self) -> Iterable[Metric]:
        constant = self.constant
        for metric in super().collect():
            if constant:
                metric.samples = [
                    s._replace(labels={**s.labels, **constant}) for s in metric.samples
                ]
            yield metric


disable_created_metrics()  # type: ignore[no-untyped-call]  # no ``*_created`` twin of every counter and histogram
REGISTRY: Final = ProcessRegistry()
ProcessCollector(registry=REGISTRY)  # process_cpu_seconds_total, process_resident_memory_bytes …
PlatformCollector(registry=REGISTRY)  # python_info
GCCollector(registry=REGISTRY)  # python_gc_*

M = TypeVar("M", bound=MetricWrapperBase)


class _Children(Generic[M]):
    """A labelled metric's children, each looked up once by its label values and kept."""

    __slots__ = ("_cache", "_parent")

    def __init__(self, parent: M) -> None:
        self._parent = parent
        self._cache: dict[tuple[str, ...], M] = {}

    def __call__(self, *values: str) -> M:
        child = self._cache.get(values)
        if child is None:
            child = self._cache[values] = self._parent.labels(*values)
        return child


def _counter(name: str, doc: str, labels: tuple[str, ...] = ()) -> Counter:
    return Counter(f"{PREFIX}_{name}", doc, labels, registry=REGISTRY)


def _histogram(
    name: str, doc: str, labels: tuple[str, ...], buckets: tuple[float, ...]
) -> Histogram:
    return Histogram(f"{PREFIX}_{name}", doc, labels, registry=REGISTRY, buckets=buckets)


# ---------------------------------------------------------------------- interactions
INTERACTIONS_RECEIVED: Final = _Children(
    _counter(
        "interactions_received",
        "Commands and component clicks received, by type (command, component) and kind "
        "(the command's name, the component's verb).",
        ("type", "kind"),
    )
)
INTERACTIONS_ANSWERED: Final = _Children(
    _counter(
        "interactions_answered",
        "Commands and clicks whose handler finished, by type, kind and outcome: answered, "
        "refused (the member was told why not), failed (an error of ours), late (answered "
        "only after the bot's deferral at 2 s, or too late for Discord), repeated (a second "
        "delivery of one interaction, applied once).",
        ("type", "kind", "outcome"),
    )
)
FIRST_ANSWER: Final = _Children(
    _histogram(
        "interaction_first_answer_seconds",
        "From receiving a command or click to its first answer reaching Discord (the "
        "answer, or the bot's deferral), by type.",
        ("type",),
        ANSWER_BUCKETS,
    )
)

# ---------------------------------------------------------------------- Discord
DISCORD_REQUESTS: Final = _Children(
    _counter(
        "discord_requests",
        "HTTP requests to Discord by method, route template (ids and tokens replaced) and "
        "status class (2xx … 5xx, or error: no answer).",
        ("method", "route", "status"),
    )
)
RATE_LIMITED: Final = _Children(
    _counter(
        "discord_rate_limited",
        "429 answers from Discord by scope: global (the bot's 50 requests a second), route "
        "(one route's bucket) or shared (a resource's, not the bot's fault).",
        ("scope",),
    )
)
PACE_WAIT: Final = _histogram(
    "discord_pace_wait_seconds",
    "How long a bot-token request waited in the pace (bot/ui/discord/pace.py) before it was sent.",
    (),
    WAIT_BUCKETS,
)
TABLE_WRITES: Final = _Children(
    _counter(
        "table_writes",
        "Tables' channel writes not sent as such: coalesced (a change joined an edit already "
        "pending) or dropped (a turn reminder whose turn passed first, the last posts of an "
        "ended table outside servers that nobody clicked at for an hour).",
        ("outcome",),
    )
)

# ---------------------------------------------------------------------- games
GAMES_ENDED: Final = _Children(
    _counter(
        "games_ended",
        "Games that ended, by game and how: finished (played out) or abandoned (closed "
        "before the end).",
        ("game", "how"),
    )
)
TABLES_RESTORED: Final = _Children(
    _counter(
        "tables_restored",
        "Unfinished tables restored at start-up, by game.",
        ("game",),
    )
)

# ---------------------------------------------------------------------- database
COMMIT_SECONDS: Final = _Children(
    _histogram(
        "db_commit_seconds",
        "COMMIT round trips by backend (sqlite, postgresql) and operation (what the "
        "transaction wrote: table, tournament, league, review, settings, meta, other).",
        ("backend", "operation"),
        COMMIT_BUCKETS,
    )
)
COMMIT_FAILURES: Final = _Children(
    _counter(
        "db_commit_failures",
        "Transactions the database refused (unavailable, full, timed out; not a constraint "
        "the data broke), by backend and operation.",
        ("backend", "operation"),
    )
)

# ---------------------------------------------------------------------- computer players
DECISION_SECONDS: Final = _Children(
    _histogram(
        "ai_decision_seconds",
        "Computer decisions by level, and how long each took to work out (without the "
        "thinking pause shown to people).",
        ("level",),
        DECISION_BUCKETS,
    )
)
WORKER_CRASHES: Final = _Children(
    _counter(
        "ai_worker_crashes",
        "Worker processes that died under a search, by what it was for (decision, hint, review).",
        ("during",),
    )
)

# ---------------------------------------------------------------------- the process
LOOP_LAG: Final = _histogram(
    "event_loop_lag_seconds",
    "How late the event loop woke a periodic probe (every half second): time the loop "
    "spent on other work that everything else waited for.",
    (),
    LAG_BUCKETS,
)
GATEWAY_RECONNECTS: Final = _Children(
    _counter(
        "gateway_reconnects",
        "Gateway connections made again after a drop, by how: resume (the session went on) "
        "or identify (a new session).",
        ("how",),
    )
)

_on = False


def enable(backend: str, operations: Iterable[str], games: Iterable[str]) -> None:
    """Count from now on (``METRICS_PORT`` is set): until then every hook returns at once.

    The counters an alert watches start at zero for every value they can take (``backend``:
    the database's, with its ``operations``; ``games``: the registered ones), so that the
    first 429, failed commit or crash is an increase Prometheus sees, not a new series."""
    global _on
    _on = True
    for scope in ("global", "route", "shared"):
        RATE_LIMITED(scope)
    for operation in operations:
        COMMIT_FAILURES(backend, operation)
    for during in ("decision", "hint", "review"):
        WORKER_CRASHES(during)
    for outcome in ("coalesced", "dropped"):
        TABLE_WRITES(outcome)
    for how in ("resume", "identify"):
        GATEWAY_RECONNECTS(how)
    for game in games:
        for how in ("finished", "abandoned"):
            GAMES_ENDED(game, how)


def enabled() -> bool:
    return _on


def received(type_: str, kind: str) -> None:
    if _on:
        INTERACTIONS_RECEIVED(type_, kind).inc()


def answered(type_: str, kind: str, outcome: str) -> None:
    if _on:
        INTERACTIONS_ANSWERED(type_, kind, outcome).inc()


def first_answer(type_: str, seconds: float) -> None:
    if _on:
        FIRST_ANSWER(type_).observe(seconds)


def discord_request(method: str, route: str, status: str) -> None:
    if _on:
        DISCORD_REQUESTS(method, route, status).inc()


def rate_limited(scope: str) -> None:
    if _on:
        RATE_LIMITED(scope).inc()


def pace_wait(seconds: float) -> None:
    if _on:
        PACE_WAIT.observe(seconds)


def table_write(outcome: str, count: int = 1) -> None:
    if _on and count:
        TABLE_WRITES(outcome).inc(count)


def game_ended(game: str, how: str) -> None:
    if _on:
        GAMES_ENDED(game, how).inc()


def tables_restored(game: str, count: int = 1) -> None:
    if _on:
        TABLES_RESTORED(game).inc(count)


def commit(backend: str, operation: str, seconds: float) -> None:
    if _on:
        COMMIT_SECONDS(backend, operation).observe(seconds)


def commit_failed(backend: str, operation: str) -> None:
    if _on:
        COMMIT_FAILURES(backend, operation).inc()


def decision(level: str, seconds: float) -> None:
    if _on:
        DECISION_SECONDS(level).observe(seconds)


def worker_crash(during: str) -> None:
    if _on:
        WORKER_CRASHES(during).inc()


def loop_lag(seconds: float) -> None:
    if _on:
        LOOP_LAG.observe(seconds)


def gateway_reconnect(how: str) -> None:
    if _on:
        GATEWAY_RECONNECTS(how).inc()
