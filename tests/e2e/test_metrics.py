"""The metrics of a real bot process (``METRICS_PORT``) after a real game against the fake
Discord: the counts are what was played, and no series carries anything private."""

from __future__ import annotations

import asyncio
import json
import math
import platform
import re
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
import yaml

from bot.app import ROUTED_ITEMS
from bot.engine.games import entries
from bot.store.base import OPERATIONS
from bot.tables.state import LEVELS
from tests.e2e.conftest import World
from tests.e2e.flows import act_until, answer, open_table, quick_game
from tests.fakediscord import BotProcess, run_bot
from tests.pgserver import free_port
from tests.scrape import Exposition, scrape

COMMAND, COMPONENT = 2, 3  # Discord's interaction types
OUTCOMES = ("answered", "refused", "failed", "late", "repeated", "coalesced", "dropped")
# Of a request (its class), of a table, of a tournament.
STATUSES = ("1xx", "2xx", "3xx", "4xx", "5xx", "error", "lobby", "playing", "signup", "running",
            "paused")  # fmt: skip


@asynccontextmanager
async def metered_bot(world: World, **env: str) -> AsyncIterator[tuple[BotProcess, int]]:
    port = free_port()
    async with run_bot(world.fake, env=world.env(METRICS_PORT=str(port), **env)) as proc:
        yield proc, port


async def settled(port: int, ready: Callable[[Exposition], bool]) -> Exposition:
    """The bot's metrics once ``ready`` holds of them (scraped again until it does)."""
    latest: list[Exposition] = []

    async def check() -> bool:
        latest[:] = [await scrape(port)]
        return ready(latest[0])

    for _ in range(300):
        if await check():
            return latest[0]
        await asyncio.sleep(0.1)
    raise AssertionError(f"the metrics never settled:\n{latest[0].text[-3000:]}")


def computer_actions(world: World) -> int:
    """The moves stored for the seats nobody clicked for: the computer players' (a claim is
    the computers' own check, not a decision)."""
    with sqlite3.connect(world.db_path) as db:
        rows = [
            (json.loads(a), i) for a, i in db.execute("SELECT action, interaction_id FROM actions")
        ]
    people = {a["s"] for a, i in rows if i is not None}
    return sum(1 for a, _ in rows if a["k"] not in ("deal", "claim") and a["s"] not in people)


async def test_a_game_is_counted_as_played_and_no_label_is_private(
    world: World,
) -> None:
    async with metered_bot(world) as (proc, port):
        driver = await quick_game(world, humans=2, preset="standard", target=100)
        await act_until(driver, lambda r: "game is over" in r.text.lower(), max_steps=5000)
        fake = world.fake
        sent = [i for i in fake.interactions.values() if i.type in (COMMAND, COMPONENT)]
        commands = sum(i.type == COMMAND for i in sent)
        answered = [i for i in sent if i.callback is not None]

        def done(m: Exposition) -> bool:
            return (
                m.value("spades_interactions_answered_total") == len(sent)
                and m.value("spades_games_ended_total") == 1
                and m.value("spades_tables_open") == 0
            )

        m = await settled(port, done)
        assert proc.running

    # Every interaction received, counted once by type, and answered once.
    assert m.value("spades_interactions_received_total", type="command") == commands
    assert m.value("spades_interactions_received_total", type="component") == len(sent) - commands
    # Answered — or, on a busy machine, "late": deferred by the bot's 2 s watchdog and answered
    # after it (still one answer each); none refused, failed or counted twice.
    outcomes = {
        o: m.value("spades_interactions_answered_total", outcome=o)
        for o in m.label_values("spades_interactions_answered_total", "outcome")
    }
    assert set(outcomes) <= {"answered", "late"}, outcomes
    assert sum(outcomes.values()) == len(sent), outcomes
    assert m.value("spades_interaction_first_answer_seconds_count") == len(answered) == len(sent)
    assert m.value("spades_interactions_received_total", kind="spades new") == 1
    assert m.value("spades_interactions_received_total", kind="play") == sum(
        ":play:" in str(i.data.get("custom_id", "")) for i in sent
    )
    # The game: finished, two people seated until then, the computers' every move decided.
    assert m.value("spades_games_ended_total", game="spades", how="finished") == 1
    assert m.value("spades_players_seated") == 0
    assert m.value("spades_ai_decision_seconds_count") == computer_actions(world)
    assert m.value("spades_ai_worker_crashes_total") == 0
    # Each answer was a callback request the bot saw answered, and each move a commit.
    callbacks = m.value(
        "spades_discord_requests_total",
        method="POST",
        route="/interactions/{id}/{token}/callback",
        status="2xx",
    )
    assert callbacks == sum(1 for i in answered if i.acknowledged)
    assert m.value("spades_discord_rate_limited_total") == fake.ratelimiter.hits_429 == 0
    moves = driver.actions + computer_actions(world)
    assert m.value("spades_db_commit_seconds_count", backend="sqlite", operation="table") >= moves
    assert m.value("spades_db_commit_failures_total") == 0
    assert m.value("spades_event_loop_lag_seconds_count") > 0
    assert m.value("process_resident_memory_bytes") > 0
    check_labels(m, world)


