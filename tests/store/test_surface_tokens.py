"""Migration 010 on both backends: a table's surface and league kind, and its interaction
token, kept only while it is valid (issue 27, docs/user-installs.md)."""

from __future__ import annotations

import dataclasses

import pytest

from bot.store.db import Database
from bot.store.errors import IntegrityError
from bot.store.tables import TableRow, TableStore
from tests.store.test_contract import a_table

NOW = 1_800_000_000.0


def group_table(table_id: str, channel: int, token: str | None, expires: float | None) -> TableRow:
    return dataclasses.replace(
        a_table(table_id, channel),
        guild_id=0,
        surface="interaction",
        league="group",
        surface_token=token,
        surface_token_expires=expires,
    )


async def test_surface_league_and_token_round_trip(database_url: str) -> None:
    async with Database.open(database_url) as db:
        store = TableStore(db)
        async with db.transaction() as tx:
            await store.insert_table(tx, group_table("g1", 11, "tok-1", NOW + 600))
            await store.insert_table(tx, a_table("s1", 12))  # a server's, as before
        g1 = await store.load_table("g1")
        s1 = await store.load_table("s1")
        assert g1 is not None
        assert s1 is not None
        assert (g1.row.surface, g1.row.league, g1.row.guild_id) == ("interaction", "group", 0)
        assert (g1.row.surface_token, g1.row.surface_token_expires) == ("tok-1", NOW + 600)
        assert (s1.row.surface, s1.row.league, s1.row.surface_token) == ("channel", "server", None)
        async with db.transaction() as tx:
            await store.update_table(
                tx, "g1", surface_token="tok-2", surface_token_expires=NOW + 900
            )
        g1 = await store.load_table("g1")
        assert g1 is not None
        assert g1.row.surface_token == "tok-2"
        assert "tok-2" not in repr(g1.row), "a token is a secret: never in a repr"


async def test_expired_tokens_and_those_of_ended_tables_are_cleared(database_url: str) -> None:
    async with Database.open(database_url) as db:
        store = TableStore(db)
        async with db.transaction() as tx:
            await store.insert_table(tx, group_table("valid", 21, "a", NOW + 60))
            await store.insert_table(tx, group_table("expired", 22, "b", NOW - 1))
            ended = dataclasses.replace(group_table("ended", 23, "c", NOW + 60), status="finished")
            await store.insert_table(tx, ended)
        async with db.transaction() as tx:
            await store.clear_expired_tokens(tx, NOW)
        rows = await db.fetch("SELECT id, surface_token, surface_token_expires FROM tables")
        kept = {r["id"]: (r["surface_token"], r["surface_token_expires"]) for r in rows}
        assert kept == {"valid": ("a", NOW + 60), "expired": (None, None), "ended": (None, None)}


async def test_an_unknown_surface_or_league_kind_is_refused(database_url: str) -> None:
    async with Database.open(database_url) as db:
        store = TableStore(db)
        for bad in ({"surface": "thread"}, {"league": "guild"}):
            row = dataclasses.replace(a_table("bad", 31), **bad)
            with pytest.raises(IntegrityError):
                async with db.transaction() as tx:
                    await store.insert_table(tx, row)
