"""Uploading the card faces as application emojis: once, kept across restarts, replaced when
the drawing changes, bounded by Discord's limit, and text for any card without a face."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import discord
import pytest

from bot.engine.cards import BY_CODE
from bot.store.db import Database
from bot.store.tables import TableStore
from bot.ui.images.cards import all_faces, face
from bot.ui.text.card_emojis import META_KEY, CardEmojis, digest, sync_card_emojis
from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import World, inprocess_bot

FACES = len(all_faces())


@pytest.fixture
async def client(fake: FakeDiscord, world: World) -> AsyncIterator[discord.Client]:
    async with inprocess_bot(fake, discord.Client(intents=discord.Intents.none())) as c:
        yield c


@pytest.fixture
async def meta(tmp_path: Path) -> AsyncIterator[TableStore]:
    async with Database.open(str(tmp_path / "db.sqlite")) as db:
        yield TableStore(db)


async def test_first_start_uploads_every_face_once(
    fake: FakeDiscord, client: discord.Client, meta: TableStore
) -> None:
    registry = CardEmojis()
    report = await sync_card_emojis(client, meta, registry)
    assert (report.uploaded, report.kept, report.failed) == (FACES, 0, 0)
    assert registry.ready.is_set()
    assert fake.app_emojis.creates == FACES
    assert sorted(fake.app_emojis.names()) == sorted(f.name for f in all_faces())
    for name, emoji_id in registry.ids.items():
        stored = fake.app_emojis.by_id[emoji_id]
        assert stored.name == name
        code = name.split("_", 1)[1]
        scheme = "two" if name.startswith("c_") else "four"
        assert stored.image == face(code, scheme).png, "the uploaded picture is the face"


async def test_a_restart_uploads_nothing(
    fake: FakeDiscord, client: discord.Client, meta: TableStore
) -> None:
    first = CardEmojis()
    await sync_card_emojis(client, meta, first)
    again = CardEmojis()  # a new process: nothing in memory
    report = await sync_card_emojis(client, meta, again)
    assert (report.uploaded, report.replaced, report.kept) == (0, 0, FACES)
    assert fake.app_emojis.creates == FACES
    assert fake.app_emojis.deletes == 0
    assert again.ids == first.ids


async def test_a_face_drawn_differently_is_replaced_and_the_rest_kept(
    fake: FakeDiscord, client: discord.Client, meta: TableStore
) -> None:
    await sync_card_emojis(client, meta, CardEmojis())
    recorded = json.loads(await meta.get_meta(META_KEY) or "{}")
    assert recorded["c_QH"] == digest(face("QH"))
    recorded["c_QH"] = "an older drawing"
    await meta.set_meta(META_KEY, json.dumps(recorded))
    old_id = fake.app_emojis.named("c_QH")
    assert old_id is not None
    registry = CardEmojis()
    report = await sync_card_emojis(client, meta, registry)
    assert (report.replaced, report.uploaded, report.kept) == (1, 0, FACES - 1)
    assert fake.app_emojis.deletes == 1
    assert old_id.id not in fake.app_emojis.by_id
    assert registry.ids["c_QH"] == fake.app_emojis.named("c_QH").id  # type: ignore[union-attr]
    assert json.loads(await meta.get_meta(META_KEY) or "{}")["c_QH"] == digest(face("QH"))


async def test_faces_already_uploaded_are_adopted_by_a_new_database(
    fake: FakeDiscord, client: discord.Client, meta: TableStore, tmp_path: Path
) -> None:
    await sync_card_emojis(client, meta, CardEmojis())
    async with Database.open(str(tmp_path / "fresh.sqlite")) as db:
        report = await sync_card_emojis(client, TableStore(db), CardEmojis())
    assert (report.uploaded, report.kept) == (0, FACES)
    assert fake.app_emojis.creates == FACES


async def test_at_discords_limit_the_rest_stay_text(
    fake: FakeDiscord, client: discord.Client, meta: TableStore
) -> None:
    fake.app_emojis.limit = 10
    registry = CardEmojis()
    report = await sync_card_emojis(client, meta, registry)
    assert (report.uploaded, report.failed) == (10, FACES - 10)
    assert len(registry.ids) == 10
    faces = registry.for_guild(1)
    with_face = [c for c in BY_CODE.values() if faces.emoji(c) is not None]
    assert len(with_face) == 10
    missing = next(c for c in BY_CODE.values() if faces.emoji(c) is None)
    assert faces.inline(missing) == str(missing)
    present = with_face[0]
    assert faces.inline(present) == f"<:c_{present.code}:{registry.ids['c_' + present.code]}>"


async def test_when_discord_fails_the_cards_stay_text_and_nothing_breaks(
    fake: FakeDiscord, client: discord.Client, meta: TableStore
) -> None:
    fake.app_emojis.limit = 0
    registry = CardEmojis()
    report = await sync_card_emojis(client, meta, registry)
    assert report.failed == FACES
    assert registry.ids == {}
    assert registry.ready.is_set()
    card = BY_CODE["AS"]
    assert registry.for_guild(1).emoji(card) is None
    assert registry.for_guild(1).inline(card) == "A♠"


def test_each_server_chooses_its_colours() -> None:
    registry = CardEmojis()
    registry.ids.update({"c_TD": 1, "c4_TD": 2})
    registry.set_scheme(7, "four")
    ten = BY_CODE["TD"]
    assert registry.for_guild(7).inline(ten) == "<:c4_TD:2>"
    assert registry.for_guild(8).inline(ten) == "<:c_TD:1>"
    assert registry.for_guild(None).inline(ten) == "<:c_TD:1>"
    registry.set_scheme(7, "two")
    assert registry.for_guild(7).inline(ten) == "<:c_TD:1>"
    with pytest.raises(ValueError, match="colour scheme"):
        registry.set_scheme(7, "rainbow")


async def test_other_processes_of_a_cluster_take_the_faces_the_uploader_made(
    fake: FakeDiscord, client: discord.Client, meta: TableStore
) -> None:
    follower = CardEmojis()
    # It looks again until the faces are all there, however long the uploader takes: the test
    # waits for that, not for a number of looks that a busy machine may spend first.
    waiting = asyncio.create_task(
        sync_card_emojis(client, meta, follower, upload=False, retry_s=0.05, retries=sys.maxsize)
    )
    # It has looked twice (found no faces, then looked again): it waits, it does not give up.
    await fake.wait_until(lambda: fake.app_emojis.lists >= 2, timeout=30)
    assert not follower.ready.is_set(), "it waits for the uploader"
    assert fake.app_emojis.creates == 0, "a follower never uploads"
    await sync_card_emojis(client, meta, CardEmojis())
    report = await asyncio.wait_for(waiting, 30)
    assert (report.kept, report.uploaded, report.failed) == (FACES, 0, 0)
    assert follower.ready.is_set()
    assert fake.app_emojis.creates == FACES
    assert follower.ids == {e.name: e.id for e in fake.app_emojis.by_id.values()}
