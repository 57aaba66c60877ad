"""The gateway websocket: HELLO/IDENTIFY/READY/RESUME, heartbeats, sequenced dispatches.

Frames are plain JSON text. discord.py asks for ``compress=zlib-stream`` in the URL but only
decompresses *binary* frames, so uncompressed text frames are accepted as-is.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections import deque
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .server import FakeDiscord

log = logging.getLogger("fakediscord.gateway")
JSON = dict[str, Any]
_dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode

# opcodes
DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE_STATE = 0, 1, 2, 3, 4
RESUME, RECONNECT, REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 6, 7, 8, 9, 10, 11

INTENT_GUILDS = 1 << 0
INTENT_MEMBERS = 1 << 1
INTENT_PRESENCES = 1 << 8
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DM_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = INTENT_MEMBERS | INTENT_PRESENCES | INTENT_MESSAGE_CONTENT


class Connection:
    """One websocket. Outgoing frames go through a queue so their order is the send order."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.session: Session | None = None
        self.closed = False
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._writer = asyncio.create_task(self._write(), name="fakediscord-ws-writer")

    def send(self, text: str) -> None:
        if not self.closed:
            self._queue.put_nowait(text)

    def send_json(self, data: JSON) -> None:
        self.send(_dumps(data))

    async def _write(self) -> None:
        ws, queue = self.ws, self._queue
        try:
            while True:
                text = await queue.get()
                if text is None:
                    return
                await ws.send_str(text)
        except (ConnectionError, RuntimeError) as exc:  # peer vanished (kill -9)
            log.debug("writer stopped: %r", exc)
            self.closed = True

    async def close(self, code: int = 1000, message: bytes = b"") -> None:
        if self.closed and self.ws.closed:
            return
        self.closed = True
        self._writer.cancel()
        with contextlib.suppress(Exception):
            await self.ws.close(code=code, message=message)

    async def flush_and_stop(self) -> None:
        self._queue.put_nowait(None)
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(self._writer, 2.0)


class Session:
    """A gateway session: survives disconnects (for RESUME); buffers recent dispatches."""

    def __init__(self, identify: JSON, buffer_size: int) -> None:
        self.id = secrets.token_hex(16)
        self.identify = identify
        self.intents: int = int(identify.get("intents") or 0)
        self.seq = 0
        shard = identify.get("shard") or [0, 1]
        self.shard_id, self.shard_count = int(shard[0]), int(shard[1])
        self.buffer: deque[tuple[int, str]] = deque(maxlen=buffer_size)
        self.conn: Connection | None = None
        self.resumable = True

    def dispatch(self, event: str, data: Any) -> None:
        self.dispatch_json(event, _dumps(data))

    def dispatch_json(self, event: str, data_json: str) -> None:
        """Dispatch an already-encoded payload (hot path: no re-encoding)."""
        self.seq += 1
        text = f'{{"op":0,"t":"{event}","s":{self.seq},"d":{data_json}}}'
        self.buffer.append((self.seq, text))
        conn = self.conn
        if conn is not None:
            conn.send(text)

    @property
    def connected(self) -> bool:
        return self.conn is not None and not self.conn.closed


