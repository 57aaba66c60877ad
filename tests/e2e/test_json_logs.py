"""``LOG_FORMAT=json``: every line the real bot writes while a game is played is one JSON
object with the documented fields, names the table and server it is about, and holds no
token and no card."""

from __future__ import annotations

import json
import re
import sqlite3

from bot.logcontext import FIELDS
from tests.e2e.conftest import World
from tests.e2e.flows import act_until, quick_game
from tests.fakediscord import run_bot

CARD_IN_CUSTOM_ID = re.compile(r"^spades:t:[^:]+:[a-z]+:[NESW]:\d+:.+")


async def test_every_line_of_a_game_is_one_json_object(world: World) -> None:
    env = world.env(LOG_FORMAT="json", LOG_LEVEL="DEBUG", SHARD_COUNT="1", SHARD_IDS="0")
    async with run_bot(world.fake, env=env) as proc:
        driver = await quick_game(world, humans=2, preset="standard", target=100)
        await act_until(driver, lambda r: "game is over" in r.text.lower(), max_steps=5000)
    written = proc.output.splitlines()
    records = [json.loads(line) for line in written]  # every line parses
    assert len(records) > 100
    for record in records:
        assert isinstance(record, dict)
        assert list(record)[: len(FIELDS) + 1] == [*FIELDS, "exception"], record
        assert record["shards"] == "0"
        assert record["level"] in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
    with sqlite3.connect(world.db_path) as db:
        (table_id,) = db.execute("SELECT id FROM tables").fetchone()
    about = [r for r in records if r["table_id"] == table_id]
    assert about, "the table's lines name it"
    assert {r["guild_id"] for r in about} == {world.guild.id}
    assert {r["shard"] for r in about} == {0}
    assert {r["table_id"] for r in records} <= {table_id, None}
    clicks = [r for r in records if str(r["message"]).startswith("component spades:t:")]
    assert clicks, "DEBUG lines name each click's component"
    assert all((r["guild_id"], r["table_id"]) == (world.guild.id, table_id) for r in clicks)
    # Nothing secret: no interaction token, no card of a component's custom id.
    text = proc.output
    for inter in world.fake.interactions.values():
        assert inter.token not in text
        custom_id = str(inter.data.get("custom_id", ""))
        if CARD_IN_CUSTOM_ID.match(custom_id) and not custom_id.endswith(":refresh"):
            card = custom_id.rsplit(":", 1)[1]
            assert custom_id not in text, custom_id
            assert f':{card}"' not in text
