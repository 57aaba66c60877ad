"""The distribution's Prometheus, configured by the shipped ``deploy/prometheus/`` files,
scraping the real bot: the series arrive, the alert rules load, and a bot that stops is seen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from tests.e2e.conftest import World
from tests.e2e.flows import answer
from tests.e2e.test_metrics import metered_bot
from tests.promserver import DEPLOY, prometheus, scraping


def vector(data: dict[str, Any]) -> dict[str, float]:
    """An instant query's result: its series' ``kind`` (or ``__name__``) → value."""
    return {
        r["metric"].get("kind", r["metric"].get("__name__", "")): float(r["value"][1])
        for r in data["result"]
    }


def named(alerts: dict[str, Any], name: str) -> list[dict[str, Any]]:
    return [a for a in alerts["alerts"] if a["labels"]["alertname"] == name]


async def test_prometheus_scrapes_the_bot_and_loads_the_alerts(
    world: World, tmp_path: Path
) -> None:
    shipped = yaml.safe_load((DEPLOY / "alerts.yml").read_text())
    alerts = {rule["alert"] for group in shipped["groups"] for rule in group["rules"]}
    async with metered_bot(world) as (proc, port):
        r = await answer(world, world.users[0], "spades", "help")
        assert r.ephemeral
        config = scraping([f"127.0.0.1:{port}"])
        async with prometheus(config, tmp_path / "prometheus") as prom:
            targets = await prom.until(
                "targets", lambda d: [t["health"] for t in d["activeTargets"]] == ["up"]
            )
            (target,) = targets["activeTargets"]
            assert target["labels"]["job"] == "spades-bot"
            query = 'spades_interactions_received_total{job="spades-bot"}'
            data = await prom.until("query", lambda d: d["result"], query=query)
            assert vector(data) == {"spades help": 1.0}
            (series,) = data["result"]
            assert series["metric"]["shards"] == "all"
            assert series["metric"]["instance"] == f"127.0.0.1:{port}"
            lag = await prom.until(
                "query",
                lambda d: d["result"],
                query="sum(spades_event_loop_lag_seconds_count)",
            )
            assert vector(lag)[""] > 0
            rules = await prom.api("rules", type="alert")
            loaded = {rule["name"] for group in rules["groups"] for rule in group["rules"]}
            assert loaded == alerts
            healthy = {rule["health"] for group in rules["groups"] for rule in group["rules"]}
            assert healthy <= {"ok", "unknown"}, rules
            # Nothing is wrong with a bot that answers (an evaluation before the first scrape
            # may have seen no target at all: that pending alert goes with the next one).
            await prom.until("alerts", lambda d: d["alerts"] == [])

            await proc.stop()  # the process goes away: Prometheus sees it down, and alerts
            down = await prom.until("alerts", lambda d: named(d, "SpadesProcessNotScraped"))
            (alert,) = named(down, "SpadesProcessNotScraped")
            assert alert["state"] == "pending"  # firing after the rule's 2 minutes
            assert alert["labels"]["instance"] == f"127.0.0.1:{port}"
