"""Verifiable deals through the real bot and the fake Discord (docs/verifiable-deals.md): the
table message shows the commitment from the first deal on, the game-over message reveals the
seed, the revealed seed verifies the exported record (``python -m bot.engine verify``) and
``/spades verify`` says so; the seed is in no message and no log line before the game is over;
a game ended early reveals its seed too."""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import sys
from pathlib import Path

from tests.e2e.conftest import World
from tests.e2e.driver import eventually, table_message
from tests.e2e.flows import answer, four_player_game, quick_game
from tests.fakediscord import BotProcess, Message, run_bot

FOOTER = re.compile(r"Table (\w+) · hand \d+.* · deals committed ([0-9a-f]{16})$")
SEED = re.compile(r"Seed: `([0-9a-f]{64})`")
COMMITMENT = re.compile(r"Commitment \(SHA-256 of the seed\): `([0-9a-f]{64})`")


def footer(message: Message) -> tuple[str, str]:
    text = message.embeds[0]["footer"]["text"]
    m = FOOTER.search(text)
    assert m is not None, text
    return m.group(1), m.group(2)


def revealed(text: str) -> tuple[str, str]:
    seed, commitment = SEED.search(text), COMMITMENT.search(text)
    assert seed is not None, text
    assert commitment is not None, text
    return seed.group(1), commitment.group(1)


async def exported_record(world: World) -> dict[str, object]:
    """The record of the world's (only) game, as `/history` hands it out."""
    fake, user = world.fake, world.users[0]
    hist = await (await fake.slash(user, world.channel, "history")).response()
    pick = next(c for c in hist.all_components if c.custom_id and ":pick:" in c.custom_id)
    got = await (await fake.select(user, hist, pick.custom_id, [pick.values[0]])).response()
    (record_file,) = got.attachments
    doc = json.loads(record_file.data)
    assert isinstance(doc, dict)
    return doc


async def verify_cli(path: Path) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.engine",
        "verify",
        str(path),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await proc.communicate()
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def test_the_commitment_shows_and_the_revealed_seed_verifies_the_record(
    world: World, tmp_path: Path
) -> None:
    fake, ch, users = world.fake, world.channel, world.users
    async with run_bot(fake, env=world.env()) as proc:
        driver = await four_player_game(world, preset="standard", target=100)
        table_id, short = footer(table_message(fake, ch))
        # While the game runs, /spades verify shows the commitment and not the seed.
        r = await answer(world, users[1], "spades", "verify", game=table_id)
        assert r.ephemeral
        assert "still being played: its seed is revealed when it ends" in r.text, r.text
        assert short in r.text
        await driver.play_until_over()
        await eventually(lambda: any("Game over" in m.text for m in fake.messages(ch)))
        over = next(m for m in fake.messages(ch) if "Game over" in m.text)
        seed, commitment = revealed(over.text)
        assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitment
        assert commitment.startswith(short)
        assert footer(table_message(fake, ch)) == (table_id, short)
        # Before the game was over, the seed was shown nowhere: not in the channel, not in a
        # player's private hand message, not in the bot's log.
        others = [m for m in fake.messages(ch) if m is not over]
        assert others
        assert all(seed not in m.text for m in others)
        assert all(seed not in p.hand.text for p in driver.players if p.hand is not None)
        assert seed not in proc.output
        # The exported record reveals the same seed, and the published check accepts it.
        doc = await exported_record(world)
        assert (doc["seed"], doc["commitment"]) == (seed, commitment)
        path = tmp_path / "record.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        code, out, err = await verify_cli(path)
        assert (code, err) == (0, ""), err
        assert out.splitlines()[-1].startswith("verified: the seed matches the commitment")
        # /spades verify, by table id, answers with the result, the steps and the record.
        r = await answer(world, users[2], "spades", "verify", game=table_id)
        assert r.ephemeral
        assert "✅ **Game #1 verifies.**" in r.text, r.text
        assert "docs/verifiable-deals.md" in r.text
        assert "python -m bot.engine verify" in r.text
        (attached,) = r.attachments
        assert json.loads(attached.data) == doc
        # A record with a card swapped does not verify, with the hand and the seat named.
        deal = doc["hands"][1]["deal"]  # type: ignore[index]
        deal["N"][0], deal["W"][0] = deal["W"][0], deal["N"][0]
        path.write_text(json.dumps(doc), encoding="utf-8")
        code, _, err = await verify_cli(path)
        assert code == 1
        assert err.startswith("not verified: hand 2, North: the record deals "), err
        # A game that is not on this server.
        r = await answer(world, users[0], "spades", "verify", game="nosuchid")
        assert "No recorded game `nosuchid` here" in r.text, r.text


async def test_a_game_ended_early_reveals_its_seed_too(world: World) -> None:
    fake, ch, alice = world.fake, world.channel, world.users[0]
    async with run_bot(fake, env=world.env()) as proc:
        await quick_game(world, humans=1, preset="whist")
        await eventually(lambda: "deals committed" in table_message(fake, ch).text)
        table_id, short = footer(table_message(fake, ch))
        r = await answer(world, alice, "spades", "abandon")
        assert "closed" in r.text, r.text
        closed = await fake.wait_for_message(ch, lambda m: "Verifiable deals" in m.text)
        seed, commitment = revealed(closed.text)
        assert commitment.startswith(short)
        assert "closed by its host" in closed.text
        r = await answer(world, alice, "spades", "verify", game=table_id)
        assert "✅" in r.text, r.text
        doc = json.loads(r.attachments[0].data)
        assert doc["seed"] == seed
        assert seed not in proc.output


async def test_verify_reads_game_ids_like_every_command(world: World, bot: BotProcess) -> None:
    """A superscript two (a digit to ``str.isdigit``, not to ``int``) and a 20-digit number (no
    database id) are no game: refused in one line, like any unknown id — no traceback."""
    for typed in ("²", "12345678901234567890", "#٣"):
        r = await answer(world, world.users[0], "spades", "verify", game=typed)
        assert r.ephemeral
        assert f"No recorded game `{typed}` here" in r.text, r.text
    later = await answer(world, world.users[0], "spades", "verify", game="nosuchid")
    assert "No recorded game" in later.text, later.text
    assert "Traceback" not in bot.output, bot.tail()
