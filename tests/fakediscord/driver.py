"""Driving users: build INTERACTION_CREATE payloads from the commands the bot registered."""

# Waiting helpers take a `timeout` on purpose (tests read better than asyncio.timeout blocks).
# ruff: noqa: ASYNC109

from __future__ import annotations

import secrets
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .channels import Channel
from .guilds import Member, Role
from .handles import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    MESSAGE_COMPONENT,
    MODAL,
    MODAL_SUBMIT,
    Interaction,
    NoBotConnected,
    Response,
)
from .messages import Attachment, Message, dumps
from .permissions import ALL_PERMISSIONS, Perm
from .users import User

if TYPE_CHECKING:
    from .gateway import Gateway
    from .snowflakes import Snowflakes

JSON = dict[str, Any]
SUBCOMMAND, SUBCOMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = (
    3,
    4,
    5,
    6,
    7,
    8,
    9,
    10,
    11,
)
ATTACHMENT_LIMIT = 10 * 1024 * 1024


class CommandNotAvailable(LookupError):
    """The user could not invoke this command in Discord (unknown, hidden, wrong context)."""


class DriverMixin:
    """Mixed into :class:`FakeDiscord`: the methods a test uses to act as a Discord user."""

    snowflakes: Snowflakes
    application_id: int
    gateway: Gateway
    bot_user: User
    _commands: dict[int | None, dict[tuple[int, str], JSON]]

    if TYPE_CHECKING:

        def _track(self, inter: Interaction) -> None: ...
        def dm_channel(self, user: User) -> Channel: ...
        def _authorizing(self, user: User, channel: Channel, message: Message | None) -> JSON: ...
        def context_of(self, channel: Channel) -> int: ...
        def _can_see_channel(self, user: User, channel: Channel) -> bool: ...

    user_installs: set[int]

    # ----- core --------------------------------------------------------------------------
    def _new_interaction(
        self,
        type: int,
        user: User,
        channel: Channel,
        data: JSON,
        name: str,
        message: Message | None = None,
    ) -> Interaction:
        guild = channel.guild
        if guild is not None and user.id not in guild.members:
            raise CommandNotAvailable(f"{user!r} is not a member of {guild!r}")
        if channel.is_group_dm and user not in channel.recipients:
            raise CommandNotAvailable(f"{user!r} is not in the group DM {channel!r}")
        if guild is not None and not channel.can_see(guild.members[user.id]):
            raise CommandNotAvailable(f"{user!r} cannot see {channel!r}")
        iid = self.snowflakes.next()
        token = f"{iid:x}.{secrets.token_urlsafe(18)}"
        inter = Interaction(self, iid, token, type, user, channel, data, message, name)  # type: ignore[arg-type]
        inter.owners = self._authorizing(user, channel, message)
        self._track(inter)
        return self._deliver(inter)

    def _interaction_payload(self, inter: Interaction) -> JSON:
        channel, user = inter.channel, inter.user
        guild = channel.guild
        ch_payload = channel.payload()
        payload: JSON = {
            "id": str(inter.id),
            "application_id": str(self.application_id),
            "type": inter.type,
            "data": inter.data,
            "token": inter.token,
            "version": 1,
            "channel_id": str(channel.id),
            "channel": ch_payload,
            "app_permissions": str(channel.bot_permissions()),
            "locale": user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": ATTACHMENT_LIMIT,
        }
        if guild is not None:
            member = guild.members[user.id]
            perms = channel.permissions_for(member)  # Discord: in this channel, overwrites too
            ch_payload["permissions"] = str(perms)
            payload["guild_id"] = str(guild.id)
            payload["guild"] = {"id": str(guild.id), "locale": guild.locale, "features": []}
            payload["guild_locale"] = guild.locale
            payload["member"] = member.payload(permissions=perms)
        else:
            ch_payload["permissions"] = str(ALL_PERMISSIONS & ~int(Perm.ADMINISTRATOR))
            payload["user"] = user.payload()
        payload["authorizing_integration_owners"] = inter.owners
        payload["context"] = self.context_of(channel)
        return payload

    def _deliver(self, inter: Interaction) -> Interaction:
        text = inter.payload_text
        if text is None:
            text = dumps(self._interaction_payload(inter))
            if inter.message is not None:  # splice the cached message JSON in
                text = f'{text[:-1]},"message":{inter.message.payload_json()}}}'
            inter.payload_text = text
        if inter.deliveries == 0:
            inter.dispatched_at = time.monotonic()
            inter.dispatched_on = self.clock.now()
        guild_id = inter.channel.guild.id if inter.channel.guild is not None else None
        if not self.gateway.dispatch_json("INTERACTION_CREATE", text, guild_id=guild_id):
            raise NoBotConnected("no bot session to deliver the interaction to")
        inter.deliveries += 1
        return inter

    async def redeliver(self, inter: Interaction) -> Interaction:
        """Send the very same INTERACTION_CREATE (same id, token and message) again."""
        return self._deliver(inter)

    # ----- slash commands ----------------------------------------------------------------
    def _find_command(self, name: str, user: User, channel: Channel, type: int = 1) -> JSON:
        guild = channel.guild
        cmd = None
        if guild is not None:
            cmd = self._commands.get(guild.id, {}).get((type, name))
        if cmd is None:
            cmd = self._commands.get(None, {}).get((type, name))
        if cmd is None:
            raise CommandNotAvailable(f"no command {name!r} registered for {channel!r}")
        contexts = cmd.get("contexts")
        installs = cmd.get("integration_types") or [0]
        # a command reaches the user through the server's install (a server that added the
        # bot, or a DM with it) or through their own (a user install: 1 in integration_types)
        by_user = user.id in self.user_installs and 1 in installs
        by_server = 0 in installs and (guild.bot_present if guild is not None else True)
        if channel.is_group_dm:
            by_server = False  # no server installation reaches a group DM
        if not (by_user or by_server) or (cmd.get("guild_id") and not by_server):
            raise CommandNotAvailable(f"/{name} is not installed for {user!r} in {channel!r}")
        if channel.is_group_dm:
            if contexts is None or 2 not in contexts:
                raise CommandNotAvailable(f"/{name} is not available in group DMs")
        elif guild is None:
            if cmd.get("guild_id") or (cmd.get("dm_permission") is False and not by_user):
                raise CommandNotAvailable(f"/{name} is not available in DMs")
            if contexts is not None and 1 not in contexts:
                raise CommandNotAvailable(f"/{name} is not available in DMs")
        elif not guild.bot_present:
            if contexts is not None and 0 not in contexts:
                raise CommandNotAvailable(f"/{name} is not available in guilds")
        else:
            if contexts is not None and 0 not in contexts:
                raise CommandNotAvailable(f"/{name} is not available in guilds")
            required = cmd.get("default_member_permissions")
            if required is not None:
                have = guild.members[user.id].base_permissions()
                need = int(required)
                if have != ALL_PERMISSIONS and (need == 0 or have & need != need):
                    raise CommandNotAvailable(f"{user!r} lacks permissions for /{name}")
        return cmd

    def _command_data(
        self,
        user: User,
        channel: Channel,
        path: Sequence[str],
        options: Mapping[str, Any],
        focused: tuple[str, Any] | None = None,
    ) -> tuple[JSON, str]:
        if not path:
            raise ValueError("give at least the command name")
        cmd = self._find_command(path[0], user, channel)
        data: JSON = {"id": cmd["id"], "name": cmd["name"], "type": 1}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        container, schema = data, cmd.get("options") or []
        for sub in path[1:]:
            opt = next((o for o in schema if o["name"] == sub and o["type"] in (1, 2)), None)
            if opt is None:
                names = [o["name"] for o in schema if o["type"] in (1, 2)]
                raise CommandNotAvailable(f"no subcommand {sub!r} in {path}; have {names}")
            node: JSON = {"name": sub, "type": opt["type"], "options": []}
            container["options"] = [node]
            container, schema = node, opt.get("options") or []
        if any(o["type"] in (1, 2) for o in schema):
            names = [o["name"] for o in schema]
            raise CommandNotAvailable(f"/{' '.join(path)} needs a subcommand: {names}")
        resolved: JSON = {}
        values = self._build_options(schema, options, channel, resolved, focused)
        if values or container is not data:
            container["options"] = values
        if resolved:
            data["resolved"] = resolved
        return data, " ".join(path)

    def _build_options(
        self,
        schema: list[JSON],
        given: Mapping[str, Any],
        channel: Channel,
        resolved: JSON,
        focused: tuple[str, Any] | None,
    ) -> list[JSON]:
        by_name = {o["name"]: o for o in schema}
        unknown = set(given) - set(by_name)
        if unknown:
            raise CommandNotAvailable(f"unknown options {sorted(unknown)}; have {list(by_name)}")
        out: list[JSON] = []
        for opt in schema:
            name = opt["name"]
            if focused is not None and name == focused[0]:
                out.append(
                    {"name": name, "type": opt["type"], "value": focused[1], "focused": True}
                )
            elif name in given:
                value = self._convert_option(opt, given[name], channel, resolved)
                out.append({"name": name, "type": opt["type"], "value": value})
            elif opt.get("required") and focused is None:
                raise CommandNotAvailable(f"missing required option {name!r}")
        return out

    def _convert_option(self, opt: JSON, value: Any, channel: Channel, resolved: JSON) -> Any:
        t, name = opt["type"], opt["name"]
        if t in (STRING, INTEGER, NUMBER, BOOLEAN):
            value = {STRING: str, INTEGER: int, NUMBER: float, BOOLEAN: bool}[t](value)
            choices = opt.get("choices")
            if choices and value not in [c["value"] for c in choices]:
                raise CommandNotAvailable(f"{value!r} is not a choice of {name!r}")
            if t == STRING:
                lo, hi = opt.get("min_length", 0), opt.get("max_length", 6000)
                if not lo <= len(value) <= hi:
                    raise CommandNotAvailable(f"{name!r} length must be in [{lo}, {hi}]")
            elif t != BOOLEAN:
                lo, hi = opt.get("min_value"), opt.get("max_value")
                if (lo is not None and value < lo) or (hi is not None and value > hi):
                    raise CommandNotAvailable(f"{name!r}={value} out of [{lo}, {hi}]")
            return value
        if t in (USER, MENTIONABLE) and isinstance(value, User | Member):
            user = value.user if isinstance(value, Member) else value
            resolved.setdefault("users", {})[str(user.id)] = user.payload()
            guild = channel.guild
            if guild is not None and user.id in guild.members:
                member = guild.members[user.id]
                resolved.setdefault("members", {})[str(user.id)] = member.payload(
                    with_user=False, permissions=member.base_permissions()
                )
            return str(user.id)
        if t in (ROLE, MENTIONABLE) and isinstance(value, Role):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
            return str(value.id)
        if t == CHANNEL and isinstance(value, Channel):
            data = value.payload()
            data["permissions"] = str(ALL_PERMISSIONS)
            resolved.setdefault("channels", {})[str(value.id)] = data
            return str(value.id)
        if t == ATTACHMENT:
            if isinstance(value, tuple):
                value = Attachment(self.snowflakes.next(), value[0], value[1])
            if isinstance(value, Attachment):
                resolved.setdefault("attachments", {})[str(value.id)] = value.payload()
                return str(value.id)
        raise CommandNotAvailable(f"cannot use {value!r} for option {name!r} (type {t})")

    async def slash(
        self,
        user: User,
        channel: Channel | None,
        /,
        *path: str,
        _options: Mapping[str, Any] | None = None,
        **options: Any,
    ) -> Interaction:
        """``await fake.slash(alice, table, "spades", "new", preset="standard")``.

        ``path`` is the command name then subcommand group/subcommand names; options are
        keyword arguments (or ``_options={...}`` for awkward names). ``channel=None`` means the
        user's DM with the bot. User/role/channel options take model objects."""
        channel = channel or self.dm_channel(user)
        data, name = self._command_data(user, channel, path, {**(_options or {}), **options})
        return self._new_interaction(APPLICATION_COMMAND, user, channel, data, "/" + name)

    async def slash_raw(
        self, user: User, channel: Channel | None, data: JSON, *, autocomplete: bool = False
    ) -> Interaction:
        """Deliver an APPLICATION_COMMAND (or AUTOCOMPLETE) carrying exactly ``data`` — what a
        forged request, or a client holding a command definition from before a deploy, sends.
        ``data`` is ``{"name": ..., "options": [...]}``; the registered command's id is
        filled in when the name is known.  Nothing is checked."""
        channel = channel or self.dm_channel(user)
        payload: JSON = {"type": 1, **data}
        name = str(payload.get("name"))
        try:
            payload.setdefault("id", self._find_command(name, user, channel)["id"])
        except CommandNotAvailable:
            payload.setdefault("id", str(self.snowflakes.next()))
        kind = AUTOCOMPLETE if autocomplete else APPLICATION_COMMAND
        return self._new_interaction(kind, user, channel, payload, f"/{name} (raw)")

    async def autocomplete_interaction(
        self,
        user: User,
        channel: Channel | None,
        /,
        *path: str,
        focused: str,
        value: Any = "",
        _options: Mapping[str, Any] | None = None,
        **options: Any,
    ) -> Interaction:
        channel = channel or self.dm_channel(user)
        opts = {**(_options or {}), **options}
        data, name = self._command_data(user, channel, path, opts, focused=(focused, value))
        return self._new_interaction(AUTOCOMPLETE, user, channel, data, f"/{name} [{focused}]")

    async def autocomplete(
        self,
        user: User,
        channel: Channel | None,
        /,
        *path: str,
        focused: str,
        value: Any = "",
        timeout: float | None = None,
        _options: Mapping[str, Any] | None = None,
        **options: Any,
    ) -> list[JSON]:
        """Type into option ``focused``; returns the offered choices (``[{name, value}]``)."""
        inter = await self.autocomplete_interaction(
            user, channel, *path, focused=focused, value=value, _options=_options, **options
        )
        response = await inter.response(timeout)
        if response.type != AUTOCOMPLETE_RESULT:
            raise AssertionError(f"autocomplete answered with {response!r}")
        return response.choices or []

    # ----- components --------------------------------------------------------------------
    @staticmethod
    def _source(message: Message | Response) -> Message:
        msg = message.message if isinstance(message, Response) else message
        if msg is None:
            raise ValueError(f"{message!r} has no message to interact with")
        if msg.deleted:
            raise CommandNotAvailable(f"{msg!r} was deleted")
        return msg

    def _component_target(
        self, user: User, message: Message | Response, custom_id: str, force: bool
    ) -> tuple[Message, Any]:
        msg = self._source(message)
        comp = msg.find(custom_id)
        if not force:
            if comp is None:
                raise CommandNotAvailable(
                    f"no component {custom_id!r} on {msg!r}: {msg.custom_ids}"
                )
            if comp.disabled:
                raise CommandNotAvailable(f"component {custom_id!r} is disabled")
            if msg.visible_to is not None and msg.visible_to != user.id:
                raise CommandNotAvailable(f"{user!r} cannot see ephemeral {msg!r}")
        return msg, comp

    async def click(
        self, user: User, message: Message | Response, custom_id: str, *, force: bool = False
    ) -> Interaction:
        """Press the button ``custom_id`` on ``message`` (or on a Response's message).
        Disabled/missing buttons and other users' ephemeral messages raise unless ``force``."""
        msg, comp = self._component_target(user, message, custom_id, force)
        if comp is not None and not comp.is_button and not force:
            raise CommandNotAvailable(f"{custom_id!r} is not a button")
        data = {"custom_id": custom_id, "component_type": 2}
        return self._new_interaction(MESSAGE_COMPONENT, user, msg.channel, data, custom_id, msg)

    async def select(
        self,
        user: User,
        message: Message | Response,
        custom_id: str,
        values: Sequence[Any],
        *,
        force: bool = False,
    ) -> Interaction:
        """Choose ``values`` in the select menu ``custom_id``."""
        msg, comp = self._component_target(user, message, custom_id, force)
        ctype = comp.type if comp is not None else 3
        if not force and comp is not None:
            if not comp.is_select:
                raise CommandNotAvailable(f"{custom_id!r} is not a select menu")
            if not comp.min_values <= len(values) <= comp.max_values:
                raise CommandNotAvailable(
                    f"select {custom_id!r} takes {comp.min_values}..{comp.max_values} values"
                )
            if ctype == 3 and not set(values) <= set(comp.values):
                raise CommandNotAvailable(f"{values} not among options {comp.values}")
        data: JSON = {"custom_id": custom_id, "component_type": ctype}
        if ctype == 3:
            data["values"] = [str(v) for v in values]
        else:
            resolved: JSON = {}
            opt = {"type": {5: USER, 6: ROLE, 7: MENTIONABLE, 8: CHANNEL}[ctype], "name": custom_id}
            data["values"] = [self._convert_option(opt, v, msg.channel, resolved) for v in values]
            data["resolved"] = resolved
        return self._new_interaction(MESSAGE_COMPONENT, user, msg.channel, data, custom_id, msg)

    async def submit_modal(
        self, user: User, modal: Response | Interaction, values: Mapping[str, Any]
    ) -> Interaction:
        """Fill in and submit the modal the bot opened (a type-9 Response or its Interaction)."""
        origin = modal.interaction if isinstance(modal, Response) else modal
        response = origin.callback
        if response is None or response.type != MODAL or response.modal is None:
            raise ValueError(f"{origin!r} did not open a modal")
        form = response.modal
        components: list[JSON] = []
        for comp in form.get("components", []):
            if comp.get("type") == 1:
                row = [self._modal_value(c, values) for c in comp.get("components", [])]
                components.append({"type": 1, "components": row})
            elif comp.get("type") == 18 and "component" in comp:
                components.append(
                    {"type": 18, "component": self._modal_value(comp["component"], values)}
                )
        data = {"custom_id": form["custom_id"], "components": components}
        name = "modal:" + form["custom_id"]
        return self._new_interaction(MODAL_SUBMIT, user, origin.channel, data, name, origin.message)

    @staticmethod
    def _modal_value(comp: JSON, values: Mapping[str, Any]) -> JSON:
        cid = comp.get("custom_id", "")
        if comp.get("type") == 4:
            return {
                "type": 4,
                "custom_id": cid,
                "value": str(values.get(cid, comp.get("value", ""))),
            }
        chosen = values.get(cid, [])
        return {"type": comp.get("type"), "custom_id": cid, "values": [str(v) for v in chosen]}
