"""Channels of the fake Discord: guild text channels, threads, DMs and group DMs (where the bot
is no member: only a user-installed app reaches them, through interactions), with the bot's
permission overwrites, rendered to the JSON shape discord.py 2.7 expects (ids as strings).
Messages live in :mod:`.messages`."""

from __future__ import annotations

import enum
from collections import deque
from typing import TYPE_CHECKING, Any

from .permissions import ALL_PERMISSIONS, EVERYONE_DEFAULT, Perm, perms
from .snowflakes import iso

if TYPE_CHECKING:
    from .guilds import Guild
    from .messages import Message
    from .server import FakeDiscord
    from .users import User

JSON = dict[str, Any]


class ChannelType(enum.IntEnum):
    TEXT = 0
    DM = 1
    GROUP_DM = 3
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12


class Channel:
    """A guild text channel, a thread (public/private) or a DM channel."""

    def __init__(
        self,
        fake: FakeDiscord,
        id: int,
        type: ChannelType,
        name: str,
        guild: Guild | None = None,
        parent: Channel | None = None,
        recipient: User | None = None,
        recipients: list[User] | None = None,
    ) -> None:
        self._fake = fake
        self.id, self.type, self.name = id, type, name
        self.guild, self.parent, self.recipient = guild, parent, recipient
        self.recipients: list[User] = list(recipients or [])  # a group DM's members
        self.owner: User | None = self.recipients[0] if self.recipients else None
        self.topic: str | None = None
        self.position = 0
        self.bot_deny = 0  # permission bits denied to the bot in this channel (overwrite)
        self.bot_allow = 0
        self.messages: dict[int, Message] = {}  # insertion ordered: oldest first
        self.write_times: deque[float] = deque(maxlen=10_000)  # monotonic creates + edits
        self.last_message_id: int | None = None
        # thread state
        self.owner_id: int | None = None
        self.archived = False
        self.locked = False
        self.invitable = True
        self.auto_archive_duration = 1440
        self.thread_members: set[int] = set()
        self.total_sent = 0
        self.starter_message_id: int | None = None
        self.created_at = iso()

    @property
    def is_thread(self) -> bool:
        return self.type in (ChannelType.PUBLIC_THREAD, ChannelType.PRIVATE_THREAD)

    @property
    def is_dm(self) -> bool:
        return self.type == ChannelType.DM

    @property
    def is_group_dm(self) -> bool:
        return self.type == ChannelType.GROUP_DM

    @property
    def bot_is_member(self) -> bool:
        """Whether the bot may read and write this channel's messages (REST ``/channels/…``):
        not in a group DM, nor in a server that has not added it (Discord: 403 Missing
        Access) — a user-installed app reaches those through interactions only."""
        if self.is_group_dm:
            return False
        return self.guild is None or self.guild.bot_present

    @property
    def guild_id(self) -> int | None:
        return self.guild.id if self.guild else None

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    # ----- permissions -------------------------------------------------------------------
    def bot_permissions(self) -> int:
        """Effective permissions of the bot in this channel (threads inherit the parent)."""
        if self.guild is None:
            return EVERYONE_DEFAULT
        if not self.guild.bot_present:
            return 0
        base = self.guild.bot_member.base_permissions()
        if base == ALL_PERMISSIONS:
            return base
        chain = (self, self.parent) if self.parent is not None else (self,)
        for ch in reversed(chain):
            base = (base & ~ch.bot_deny) | ch.bot_allow
        return base

    def deny_bot(self, *permissions: str | Perm) -> None:
        """Make the bot lack these permissions here (REST: 403/50013; also app_permissions)."""
        self.bot_deny |= perms(*permissions)
        self.bot_allow &= ~self.bot_deny
        self._fake._channel_updated(self)

    def allow_bot(self, *permissions: str | Perm) -> None:
        value = perms(*permissions)
        self.bot_deny &= ~value
        self._fake._channel_updated(self)

    # ----- payloads ----------------------------------------------------------------------
    def _overwrites(self) -> list[JSON]:
        if not (self.bot_deny or self.bot_allow) or self.guild is None:
            return []
        return [
            {
                "id": str(self._fake.bot_user.id),
                "type": 1,
                "allow": str(self.bot_allow),
                "deny": str(self.bot_deny),
            }
        ]

    def payload(self) -> JSON:
        last = str(self.last_message_id) if self.last_message_id else None
        if self.type == ChannelType.GROUP_DM:
            assert self.owner is not None
            return {
                "id": str(self.id),
                "type": 3,
                "last_message_id": last,
                "recipients": [u.payload() for u in self.recipients],
                "name": self.name,
                "icon": None,
                "owner_id": str(self.owner.id),
                "flags": 0,
            }
        if self.type == ChannelType.DM:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": last,
                "recipients": [self.recipient.payload()],
                "flags": 0,
            }
        assert self.guild is not None
        if self.is_thread:
            assert self.parent is not None
            return {
                "id": str(self.id),
                "type": int(self.type),
                "guild_id": str(self.guild.id),
                "parent_id": str(self.parent.id),
                "owner_id": str(self.owner_id),
                "name": self.name,
                "last_message_id": last,
                "message_count": self.total_sent,
                "member_count": len(self.thread_members),
                "total_message_sent": self.total_sent,
                "rate_limit_per_user": 0,
                "flags": 0,
                "thread_metadata": {
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": self.created_at,
                    "locked": self.locked,
                    "invitable": self.invitable,
                    "create_timestamp": self.created_at,
                },
            }
        return {
            "id": str(self.id),
            "type": int(self.type),
            "guild_id": str(self.guild.id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": self._overwrites(),
            "topic": self.topic,
            "nsfw": False,
            "parent_id": None,
            "rate_limit_per_user": 0,
            "last_message_id": last,
            "default_auto_archive_duration": 1440,
            "flags": 0,
        }

    def __repr__(self) -> str:
        return f"<Channel {self.name!r} id={self.id} type={self.type.name}>"
