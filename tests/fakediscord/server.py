"""FakeDiscord: the world (users, guilds, channels, messages, commands) and the server lifecycle."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter, deque
from types import TracebackType
from typing import Any

from aiohttp import web

from .channels import Channel, ChannelType
from .clock import DiscordClock
from .driver import DriverMixin
from .emojis import EmojiStore
from .gateway import (
    INTENT_DM_MESSAGES,
    INTENT_GUILD_MESSAGES,
    INTENT_GUILDS,
    INTENT_MEMBERS,
    Gateway,
    Session,
)
from .guilds import Guild
from .handles import Interaction, WebhookEdit
from .holds import EditHold
from .installs import InstallsMixin
from .messages import Attachment, Message, Snapshot
from .observe import ObserveMixin
from .openapi import ApiDescription, default_description
from .ratelimit import RateLimiter, RateLimits
from .rest import build_app
from .snowflakes import Snowflakes, make_token
from .users import User

log = logging.getLogger("fakediscord")
JSON = dict[str, Any]
API_PREFIX = "/api/v10"


class ApiViolation(AssertionError):
    """Requests the bot sent that Discord's published API description rejects."""

    def __init__(self, lines: list[str]) -> None:
        shown = "\n".join(f"  {line}" for line in lines[:20])
        more = f"\n  ... and {len(lines) - 20} more" if len(lines) > 20 else ""
        super().__init__(
            f"{len(lines)} request problem(s) Discord's API description rejects:\n{shown}{more}"
        )
        self.lines = list(lines)


