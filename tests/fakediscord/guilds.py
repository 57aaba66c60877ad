"""Guilds of the fake Discord with their roles and members, rendered to the JSON shape
discord.py 2.7 expects (ids as strings)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .channels import Channel, ChannelType
from .permissions import ALL_PERMISSIONS, BOT_DEFAULT, EVERYONE_DEFAULT, Perm, resolve_permissions
from .snowflakes import iso

if TYPE_CHECKING:
    from .server import FakeDiscord
    from .users import User

JSON = dict[str, Any]


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


class Guild:
    def __init__(
        self, fake: FakeDiscord, id: int, name: str, owner: User, *, bot_present: bool = True
    ) -> None:
        self._fake = fake
        # False: a server that has not added the bot (a member's user-installed app is used
        # there): no gateway events, no channel access, only interactions (issue 27)
        self.bot_present = bot_present
        self.id, self.name, self.owner_id = id, name, owner.id
        self.channels: dict[int, Channel] = {}  # includes threads
        self.roles: dict[int, Role] = {}
        self.members: dict[int, Member] = {}
        self.everyone = self._new_role(name="@everyone", permissions=EVERYONE_DEFAULT, id=id)
        bot_role = self._new_role(name=fake.bot_user.name, permissions=BOT_DEFAULT, managed=True)
        self.bot_member = Member(self, fake.bot_user, [bot_role])
        if bot_present:
            self.members[fake.bot_user.id] = self.bot_member
        self.members[owner.id] = Member(self, owner, [])
        self.joined_at = iso()
        self.locale = "en-US"  # the server's preferred locale (interactions' ``guild_locale``)

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

    def add_thread(
        self,
        parent: Channel,
        name: str,
        owner: User,
        *,
        private: bool = False,
        members: Iterable[User] = (),
    ) -> Channel:
        """``owner`` opens a thread in ``parent``: a private one is seen only by its members
        (``owner`` and ``members``) and by whoever has Manage Threads.  The bot hears of it
        (THREAD_CREATE) when it may see it."""
        kind = ChannelType.PRIVATE_THREAD if private else ChannelType.PUBLIC_THREAD
        th = Channel(
            self._fake, self._fake.snowflakes.next(), kind, name, guild=self, parent=parent
        )
        th.owner_id = owner.id
        th.thread_members.update({owner.id, *(u.id for u in members)})
        self.channels[th.id] = th
        seen = self.bot_present and th.can_see(self.bot_member)
        self._fake._register_channel(th, created=seen)
        return th

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
            "preferred_locale": self.locale,
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