class Gateway:
    def __init__(self, fake: FakeDiscord, *, heartbeat_interval_ms: int, buffer_size: int) -> None:
        self.fake = fake
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.buffer_size = buffer_size
        self.sessions: dict[str, Session] = {}
        self.current: Session | None = None  # the latest session to identify or resume
        # Sharding: the session serving each shard id, and the shard count they identified
        # with.  Guild events and interactions go to the session of the guild's shard,
        # ``(guild_id >> 22) % shard_count``; events of no guild (DMs) to shard 0.
        self.by_shard: dict[int, Session] = {}
        self.shard_count = 1
        self.connections: set[Connection] = set()
        self.identify_payloads: list[JSON] = []
        self.ready_generation = 0  # bumped after every READY (identify) or RESUMED
        self.identify_count = 0
        self.resume_count = 0
        self.heartbeat_count = 0
        self.failed_identifies = 0
        self.presence_updates: list[JSON] = []
        self.allowed_privileged_intents = PRIVILEGED_INTENTS

    # ----- dispatching -------------------------------------------------------------------
    def shard_of(self, guild_id: int | None) -> int:
        return 0 if guild_id is None else (guild_id >> 22) % self.shard_count

    def session_for(self, guild_id: int | None) -> Session | None:
        """The session that receives the events of ``guild_id`` (``None``: no guild)."""
        if not self.by_shard:
            return self.current
        return self.by_shard.get(self.shard_of(guild_id))

    def dispatch(
        self, event: str, data: Any, intent: int = 0, *, guild_id: int | None = None
    ) -> bool:
        session = self.session_for(guild_id)
        if session is None or (intent and not session.intents & intent):
            return False
        session.dispatch(event, data)
        return True

    def dispatch_json(self, event: str, data_json: str, *, guild_id: int | None = None) -> bool:
        session = self.session_for(guild_id)
        if session is None:
            return False
        session.dispatch_json(event, data_json)
        return True

    @property
    def connected(self) -> bool:
        return self.current is not None and self.current.connected

    def shard_connected(self, shard_id: int) -> bool:
        session = self.by_shard.get(shard_id)
        return session is not None and session.connected

    # ----- websocket handler -------------------------------------------------------------
    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        conn = Connection(ws)
        self.connections.add(conn)
        conn.send_json({"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
        try:
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    payload = json.loads(msg.data)
                    await self._on_payload(conn, payload.get("op"), payload.get("d"))
                elif msg.type == WSMsgType.BINARY:
                    await conn.close(4002, b"Error while decoding payload.")
                    break
                if conn.closed:
                    break
        except ConnectionError:  # the bot vanished (kill -9)
            pass
        finally:
            conn.closed = True
            conn._writer.cancel()
            self.connections.discard(conn)
            session = conn.session
            if session is not None and session.conn is conn:
                session.conn = None
                self.fake._notify()
        return ws

    async def _on_payload(self, conn: Connection, op: int | None, d: Any) -> None:
        if op == HEARTBEAT:
            self.heartbeat_count += 1
            conn.send_json({"op": HEARTBEAT_ACK})
        elif op == IDENTIFY:
            await self._identify(conn, d or {})
        elif op == RESUME:
            await self._resume(conn, d or {})
        elif op == REQUEST_MEMBERS:
            self._request_members(conn, d or {})
        elif op == PRESENCE:
            self.presence_updates.append(d)
        elif op == VOICE_STATE:
            pass
        else:
            log.warning("unknown gateway opcode %r", op)

    def _token_ok(self, token: Any) -> bool:
        fake_token = self.fake.token
        return token in (fake_token, f"Bot {fake_token}")

    async def _identify(self, conn: Connection, d: JSON) -> None:
        self.identify_payloads.append(d)
        if conn.session is not None:
            await conn.close(4005, b"Already authenticated.")
            return
        if not self._token_ok(d.get("token")):
            self.failed_identifies += 1
            await conn.close(4004, b"Authentication failed.")
            return
        if "intents" not in d:
            await conn.close(4013, b"Invalid intent(s).")
            return
        intents = int(d["intents"])
        if intents & PRIVILEGED_INTENTS & ~self.allowed_privileged_intents:
            await conn.close(4014, b"Disallowed intent(s).")
            return
        shard = d.get("shard")
        if shard is not None:
            ok = (
                isinstance(shard, list)
                and len(shard) == 2
                and all(isinstance(x, int) for x in shard)
                and 0 <= shard[0] < shard[1]
            )
            if not ok or (self.by_shard and shard[1] != self.shard_count):
                await conn.close(4010, b"Invalid shard.")
                return
        session = Session(d, self.buffer_size)
        if shard is not None:
            self.shard_count = session.shard_count
            self.by_shard[session.shard_id] = session
        self._register(session)
        self._attach(session, conn)
        self.identify_count += 1
        self.fake._send_ready(session)
        self.ready_generation += 1
        self.fake._notify()

    def _register(self, session: Session) -> None:
        self.sessions[session.id] = session
        while len(self.sessions) > 16:
            del self.sessions[next(iter(self.sessions))]
        self.current = session

    def _attach(self, session: Session, conn: Connection) -> None:
        old = session.conn
        if old is not None and old is not conn:
            old.closed = True
            self.fake._spawn(old.close(4000))
        session.conn = conn
        conn.session = session

    async def _resume(self, conn: Connection, d: JSON) -> None:
        session = self.sessions.get(str(d.get("session_id")))
        seq = int(d.get("seq") or 0)
        if not self._token_ok(d.get("token")):
            await conn.close(4004, b"Authentication failed.")
            return
        oldest = session.buffer[0][0] if session and session.buffer else None
        if (
            session is None
            or not session.resumable
            or seq > session.seq
            or (oldest is not None and seq + 1 < oldest)
        ):
            conn.send_json({"op": INVALID_SESSION, "d": False})
            return
        self._attach(session, conn)
        self.current = session
        if session.identify.get("shard") is not None:
            self.by_shard[session.shard_id] = session
        for s, text in session.buffer:
            if s > seq:
                conn.send(text)
        session.dispatch("RESUMED", {"_trace": ["fakediscord"]})
        self.resume_count += 1
        self.ready_generation += 1
        self.fake._notify()

    def _request_members(self, conn: Connection, d: JSON) -> None:
        session = conn.session
        if session is None:
            return
        guild_ids = d.get("guild_id")
        if not isinstance(guild_ids, list):
            guild_ids = [guild_ids]
        query = (d.get("query") or "").lower()
        user_ids = {int(u) for u in d.get("user_ids") or []}
        limit = int(d.get("limit") or 0)
        for gid in guild_ids:
            guild = self.fake.guilds.get(int(gid))
            if guild is None:
                continue
            members = [
                m
                for m in guild.members.values()
                if (not user_ids or m.user.id in user_ids)
                and (not query or m.user.name.lower().startswith(query))
            ]
            if limit:
                members = members[:limit]
            chunk: JSON = {
                "guild_id": str(guild.id),
                "members": [m.payload() for m in members],
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": [],
            }
            if d.get("nonce"):
                chunk["nonce"] = d["nonce"]
            session.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    # ----- control -----------------------------------------------------------------------
    async def disconnect_all(self, code: int = 4000, *, resumable: bool = True) -> int:
        """Close every websocket. With ``resumable=False`` sessions are invalidated too."""
        conns = list(self.connections)
        if not resumable:
            for session in self.sessions.values():
                session.resumable = False
            self.current = None
            self.by_shard.clear()
        for conn in conns:
            await conn.close(code)
        return len(conns)

    def request_reconnect(self) -> None:
        """Send op 7 RECONNECT: discord.py closes and RESUMEs."""
        for conn in list(self.connections):
            conn.send_json({"op": RECONNECT, "d": None})

    async def close(self) -> None:
        for conn in list(self.connections):
            await conn.close(1001)
