"""REST application: middleware (auth, the global rate limit, 429 injection, unknown routes),
shared helpers and the small routes (gateway, users, application, commands, guilds,
channels)."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiohttp import BodyPartReader, web

if TYPE_CHECKING:
    from .channels import Channel
    from .messages import Message
    from .server import FakeDiscord

log = logging.getLogger("fakediscord.rest")
JSON = dict[str, Any]
P = "/api/v10"
FAKE_KEY: web.AppKey[FakeDiscord] = web.AppKey("fake")
_dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
_COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")


# ----- response helpers ----------------------------------------------------------------------
def ok(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    return web.Response(
        body=_dumps(data).encode(), status=status, headers=headers, content_type="application/json"
    )


def ok_raw(text: str, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # body= (not text=): discord.py only parses JSON if Content-Type is exactly
    # "application/json", and text= would append "; charset=utf-8".
    return web.Response(
        body=text.encode(), status=status, headers=headers, content_type="application/json"
    )


def ok_message(msg: Message, headers: dict[str, str] | None = None) -> web.Response:
    return ok_raw(msg.payload_json(), headers=headers)


def no_content(headers: dict[str, str] | None = None) -> web.Response:
    return web.Response(status=204, headers=headers)


def error(
    status: int,
    code: int,
    message: str,
    errors: JSON | None = None,
    headers: dict[str, str] | None = None,
) -> web.Response:
    body: JSON = {"message": message, "code": code}
    if errors:
        body["errors"] = errors
    return ok(body, status, headers)


def unknown(what: str, code: int) -> web.Response:
    return error(404, code, f"Unknown {what}")


def missing_permissions() -> web.Response:
    return error(403, 50013, "Missing Permissions")


def invalid_form(errors: JSON) -> web.Response:
    return error(400, 50035, "Invalid Form Body", errors)


def rate_limited(
    retry_after: float, headers: dict[str, str], is_global: bool = False
) -> web.Response:
    body = {
        "message": "You are being rate limited.",
        "retry_after": retry_after,
        "global": is_global,
    }
    return ok(body, 429, headers)


def fake_of(request: web.Request) -> FakeDiscord:
    return request.app[FAKE_KEY]


def snowflake_arg(request: web.Request, name: str) -> int | None:
    try:
        return int(request.match_info[name])
    except (KeyError, ValueError):
        return None


def channel_of(request: web.Request) -> Channel | None:
    cid = snowflake_arg(request, "cid")
    return None if cid is None else fake_of(request).channels.get(cid)


Files = dict[int, tuple[str, bytes, str | None]]
_BODY: web.RequestKey[tuple[Any, Files]] = web.RequestKey("fakediscord_body", tuple)


async def read_body(request: web.Request) -> tuple[Any, Files]:
    """JSON body, or multipart (``payload_json`` + ``files[n]``). Returns (payload, files).
    Read once a request (the middleware reads it first, to check it) and kept on the request."""
    if _BODY not in request:
        request[_BODY] = await _parse_body(request)
    return request[_BODY]


async def _parse_body(request: web.Request) -> tuple[Any, Files]:
    files: Files = {}
    if not request.body_exists:
        return None, files
    if request.content_type.startswith("multipart/"):
        payload: Any = None
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            if not isinstance(part, BodyPartReader):
                continue
            name = part.name or ""
            if name == "payload_json":
                payload = json.loads(await part.text())
            elif name.startswith("files[") or part.filename:
                m = re.search(r"\d+", name)
                index = int(m.group()) if m else len(files)
                data = await part.read(decode=False)
                files[index] = (
                    part.filename or f"file{index}",
                    bytes(data),
                    part.headers.get("Content-Type"),
                )
        return payload, files
    raw = await request.read()
    return (json.loads(raw) if raw else None), files


# ----- middleware ----------------------------------------------------------------------------
def _needs_auth(path: str) -> bool:
    if not path.startswith(P):
        return False
    rest = path[len(P) :]
    if rest.startswith("/interactions/"):
        return False
    # /webhooks/{id}/{token}... carries its own credential
    return not (rest.startswith("/webhooks/") and rest.count("/") >= 3)


@web.middleware
async def middleware(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    fake = fake_of(request)
    path = request.path
    arrival = fake.ratelimiter.arrive(path, request.headers.get("Authorization"), fake.token)
    resource = request.match_info.route.resource
    fake.route_counts[f"{request.method} {resource.canonical if resource else path}"] += 1
    if fake.ratelimiter.injected:
        inj = fake.ratelimiter.take_injected(request.method, path)
        if inj is not None:
            headers = {"Via": "1.1 google", "Retry-After": str(max(int(inj.retry_after), 1))}
            if inj.is_global:
                headers["X-RateLimit-Global"] = "true"
                headers["X-RateLimit-Scope"] = "global"
            else:
                headers.update({"X-RateLimit-Limit": "1", "X-RateLimit-Remaining": "0"})
                headers["X-RateLimit-Reset-After"] = f"{inj.retry_after:.3f}"
                headers["X-RateLimit-Bucket"] = "fake-injected"
            return rate_limited(inj.retry_after, headers, inj.is_global)
    if _needs_auth(path) and request.headers.get("Authorization") != f"Bot {fake.token}":
        fake.auth_failures += 1
        return error(401, 0, "401: Unauthorized")
    if arrival.bot and (limited := fake.ratelimiter.hit_global()) is not None:
        headers, retry_after = limited
        return rate_limited(retry_after, headers, is_global=True)
    try:
        if fake.api is not None and path.startswith(P + "/"):
            refused = await _check_api(fake, request)
            if refused is not None:
                return refused
        return await handler(request)
    except web.HTTPException:
        raise
    except Exception as exc:
        log.exception("fake discord handler crashed on %s %s", request.method, path)
        fake.server_errors.append(f"{request.method} {path}: {exc!r}")
        return error(500, 0, "500: Internal Server Error (fakediscord bug)")


async def _check_api(fake: FakeDiscord, request: web.Request) -> web.Response | None:
    """Answer as Discord would a request its published description rejects (and record it,
    so the test fails at teardown); ``None`` when the description accepts it."""
    assert fake.api is not None
    media = request.content_type if request.body_exists else None
    try:
        body, _ = await read_body(request)
    except ValueError as exc:  # json.JSONDecodeError, a broken multipart body
        fake.api_violations.append(f"{request.method} {request.path}: unreadable body: {exc}")
        return error(400, 50109, "The request body contains invalid JSON.")
    if media is not None and media.startswith("multipart/"):
        media = "multipart/form-data"
    query = {k: request.query[k] for k in request.query}
    path = request.path[len(P) :]
    rejection = fake.api.check(request.method, path, query, media, body)
    if rejection is None:
        return None
    for line in rejection.lines():
        fake.api_violations.append(f"{request.method} {request.path}: {line}")
    log.warning("fakediscord: %s %s rejected by Discord's API description", request.method, path)
    return error(rejection.status, rejection.code, rejection.message, rejection.errors)


async def unknown_route(request: web.Request) -> web.Response:
    fake = fake_of(request)
    fake.unknown_routes.append((request.method, request.path))
    log.warning("fakediscord: unknown route %s %s", request.method, request.path)
    return error(404, 0, f"404: Not Found ({request.method} {request.path} is not faked)")


# ----- small routes --------------------------------------------------------------------------
async def get_gateway(request: web.Request) -> web.Response:
    fake = fake_of(request)
    return ok(
        {
            "url": fake.gateway_url,
            "shards": fake.recommended_shards,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 14_400_000,
                "max_concurrency": 1,
            },
        }
    )


async def get_me(request: web.Request) -> web.Response:
    fake = fake_of(request)
    return ok(dict(fake.bot_user.payload(), verified=True, mfa_enabled=False, locale="en-US"))


async def get_user(request: web.Request) -> web.Response:
    user = fake_of(request).users.get(snowflake_arg(request, "uid") or 0)
    return ok(user.payload()) if user else unknown("User", 10013)


async def create_dm(request: web.Request) -> web.Response:
    fake = fake_of(request)
    body, _ = await read_body(request)
    user = fake.users.get(int((body or {}).get("recipient_id", 0)))
    if user is None or user.bot:
        return error(400, 50007, "Cannot send messages to this user")
    return ok(fake.dm_channel(user).payload())


async def get_application(request: web.Request) -> web.Response:
    fake = fake_of(request)
    owner = next((u for u in fake.users.values() if not u.bot), fake.bot_user)
    return ok(
        {
            "id": str(fake.application_id),
            "name": fake.bot_user.name,
            "description": "",
            "icon": None,
            "rpc_origins": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": owner.payload(),
            "team": None,
            "verify_key": "0" * 64,
            "flags": fake.application_flags,
            "bot": fake.bot_user.payload(),
            "interactions_endpoint_url": None,
            "install_params": None,
            "tags": [],
            "redirect_uris": [],
            "approximate_guild_count": len(fake.guilds),
        }
    )


def _scope(request: web.Request) -> int | None:
    return snowflake_arg(request, "gid")


def _check_app(request: web.Request) -> web.Response | None:
    fake = fake_of(request)
    if snowflake_arg(request, "app") != fake.application_id:
        return error(403, 50001, "Missing Access")
    gid = _scope(request)
    if gid is not None and gid not in fake.guilds:
        return error(403, 50001, "Missing Access")
    return None


def _validate_command(body: JSON) -> JSON:
    errors: JSON = {}
    name = body.get("name") or ""
    if body.get("type", 1) == 1:
        if not _COMMAND_NAME.match(name) or name != name.lower():
            errors["name"] = {"_errors": [{"code": "APPLICATION_COMMAND_INVALID_NAME"}]}
        if not 1 <= len(body.get("description") or "") <= 100:
            errors["description"] = {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH"}]}
    if len(body.get("options") or []) > 25:
        errors["options"] = {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH"}]}
    return errors


async def commands_route(request: web.Request) -> web.Response:
    fake = fake_of(request)
    if (denied := _check_app(request)) is not None:
        return denied
    scope = _scope(request)
    if request.method == "GET":
        return ok(fake.commands(scope))
    body, _ = await read_body(request)
    bodies = body if request.method == "PUT" else [body]
    errors = {str(i): e for i, b in enumerate(bodies) if (e := _validate_command(b))}
    if errors:
        return invalid_form(errors)
    names = [(b.get("type", 1), b["name"]) for b in bodies]
    if len(set(names)) != len(names):
        return invalid_form({"_errors": [{"code": "APPLICATION_COMMANDS_DUPLICATE_NAME"}]})
    result = fake._upsert_commands(scope, bodies, bulk=request.method == "PUT")
    return ok(
        result if request.method == "PUT" else result[0], 200 if request.method == "PUT" else 201
    )


async def command_route(request: web.Request) -> web.Response:
    fake = fake_of(request)
    if (denied := _check_app(request)) is not None:
        return denied
    scope, cid = _scope(request), request.match_info["cmd"]
    cmd = next((c for c in fake.commands(scope) if c["id"] == cid), None)
    if cmd is None:
        return unknown("application command", 10063)
    if request.method == "DELETE":
        fake._delete_command(scope, cid)
        return no_content()
    if request.method == "PATCH":
        body, _ = await read_body(request)
        merged = {k: v for k, v in {**cmd, **body}.items() if k not in ("id", "version")}
        return ok(fake._upsert_commands(scope, [merged], bulk=False)[0])
    return ok(cmd)


async def command_permissions(request: web.Request) -> web.Response:
    return ok([])


async def get_guild(request: web.Request) -> web.Response:
    guild = fake_of(request).guilds.get(snowflake_arg(request, "gid") or 0)
    return ok(guild.payload(full=False)) if guild else unknown("Guild", 10004)


async def get_guild_channels(request: web.Request) -> web.Response:
    guild = fake_of(request).guilds.get(snowflake_arg(request, "gid") or 0)
    if guild is None:
        return unknown("Guild", 10004)
    return ok([c.payload() for c in guild.channels.values() if not c.is_thread])


async def get_active_threads(request: web.Request) -> web.Response:
    guild = fake_of(request).guilds.get(snowflake_arg(request, "gid") or 0)
    if guild is None:
        return unknown("Guild", 10004)
    return ok({"threads": [t.payload() for t in guild.threads if not t.archived], "members": []})


async def get_member(request: web.Request) -> web.Response:
    guild = fake_of(request).guilds.get(snowflake_arg(request, "gid") or 0)
    if guild is None:
        return unknown("Guild", 10004)
    member = guild.members.get(snowflake_arg(request, "uid") or 0)
    return ok(member.payload()) if member else unknown("Member", 10007)


async def get_roles(request: web.Request) -> web.Response:
    guild = fake_of(request).guilds.get(snowflake_arg(request, "gid") or 0)
    return ok([r.payload() for r in guild.roles.values()]) if guild else unknown("Guild", 10004)


async def channel_route(request: web.Request) -> web.Response:
    fake = fake_of(request)
    ch = channel_of(request)
    if ch is None:
        return unknown("Channel", 10003)
    if request.method == "GET":
        return ok(ch.payload())
    if request.method == "DELETE":
        del fake.channels[ch.id]
        if ch.guild is not None:
            ch.guild.channels.pop(ch.id, None)
            event = "THREAD_DELETE" if ch.is_thread else "CHANNEL_DELETE"
            fake._dispatch_guild_event(ch.guild, event, ch.payload())
        return ok(ch.payload())
    body, _ = await read_body(request)
    body = body or {}
    for key in ("name", "topic", "archived", "locked", "invitable", "auto_archive_duration"):
        if key in body:
            setattr(ch, key, body[key])
    fake._channel_updated(ch)
    return ok(ch.payload())


async def typing(request: web.Request) -> web.Response:
    ch = channel_of(request)
    if ch is None:
        return unknown("Channel", 10003)
    return no_content()


async def get_attachment(request: web.Request) -> web.Response:
    fake = fake_of(request)
    a = fake.attachments.get(snowflake_arg(request, "aid") or 0)
    if a is None:
        return web.Response(status=404)
    return web.Response(body=a.data, content_type=a.content_type or "application/octet-stream")


def build_app(fake: FakeDiscord) -> web.Application:
    from . import emojis, rest_interactions, rest_messages

    app = web.Application(middlewares=[middleware], client_max_size=64 * 1024 * 1024)
    app[FAKE_KEY] = fake
    r = app.router
    r.add_get("/gateway", fake.gateway.handle)
    r.add_get("/gateway/", fake.gateway.handle)
    r.add_get("/attachments/{cid}/{aid}/{filename}", get_attachment)
    rest_interactions.add_routes(r)
    rest_messages.add_routes(r)
    emojis.add_routes(r)
    r.add_get(P + "/gateway/bot", get_gateway)
    r.add_get(P + "/gateway", get_gateway)
    r.add_get(P + "/users/@me", get_me)
    r.add_post(P + "/users/@me/channels", create_dm)
    r.add_get(P + "/users/{uid}", get_user)
    r.add_get(P + "/oauth2/applications/@me", get_application)
    r.add_get(P + "/applications/@me", get_application)
    for base in (P + "/applications/{app}", P + "/applications/{app}/guilds/{gid}"):
        r.add_route("GET", base + "/commands/permissions", command_permissions)
        for method in ("GET", "PUT", "POST"):
            r.add_route(method, base + "/commands", commands_route)
        for method in ("GET", "PATCH", "DELETE"):
            r.add_route(method, base + "/commands/{cmd}", command_route)
    r.add_get(P + "/guilds/{gid}", get_guild)
    r.add_get(P + "/guilds/{gid}/channels", get_guild_channels)
    r.add_get(P + "/guilds/{gid}/threads/active", get_active_threads)
    r.add_get(P + "/guilds/{gid}/roles", get_roles)
    r.add_get(P + "/guilds/{gid}/members/{uid}", get_member)
    for method in ("GET", "PATCH", "DELETE"):
        r.add_route(method, P + "/channels/{cid}", channel_route)
    r.add_post(P + "/channels/{cid}/typing", typing)
    r.add_route("*", "/{tail:.*}", unknown_route)
    return app
