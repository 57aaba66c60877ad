"""World model of the fake Discord: snowflakes, permissions, users, guilds, channels, members.

Every model renders itself to the JSON shape discord.py 2.7 expects (ids as strings).
Messages live in :mod:`.messages`.
"""

from __future__ import annotations

import base64
import enum
import secrets
import time
from collections import deque
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .messages import Message
    from .server import FakeDiscord

DISCORD_EPOCH_MS = 1420070400000
JSON = dict[str, Any]


def iso(ts: float | None = None) -> str:
    """ISO-8601 timestamp the way Discord formats them."""
    return datetime.fromtimestamp(time.time() if ts is None else ts, UTC).isoformat()


class Snowflakes:
    """Generates realistic, strictly increasing snowflake ids."""

    def __init__(self, worker: int = 1, process: int = 0) -> None:
        self._last_ms = 0
        self._inc = 0
        self._tail = (worker & 0x1F) << 17 | (process & 0x1F) << 12

    def next(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        if ms <= self._last_ms:
            self._inc += 1
            if self._inc > 0xFFF:
                self._last_ms += 1
                self._inc = 0
            ms = self._last_ms
        else:
            self._last_ms = ms
            self._inc = 0
        return ms << 22 | self._tail | self._inc

    def next_on_shard(self, shard: int, count: int) -> int:
        """The next id whose ``(id >> 22) % count == shard`` (a guild on that shard)."""
        ms = max(int(time.time() * 1000) - DISCORD_EPOCH_MS, self._last_ms + 1)
        while ms % count != shard:
            ms += 1
        self._last_ms, self._inc = ms, 0
        return ms << 22 | self._tail


def make_token(bot_id: int) -> str:
    """A token shaped like a real bot token: base64(id).timestamp.hmac."""
    head = base64.b64encode(str(bot_id).encode()).decode().rstrip("=")
    return f"{head}.{secrets.token_urlsafe(5)}.{secrets.token_urlsafe(27)}"


class Perm(enum.IntFlag):
    """Discord permission bits (the subset a card-game bot cares about, plus a few more)."""

    CREATE_INSTANT_INVITE = 1 << 0
    KICK_MEMBERS = 1 << 1
    BAN_MEMBERS = 1 << 2
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    ADD_REACTIONS = 1 << 6
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    MENTION_EVERYONE = 1 << 17
    USE_EXTERNAL_EMOJIS = 1 << 18
    MANAGE_ROLES = 1 << 28
    USE_APPLICATION_COMMANDS = 1 << 31
    MANAGE_THREADS = 1 << 34
    CREATE_PUBLIC_THREADS = 1 << 35
    CREATE_PRIVATE_THREADS = 1 << 36
    SEND_MESSAGES_IN_THREADS = 1 << 38


ALL_PERMISSIONS = (1 << 51) - 1
EVERYONE_DEFAULT = int(
    Perm.VIEW_CHANNEL
    | Perm.SEND_MESSAGES
    | Perm.EMBED_LINKS
    | Perm.ATTACH_FILES
    | Perm.READ_MESSAGE_HISTORY
    | Perm.ADD_REACTIONS
    | Perm.USE_EXTERNAL_EMOJIS
    | Perm.USE_APPLICATION_COMMANDS
    | Perm.CREATE_PUBLIC_THREADS
    | Perm.CREATE_PRIVATE_THREADS
    | Perm.SEND_MESSAGES_IN_THREADS
)
BOT_DEFAULT = EVERYONE_DEFAULT | int(Perm.MANAGE_MESSAGES | Perm.MANAGE_THREADS)


def perms(*names: str | Perm) -> int:
    """``perms("manage_guild", Perm.ADMINISTRATOR)`` -> permission int."""
    value = 0
    for name in names:
        value |= int(name) if isinstance(name, Perm) else int(Perm[name.upper()])
    return value


def resolve_permissions(base: int) -> int:
    return ALL_PERMISSIONS if base & Perm.ADMINISTRATOR else base


class ChannelType(enum.IntEnum):
    TEXT = 0
    DM = 1
    PUBLIC_THREAD = 11
    PRIVATE_THREAD = 12


class User:
    __slots__ = ("_payload", "bot", "global_name", "id", "name")

    def __init__(self, id: int, name: str, *, bot: bool = False, global_name: str | None = None):
        self.id = id
        self.name = name
        self.bot = bot
        self.global_name = global_name
        self._payload: JSON | None = None

    def payload(self) -> JSON:
        if self._payload is None:
            self._payload = {
                "id": str(self.id),
                "username": self.name,
                "discriminator": "0",
                "global_name": self.global_name or self.name,
                "avatar": None,
                "bot": self.bot,
                "public_flags": 0,
                "flags": 0,
            }
        return self._payload

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def __repr__(self) -> str:
        return f"<User {self.name} id={self.id}>"


class Role:
    __slots__ = ("guild_id", "id", "managed", "name", "permissions", "position")

    def __init__(
        self, id: int, guild_id: int, name: str, permissions: int, position: int, managed: bool
    ):
        self.id, self.guild_id, self.name = id, guild_id, name
        self.permissions, self.position, self.managed = permissions, position, managed

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "managed": self.managed,
            "mentionable": False,
            "icon": None,
            "unicode_emoji": None,
            "flags": 0,
        }


