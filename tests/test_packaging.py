"""Packaging: the licence, the console command, the Dockerfile's layers and health check, and
every setting listed in ``.env.example`` and the operations guide."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import setuptools

from bot.config import SETTINGS

ROOT = Path(__file__).resolve().parents[1]


def dockerfile() -> list[str]:
    """The Dockerfile's instructions, continuation lines joined."""
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    return [line.strip() for line in text.splitlines() if line.strip() and line[0] != "#"]


def test_the_licence_is_the_one_pyproject_names() -> None:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert meta["license"] == {"text": "MIT"}
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")


def test_the_spades_bot_command_starts_the_bot() -> None:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert meta["scripts"] == {"spades-bot": "bot.__main__:main"}
    command = Path(sys.executable).parent / "spades-bot"
    assert command.exists(), "pip install -e . installs the command"
    env = {"PATH": str(command.parent), "DISCORD_TOKEN": ""}
    done = subprocess.run(
        [str(command)], env=env, cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stderr.strip().startswith("DISCORD_TOKEN is not set")


def test_the_dependency_layer_comes_before_the_code() -> None:
    lines = dockerfile()
    copies = [i for i, line in enumerate(lines) if line.startswith("COPY")]
    assert lines[copies[0]] == "COPY pyproject.toml ./", "the first layer sees pyproject only"
    deps = next(i for i, line in enumerate(lines) if "-r /tmp/requirements.txt" in line)
    code = next(i for i, line in enumerate(lines) if line.startswith("COPY bot"))
    assert copies[0] < deps < code
    final = next(i for i, line in enumerate(lines) if "pip install" in line and "--no-deps" in line)
    assert final > code


def test_the_dependency_layer_installs_what_pyproject_lists() -> None:
    run = next(line for line in dockerfile() if "tomllib" in line)
    script = re.search(r'python -c "(.*?)" >', run)
    assert script is not None
    done = subprocess.run(
        [sys.executable, "-c", script.group(1)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert done.stdout.split("\n")[:-1] == meta["dependencies"]


def test_the_image_runs_unprivileged_with_writable_caches_and_a_health_check() -> None:
    lines = dockerfile()
    text = "\n".join(lines)
    assert "USER spades" in lines
    assert "MPLCONFIGDIR=/home/spades/.cache/matplotlib" in text
    assert 'mkdir -p /data "$MPLCONFIGDIR"' in text
    assert "chown -R spades /data /home/spades" in text
    health = next(line for line in lines if line.startswith("HEALTHCHECK"))
    assert health.endswith('CMD ["python", "-m", "bot.health"]')
    assert lines[-1] == 'CMD ["spades-bot"]'


def test_every_setting_is_in_env_example_and_the_operations_guide() -> None:
    """``.env.example`` lists every setting, and the configuration section of
    docs/operations.md (the README links it) names each one."""
    example = (ROOT / ".env.example").read_text()
    guide = (ROOT / "docs" / "operations.md").read_text()
    configuration = guide.split("\n## Configuration\n", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]+)=", example, re.M))
    compose_only = {"POSTGRES_PASSWORD", "GRAFANA_ADMIN_PASSWORD"}  # compose.yaml's, not the bot's
    assert listed - compose_only == set(SETTINGS)
    for name in SETTINGS:
        assert f"`{name}`" in configuration, name
    for name in compose_only:
        assert f"`{name}`" in configuration, name


def test_the_bot_reads_no_setting_that_is_not_listed() -> None:
    names: set[str] = set()
    for path in (ROOT / "bot").rglob("*.py"):
        names |= set(re.findall(r"""\.get\(\s*["']([A-Z][A-Z0-9_]+)["']""", path.read_text()))
        names |= set(
            re.findall(r"""_optional_\w+\(\w+, ["']([A-Z][A-Z0-9_]+)["']""", path.read_text())
        )
    assert names <= set(SETTINGS), names - set(SETTINGS)


# The measuring tools that shipped inside bot/ai until they moved to tools/ (issue 24).
MOVED_OUT = {"arena", "arena_detail", "arena_journal", "arena_play", "arena_players",
             "arena_report", "solo_arena", "protocol", "example_player"}  # fmt: skip


def test_the_wheel_ships_the_bot_and_not_its_tools() -> None:
    """The packages setuptools puts in the wheel (pyproject's ``packages.find``, namespace
    packages included as for a pyproject build) are ``bot`` and ``cogs``, and none of their
    modules is one of the tools: the arena, the player protocol, the baselines."""
    find = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    packages = setuptools.find_namespace_packages(str(ROOT), **find["packages"]["find"])
    assert {p.split(".")[0] for p in packages} == {"bot", "cogs"}
    assert {"bot", "bot.ai", "bot.engine", "cogs"} <= set(packages)
    shipped = {
        path.stem
        for package in packages
        for path in (ROOT / package.replace(".", "/")).glob("*.py")
    }
    tools = {path.stem for path in (ROOT / "tools").glob("*.py")} - {"__init__"}
    assert shipped & (MOVED_OUT | tools) == set()