# ---------------------------------------------------------------------- what labels may hold
def allowed_values(world: World) -> dict[str, Callable[[str], bool]]:
    """Every label name the bot may expose, with what its values may be."""
    commands = set()
    for command in world.fake.commands():
        commands.add(command["name"])
        for sub in command.get("options", []):
            if sub.get("type") in (1, 2):  # a subcommand (or a group's)
                commands.add(f"{command['name']} {sub['name']}")
                for leaf in sub.get("options", []):
                    if leaf.get("type") == 1:
                        commands.add(f"{command['name']} {sub['name']} {leaf['name']}")
    verbs = {str(r) for item in ROUTED_ITEMS for r in item.routes} | {"unreadable"}
    games = {entry.kind.value for entry in entries()}
    word = re.compile(r"[a-z][a-z0-9_.-]{0,31}|@[a-z]{1,16}|\{id\}|\{token\}|\{emoji\}|\{x\}")

    def one_of(*values: str) -> Callable[[str], bool]:
        return set(values).__contains__

    return {
        "shards": lambda v: re.fullmatch(r"all|\d+(-\d+)?(,\d+(-\d+)?)*", v) is not None,
        "type": one_of("command", "component"),
        "kind": (commands | verbs | {"unknown"}).__contains__,
        "outcome": one_of(*OUTCOMES),
        "method": one_of("GET", "POST", "PATCH", "PUT", "DELETE"),
        "route": lambda v: v == "/" or all(word.fullmatch(p) for p in v.split("/")[1:]),
        "status": one_of(*STATUSES),
        "scope": one_of("global", "route", "shared"),
        "game": games.__contains__,
        "how": one_of("finished", "abandoned", "resume", "identify"),
        "backend": one_of("sqlite", "postgresql"),
        "operation": set(OPERATIONS).__contains__,
        "level": set(LEVELS).__contains__,
        "during": one_of("decision", "hint", "review"),
        "state": one_of("in_use", "idle"),
        "shard": lambda v: v.isdigit() and int(v) < 10_000,
        "generation": one_of("0", "1", "2"),
        "le": lambda v: v == "+Inf" or math.isfinite(float(v)),
        "implementation": one_of(platform.python_implementation()),
        "major": one_of(platform.python_version_tuple()[0]),
        "minor": one_of(platform.python_version_tuple()[1]),
        "patchlevel": one_of(platform.python_version_tuple()[2]),
        "version": one_of(platform.python_version()),
    }


def check_labels(m: Exposition, world: World) -> None:
    """Every exposed series: only the label names above, each with a value of its kind; and
    nothing of a member, a channel, a table, a token or a card in any of them."""
    allowed = allowed_values(world)
    private = {str(world.guild.id), str(world.channel.id)} | {str(u.id) for u in world.users}
    private |= {i.token for i in world.fake.interactions.values()}
    with sqlite3.connect(world.db_path) as db:
        private |= {row[0] for row in db.execute("SELECT id FROM tables")}
    card = re.compile(r"(10|[2-9TJQKA])[SHDC♠♥♦♣]|[♠♥♦♣]")
    seen = 0
    for family, _, sample in m.samples():
        assert sample.labels.get("shards") == "all", (family, sample)
        for name, value in sample.labels.items():
            assert name in allowed, f"{family}: label {name!r} is not on the allow-list"
            assert allowed[name](value), f"{family}: {name}={value!r}"
            assert not any(p in value for p in private), f"{family}: {name}={value!r}"
            assert not card.fullmatch(value), f"{family}: {name}={value!r}"
            if name != "le":
                assert not re.search(r"\d{5,}", value), f"{family}: {name}={value!r} (an id?)"
            seen += 1
    assert seen > 100


