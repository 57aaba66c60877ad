"""Channel message routes (create/edit/get/delete), threads, thread members, reactions, pins."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .channels import Channel, ChannelType
from .messages import Attachment, Message, Snapshot, pinged_users
from .permissions import Perm
from .rest import (
    P,
    channel_of,
    error,
    fake_of,
    invalid_form,
    missing_permissions,
    no_content,
    ok,
    ok_message,
    rate_limited,
    read_body,
    snowflake_arg,
    unknown,
)
from .validate import validate_message

if TYPE_CHECKING:
    from .server import FakeDiscord

JSON = dict[str, Any]
Files = dict[int, tuple[str, bytes, str | None]]
# flags a bot may set when creating a channel message
CREATE_FLAGS = (1 << 2) | (1 << 12) | (1 << 15)


def make_attachments(
    fake: FakeDiscord,
    channel: Channel,
    body: JSON,
    files: Files,
    existing: list[Attachment] | None,
) -> list[Attachment] | None:
    """Attachments after this request, or None when the request doesn't touch them."""
    specs = body.get("attachments")
    if specs is None:
        if not files:
            return None
        specs = [{"id": i} for i in files]
        keep = list(existing or [])
    else:
        keep = []
    old = {a.id: a for a in existing or []}
    for spec in specs:
        sid = int(spec.get("id", -1))
        if sid in files and sid not in old:
            filename, data, ctype = files[sid]
            aid = fake.snowflakes.next()
            name = spec.get("filename") or filename
            url = f"{fake.base_url}/attachments/{channel.id}/{aid}/{name}"
            att = Attachment(aid, name, data, ctype, spec.get("description"), url)
            fake.attachments[aid] = att
            keep.append(att)
        elif sid in old:
            keep.append(old[sid])
    return keep


def _denied(ch: Channel, body: JSON, files: Files) -> web.Response | None:
    if ch.guild is None:
        return None
    have = ch.bot_permissions()
    need = Perm.VIEW_CHANNEL | (
        Perm.SEND_MESSAGES_IN_THREADS if ch.is_thread else Perm.SEND_MESSAGES
    )
    if body.get("embeds"):
        need |= Perm.EMBED_LINKS
    if files:
        need |= Perm.ATTACH_FILES
    if have & need != need:
        return missing_permissions()
    if ch.is_thread and ch.locked and not have & Perm.MANAGE_THREADS:
        return missing_permissions()
    return None


def is_empty(body: JSON, files: Files) -> bool:
    keys = ("content", "embeds", "components", "sticker_ids", "poll")
    return not files and not any(body.get(k) for k in keys)


async def create_message(request: web.Request) -> web.Response:
    fake = fake_of(request)
    ch = channel_of(request)
    if ch is None:
        return unknown("Channel", 10003)
    body, files = await read_body(request)
    body = body or {}
    if fake.validate and (errors := validate_message(body, fake.app_emojis.by_id)):
        return invalid_form(errors)
    if is_empty(body, files):
        return error(400, 50006, "Cannot send an empty message")
    if (denied := _denied(ch, body, files)) is not None:
        return denied
    headers, retry = fake.ratelimiter.hit("message_create", ch.id)
    if retry is not None:
        return rate_limited(retry, headers)
    attachments = make_attachments(fake, ch, body, files, None) or []
    state = Snapshot(
        body.get("content") or "",
        body.get("embeds") or [],
        body.get("components") or [],
        (body.get("flags") or 0) & CREATE_FLAGS,
        attachments,
    )
    reference = body.get("message_reference")
    if ch.is_thread and ch.archived:
        ch.archived = False
    msg = fake._create_message(
        ch, fake.bot_user, state, type=19 if reference else 0, reference=reference
    )
    msg.pinged = pinged_users(state.content, body.get("allowed_mentions"))
    return ok_message(msg, headers)


def _message_of(request: web.Request) -> tuple[Channel | None, Message | None]:
    ch = channel_of(request)
    mid = snowflake_arg(request, "mid")
    if ch is None or mid is None:
        return ch, None
    msg = ch.messages.get(mid)
    return ch, None if msg is None or msg.deleted else msg


async def message_route(request: web.Request) -> web.Response:
    fake = fake_of(request)
    ch, msg = _message_of(request)
    if ch is None:
        return unknown("Channel", 10003)
    if msg is None:
        return unknown("Message", 10008)
    if request.method == "GET":
        return ok_message(msg)
    if request.method == "DELETE":
        if msg.author is not fake.bot_user and not ch.bot_permissions() & Perm.MANAGE_MESSAGES:
            return missing_permissions()
        headers, retry = fake.ratelimiter.hit("message_delete", ch.id)
        if retry is not None:
            return rate_limited(retry, headers)
        fake._delete_message(msg)
        return no_content(headers)
    body, files = await read_body(request)
    body = body or {}
    if msg.author is not fake.bot_user:
        return error(403, 50005, "Cannot edit a message authored by another user")
    if fake.validate and (errors := validate_message(body, fake.app_emojis.by_id)):
        return invalid_form(errors)
    if files and ch.guild is not None and not ch.bot_permissions() & Perm.ATTACH_FILES:
        return missing_permissions()
    headers, retry = fake.ratelimiter.hit("message_edit", ch.id)
    if retry is not None:
        return rate_limited(retry, headers)
    attachments = make_attachments(fake, ch, body, files, msg.attachments)
    fake._edit_message(msg, body, attachments)
    return ok_message(msg, headers)