class FakeDiscord(ObserveMixin, DriverMixin, InstallsMixin):
    """A fake Discord (REST + gateway) on 127.0.0.1. Use as ``async with FakeDiscord() as fake``.

    World building: :meth:`add_user`, :meth:`add_guild` (``bot=False``: a server that has not
    added the bot), ``guild.add_text_channel()``, ``guild.add_member()``, :meth:`dm_channel`,
    :meth:`add_group_dm` and :meth:`install_app` (user installs, see installs.py).  Driving
    users: :meth:`slash`, :meth:`autocomplete`, :meth:`click`, :meth:`select`,
    :meth:`submit_modal`. Observing: :meth:`messages`, :meth:`wait_for_message`,
    :meth:`all_visible_text`, ...
    """

    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        bot_name: str = "SpadesBot",
        heartbeat_interval_ms: int = 41_250,
        callback_deadline: float | None = 3.0,
        response_timeout: float = 10.0,
        rate_limits: RateLimits | None = None,
        validate: bool = True,
        dispatch_message_events: bool = True,
        history_limit: int = 20,
        max_tracked_interactions: int = 200_000,
        max_ephemeral_messages: int = 100_000,
        max_messages_per_channel: int = 5_000,
        gateway_buffer: int = 2_000,
        token_lifetime: float = 15 * 60.0,
        recommended_shards: int = 1,
        check_api: bool = True,
    ) -> None:
        self.host, self._port = host, port
        self.recommended_shards = recommended_shards  # GET /gateway/bot "shards"
        self.snowflakes = Snowflakes()
        self.bot_user = User(self.snowflakes.next(), bot_name, bot=True)
        self.application_id = self.bot_user.id
        self.application_flags = (1 << 19) | (1 << 15) | (1 << 13) | (1 << 23)
        self.token = make_token(self.bot_user.id)
        self.callback_deadline = callback_deadline  # seconds on `clock`, as Discord counts
        self.clock = DiscordClock()
        self.response_timeout = response_timeout
        self.validate = validate
        # Discord's published API description: every REST request is checked against it, and
        # each one it rejects is answered as Discord would and kept here; leaving the
        # ``async with`` block with any fails the test (clear the list after asserting on it)
        self.api: ApiDescription | None = default_description() if check_api else None
        self.api_violations: list[str] = []
        self.dispatch_message_events = dispatch_message_events
        self.history_limit = history_limit
        self.max_tracked_interactions = max_tracked_interactions
        self.max_ephemeral_messages = max_ephemeral_messages
        self.max_messages_per_channel = max_messages_per_channel
        self.token_lifetime = token_lifetime  # interaction tokens expire (webhook routes: 401)

        self.users: dict[int, User] = {self.bot_user.id: self.bot_user}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.dm_channels: dict[int, Channel] = {}  # by recipient user id
        # users who installed the app to their account (a user install: its commands work
        # for them in DMs, group DMs and servers that have not added the bot)
        self.user_installs: set[int] = set()  # see installs.py
        # channel-message requests Discord refused with 403 Missing Access (the bot is no
        # member of the channel): "METHOD /channels/<id>/…"
        self.missing_access: list[str] = []
        self.messages_by_id: dict[int, Message] = {}
        self.ephemeral_messages: dict[int, Message] = {}
        self.attachments: dict[int, Attachment] = {}  # every uploaded file, by attachment id
        self.interactions: dict[int, Interaction] = {}
        self.interactions_by_token: dict[str, Interaction] = {}
        self._commands: dict[int | None, dict[tuple[int, str], JSON]] = {}
        self.sync_counts: Counter[int | None] = Counter()  # bulk overwrites per scope
        self.app_emojis = EmojiStore()  # the application's emojis (see emojis.py)
        self.unknown_routes: list[tuple[str, str]] = []
        self.route_counts: Counter[str] = Counter()  # "POST /api/v10/channels/{cid}/messages"
        self.auth_failures = 0
        self.server_errors: list[str] = []
        # every accepted edit of a message through an interaction webhook, oldest first
        self.webhook_edits: deque[WebhookEdit] = deque(maxlen=500_000)
        self.edit_holds: list[EditHold] = []  # see holds.py
        self.expired_token_refusals = 0
        # webhook-message requests answered 404 Unknown Message (10008): "METHOD <id>" — a
        # token that does not own the message (rest_interactions._made_through), or it is gone
        self.unknown_webhook_messages: list[str] = []

        self.ratelimiter = RateLimiter(rate_limits or RateLimits())
        self.gateway = Gateway(
            self, heartbeat_interval_ms=heartbeat_interval_ms, buffer_size=gateway_buffer
        )
        self._background: set[asyncio.Task[Any]] = set()
        self._runner: web.AppRunner | None = None
        self._init_observe()

    # ----- lifecycle ---------------------------------------------------------------------
    async def start(self) -> FakeDiscord:
        self.clock.start()
        app = build_app(self)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self._port, reuse_address=True)
        await site.start()
        self._port = self._runner.addresses[0][1]
        log.info("fake discord listening on %s", self.base_url)
        return self

    async def close(self) -> None:
        await self.gateway.close()
        await self.clock.stop()
        for task in list(self._background):
            task.cancel()
        if self._runner is not None:
            with contextlib.suppress(Exception):
                await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()
        if exc_type is None and self.api_violations:
            raise ApiViolation(self.api_violations)

    def take_api_violations(self) -> list[str]:
        """The requests rejected by Discord's API description so far (then forgotten): for a
        test that sends such a request on purpose."""
        taken, self.api_violations = self.api_violations, []
        return taken

    @property
    def port(self) -> int:
        return self._port

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self._port}"

    @property
    def api_base(self) -> str:
        """Value for ``DISCORD_API_BASE`` (what ``discord.http.Route.BASE`` must be set to)."""
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self._port}/gateway"

    @property
    def open_connections(self) -> int:
        """Connections (REST and gateway) the fake still serves.  One its client closed (a
        killed bot's) counts until the fake has read all it sent and finished the request it
        was handling: at 0, everything a dead bot sent has landed."""
        server = self._runner.server if self._runner is not None else None
        return len(server.connections) if server is not None else 0

    # ----- gateway facade ----------------------------------------------------------------
    @property
    def identify_payloads(self) -> list[JSON]:
        return self.gateway.identify_payloads

    @property
    def ready_generation(self) -> int:
        return self.gateway.ready_generation

    @property
    def connected(self) -> bool:
        return self.gateway.connected

    async def disconnect_all(self, code: int = 4000, *, resumable: bool = True) -> int:
        """Close the bot's websocket(s). ``resumable=False`` forces a fresh IDENTIFY."""
        return await self.gateway.disconnect_all(code, resumable=resumable)

    def inject_429(
        self,
        count: int = 1,
        retry_after: float = 0.5,
        *,
        path_contains: str | None = None,
        method: str | None = None,
        is_global: bool = False,
    ) -> None:
        """Answer the next ``count`` matching REST requests with HTTP 429."""
        self.ratelimiter.inject(
            count, retry_after, path_contains=path_contains, method=method, is_global=is_global
        )

    def hold_webhook_edits(self, message_id: int) -> EditHold:
        """Hold the webhook edits of a message on their way until the test releases them
        (holds.py)."""
        hold = EditHold(message_id)
        self.edit_holds.append(hold)
        return hold

    # ----- world building ----------------------------------------------------------------
    def add_user(self, name: str, *, bot: bool = False) -> User:
        user = User(self.snowflakes.next(), name, bot=bot)
        self.users[user.id] = user
        return user

    def add_guild(
        self,
        name: str,
        *,
        owner: User | None = None,
        shard: tuple[int, int] | None = None,
        bot: bool = True,
    ) -> Guild:
        """A new guild; ``shard=(i, n)`` gives it an id on shard ``i`` of ``n``.
        ``bot=False``: a server that has not added the bot (it gets no event of it and may
        not touch its channels; a member's user-installed app is used there)."""
        owner = owner or self.add_user(f"{name} owner")
        gid = self.snowflakes.next() if shard is None else self.snowflakes.next_on_shard(*shard)
        guild = Guild(self, gid, name, owner, bot_present=bot)
        self.guilds[guild.id] = guild
        session = self.gateway.session_for(guild.id)
        if session is not None and bot:
            members = bool(session.intents & INTENT_MEMBERS)
            session.dispatch("GUILD_CREATE", guild.payload(full=True, members=members))
        return guild

    def remove_bot(self, guild: Guild) -> None:
        """The bot is kicked from (or leaves) ``guild``: GUILD_DELETE, and the guild and its
        channels are gone for it."""
        self.guilds.pop(guild.id, None)
        for ch_id in list(guild.channels):
            self.channels.pop(ch_id, None)
        self.gateway.dispatch(
            "GUILD_DELETE", {"id": str(guild.id)}, INTENT_GUILDS, guild_id=guild.id
        )

    def dm_channel(self, user: User) -> Channel:
        ch = self.dm_channels.get(user.id)
        if ch is None:
            ch = Channel(self, self.snowflakes.next(), ChannelType.DM, user.name, recipient=user)
            self.dm_channels[user.id] = ch
            self.channels[ch.id] = ch
        return ch

    def user_named(self, name: str) -> User:
        return next(u for u in self.users.values() if u.name == name)

    # hooks used by guilds and channels
    def _register_channel(self, ch: Channel, *, created: bool) -> None:
        self.channels[ch.id] = ch
        if created and ch.guild is not None and ch.guild.bot_present:
            event = "THREAD_CREATE" if ch.is_thread else "CHANNEL_CREATE"
            data = ch.payload()
            if ch.is_thread:
                data["newly_created"] = True
            self.gateway.dispatch(event, data, INTENT_GUILDS, guild_id=ch.guild.id)

    def _channel_updated(self, ch: Channel) -> None:
        if not ch.bot_is_member:
            return
        event = "THREAD_UPDATE" if ch.is_thread else "CHANNEL_UPDATE"
        guild_id = ch.guild.id if ch.guild is not None else None
        self.gateway.dispatch(event, ch.payload(), INTENT_GUILDS, guild_id=guild_id)

    def _dispatch_guild_event(
        self, guild: Guild, event: str, data: JSON, intent: int = INTENT_GUILDS
    ) -> None:
        if not guild.bot_present:
            return
        data["guild_id"] = str(guild.id)
        self.gateway.dispatch(event, data, intent, guild_id=guild.id)

    def _send_ready(self, session: Session) -> None:
        ident = session.identify
        user = dict(self.bot_user.payload(), verified=True, mfa_enabled=False, email=None)
        sharded = "shard" in ident
        guilds = [
            g
            for g in self.guilds.values()
            if g.bot_present and (not sharded or self.gateway.shard_of(g.id) == session.shard_id)
        ]
        ready: JSON = {
            "v": 10,
            "user": user,
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": self.application_flags},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "auth": {},
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "_trace": ["fakediscord"],
        }
        if "shard" in ident:
            ready["shard"] = ident["shard"]
        session.dispatch("READY", ready)
        members = bool(session.intents & INTENT_MEMBERS)
        for guild in guilds:
            session.dispatch("GUILD_CREATE", guild.payload(full=True, members=members))

    # ----- application commands ----------------------------------------------------------
    def commands(self, guild_id: int | None = None) -> list[JSON]:
        """Registered commands (global, or of one guild) as Discord stores them."""
        return list(self._commands.get(guild_id, {}).values())

    def command(self, name: str, guild_id: int | None = None, type: int = 1) -> JSON | None:
        return self._commands.get(guild_id, {}).get((type, name))

    @property
    def sync_count(self) -> int:
        """Number of bulk overwrites (``tree.sync()``), all scopes together."""
        return sum(self.sync_counts.values())

    def _command_payload(self, body: JSON, scope: int | None, old: JSON | None) -> JSON:
        cmd = dict(body)
        cmd["type"] = cmd.get("type", 1)
        cmd["id"] = old["id"] if old else str(self.snowflakes.next())
        cmd["application_id"] = str(self.application_id)
        cmd["version"] = str(self.snowflakes.next())
        cmd.setdefault("description", "")
        # Discord takes the permissions as an integer and answers with a string
        perms = cmd.get("default_member_permissions")
        cmd["default_member_permissions"] = None if perms is None else str(perms)
        cmd.setdefault("dm_permission", True)
        cmd.setdefault("nsfw", False)
        if cmd.get("integration_types") is None:  # discord.py sends null: Discord's default
            cmd["integration_types"] = [0]
        cmd.setdefault("contexts", None)
        if scope is not None:
            cmd["guild_id"] = str(scope)
        return cmd

    def _upsert_commands(self, scope: int | None, bodies: list[JSON], *, bulk: bool) -> list[JSON]:
        old = self._commands.get(scope, {})
        new = {} if bulk else dict(old)
        result = []
        for body in bodies:
            key = (body.get("type", 1), body["name"])
            new[key] = cmd = self._command_payload(body, scope, old.get(key))
            result.append(cmd)
        self._commands[scope] = new
        if bulk:
            self.sync_counts[scope] += 1
        self._notify()
        return result

    def _delete_command(self, scope: int | None, command_id: str) -> bool:
        cmds = self._commands.get(scope, {})
        for key, cmd in list(cmds.items()):
            if cmd["id"] == command_id:
                del cmds[key]
                return True
        return False

    # ----- message store -----------------------------------------------------------------
    def _create_message(
        self,
        channel: Channel,
        author: User,
        state: Snapshot,
        *,
        visible_to: int | None = None,
        webhook_id: int | None = None,
        interaction: Interaction | None = None,
        type: int = 0,
        reference: JSON | None = None,
    ) -> Message:
        metadata = None
        if interaction is not None:
            metadata = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": interaction.user.payload(),
                "authorizing_integration_owners": self._owners(interaction),
            }
            if interaction.message is not None:
                metadata["interacted_message_id"] = str(interaction.message.id)
        msg = Message(
            self.snowflakes.next(),
            channel,
            author,
            state,
            history_limit=self.history_limit,
            visible_to=visible_to,
            webhook_id=webhook_id,
            interaction_id=interaction.id if interaction else None,
            interaction_metadata=metadata,
            type=type,
            reference=reference,
        )
        if visible_to is None:
            msgs = channel.messages
            msgs[msg.id] = msg
            if len(msgs) > self.max_messages_per_channel:
                self.messages_by_id.pop(msgs.pop(next(iter(msgs))).id, None)
            self.messages_by_id[msg.id] = msg
            channel.last_message_id = msg.id
            channel.total_sent += 1
            channel.write_times.append(msg.created_at)
            self._dispatch_message("MESSAGE_CREATE", msg)
            self._w_create.wake(channel.id, msg)
        else:
            eph = self.ephemeral_messages
            eph[msg.id] = msg
            if len(eph) > self.max_ephemeral_messages:
                del eph[next(iter(eph))]
        return msg

    def _dispatch_message(self, event: str, msg: Message) -> None:
        if not self.dispatch_message_events or not msg.channel.bot_is_member:
            return
        guild_id = msg.channel.guild.id if msg.channel.guild is not None else None
        session = self.gateway.session_for(guild_id)
        intent = INTENT_DM_MESSAGES if msg.channel.is_dm else INTENT_GUILD_MESSAGES
        if session is None or not session.intents & intent:
            return
        if event == "MESSAGE_DELETE":
            data: JSON = {"id": str(msg.id), "channel_id": str(msg.channel.id)}
            if msg.channel.guild is not None:
                data["guild_id"] = str(msg.channel.guild.id)
            session.dispatch(event, data)
        else:
            session.dispatch_json(event, msg.payload_json())

    def _edit_message(
        self, msg: Message, data: JSON, attachments: list[Attachment] | None
    ) -> Snapshot:
        state = msg.apply_edit(data, attachments)
        if msg.visible_to is None:
            msg.channel.write_times.append(state.at)
            self._dispatch_message("MESSAGE_UPDATE", msg)
            self._w_edit.wake(msg.channel.id, msg)
        self._w_message.wake(msg.id, msg)
        return state

    def _delete_message(self, msg: Message) -> None:
        msg.deleted = True
        if msg.visible_to is None:
            self._dispatch_message("MESSAGE_DELETE", msg)
        self._w_message.wake(msg.id, msg)

    def bot_message(self, channel: Channel, data: JSON) -> Message:
        """A message the bot left in ``channel`` before the test looked (its JSON: ``content``,
        ``embeds``, ``components``), as an older version of the bot wrote it, custom ids and
        all: clicks on it reach the bot like clicks on any of its messages."""
        return self._create_message(channel, self.bot_user, Snapshot.from_data(data, None))

    def find_message(self, message_id: int) -> Message | None:
        return self.messages_by_id.get(message_id) or self.ephemeral_messages.get(message_id)

    # ----- interactions registry ---------------------------------------------------------
    def _track(self, inter: Interaction) -> None:
        self.interactions[inter.id] = inter
        self.interactions_by_token[inter.token] = inter
        if len(self.interactions) > self.max_tracked_interactions:
            oldest = self.interactions.pop(next(iter(self.interactions)))
            self.interactions_by_token.pop(oldest.token, None)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def __repr__(self) -> str:
        return f"<FakeDiscord {self.base_url} guilds={len(self.guilds)} connected={self.connected}>"