@pytest.mark.parametrize(
    ("value", "says"),
    [("abc", "METRICS_PORT must be a port number"), ("70000", "METRICS_PORT must be")],
)
async def test_a_bad_metrics_port_exits_2_with_one_line(
    world: World, value: str, says: str
) -> None:
    from tests.e2e.test_startup import run_once

    env = {**world.env(METRICS_PORT=value), "DISCORD_TOKEN": world.fake.token}
    code, lines = await run_once(
        {**env, "SPADES_TEST_MODE": "1", "DISCORD_API_BASE": world.fake.api_base}
    )
    assert code == 2
    assert len(lines) == 1, lines
    assert says in lines[0]


async def test_a_metrics_port_in_use_exits_2_with_one_line(world: World) -> None:
    import socket

    from tests.e2e.test_startup import run_once

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {
            **world.env(METRICS_PORT=str(port)),
            "DISCORD_TOKEN": world.fake.token,
            "SPADES_TEST_MODE": "1",
            "DISCORD_API_BASE": world.fake.api_base,
        }
        code, lines = await run_once(env)
    assert code == 2
    errors = [line for line in lines if "METRICS_PORT" in line]
    assert errors == [f"METRICS_PORT {port} is in use on 127.0.0.1 (another bot process, or "
                      "another program): give each process its own port"], lines  # fmt: skip
    assert not any("Traceback" in line for line in lines)


# ---------------------------------------------------------------------- the shipped board
ROOT = Path(__file__).resolve().parents[2]
DASHBOARD = ROOT / "deploy" / "grafana" / "spades-bot.json"
ALERTS = ROOT / "deploy" / "prometheus" / "alerts.yml"
METRIC = re.compile(r"\b(?:spades|process|python)_[a-z0-9_]+\b")
SUFFIXES = {"counter": ("_total",), "histogram": ("_bucket", "_count", "_sum"), "gauge": ("",)}


def exposed_names(m: Exposition) -> set[str]:
    """Every sample name the bot can expose, from its families (with samples or not)."""
    return {name + s for name, kind in m.families().items() for s in SUFFIXES.get(kind, ("",))}


def panel_expressions() -> dict[str, list[str]]:
    """Each panel's title → its queries."""
    board = json.loads(DASHBOARD.read_text())
    return {
        p["title"]: [t["expr"] for t in p["targets"]] for p in board["panels"] if "targets" in p
    }


def alert_expressions() -> dict[str, str]:
    groups = yaml.safe_load(ALERTS.read_text())["groups"]
    return {rule["alert"]: rule["expr"] for group in groups for rule in group["rules"]}


async def test_the_dashboard_and_the_alerts_name_only_metrics_the_bot_exposes(
    world: World, postgres_url: str
) -> None:
    """On PostgreSQL, whose pool has series of its own (SQLite's families are a subset)."""
    async with metered_bot(world, DATABASE_URL=postgres_url) as (_, port):
        m = await scrape(port)
    names = exposed_names(m)
    queries = {**panel_expressions(), **{a: [e] for a, e in alert_expressions().items()}}
    named = set()
    for where, expressions in queries.items():
        for expr in expressions:
            for metric in METRIC.findall(expr):
                assert metric in names, f"{where}: {metric} is not exposed by the bot"
                named.add(metric)
    # The board covers every part of the bot the issue asks for.
    for part in ("interaction", "discord", "tables", "db_commit", "ai_decision", "loop_lag"):
        assert any(part in n for n in named), part


async def test_429s_are_counted_by_scope_and_a_resumed_gateway_as_a_reconnect(
    world: World,
) -> None:
    fake = world.fake
    async with metered_bot(world) as (_, port):
        fake.inject_429(1, 0.5, path_contains="/channels/", method="POST", is_global=True)
        await open_table(world)  # the table message: refused once (global), then posted
        fake.inject_429(1, 0.5, path_contains="/channels/", method="POST")
        r = await answer(world, world.users[0], "spades", "table")  # posted again
        assert r.ephemeral
        generation = fake.ready_generation
        await fake.disconnect_all()
        await fake.wait_for_ready(after=generation)
        assert fake.gateway.resume_count == 1

        def counted(m: Exposition) -> bool:
            return m.value("spades_gateway_reconnects_total", how="resume") == 1 and (
                m.value("spades_discord_rate_limited_total") == 2
            )

        m = await settled(port, counted)
    assert m.value("spades_discord_rate_limited_total", scope="global") == 1
    assert m.value("spades_discord_rate_limited_total", scope="route") == 1
    assert m.value("spades_gateway_reconnects_total", how="identify") == 0
    posts = {"method": "POST", "route": "/channels/{id}/messages"}
    assert m.value("spades_discord_requests_total", status="4xx", **posts) == 2
    assert m.value("spades_gateway_latency_seconds", shard="0") > 0