async def list_messages(request: web.Request) -> web.Response:
    ch = channel_of(request)
    if ch is None:
        return unknown("Channel", 10003)
    q = request.query
    limit = min(int(q.get("limit", 50)), 100)
    msgs = [m for m in ch.messages.values() if not m.deleted]
    if "before" in q:
        msgs = [m for m in msgs if m.id < int(q["before"])]
    if "after" in q:
        msgs = [m for m in msgs if m.id > int(q["after"])][:limit]
    return ok([m.payload() for m in reversed(msgs[-limit:])])


async def bulk_delete(request: web.Request) -> web.Response:
    fake = fake_of(request)
    ch = channel_of(request)
    if ch is None:
        return unknown("Channel", 10003)
    if not ch.bot_permissions() & Perm.MANAGE_MESSAGES:
        return missing_permissions()
    body, _ = await read_body(request)
    for mid in (body or {}).get("messages", []):
        msg = ch.messages.get(int(mid))
        if msg is not None and not msg.deleted:
            fake._delete_message(msg)
    return no_content()


def _new_thread(
    fake: FakeDiscord, parent: Channel, name: str, type: ChannelType, id: int | None = None
) -> Channel:
    assert parent.guild is not None
    th = Channel(fake, id or fake.snowflakes.next(), type, name, guild=parent.guild, parent=parent)
    th.owner_id = fake.bot_user.id
    th.thread_members.add(fake.bot_user.id)
    parent.guild.channels[th.id] = th
    return th


def _thread_denied(parent: Channel, type: ChannelType) -> web.Response | None:
    if parent.type != ChannelType.TEXT:
        return error(400, 50024, "Cannot execute action on this channel type")
    need = Perm.VIEW_CHANNEL | (
        Perm.CREATE_PUBLIC_THREADS
        if type == ChannelType.PUBLIC_THREAD
        else Perm.CREATE_PRIVATE_THREADS
    )
    return missing_permissions() if parent.bot_permissions() & need != need else None


async def create_thread(request: web.Request) -> web.Response:
    fake = fake_of(request)
    parent = channel_of(request)
    if parent is None:
        return unknown("Channel", 10003)
    body, _ = await read_body(request)
    body = body or {}
    type = ChannelType(int(body.get("type") or ChannelType.PRIVATE_THREAD))
    if (denied := _thread_denied(parent, type)) is not None:
        return denied
    headers, retry = fake.ratelimiter.hit("thread_create", parent.id)
    if retry is not None:
        return rate_limited(retry, headers)
    th = _new_thread(fake, parent, str(body.get("name") or "thread"), type)
    th.invitable = bool(body.get("invitable", True))
    th.auto_archive_duration = int(body.get("auto_archive_duration") or 1440)
    fake._register_channel(th, created=True)
    return ok(th.payload(), 201, headers)


async def create_thread_from_message(request: web.Request) -> web.Response:
    fake = fake_of(request)
    parent, msg = _message_of(request)
    if parent is None:
        return unknown("Channel", 10003)
    if msg is None:
        return unknown("Message", 10008)
    if msg.thread is not None:
        return error(400, 160004, "A thread has already been created for this message")
    if (denied := _thread_denied(parent, ChannelType.PUBLIC_THREAD)) is not None:
        return denied
    headers, retry = fake.ratelimiter.hit("thread_create", parent.id)
    if retry is not None:
        return rate_limited(retry, headers)
    body, _ = await read_body(request)
    body = body or {}
    th = _new_thread(
        fake, parent, str(body.get("name") or "thread"), ChannelType.PUBLIC_THREAD, msg.id
    )
    th.auto_archive_duration = int(body.get("auto_archive_duration") or 1440)
    th.starter_message_id = msg.id
    msg.thread = th
    msg.invalidate()
    fake._register_channel(th, created=True)
    fake._dispatch_message("MESSAGE_UPDATE", msg)
    return ok(th.payload(), 201, headers)


