"""``seed_in_play`` on both backends: is a table dealing from a seed still open?  The one
question that keeps a duplicate round's shared seed hidden until its last table has ended
(docs/verifiable-deals.md).  Two connections stand for two of the bot's processes."""

from __future__ import annotations

import dataclasses

from bot.store.db import Database
from bot.store.tables import TableStore, seed_in_play
from tests.store.test_contract import a_table

ROUND = "ab" * 32  # a duplicate round's seed, shared by its tables
OTHER = "cd" * 32  # a table's own seed


async def test_a_seed_is_in_play_while_any_table_dealing_from_it_is_open(
    database_url: str,
) -> None:
    async with Database.open(database_url) as db, Database.open(database_url) as elsewhere:
        store = TableStore(db)
        async with db.transaction() as tx:
            seated = dataclasses.replace(a_table("t1", 11), seed=ROUND)  # lobby: just seated
            playing = dataclasses.replace(a_table("t2", 12, "playing"), seed=ROUND)
            await store.insert_table(tx, seated)
            await store.insert_table(tx, playing)
            await store.insert_table(tx, dataclasses.replace(a_table("t3", 13), seed=OTHER))
        assert await seed_in_play(elsewhere, ROUND)
        assert not await seed_in_play(elsewhere, "ef" * 32)  # no table deals from it
        async with db.transaction() as tx:
            await store.update_table(tx, "t1", status="finished")
            # Asked in the ending transaction: its own row no longer counts, the other does.
            assert await seed_in_play(tx, ROUND)
        async with db.transaction() as tx:
            await store.update_table(tx, "t2", status="abandoned")
            assert not await seed_in_play(tx, ROUND)
        # The other process sees the round over as soon as the last table's end commits.
        assert not await seed_in_play(elsewhere, ROUND)
        assert await seed_in_play(elsewhere, OTHER)
