"""State kept per key stays bounded (bot/bounded.py): the most recently used keys of a map, a
lock per key only while it is in use — and what the bot keeps that way: the languages of
chats and servers, the seating lock of each server (DMs and group DMs come without end)."""

from __future__ import annotations

import asyncio

import pytest

from bot.bounded import KeyedLocks, Recent
from bot.i18n.servers import ServerLanguages


def test_a_recent_map_keeps_the_keys_used_last() -> None:
    recent: Recent[int, str] = Recent(2)
    recent[1], recent[2] = "a", "b"
    assert recent.get(1) == "a"  # 1 is now newer than 2
    recent[3] = "c"
    assert 2 not in recent
    assert (recent.get(1), recent.get(3), len(recent)) == ("a", "c", 2)
    assert recent.get(2, "gone") == "gone"
    assert recent.pop(1) == "a"
    assert recent.pop(1) is None
    with pytest.raises(ValueError, match="at least one"):
        Recent(0)


async def test_a_keyed_lock_serialises_its_key_and_is_forgotten_when_free() -> None:
    locks: KeyedLocks[int] = KeyedLocks()
    order: list[str] = []

    async def hold(name: str, key: int, release: asyncio.Event) -> None:
        async with locks.hold(key):
            order.append(f"{name} in")
            await release.wait()
            order.append(f"{name} out")

    first, second, other = asyncio.Event(), asyncio.Event(), asyncio.Event()
    tasks = [
        asyncio.create_task(hold("a", 1, first)),
        asyncio.create_task(hold("b", 1, second)),
        asyncio.create_task(hold("c", 2, other)),
    ]
    for _ in range(3):  # each task runs to its first wait (a free lock is taken at once)
        await asyncio.sleep(0)
    assert order == ["a in", "c in"], "b waits for a; c holds another key"
    assert len(locks) == 2
    first.set()
    other.set()
    second.set()
    await asyncio.gather(*tasks)
    assert order.index("a out") < order.index("b in")
    assert len(locks) == 0, "no lock is kept once nobody holds or waits for it"


def test_the_languages_of_chats_and_servers_are_bounded() -> None:
    languages = ServerLanguages(kept=100)
    for chat in range(1, 1001):  # a thousand DMs and group DMs, each used once
        languages.seen_in_chat(chat, "de")
        languages.seen(10_000 + chat, "fr")  # and servers that have not added the bot
    assert languages.of_chat(0, 1000) == "de"
    assert languages.of(10_000 + 1000) == "fr"
    assert languages.of_chat(0, 1) == "en", "the oldest were forgotten (English until used)"
    assert len(languages._chats) == len(languages._seen) == 100
