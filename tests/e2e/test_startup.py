"""Start-up of ``python -m bot``: configuration errors, a rejected token, intents, command sync,
and the database folder."""

from __future__ import annotations

import asyncio
import os
import re
import socket
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import World
from tests.fakediscord import BotProcess, FakeDiscord, run_bot
from tests.fakediscord.process import PROJECT_ROOT
from tests.fakediscord.snowflakes import make_token

MEMBERS, PRESENCES, MESSAGE_CONTENT = 1 << 1, 1 << 8, 1 << 15
# A line written by the logging module (discord.utils.setup_logging): "<date> <time> LEVEL name …"
LOG_LINE = re.compile(r"^(?:\x1b\[[0-9;]*m)?\d{4}-\d\d-\d\d \d\d:\d\d:\d\d")


async def run_once(env: dict[str, str], timeout: float = 30.0) -> tuple[int, list[str]]:  # noqa: ASYNC109
    """Run ``python -m bot`` to its end with exactly ``env`` (plus the inherited non-Discord
    variables); returns the exit code and the lines written to stderr."""
    full = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "SPADES_"))}
    full.update(PYTHONUNBUFFERED="1", **env)
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=str(PROJECT_ROOT),
        env=full,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        start_new_session=True,
    )
    try:
        _, err = await asyncio.wait_for(proc.communicate(), timeout)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        raise AssertionError("the bot did not exit") from None
    assert proc.returncode is not None
    return proc.returncode, err.decode(errors="replace").splitlines()


async def test_no_token_exits_2_with_one_line(tmp_path: Path) -> None:
    # An empty DISCORD_TOKEN: .env (python-dotenv) never overrides a variable that is set, so
    # this is "not set" whatever files lie around.
    code, lines = await run_once(
        {"DISCORD_TOKEN": "", "DATABASE_PATH": str(tmp_path / "db.sqlite")}
    )
    assert code == 2
    assert len(lines) == 1, lines
    assert "DISCORD_TOKEN" in lines[0]
    assert "Traceback" not in lines[0]
    assert not (tmp_path / "db.sqlite").exists(), "nothing is created before the settings are ok"


async def test_malformed_token_exits_2_with_one_line(tmp_path: Path) -> None:
    code, lines = await run_once(
        {"DISCORD_TOKEN": "not-a-token", "DATABASE_PATH": str(tmp_path / "db.sqlite")}
    )
    assert code == 2
    assert len(lines) == 1, lines
    assert "DISCORD_TOKEN" in lines[0]
    assert "not-a-token" not in lines[0], "the token is never echoed"


@pytest.mark.parametrize("log_level", ["INFO", "ERROR"])
async def test_a_token_discord_rejects_exits_2_with_one_clear_line(
    world: World, tmp_path: Path, log_level: str
) -> None:
    fake = world.fake
    wrong = make_token(fake.bot_user.id + 1)  # well formed, but not this application's
    assert wrong != fake.token
    code, lines = await run_once(
        {
            "DISCORD_TOKEN": wrong,
            "DISCORD_API_BASE": fake.api_base,
            "SPADES_TEST_MODE": "1",
            "DATABASE_PATH": str(tmp_path / "db.sqlite"),
            "LOG_LEVEL": log_level,
        }
    )
    assert code == 2
    assert fake.auth_failures >= 1, "the fake answered 401"
    text = "\n".join(lines)
    assert "Traceback" not in text, text
    assert wrong not in text, "the token is never echoed"
    own = [line for line in lines if not LOG_LINE.match(line)]
    assert len(own) == 1, lines
    assert "DISCORD_TOKEN" in own[0]
    assert "rejected" in own[0]
    if log_level == "ERROR":
        assert lines == own, "with LOG_LEVEL=ERROR the one line is all there is"


async def test_identify_asks_for_no_privileged_intent(world: World, bot: BotProcess) -> None:
    payloads = world.fake.identify_payloads
    assert payloads
    for p in payloads:
        intents = int(p["intents"])
        assert intents & (MEMBERS | PRESENCES | MESSAGE_CONTENT) == 0, bin(intents)
        assert intents & 1, "the guilds intent is asked for"


async def test_commands_sync_once_and_not_again_on_a_restart(world: World) -> None:
    fake = world.fake
    async with run_bot(fake, env=world.env()) as first:
        assert fake.sync_count == 1
        names = {c["name"] for c in fake.commands()}
        assert {"spades", "hand", "bid", "play"} <= names
        await first.wait_for_line("synced")
    async with run_bot(fake, env=world.env(), wait_for="commands") as second:
        await second.wait_for_line("application commands unchanged")
        assert fake.sync_count == 1, "an unchanged command tree is not synced again"
        # ... and the commands still work after the restart.
        r = await (await fake.slash(world.users[0], world.channel, "hand")).response()
        assert r.ephemeral
        assert "not seated" in r.text
    assert {c["name"] for c in fake.commands()} == names


async def test_database_folder_is_created(world: World, tmp_path: Path) -> None:
    db = tmp_path / "not" / "yet" / "there" / "spades.db"
    assert not db.parent.exists()
    async with run_bot(world.fake, env=world.env(DATABASE_PATH=str(db))):
        assert db.is_file()
        r = await (
            await world.fake.slash(world.users[0], world.channel, "spades", "new")
        ).response()
        assert r.deferred
        await world.fake.wait_for_message(world.channel, lambda m: bool(m.embeds))


# ---------------------------------------------------------------------- test-only settings
GOOD_TOKEN = make_token(123456789012345678)


