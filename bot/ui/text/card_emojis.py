"""Card faces as Discord application emojis.

At start-up :func:`sync_card_emojis` makes sure every face of :mod:`bot.ui.images.cards` is
an emoji of the application (Discord allows 2,000; we use 108): it lists the application's
emojis once, keeps those already there, uploads the missing ones, and replaces a face whose
drawing changed since it was uploaded (the database's ``meta`` table remembers each face's
digest).  It runs in the background: until a face is uploaded — or when Discord refuses it —
that card is shown as text (``A♠``), so nothing waits on it but start-up, which waits for the
one listing (:meth:`CardEmojis.wait_known`): the faces already uploaded are known before any
table is drawn, so a table message restored after a restart looks exactly as before it.

:data:`CARD_EMOJIS` is the process-wide registry the renderers read::

    faces = CARD_EMOJIS.for_guild(guild_id)
    faces.emoji(card)   # a PartialEmoji for a button, or None
    faces.inline(card)  # "<:c_AS:123…>" for message text, or "A♠"
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Final, Protocol

import discord

from bot.engine.cards import Card
from bot.ui.images.cards import SCHEMES, Face, all_faces, emoji_name, face_codes

log = logging.getLogger(__name__)

META_KEY: Final = "card_emojis"
MAX_APPLICATION_EMOJIS: Final = 2000
_SAVE_EVERY: Final = 12
RETRY_S: Final = 30.0
RETRIES: Final = 20


class MetaStore(Protocol):
    """Where the uploaded faces are remembered (the store's ``meta`` key-value table)."""

    async def get_meta(self, key: str) -> str | None: ...

    async def set_meta(self, key: str, value: str) -> None: ...


@dataclass(frozen=True, slots=True)
class CardFaces:
    """The faces of one colour scheme, as far as they are uploaded."""

    ids: dict[str, int]
    scheme: str

    def emoji(self, c: Card) -> discord.PartialEmoji | None:
        name = emoji_name(c.code, self.scheme)
        emoji_id = self.ids.get(name)
        return None if emoji_id is None else discord.PartialEmoji(name=name, id=emoji_id)

    def inline(self, c: Card) -> str:
        """The card in message text: its face, or its text symbol when there is none."""
        name = emoji_name(c.code, self.scheme)
        emoji_id = self.ids.get(name)
        return str(c) if emoji_id is None else f"<:{name}:{emoji_id}>"


class CardEmojis:
    """Emoji ids of the uploaded faces, and each server's colour scheme (default two-colour)."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}
        self.guild_schemes: dict[int, str] = {}
        # Set once the faces already uploaded are in ``ids`` (the application's emojis were
        # listed, or could not be): before that a table drawn would show text, not faces.
        self.known = asyncio.Event()
        self.ready = asyncio.Event()  # set when a sync has finished (whatever its outcome)

    def for_guild(self, guild_id: int | None) -> CardFaces:
        scheme = self.guild_schemes.get(guild_id, "two") if guild_id is not None else "two"
        return CardFaces(self.ids, scheme)

    def set_scheme(self, guild_id: int, scheme: str) -> None:
        if scheme not in SCHEMES:
            raise ValueError(f"unknown colour scheme {scheme!r}")
        if scheme == "two":
            self.guild_schemes.pop(guild_id, None)
        else:
            self.guild_schemes[guild_id] = scheme

    def clear(self) -> None:
        self.ids.clear()
        self.guild_schemes.clear()
        self.known = asyncio.Event()
        self.ready = asyncio.Event()

    async def wait_known(self, timeout: float) -> bool:  # noqa: ASYNC109
        """Wait (at most ``timeout`` seconds) until the faces already uploaded are known;
        ``False`` when they are not by then (the cards show as text until they are)."""
        try:
            await asyncio.wait_for(self.known.wait(), timeout)
        except TimeoutError:
            return False
        return True


CARD_EMOJIS: Final = CardEmojis()


@dataclass(slots=True)
class SyncReport:
    kept: int = 0
    uploaded: int = 0
    replaced: int = 0
    failed: int = 0


@contextlib.contextmanager
def _settling(registry: CardEmojis, trouble: str) -> Iterator[None]:
    """However the work inside ends, ``registry`` is known and ready after it, so that nothing
    waits on the emojis; Discord refusing is logged (``trouble``, with the error) and the cards
    not known by then show as text."""
    try:
        yield
    except discord.HTTPException as e:
        log.warning(trouble, e)
    finally:
        registry.known.set()
        registry.ready.set()


def digest(face: Face) -> str:
    return hashlib.sha256(face.png).hexdigest()[:20]


async def sync_card_emojis(
    client: discord.Client,
    meta: MetaStore,
    registry: CardEmojis = CARD_EMOJIS,
    schemes: Iterable[str] = SCHEMES,
    *,
    upload: bool = True,
    retry_s: float = RETRY_S,
    retries: int = RETRIES,
) -> SyncReport:
    """Upload the faces the application lacks; fill ``registry`` as they become available.

    ``upload=False`` (every process of a cluster but the one serving shard 0): only take the
    faces already there, looking again every ``retry_s`` until all are (the uploader may still
    be at work), at most ``retries`` times."""
    if not upload:
        return await _adopt(client, registry, tuple(schemes), retry_s, retries)
    report = SyncReport()
    with _settling(registry, "could not set up the card emojis (cards show as text): %s"):
        faces = await asyncio.to_thread(all_faces, tuple(schemes))
        raw = await meta.get_meta(META_KEY)
        recorded: dict[str, str] = json.loads(raw) if raw else {}
        existing = {e.name: e for e in await client.fetch_application_emojis()}
        free = MAX_APPLICATION_EMOJIS - len(existing)
        dirty = 0
        missing: list[tuple[Face, str]] = []
        for face in faces:
            sha = digest(face)
            current = existing.get(face.name)
            if current is not None and recorded.get(face.name, sha) == sha:
                # Ours and up to date (or uploaded before this database knew it: adopt it).
                registry.ids[face.name] = current.id
                if recorded.get(face.name) != sha:
                    recorded[face.name] = sha
                    dirty += 1
                report.kept += 1
            else:
                missing.append((face, sha))
        registry.known.set()  # every face already there is known: tables may be drawn
        for face, sha in missing:
            current = existing.get(face.name)
            if current is not None:  # drawn differently now: replace it
                await current.delete()
                registry.ids.pop(face.name, None)
                free += 1
            if free <= 0:
                log.warning(
                    "the application has %d emojis, Discord's limit: card %s stays text",
                    MAX_APPLICATION_EMOJIS,
                    face.name,
                )
                report.failed += 1
                continue
            try:
                made = await client.create_application_emoji(name=face.name, image=face.png)
            except discord.HTTPException as e:
                log.warning("Discord refused the card emoji %s: %s", face.name, e)
                report.failed += 1
                continue
            free -= 1
            registry.ids[face.name] = made.id
            recorded[face.name] = sha
            dirty += 1
            if current is not None:
                report.replaced += 1
            else:
                report.uploaded += 1
            if dirty >= _SAVE_EVERY:
                await meta.set_meta(META_KEY, json.dumps(recorded, sort_keys=True))
                dirty = 0
        if dirty:
            await meta.set_meta(META_KEY, json.dumps(recorded, sort_keys=True))
        log.info(
            "card emojis: %d kept, %d uploaded, %d replaced, %d not available",
            report.kept,
            report.uploaded,
            report.replaced,
            report.failed,
        )
    return report


async def _adopt(
    client: discord.Client,
    registry: CardEmojis,
    schemes: tuple[str, ...],
    retry_s: float,
    retries: int,
) -> SyncReport:
    report = SyncReport()
    wanted = {emoji_name(code, s) for s in schemes for code in face_codes()}
    with _settling(registry, "could not look up the card emojis (cards show as text): %s"):
        for attempt in range(retries + 1):
            for e in await client.fetch_application_emojis():
                if e.name in wanted:
                    registry.ids[e.name] = e.id
            registry.known.set()  # the faces there now are known; the rest may come later
            report.kept = len(wanted & registry.ids.keys())
            if report.kept == len(wanted) or attempt == retries:
                break
            await asyncio.sleep(retry_s)
        report.failed = len(wanted) - report.kept
        log.info(
            "card emojis: %d kept (uploads are another process's), %d missing",
            report.kept,
            report.failed,
        )
    return report
