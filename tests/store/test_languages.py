"""The server languages store on both backends (migration 011): a server's chosen language
is kept per server, replaced by a new choice, forgotten by ``None``, and the schema takes only
a language the bot ships."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.i18n import LANGUAGES
from bot.store.db import Database
from bot.store.languages import LanguageStore

GUILD = 1_234_567_890_123_456_789
OTHER = GUILD + 1


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[Database]:
    async with Database.open(database_url) as database:
        yield database


async def test_a_server_chooses_changes_and_forgets_its_language(db: Database) -> None:
    store = LanguageStore(db)
    assert await store.languages() == {}
    await store.set_language(GUILD, "es")
    await store.set_language(OTHER, "de")
    assert await store.languages() == {GUILD: "es", OTHER: "de"}
    await store.set_language(GUILD, "pt_BR")
    assert await store.languages() == {GUILD: "pt_BR", OTHER: "de"}, "one row a server"
    await store.set_language(OTHER, None)
    assert await store.languages() == {GUILD: "pt_BR"}
    reopened = LanguageStore(db)
    assert await reopened.languages() == {GUILD: "pt_BR"}


async def test_every_shipped_language_is_stored_and_no_other(db: Database) -> None:
    store = LanguageStore(db)
    for i, language in enumerate(LANGUAGES):
        await store.set_language(GUILD + i, language)
    assert sorted((await store.languages()).values()) == sorted(LANGUAGES)
    with pytest.raises(Exception, match=r"(?i)check|constraint"):
        await store.set_language(GUILD, "klingon")
    assert (await store.languages())[GUILD] == LANGUAGES[0], "a refused write changes nothing"
