"""Packaging: the licence, the console command, the Dockerfile's stages, layers, compiled engine
and health check, and every setting listed in ``.env.example`` and the operations guide."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import setuptools

from bot.config import SETTINGS
from bot.engine import build, game

ROOT = Path(__file__).resolve().parents[1]


def dockerfile() -> list[str]:
    """The Dockerfile's instructions, continuation lines joined."""
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    return [line.strip() for line in text.splitlines() if line.strip() and line[0] != "#"]


def stages() -> dict[str, list[str]]:
    """The Dockerfile's stages by name (the last one, the image, as ``""``), each its
    ``FROM`` line and instructions, with the ``ARG``s declared before the first ``FROM``
    put into the ``FROM`` lines as ``docker build`` does."""
    args: dict[str, str] = {}
    out: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in dockerfile():
        if current is None and line.startswith("ARG "):
            name, _, value = line[4:].partition("=")
            args[name] = value
        elif line.startswith("FROM "):
            line = re.sub(r"\$\{(\w+)\}", lambda m: args[m.group(1)], line)
            words = line.split()
            current = [line]
            out[words[3] if len(words) == 4 and words[2] == "AS" else ""] = current
        elif current is not None:
            current.append(line)
    return out


def mounts(line: str) -> dict[str, str]:
    """A ``RUN --mount=type=bind,…`` line's mount: ``{"from": …, "source": …, …}``."""
    found = re.match(r"RUN --mount=(\S+) ", line)
    assert found is not None, line
    return dict(item.split("=", 1) for item in found.group(1).split(","))


def run_script(script: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """One of the Dockerfile's ``python -c`` scripts, run here in the checkout."""
    return subprocess.run(
        [sys.executable, "-c", script],
        env=env,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


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


def test_the_wheels_are_built_where_gcc_is_and_installed_where_none_is() -> None:
    """Two builder stages on the full image (it has gcc); the image itself is the slim one of
    the same Debian release, gets nothing from the build context, and installs no compiler."""
    by_name = stages()
    assert list(by_name) == ["dependencies", "engine", ""]
    debian = {
        re.sub(r"^python:3\.11-(slim-)?", "", lines[0].split()[1]) for lines in by_name.values()
    }
    assert len(debian) == 1, "the builders and the image share one Debian release"
    release = debian.pop()
    assert by_name["dependencies"][0] == f"FROM python:3.11-{release} AS dependencies"
    assert by_name["engine"][0] == f"FROM python:3.11-{release} AS engine"
    image = by_name[""]
    assert image[0] == f"FROM python:3.11-slim-{release}"
    assert not any(line.startswith(("COPY", "ADD")) for line in image), "only the wheels come in"
    text = "\n".join(image)
    for tool in ("apt-get", "gcc", "build-essential"):
        assert tool not in text, tool
    installs = [line for line in image if "pip install" in line]
    assert len(installs) == 2
    assert all("--no-index" in line for line in installs), "nothing fetched, nothing built"


def test_the_dependency_layers_come_before_the_code() -> None:
    """The dependencies' wheels are built from pyproject.toml alone, and installed in a layer
    of their own before the project's wheel: a code change rebuilds neither."""
    by_name = stages()
    dependencies = by_name["dependencies"]
    copies = [line for line in dependencies if line.startswith("COPY")]
    assert copies == ["COPY pyproject.toml ./"], "the dependency stage sees pyproject only"
    wheels = next(line for line in dependencies if "-r /tmp/requirements.txt" in line)
    assert "pip wheel --wheel-dir /wheels -r /tmp/requirements.txt" in wheels
    assert "mv /tmp/requirements.txt /wheels/" in wheels
    image = by_name[""]
    runs = [i for i, line in enumerate(image) if line.startswith("RUN --mount=")]
    assert [mounts(image[i])["from"] for i in runs] == ["dependencies", "engine"]
    deps, code = runs
    assert mounts(image[deps])["source"] == "/wheels"
    assert image[deps].endswith(
        "pip install --no-compile --no-index --find-links /wheels -r /wheels/requirements.txt"
    )
    assert deps < code


def test_the_dependency_layer_installs_what_pyproject_lists() -> None:
    run = next(line for line in dockerfile() if "tomllib" in line)
    script = re.search(r'python -c "(.*?)" >', run)
    assert script is not None
    done = run_script(script.group(1))
    assert done.returncode == 0, done.stderr
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert done.stdout.split("\n")[:-1] == meta["dependencies"]


def test_the_engine_stage_builds_the_project_wheel_from_what_it_needs() -> None:
    """The project's own wheel, built by pip with pyproject's build requirements (mypy brings
    mypyc) from the files setuptools reads, none of them left out by .dockerignore."""
    engine = stages()["engine"]
    copied = [word for line in engine if line.startswith("COPY") for word in line.split()[1:-1]]
    assert sorted(copied) == ["LICENSE", "README.md", "bot", "cogs", "pyproject.toml", "setup.py"]
    assert "mypy" in " ".join(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    )
    assert "RUN pip wheel --no-deps --wheel-dir /wheels ." in engine
    assert "SPADES_PURE_PYTHON" not in "\n".join(engine)
    ignored = {
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    assert ignored.isdisjoint(copied)
    # Out of the context: secrets, venvs, git, and a checkout's compiled engine and builds.
    assert {".env", ".venv*", ".git", "**/*.so", "**/__pycache__", "build", "dist"} <= ignored


def test_the_image_installs_the_compiled_wheel_and_refuses_a_pure_one() -> None:
    """The image installs the engine stage's wheel and nothing else (no index, no build), then
    checks that the engine it runs is the compiled one: the same check run here refuses the
    pure-Python build, and accepts this checkout's when it is compiled."""
    image = stages()[""]
    line = next(line for line in image if line.startswith("RUN --mount=") and "engine" in line)
    assert mounts(line) == {
        "type": "bind",
        "from": "engine",
        "source": "/wheels",
        "target": "/wheels",
    }
    name = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["name"]
    install = (
        f"pip install --no-compile --no-index --no-deps /wheels/{name.replace('-', '_')}-*.whl"
    )
    assert install in line
    check = re.search(r'&& python -c "(.*)"$', line)
    assert check is not None, "the install is followed by the check"
    env = {k: v for k, v in os.environ.items() if k != build.PURE_ENV}
    pure = run_script(check.group(1), {**env, build.PURE_ENV: "1"})
    assert pure.returncode == 1
    assert "AssertionError: pure Python" in pure.stderr
    if build.build_name(game) != "compiled (mypyc)":
        return  # no compiler here: this checkout's engine is the pure build
    compiled = run_script(check.group(1), env)
    assert compiled.returncode == 0, compiled.stderr
    assert compiled.stdout == "engine: compiled (mypyc)\n"


def test_the_image_runs_unprivileged_with_writable_caches_and_a_health_check() -> None:
    lines = stages()[""]
    text = "\n".join(lines)
    assert "USER spades" in lines
    assert lines.index("USER spades") > max(i for i, line in enumerate(lines) if "RUN" in line)
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
