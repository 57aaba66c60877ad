"""The shipped monitoring: ``deploy/prometheus/`` checked and its alerts unit-tested by the
distribution's ``promtool``; ``compose.yaml``'s ``monitoring`` profile, the Grafana provisioning
and the dashboard read and checked against each other (no Docker engine runs the tests).
Whether the dashboard's queries name real series: tests/e2e/test_metrics.py."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import yaml

from tests.promserver import DEPLOY, promtool

ROOT = Path(__file__).resolve().parents[1]
GRAFANA = ROOT / "deploy" / "grafana"


def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text())
    return data


def test_promtool_accepts_the_shipped_rules_and_configuration() -> None:
    rules = promtool("check", "rules", str(DEPLOY / "alerts.yml"))
    assert rules.returncode == 0, rules.stdout + rules.stderr
    assert "SUCCESS: 7 rules found" in rules.stdout
    config = promtool("check", "config", str(DEPLOY / "prometheus.yml"))
    assert config.returncode == 0, config.stdout + config.stderr


def test_each_alert_fires_on_what_it_watches_and_not_before() -> None:
    tested = promtool("test", "rules", str(ROOT / "tests" / "monitoring" / "alerts_test.yml"))
    assert tested.returncode == 0, tested.stdout + tested.stderr
    text = (ROOT / "tests" / "monitoring" / "alerts_test.yml").read_text()
    shipped = yaml.safe_load((DEPLOY / "alerts.yml").read_text())
    for rule in shipped["groups"][0]["rules"]:
        assert f"alertname: {rule['alert']}" in text, f"{rule['alert']} has no unit test"


def test_every_alert_says_what_to_do_in_the_operations_guide() -> None:
    guide = (ROOT / "docs" / "operations.md").read_text()
    headings = {
        re.sub(r"[^a-z0-9 -]", "", h.lower()).replace(" ", "-")
        for h in re.findall(r"^#+ (.+)$", guide, re.M)
    }
    shipped = yaml.safe_load((DEPLOY / "alerts.yml").read_text())
    for rule in shipped["groups"][0]["rules"]:
        anchor = re.search(r"docs/operations\.md#([a-z0-9-]+)", rule["annotations"]["description"])
        assert anchor, rule["alert"]
        assert anchor.group(1) in headings, f"{rule['alert']}: no section #{anchor.group(1)}"


def test_the_monitoring_profile_scrapes_every_bot_service_on_its_metrics_port() -> None:
    services = compose()["services"]
    bots = {name: s for name, s in services.items() if name.startswith("bot-")}
    assert len(bots) == 2
    for name in ("prometheus", "grafana"):
        assert services[name]["profiles"] == ["monitoring"], f"{name} runs only when asked"
        for port in services[name]["ports"]:
            assert port.startswith("127.0.0.1:"), f"{name} is published on this machine only"
    for service in bots.values():
        assert "profiles" not in service
        assert "ports" not in service, "the bots' metrics stay on the compose network"
    config = yaml.safe_load((DEPLOY / "prometheus.yml").read_text())
    (job,) = config["scrape_configs"]
    (targets,) = [c["targets"] for c in job["static_configs"]]
    expected = {f"{name}:{s['environment']['METRICS_PORT']}" for name, s in bots.items()}
    assert set(targets) == expected
    assert {s["environment"]["METRICS_HOST"] for s in bots.values()} == {"0.0.0.0"}
    assert config["rule_files"] == ["alerts.yml"]
    mounts = [v.split(":") for v in services["prometheus"]["volumes"]]
    assert ["./deploy/prometheus", "/etc/prometheus", "ro"] in mounts
    assert "--config.file=/etc/prometheus/prometheus.yml" in services["prometheus"]["command"]


def test_grafana_is_provisioned_with_the_prometheus_source_and_the_dashboard() -> None:
    grafana = compose()["services"]["grafana"]
    mounts = {v.split(":")[1]: ROOT / v.split(":")[0] for v in grafana["volumes"] if "/" in v}
    assert mounts["/etc/grafana/provisioning"] == GRAFANA / "provisioning"
    (source,) = yaml.safe_load(
        (GRAFANA / "provisioning" / "datasources" / "prometheus.yml").read_text()
    )["datasources"]
    assert source["type"] == "prometheus"
    assert source["url"] == "http://prometheus:9090"
    (provider,) = yaml.safe_load(
        (GRAFANA / "provisioning" / "dashboards" / "spades-bot.yml").read_text()
    )["providers"]
    board_path = provider["options"]["path"] + "/spades-bot.json"
    assert mounts[board_path].resolve() == (GRAFANA / "spades-bot.json").resolve()
    board = json.loads((GRAFANA / "spades-bot.json").read_text())
    panels = [p for p in board["panels"] if p["type"] != "row"]
    assert len({p["id"] for p in board["panels"]}) == len(board["panels"])
    cells: set[tuple[int, int]] = set()
    for p in panels:
        assert p["title"], p
        assert p["description"], p
        assert p["datasource"]["uid"] == source["uid"]
        assert all(t["datasource"]["uid"] == source["uid"] for t in p["targets"])
        g = p["gridPos"]
        columns, lines = range(g["x"], g["x"] + g["w"]), range(g["y"], g["y"] + g["h"])
        mine = {(x, y) for x in columns for y in lines}
        assert not mine & cells, f"{p['title']} overlaps another panel"
        assert g["x"] + g["w"] <= 24
        cells |= mine
    rows = [p["title"] for p in board["panels"] if p["type"] == "row"]
    assert rows == ["Answers", "Discord", "Tables", "Database", "Computer players", "Process"]