@pytest.mark.parametrize(
    ("extra", "names"),
    [
        ({"DISCORD_API_BASE": "http://127.0.0.1:1/api/v10"}, ["DISCORD_API_BASE"]),
        ({"SPADES_TEST_SEED": "7"}, ["SPADES_TEST_SEED"]),
        ({"SPADES_TEST_SEED": "0"}, ["SPADES_TEST_SEED"]),
        (
            {"DISCORD_API_BASE": "http://127.0.0.1:1/api/v10", "SPADES_TEST_SEED": "7"},
            ["DISCORD_API_BASE", "SPADES_TEST_SEED"],
        ),
    ],
)
async def test_test_only_settings_without_the_test_flag_exit_2(
    tmp_path: Path, extra: dict[str, str], names: list[str]
) -> None:
    env = {"DISCORD_TOKEN": GOOD_TOKEN, "DATABASE_PATH": str(tmp_path / "db.sqlite"), **extra}
    code, lines = await run_once(env)
    assert code == 2
    assert len(lines) == 1, lines
    for name in names:
        assert name in lines[0]
    assert "for tests only" in lines[0]
    assert not (tmp_path / "db.sqlite").exists()


@pytest.mark.parametrize(
    "api_base",
    [
        "https://discord.com/api/v10",
        "https://discordapp.com/api/v10",
        "http://10.0.0.5:8080/api/v10",
        "http://example.org/api/v10",
    ],
)
async def test_test_mode_never_talks_to_another_host(tmp_path: Path, api_base: str) -> None:
    env = {
        "DISCORD_TOKEN": GOOD_TOKEN,
        "DATABASE_PATH": str(tmp_path / "db.sqlite"),
        "SPADES_TEST_MODE": "1",
        "SPADES_TEST_SEED": "7",
        "DISCORD_API_BASE": api_base,
    }
    code, lines = await run_once(env)
    assert code == 2
    assert len(lines) == 1, lines
    assert "DISCORD_API_BASE must point at a test Discord on this machine" in lines[0]
    assert GOOD_TOKEN not in lines[0]


async def test_test_mode_against_the_real_discord_is_refused(tmp_path: Path) -> None:
    """A seeded shuffle with the real Discord would make every deal predictable."""
    env = {
        "DISCORD_TOKEN": GOOD_TOKEN,
        "DATABASE_PATH": str(tmp_path / "db.sqlite"),
        "SPADES_TEST_MODE": "1",
        "SPADES_TEST_SEED": "7",
    }
    code, lines = await run_once(env)
    assert code == 2
    assert len(lines) == 1, lines
    assert "SPADES_TEST_MODE=1 runs against a test Discord only" in lines[0]


# ---------------------------------------------------------------------- unreachable Discord
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def test_an_unreachable_discord_is_one_line_per_try_then_the_bot_connects(
    tmp_path: Path,
) -> None:
    """Chosen behaviour: the bot retries with growing pauses (1 s, 2 s, 4 s … 60 s), one
    WARNING line per try, and connects as soon as Discord answers."""
    fake = FakeDiscord(port=free_port())  # not listening yet: the port refuses connections
    try:
        env = {"DATABASE_PATH": str(tmp_path / "db.sqlite"), "LOG_LEVEL": "INFO"}
        async with run_bot(fake, env=env, wait_for="none") as proc:
            await proc.wait_for_line("Discord is unreachable", timeout=30)
            await proc.wait_for_line("trying again in 2 s", timeout=30)  # the second try
            assert proc.running
            await fake.start()
            await fake.wait_until(lambda: fake.connected, timeout=60)
            await proc.wait_for_line("ready as", timeout=30)
            text = proc.output
            assert "Traceback" not in text, text
            assert fake.token not in text
            tries = [line for line in text.splitlines() if "Discord is unreachable" in line]
            assert len(tries) >= 2
            assert all("WARNING" in line for line in tries), tries
    finally:
        await fake.close()


async def test_a_stop_while_discord_is_unreachable_exits_at_once(tmp_path: Path) -> None:
    fake = FakeDiscord(port=free_port())
    env = {"DATABASE_PATH": str(tmp_path / "db.sqlite")}
    async with run_bot(fake, env=env, wait_for="none") as proc:
        await proc.wait_for_line("Discord is unreachable", timeout=30)
        proc.terminate()
        assert await proc.wait(timeout=10) == 0
        assert "Traceback" not in proc.output, proc.output


# ---------------------------------------------------------------------- liveness
async def health_check(env: dict[str, str]) -> tuple[int, str]:
    full = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "SPADES_"))}
    full.update(env)
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.health",
        cwd=str(PROJECT_ROOT),
        env=full,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await asyncio.wait_for(proc.communicate(), 30)
    assert proc.returncode is not None
    return proc.returncode, out.decode().strip()


async def test_the_health_check_follows_the_bots_liveness_file(
    world: World, tmp_path: Path
) -> None:
    alive = tmp_path / "alive"
    env = {"DISCORD_TOKEN": GOOD_TOKEN, "HEALTH_FILE": str(alive)}
    code, text = await health_check(env)
    assert code == 1
    assert "has not written" in text
    async with run_bot(world.fake, env=world.env(HEALTH_FILE=str(alive))):
        await world.fake.wait_until(alive.exists, timeout=30)
        code, text = await health_check(env)
        assert code == 0, text
        assert text.startswith("healthy")
    assert not alive.exists(), "a clean stop removes the file"
    alive.write_text("1000.0\n")  # written long ago: a stuck or disconnected bot
    code, text = await health_check(env)
    assert code == 1
    assert "no sign of life" in text
