"""Channels of the fake Discord: guild text channels, threads, DMs and group DMs (where the bot
is no member: only a user-installed app reaches them, through interactions), with permission
overwrites (for roles, @everyone and members, the bot among them) and private threads' members,
rendered to the JSON shape discord.py 2.7 expects (ids as strings).  Messages live in
:mod:`.messages`.

A member's permissions in a channel are worked out as Discord documents it ("Permission
Overwrites"): the server's (roles, @everyone; Administrator or owning the server: all), then the
channel's overwrites — @everyone's, then every role's together, then the member's own.  A thread
has none of its own: its parent's apply; a private thread is seen only by its members and by
those with Manage Threads."""

from __future__ import annotations

import enum
from collections import deque
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .permissions import ALL_PERMISSIONS, EVERYONE_DEFAULT, Perm, perms
from .snowflakes import iso

if TYPE_CHECKING:
    from .guilds import Guild, Member, Role
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


class Overwrite:
    """A channel's permission overwrite for a role (``type`` 0; @everyone is the role whose
    id is the guild's) or a member (``type`` 1)."""

    __slots__ = ("allow", "deny", "id", "type")

    def __init__(self, id: int, type: int, allow: int = 0, deny: int = 0) -> None:
        self.id, self.type, self.allow, self.deny = id, type, allow, deny

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "type": self.type,
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


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
        self.overwrites: dict[int, Overwrite] = {}  # roles' and members' (the bot's: above)
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
        return self.permissions_for(self.guild.bot_member)

    def permissions_for(self, member: Member) -> int:
        """``member``'s permissions here, as Discord works them out (see the module's
        docstring); a thread takes its parent's (and overwrites of its own the fake lets
        tests set for the bot)."""
        assert self.guild is not None
        base = member.base_permissions()
        if base == ALL_PERMISSIONS:
            return base
        chain = (self.parent, self) if self.parent is not None else (self,)
        for ch in chain:
            base = ch._overwritten(base, member)
        if (
            self.type == ChannelType.PRIVATE_THREAD
            and member.id not in self.thread_members
            and not base & Perm.MANAGE_THREADS
        ):
            base &= ~int(Perm.VIEW_CHANNEL)
        return base

    def can_see(self, member: Member) -> bool:
        return bool(self.permissions_for(member) & Perm.VIEW_CHANNEL)

    def _overwritten(self, base: int, member: Member) -> int:
        assert self.guild is not None
        everyone = self.overwrites.get(self.guild.id)
        if everyone is not None:
            base = (base & ~everyone.deny) | everyone.allow
        allow = deny = 0
        for role in member.roles:
            o = self.overwrites.get(role.id)
            if o is not None:
                allow, deny = allow | o.allow, deny | o.deny
        base = (base & ~deny) | allow
        own = self.overwrites.get(member.id)
        if own is not None:
            base = (base & ~own.deny) | own.allow
        if member is self.guild.bot_member:
            base = (base & ~self.bot_deny) | self.bot_allow
        return base

    def set_permissions(
        self,
        target: Role | Member | User,
        *,
        allow: Iterable[str | Perm] = (),
        deny: Iterable[str | Perm] = (),
    ) -> None:
        """A member with Manage Roles sets this channel's overwrite for a role (the guild's
        ``everyone`` for @everyone) or a member: CHANNEL_UPDATE tells the bot."""
        from .guilds import Role  # the module imports this one

        kind = 0 if isinstance(target, Role) else 1
        self.overwrites[target.id] = Overwrite(target.id, kind, perms(*allow), perms(*deny))
        self._fake._channel_updated(self)

    def add_thread_member(self, user: User) -> None:
        """``user`` joins this thread (a private one: they may now see it)."""
        self.thread_members.add(user.id)

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
        if self.guild is None:
            return []
        out = [o.payload() for o in self.overwrites.values()]
        if self.bot_deny or self.bot_allow:
            bot = Overwrite(self._fake.bot_user.id, 1, self.bot_allow, self.bot_deny)
            out.append(bot.payload())
        return out

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
