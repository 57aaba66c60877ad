"""Messages, their versions (snapshots) and attachments."""

from __future__ import annotations

import json
import re
import time
from collections import deque
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .components import (
    ActionRow,
    Component,
    component_texts,
    embed_texts,
    flatten,
    parse_rows,
)
from .snowflakes import iso
from .users import User

if TYPE_CHECKING:
    from .channels import Channel

JSON = dict[str, Any]
dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
EPHEMERAL = 1 << 6
LOADING = 1 << 7
SUPPRESS_EMBEDS = 1 << 2


_USER_MENTION = re.compile(r"<@!?([0-9]+)>")


def pinged_users(content: str, allowed_mentions: JSON | None) -> frozenset[int]:
    """The users a new message notifies, as Discord decides: the users it mentions, narrowed
    by its ``allowed_mentions`` (``parse: ["users"]`` lets every mention ping, else only the
    ids in ``users``).  An edit notifies nobody."""
    mentioned = frozenset(int(m) for m in _USER_MENTION.findall(content))
    if allowed_mentions is None or "users" in (allowed_mentions.get("parse") or ()):
        return mentioned
    return mentioned & frozenset(int(u) for u in allowed_mentions.get("users") or ())


class Attachment:
    __slots__ = ("content_type", "data", "description", "filename", "id", "url")

    def __init__(
        self,
        id: int,
        filename: str,
        data: bytes,
        content_type: str | None = None,
        description: str | None = None,
        url: str = "",
    ):
        self.id, self.filename, self.data = id, filename, data
        self.content_type, self.description, self.url = content_type, description, url

    @property
    def size(self) -> int:
        return len(self.data)

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type or "application/octet-stream",
        }
        if self.description:
            data["description"] = self.description
        return data

    def __repr__(self) -> str:
        return f"<Attachment {self.filename!r} {len(self.data)} bytes>"


class Snapshot:
    """One version of a message's visible state. Parsing is lazy, recording is cheap."""

    __slots__ = (
        "_flat",
        "_rows",
        "at",
        "attachments",
        "content",
        "embeds",
        "flags",
        "raw_components",
    )

    def __init__(
        self,
        content: str = "",
        embeds: list[JSON] | None = None,
        raw_components: list[JSON] | None = None,
        flags: int = 0,
        attachments: list[Attachment] | None = None,
    ) -> None:
        self.content = content
        self.embeds: list[JSON] = embeds or []
        self.raw_components: list[JSON] = raw_components or []
        self.flags = flags
        self.attachments: list[Attachment] = attachments or []
        self.at = time.monotonic()
        self._rows: list[ActionRow] | None = None
        self._flat: list[Component] | None = None

    @classmethod
    def from_data(
        cls, data: JSON, attachments: list[Attachment] | None, flags: int = 0
    ) -> Snapshot:
        return cls(
            data.get("content") or "",
            data.get("embeds") or [],
            data.get("components") or [],
            (data.get("flags") or 0) | flags,
            attachments,
        )

    def merged(self, data: JSON, attachments: list[Attachment] | None) -> Snapshot:
        """PATCH semantics: only keys present in ``data`` change."""
        flags = self.flags & ~LOADING
        if "flags" in data and data["flags"] is not None:
            # only SUPPRESS_EMBEDS may be toggled by an edit; ephemeral/v2 bits are kept
            flags = (flags & ~SUPPRESS_EMBEDS) | (data["flags"] & SUPPRESS_EMBEDS)
            flags |= data["flags"] & (1 << 15)
        return Snapshot(
            (data.get("content") or "") if "content" in data else self.content,
            (data.get("embeds") or []) if "embeds" in data else self.embeds,
            (data.get("components") or []) if "components" in data else self.raw_components,
            flags,
            self.attachments if attachments is None else attachments,
        )

    # ----- parsed views ------------------------------------------------------------------
    @property
    def components(self) -> list[ActionRow]:
        """Action rows, each with parsed :class:`Component` objects."""
        if self._rows is None:
            self._rows = parse_rows(self.raw_components)
        return self._rows

    @property
    def all_components(self) -> list[Component]:
        """Every component (buttons, selects, text displays...) flattened, parsed once."""
        if self._flat is None:
            self._flat = flatten(self.raw_components)
        return self._flat

    @property
    def buttons(self) -> list[Component]:
        return [c for c in self.all_components if c.is_button]

    @property
    def selects(self) -> list[Component]:
        return [c for c in self.all_components if c.is_select]

    def find(self, custom_id: str) -> Component | None:
        for c in self.all_components:
            if c.custom_id == custom_id:
                return c
        return None

    @property
    def custom_ids(self) -> list[str]:
        return [c.custom_id for c in self.all_components if c.custom_id]

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    def texts(self) -> Iterable[str]:
        if self.content:
            yield self.content
        yield from embed_texts(self.embeds)
        yield from component_texts(self.raw_components)
        for a in self.attachments:
            yield a.filename
            if a.description:
                yield a.description

    @property
    def text(self) -> str:
        """Everything a human would read: content, embeds, component labels, file names."""
        return "\n".join(t for t in self.texts() if t)

    def __repr__(self) -> str:
        return f"<Snapshot content={self.content[:40]!r} flags={self.flags}>"