async def thread_member(request: web.Request) -> web.Response:
    fake = fake_of(request)
    th = channel_of(request)
    if th is None or not th.is_thread:
        return unknown("Channel", 10003)
    raw = request.match_info["uid"]
    uid = fake.bot_user.id if raw == "@me" else int(raw)
    if request.method == "GET":
        if uid not in th.thread_members:
            return unknown("Member", 10007)
        return ok(
            {"id": str(th.id), "user_id": str(uid), "join_timestamp": th.created_at, "flags": 0}
        )
    if th.archived:  # Discord: members are added and removed only while it is open
        return error(400, 50083, "Thread is archived")
    if (
        uid != fake.bot_user.id
        and (denied := _members_denied(fake, th, request.method)) is not None
    ):
        return denied
    if request.method == "PUT":
        if uid not in fake.users:
            return unknown("User", 10013)
        assert th.guild is not None
        if uid not in th.guild.members:
            return unknown("Member", 10007)
        th.thread_members.add(uid)
    else:
        th.thread_members.discard(uid)
    return no_content()


def _members_denied(fake: FakeDiscord, th: Channel, method: str) -> web.Response | None:
    """Discord's rules for changing another member's place in a thread: adding needs the
    right to send there — and, in a private thread that is not ``invitable``, Manage
    Threads; removing needs Manage Threads, or having made the private thread."""
    have = th.bot_permissions()
    private = th.type == ChannelType.PRIVATE_THREAD
    if method == "PUT":
        need = Perm.SEND_MESSAGES_IN_THREADS
        if private and not th.invitable:
            need |= Perm.MANAGE_THREADS
        return missing_permissions() if have & need != need else None
    made_it = private and th.owner_id == fake.bot_user.id
    return None if made_it or have & Perm.MANAGE_THREADS else missing_permissions()


async def list_thread_members(request: web.Request) -> web.Response:
    th = channel_of(request)
    if th is None or not th.is_thread:
        return unknown("Channel", 10003)
    return ok(
        [
            {"id": str(th.id), "user_id": str(u), "join_timestamp": th.created_at, "flags": 0}
            for u in th.thread_members
        ]
    )


async def reaction_route(request: web.Request) -> web.Response:
    fake = fake_of(request)
    ch, msg = _message_of(request)
    if ch is None or msg is None:
        return unknown("Message", 10008)
    emoji = request.match_info.get("emoji")
    who = request.match_info.get("uid", "@me")
    uid = fake.bot_user.id if who == "@me" else int(who)
    if request.method == "PUT":
        if ch.guild is not None and not ch.bot_permissions() & Perm.ADD_REACTIONS:
            return missing_permissions()
        headers, retry = fake.ratelimiter.hit("reaction", ch.id)
        if retry is not None:
            return rate_limited(retry, headers)
        msg.invalidate()
        if msg.reactions is None:
            msg.reactions = {}
        msg.reactions.setdefault(str(emoji), set()).add(uid)
        return no_content(headers)
    if msg.reactions:
        msg.invalidate()
        if emoji is None:
            msg.reactions.clear()
        elif "uid" in request.match_info:
            msg.reactions.get(str(emoji), set()).discard(uid)
        else:
            msg.reactions.pop(str(emoji), None)
    return no_content()


async def pin(request: web.Request) -> web.Response:
    return no_content()


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def member_only(handler: Handler) -> Handler:
    """Discord refuses the channel routes of a channel the bot is no member of (a group DM,
    a server that has not added it) with 403 Missing Access; each refusal is kept in
    ``fake.missing_access``."""

    async def guarded(request: web.Request) -> web.StreamResponse:
        ch = channel_of(request)
        if ch is not None and not ch.bot_is_member:
            fake = fake_of(request)
            fake.missing_access.append(f"{request.method} /channels/{ch.id}/…")
            return error(403, 50001, "Missing Access")
        return await handler(request)

    return guarded


def add_routes(r: web.UrlDispatcher) -> None:
    c = P + "/channels/{cid}"
    m = c + "/messages/{mid:\\d+}"
    r.add_post(c + "/messages", member_only(create_message))
    r.add_get(c + "/messages", member_only(list_messages))
    r.add_post(c + "/messages/bulk-delete", member_only(bulk_delete))
    for method in ("PUT", "DELETE"):
        r.add_route(method, c + "/messages/pins/{mid:\\d+}", member_only(pin))
        r.add_route(method, c + "/pins/{mid:\\d+}", member_only(pin))
    for method in ("GET", "PATCH", "DELETE"):
        r.add_route(method, m, member_only(message_route))
    r.add_post(m + "/threads", member_only(create_thread_from_message))
    r.add_post(c + "/threads", member_only(create_thread))
    r.add_get(c + "/thread-members", list_thread_members)
    for method in ("GET", "PUT", "DELETE"):
        r.add_route(method, c + "/thread-members/{uid}", thread_member)
    r.add_route("PUT", m + "/reactions/{emoji}/{uid}", reaction_route)
    r.add_route("DELETE", m + "/reactions/{emoji}/{uid}", reaction_route)
    r.add_route("DELETE", m + "/reactions/{emoji}", reaction_route)
    r.add_route("DELETE", m + "/reactions", reaction_route)
