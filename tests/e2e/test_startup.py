"""Start-up of ``python -m bot``: configuration errors, a rejected token, intents, command sync,
and the database folder."""

from __future__ import annotations

import asyncio
import os
import re
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import World
from tests.fakediscord import BotProcess, run_bot
from tests.fakediscord.models import make_token
from tests.fakediscord.process import PROJECT_ROOT

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
