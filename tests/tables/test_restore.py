"""Restoring at start-up never leaves a table stuck: one whose stored record cannot be read or
replayed is closed, unrated, with a notice in its channel, and the others are restored as
usual.  The table service against a real SQLite database changed from outside, as an old
version's record or a damaged row would be."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from bot.engine.record import export_record
from bot.store.db import Database
from bot.tables.service import TableService
from tests.tables.test_integrity import Notices
from tests.tables.test_service import GUILD, USERS, act_once, decide


async def two_tables(path: Path) -> tuple[str, str]:
    """Two games in play in two channels (10 and 20); their ids."""
    async with Database.open(str(path)) as db:
        svc = TableService(db, decide, test_seed=3, bot_delay=0)
        ids = []
        for channel, users in ((10, USERS[:2]), (20, (201, 202))):
            table = await svc.lobby.open_table(
                guild_id=GUILD,
                channel_id=channel,
                host_id=users[0],
                host_name="host",
                preset="standard",
            )
            await svc.lobby.join(table, users[1], "guest")
            for _ in range(2):
                await svc.lobby.add_bot(table, users[0], None, "easy")
            await svc.lobby.start(table, users[0])
            ids.append(table.id)
        await svc.close()
    return ids[0], ids[1]


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(
            "UPDATE actions SET action = 'not json' WHERE seq = 1 AND table_id = ?",
            id="unreadable-action",
        ),
        pytest.param(
            'UPDATE actions SET action = \'{"k":"play","s":"N","c":"AS"}\' '
            "WHERE seq = 1 AND table_id = ?",
            id="not-replayable",
        ),
        pytest.param("UPDATE tables SET rules = 'not json' WHERE id = ?", id="unreadable-rules"),
        pytest.param(
            'UPDATE tables SET rules = \'{"deck": "tarot"}\' WHERE id = ?',
            id="unknown-rules",
        ),
    ],
)
async def test_a_table_that_cannot_be_restored_is_closed_and_the_others_restored(
    tmp_path: Path, damage: str
) -> None:
    path = tmp_path / "t.db"
    broken_id, good_id = await two_tables(path)
    with sqlite3.connect(path) as conn:
        assert conn.execute(damage, (broken_id,)).rowcount == 1
    async with Database.open(str(path)) as db:
        notices = Notices()
        svc = TableService(db, decide, listener=notices, test_seed=3, bot_delay=0)
        try:
            restored = await svc.restore()
            assert [t.id for t in restored] == [good_id]
            [notice] = notices.texts
            assert "could not restore the table here" in notice
            assert "unrated" in notice
            status = await db.fetchval("SELECT status FROM tables WHERE id = ?", (broken_id,))
            assert status == "abandoned"
            assert await db.fetchval("SELECT count(*) FROM league_games") == 0
            assert svc.registry.find_in_channel(10) is None, "its channel is free"
            assert svc.registry.find_of_user(GUILD, USERS[0]) is None
            again = await svc.lobby.open_table(
                guild_id=GUILD, channel_id=10, host_id=USERS[0], host_name="host", preset="standard"
            )
            assert again.status == "lobby"
            # The other table plays on.
            (good,) = restored
            assert good.game is not None
            before = export_record(good.game)
            await notices.wait(lambda: good.to_act is not None and not good.computer_to_act())
            await act_once(svc, good, random.Random(1))
            assert good.game is not None
            assert export_record(good.game) != before
        finally:
            await svc.close()