class Member:
    __slots__ = ("guild", "joined_at", "nick", "roles", "user")

    def __init__(self, guild: Guild, user: User, roles: list[Role], nick: str | None = None):
        self.guild, self.user, self.roles, self.nick = guild, user, roles, nick
        self.joined_at = iso()

    @property
    def id(self) -> int:
        return self.user.id

    def base_permissions(self) -> int:
        if self.guild.owner_id == self.user.id:
            return ALL_PERMISSIONS
        value = self.guild.everyone.permissions
        for role in self.roles:
            value |= role.permissions
        return resolve_permissions(value)

    def payload(self, *, with_user: bool = True, permissions: int | None = None) -> JSON:
        data: JSON = {
            "roles": [str(r.id) for r in self.roles],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


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
    ) -> None:
        self._fake = fake
        self.id, self.type, self.name = id, type, name
        self.guild, self.parent, self.recipient = guild, parent, recipient
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


class Guild:
    def __init__(self, fake: FakeDiscord, id: int, name: str, owner: User) -> None:
        self._fake = fake
        self.id, self.name, self.owner_id = id, name, owner.id
        self.channels: dict[int, Channel] = {}  # includes threads
        self.roles: dict[int, Role] = {}
        self.members: dict[int, Member] = {}
        self.everyone = self._new_role(name="@everyone", permissions=EVERYONE_DEFAULT, id=id)
        bot_role = self._new_role(name=fake.bot_user.name, permissions=BOT_DEFAULT, managed=True)
        self.bot_member = Member(self, fake.bot_user, [bot_role])
        self.members[fake.bot_user.id] = self.bot_member
        self.members[owner.id] = Member(self, owner, [])
        self.joined_at = iso()

    def _new_role(
        self, name: str, permissions: int, *, managed: bool = False, id: int | None = None
    ) -> Role:
        role_id = id if id is not None else self._fake.snowflakes.next()
        role = Role(role_id, self.id, name, permissions, len(self.roles), managed)
        self.roles[role.id] = role
        return role

    def add_role(self, name: str, permissions: int = 0) -> Role:
        role = self._new_role(name, permissions)
        self._fake._dispatch_guild_event(self, "GUILD_ROLE_CREATE", {"role": role.payload()})
        return role

    def add_text_channel(self, name: str, *, topic: str | None = None) -> Channel:
        ch = Channel(self._fake, self._fake.snowflakes.next(), ChannelType.TEXT, name, guild=self)
        ch.topic, ch.position = topic, len(self.channels)
        self.channels[ch.id] = ch
        self._fake._register_channel(ch, created=True)
        return ch

    def delete_channel(self, ch: Channel) -> None:
        """A member deletes a channel (its threads go with it, announced by one CHANNEL_DELETE)
        or a thread (THREAD_DELETE)."""
        gone = [ch, *(t for t in self.channels.values() if t.is_thread and t.parent is ch)]
        for c in gone:
            self.channels.pop(c.id, None)
            self._fake.channels.pop(c.id, None)
        event = "THREAD_DELETE" if ch.is_thread else "CHANNEL_DELETE"
        self._fake._dispatch_guild_event(self, event, ch.payload())

    def add_member(
        self,
        user: User,
        permissions: int | None = None,
        *,
        manage_guild: bool = False,
        administrator: bool = False,
        nick: str | None = None,
        roles: list[Role] | None = None,
    ) -> Member:
        """Add ``user`` to the guild. ``permissions`` (int) are granted through a personal role;
        ``manage_guild=True`` / ``administrator=True`` are shortcuts for the usual cases."""
        extra = permissions or 0
        if manage_guild:
            extra |= Perm.MANAGE_GUILD
        if administrator:
            extra |= Perm.ADMINISTRATOR
        member_roles = list(roles or [])
        if extra:
            member_roles.append(self.add_role(f"{user.name}-role", int(extra)))
        member = self.members.get(user.id)
        if member is None:
            member = Member(self, user, member_roles, nick)
            self.members[user.id] = member
        else:
            member.roles.extend(member_roles)
            member.nick = nick or member.nick
        self._fake._dispatch_guild_event(self, "GUILD_MEMBER_ADD", member.payload(), intent=1 << 1)
        return member

    def member(self, user: User) -> Member:
        return self.members[user.id]

    @property
    def text_channels(self) -> list[Channel]:
        return [c for c in self.channels.values() if c.type == ChannelType.TEXT]

    @property
    def threads(self) -> list[Channel]:
        return [c for c in self.channels.values() if c.is_thread]

    def payload(self, *, full: bool, members: bool = True) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "features": [],
            "roles": [r.payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "afk_timeout": 300,
            "afk_channel_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "vanity_url_code": None,
            "premium_progress_bar_enabled": False,
        }
        if full:
            shown = self.members.values() if members else [self.bot_member]
            data.update(
                {
                    "unavailable": False,
                    "joined_at": self.joined_at,
                    "large": False,
                    "member_count": len(self.members),
                    "members": [m.payload() for m in shown],
                    "channels": [c.payload() for c in self.channels.values() if not c.is_thread],
                    "threads": [c.payload() for c in self.threads if not c.archived],
                    "presences": [],
                    "voice_states": [],
                    "stage_instances": [],
                    "guild_scheduled_events": [],
                    "soundboard_sounds": [],
                }
            )
        return data

    def __repr__(self) -> str:
        return f"<Guild {self.name!r} id={self.id}>"