class SnapshotView:
    """Delegates the snapshot properties to ``self.snapshot``."""

    __slots__ = ()

    @property
    def snapshot(self) -> Snapshot:
        raise NotImplementedError

    content = property(lambda self: self.snapshot.content)
    embeds = property(lambda self: self.snapshot.embeds)
    flags = property(lambda self: self.snapshot.flags)
    attachments = property(lambda self: self.snapshot.attachments)
    components = property(lambda self: self.snapshot.components)
    all_components = property(lambda self: self.snapshot.all_components)
    buttons = property(lambda self: self.snapshot.buttons)
    selects = property(lambda self: self.snapshot.selects)
    custom_ids = property(lambda self: self.snapshot.custom_ids)
    ephemeral = property(lambda self: self.snapshot.ephemeral)
    loading = property(lambda self: self.snapshot.loading)
    text = property(lambda self: self.snapshot.text)

    def find(self, custom_id: str) -> Component | None:
        return self.snapshot.find(custom_id)


def max_in_window(times: Iterable[float], window: float = 1.0) -> int:
    """Largest number of timestamps falling within any ``window`` seconds."""
    ordered = sorted(times)
    best, lo = 0, 0
    for hi, t in enumerate(ordered):
        while t - ordered[lo] > window:
            lo += 1
        best = max(best, hi - lo + 1)
    return best


class Message(SnapshotView):
    """A message as the fake stores it: current state, bounded edit history and timings."""

    __slots__ = (
        "_json",
        "author",
        "channel",
        "created_at",
        "deleted",
        "edit_times",
        "edited_timestamp",
        "edits",
        "history",
        "history_limit",
        "id",
        "interaction_id",
        "interaction_metadata",
        "pinged",
        "reactions",
        "reference",
        "state",
        "thread",
        "timestamp",
        "type",
        "visible_to",
        "webhook_id",
    )

    def __init__(
        self,
        id: int,
        channel: Channel,
        author: User,
        state: Snapshot,
        *,
        history_limit: int,
        visible_to: int | None = None,
        webhook_id: int | None = None,
        interaction_id: int | None = None,
        interaction_metadata: JSON | None = None,
        type: int = 0,
        reference: JSON | None = None,
    ) -> None:
        self.id, self.channel, self.author, self.state = id, channel, author, state
        self.visible_to = visible_to  # user id for ephemeral messages
        self.webhook_id, self.interaction_id = webhook_id, interaction_id
        self.interaction_metadata, self.type, self.reference = interaction_metadata, type, reference
        # allocated lazily: most messages are never edited
        self.history: deque[Snapshot] | None = None
        self.edit_times: deque[float] | None = None
        self.history_limit = history_limit
        self.edits = 0
        self.created_at = state.at
        self.timestamp = iso()
        self.edited_timestamp: str | None = None
        self.deleted = False
        self.reactions: dict[str, set[int]] | None = None
        self.thread: Channel | None = None
        self.pinged: frozenset[int] = frozenset()  # users notified when it was posted
        self._json: str | None = None

    @property
    def snapshot(self) -> Snapshot:
        return self.state

    @property
    def versions(self) -> list[Snapshot]:
        """Older versions (bounded) followed by the current one."""
        return [*(self.history or ()), self.state]

    @property
    def edit_count(self) -> int:
        return self.edits

    def max_edits_per(self, window: float = 1.0) -> int:
        """Most edits that happened within any ``window`` seconds (rate-limit assertions)."""
        return max_in_window(self.edit_times or (), window)

    def apply_edit(self, data: JSON, attachments: list[Attachment] | None) -> Snapshot:
        if self.history is None:
            self.history = deque(maxlen=self.history_limit)
            self.edit_times = deque(maxlen=1000)
        assert self.edit_times is not None
        self.history.append(self.state)
        self.state = self.state.merged(data, attachments)
        self.edit_times.append(self.state.at)
        self.edits += 1
        self.edited_timestamp = iso()
        self._json = None
        return self.state

    def invalidate(self) -> None:
        """Forget the cached JSON after mutating reactions/thread."""
        self._json = None

    def payload_json(self) -> str:
        """``payload()`` encoded, cached until the message changes (clicks re-send it a lot)."""
        if self._json is None:
            self._json = dumps(self.payload())
        return self._json

    def payload(self) -> JSON:
        s = self.state
        ch = self.channel
        data: JSON = {
            "id": str(self.id),
            "channel_id": str(ch.id),
            "author": self.author.payload(),
            "content": s.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in s.attachments],
            "embeds": s.embeds,
            "components": s.raw_components,
            "pinned": False,
            "type": self.type,
            "flags": s.flags,
        }
        if ch.guild is not None:
            data["guild_id"] = str(ch.guild.id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        if self.reference is not None:
            data["message_reference"] = self.reference
        if self.thread is not None:
            data["thread"] = self.thread.payload()
        if self.reactions:
            data["reactions"] = [
                {"emoji": {"id": None, "name": e}, "count": len(u), "me": False, "burst_colors": []}
                for e, u in self.reactions.items()
            ]
        return data

    def __repr__(self) -> str:
        eph = " ephemeral" if self.visible_to else ""
        return f"<Message id={self.id}{eph} content={self.state.content[:40]!r}>"
