"""The series of bot/metrics.py and what bot/monitor.py reads, in this process: the constant
shard label on every sample, commits and refused transactions counted on both real backends,
and Discord's paths made into labels that hold no id and no token."""

from __future__ import annotations

import pytest

from bot import metrics
from bot.monitor import route_template
from bot.store.db import Database
from bot.store.errors import StoreError, UniqueViolation


def sample(name: str, **labels: str) -> float:
    value = metrics.REGISTRY.get_sample_value(name, {**metrics.REGISTRY.constant, **labels})
    return value or 0.0


@pytest.fixture(autouse=True)
def counting() -> None:
    metrics.enable("sqlite", ("table", "meta", "other"), ("spades",))


def test_every_sample_carries_the_process_shards() -> None:
    metrics.REGISTRY.label_all(shards="0-3,8")
    try:
        names = set()
        for family in metrics.REGISTRY.collect():
            for s in family.samples:
                assert s.labels["shards"] == "0-3,8", s
                names.add(s.name)
        assert {"process_cpu_seconds_total", "spades_discord_rate_limited_total"} <= names
    finally:
        metrics.REGISTRY.label_all(shards="all")


def test_the_counters_an_alert_watches_start_at_zero() -> None:
    """Exposed before their first increment: Prometheus sees the first one as an increase."""
    constant = metrics.REGISTRY.constant
    for name, labels in [
        ("spades_discord_rate_limited_total", {"scope": "global"}),
        ("spades_db_commit_failures_total", {"backend": "sqlite", "operation": "table"}),
        ("spades_ai_worker_crashes_total", {"during": "decision"}),
        ("spades_games_ended_total", {"game": "spades", "how": "abandoned"}),
    ]:
        assert metrics.REGISTRY.get_sample_value(name, {**constant, **labels}) is not None, name


@pytest.mark.parametrize(
    ("path", "template"),
    [
        ("/api/v10/channels/123456789012345678/messages", "/channels/{id}/messages"),
        (
            "/api/v10/interactions/123456789012345678/aW50ZXJhY3Rpb246MTIz/callback",
            "/interactions/{id}/{token}/callback",
        ),
        (
            "/api/v10/webhooks/1234567890/tok.en-x_Y/messages/@original",
            "/webhooks/{id}/{token}/messages/@original",
        ),
        (
            "/api/v10/channels/1/messages/2/reactions/%F0%9F%82%A1/@me",
            "/channels/{id}/messages/{id}/reactions/{emoji}/@me",
        ),
        ("/api/v10/applications/77/emojis/88", "/applications/{id}/emojis/{id}"),
        ("/api/v10/gateway/bot", "/gateway/bot"),
        ("/api/v10/oauth2/applications/@me", "/oauth2/applications/@me"),
        ("/api/v10/guilds/9/Strange Segment/AS", "/guilds/{id}/{x}/{x}"),
        ("/", "/"),
    ],
)
def test_a_request_path_becomes_its_route_template(path: str, template: str) -> None:
    assert route_template(path) == template


async def test_commits_are_timed_and_refusals_counted_by_backend_and_operation(
    database_url: str,
) -> None:
    async with Database.open(database_url) as db:
        backend = db.backend
        metrics.enable(backend, ("meta", "other"), ())

        def commits() -> float:
            return sample("spades_db_commit_seconds_count", backend=backend, operation="meta")

        def refused() -> float:
            return sample("spades_db_commit_failures_total", backend=backend, operation="meta")

        before = (commits(), refused())
        await write(db, "k")
        assert (commits(), refused()) == (before[0] + 1, before[1])
        with pytest.raises(UniqueViolation):  # the data's answer: not the database failing
            await write(db, "k")
        assert (commits(), refused()) == (before[0] + 1, before[1])
        with pytest.raises(StoreError):  # the database refuses every write now
            await write(db, "k2", read_only=True)
        assert (commits(), refused()) == (before[0] + 1, before[1] + 1)


async def write(db: Database, key: str, *, read_only: bool = False) -> None:
    """One row into ``meta``; ``read_only``: in a transaction that cannot write (each backend
    made so its own way)."""
    async with db.transaction("meta") as tx:
        if read_only and db.backend == "sqlite":
            await db.on_every_connection("PRAGMA query_only = ON")  # type: ignore[attr-defined]
        elif read_only:
            await tx.execute("SET TRANSACTION READ ONLY")
        await tx.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (key, "v"))
