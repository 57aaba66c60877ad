"""Interaction callbacks and the interaction webhook (follow-ups, @original get/edit/delete)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from .handles import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    AUTOCOMPLETE_RESULT,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    PING,
    Interaction,
    Response,
    WebhookEdit,
)
from .messages import EPHEMERAL, LOADING, Message, Snapshot
from .rest import (
    P,
    error,
    fake_of,
    invalid_form,
    no_content,
    ok_message,
    ok_raw,
    rate_limited,
    read_body,
    snowflake_arg,
    unknown,
)
from .rest_messages import is_empty, make_attachments
from .validate import validate_choices, validate_message

if TYPE_CHECKING:
    from .server import FakeDiscord

JSON = dict[str, Any]
# which callback types Discord accepts for which interaction types
ALLOWED = {
    PING: frozenset({1}),
    APPLICATION_COMMAND: frozenset({4, 5, 9}),
    MESSAGE_COMPONENT: frozenset({4, 5, 6, 7, 9}),
    AUTOCOMPLETE: frozenset({8}),
    MODAL_SUBMIT: frozenset({4, 5, 6, 7}),
}
MESSAGE_FLAGS = EPHEMERAL | (1 << 2) | (1 << 12) | (1 << 15)


def _bad_type(ctype: Any) -> web.Response:
    return invalid_form(
        {
            "type": {
                "_errors": [
                    {
                        "code": "INTERACTION_RESPONSE_TYPE_INVALID",
                        "message": f"Invalid callback type {ctype}",
                    }
                ]
            }
        }
    )


def _new_response_message(
    fake: FakeDiscord, inter: Interaction, ctype: int, data: JSON, files: Any
) -> Message:
    flags = (data.get("flags") or 0) & MESSAGE_FLAGS
    if ctype == DEFERRED_CHANNEL_MESSAGE:
        state = Snapshot("", [], [], (flags & EPHEMERAL) | LOADING)
    else:
        attachments = make_attachments(fake, inter.channel, data, files, None) or []
        state = Snapshot(
            data.get("content") or "",
            data.get("embeds") or [],
            data.get("components") or [],
            flags,
            attachments,
        )
    return fake._create_message(
        inter.channel,
        fake.bot_user,
        state,
        visible_to=inter.user.id if flags & EPHEMERAL else None,
        webhook_id=fake.application_id,
        interaction=inter,
        type=20 if inter.type == APPLICATION_COMMAND else 0,
    )


async def callback(request: web.Request) -> web.Response:
    fake = fake_of(request)
    inter = fake.interactions.get(snowflake_arg(request, "iid") or 0)
    if inter is None or inter.token != request.match_info["token"]:
        return unknown("interaction", 10062)
    body, files = await read_body(request)
    if inter.acknowledged:
        inter.rejected_callbacks += 1
        return error(400, 40060, "Interaction has already been acknowledged.")
    elapsed = fake.clock.now() - inter.dispatched_on  # Discord's clock: not the fake's stalls
    if fake.callback_deadline is not None and elapsed > fake.callback_deadline:
        inter._expire(elapsed)
        return unknown("interaction", 10062)
    resp = _apply_callback(fake, inter, body or {}, files, "with_response" in request.query)
    if resp.status >= 400 and resp.status != 429:
        inter._callback_failed(f"HTTP {resp.status} {resp.body!r}")
    return resp


def _apply_callback(
    fake: FakeDiscord, inter: Interaction, body: JSON, files: Any, with_response: bool
) -> web.Response:
    ctype, data = body.get("type"), body.get("data") or {}
    if not isinstance(ctype, int) or ctype not in ALLOWED.get(inter.type, ()):
        return _bad_type(ctype)
    if fake.validate:
        errors = (
            validate_choices(data.get("choices") or [])
            if ctype == AUTOCOMPLETE_RESULT
            else (validate_message(data, fake.app_emojis.by_id) if ctype in (4, 7) else {})
        )
        if errors:
            return invalid_form(errors)
    if ctype == 4 and is_empty(data, files):
        return error(400, 50006, "Cannot send an empty message")

    msg: Message | None = None
    state: Snapshot | None = None
    if ctype in (4, DEFERRED_CHANNEL_MESSAGE):
        msg = _new_response_message(fake, inter, ctype, data, files)
        state = msg.state
    elif ctype in (DEFERRED_UPDATE, 7):
        msg = inter.message
        if msg is None:
            return _bad_type(ctype)
        if msg.deleted:
            return unknown("Message", 10008)
        if ctype == 7:
            attachments = make_attachments(fake, msg.channel, data, files, msg.attachments)
            state = fake._edit_message(msg, data, attachments)
        else:
            state = msg.state
    inter.acknowledged = True
    inter.original = msg
    inter._resolve(Response(inter, ctype, data, msg, state, fake.clock.now()))

    if not with_response:
        return no_content()
    head = f'{{"interaction":{{"id":"{inter.id}","type":{inter.type}'
    if msg is None or ctype == DEFERRED_UPDATE:
        return ok_raw(head + "}}")
    loading = "true" if ctype == DEFERRED_CHANNEL_MESSAGE else "false"
    ephemeral = "true" if msg.visible_to is not None else "false"
    return ok_raw(
        f'{head},"response_message_id":"{msg.id}","response_message_loading":{loading},'
        f'"response_message_ephemeral":{ephemeral}}},'
        f'"resource":{{"type":{ctype},"message":{msg.payload_json()}}}}}'
    )


def _interaction_of(request: web.Request) -> Interaction | None:
    fake = fake_of(request)
    if snowflake_arg(request, "app") != fake.application_id:
        return None
    return fake.interactions_by_token.get(request.match_info["token"])


def _expired(request: web.Request, inter: Interaction) -> web.Response | None:
    """Discord refuses an interaction token older than 15 minutes on every webhook route."""
    fake = fake_of(request)
    if inter.token_age <= fake.token_lifetime:
        return None
    fake.expired_token_refusals += 1
    return error(401, 50027, "Invalid Webhook Token")


async def execute_webhook(request: web.Request) -> web.Response:
    """Follow-up message. The first one after a "thinking" deferral replaces that message."""
    fake = fake_of(request)
    inter = _interaction_of(request)
    if inter is None or not inter.acknowledged:
        return unknown("Webhook", 10015)
    if (refused := _expired(request, inter)) is not None:
        return refused
    body, files = await read_body(request)
    body = body or {}
    if fake.validate and (errors := validate_message(body, fake.app_emojis.by_id)):
        return invalid_form(errors)
    if is_empty(body, files):
        return error(400, 50006, "Cannot send an empty message")
    headers, retry = fake.ratelimiter.hit("webhook", inter.token)
    if retry is not None:
        return rate_limited(retry, headers)
    orig = inter.original
    if orig is not None and orig.loading and not orig.deleted:
        attachments = make_attachments(fake, orig.channel, body, files, orig.attachments)
        fake._edit_message(orig, body, attachments)
        msg = orig
    else:
        flags = (body.get("flags") or 0) & MESSAGE_FLAGS
        attachments = make_attachments(fake, inter.channel, body, files, None) or []
        state = Snapshot(
            body.get("content") or "",
            body.get("embeds") or [],
            body.get("components") or [],
            flags,
            attachments,
        )
        msg = fake._create_message(
            inter.channel,
            fake.bot_user,
            state,
            visible_to=inter.user.id if flags & EPHEMERAL else None,
            webhook_id=fake.application_id,
            interaction=inter,
        )
    inter.followups.append(msg)
    fake._w_misc.wake(inter, None)
    if request.query.get("wait") in ("1", "true", "True"):
        return ok_message(msg, headers)
    return no_content(headers)


async def webhook_message(request: web.Request) -> web.Response:
    fake = fake_of(request)
    inter = _interaction_of(request)
    if inter is None:
        return unknown("Webhook", 10015)
    if (refused := _expired(request, inter)) is not None:
        return refused
    raw = request.match_info["mid"]
    msg = inter.original if raw == "@original" else _made_through(inter, raw)
    if msg is None or msg.deleted:
        fake.unknown_webhook_messages.append(f"{request.method} {raw}")
        return unknown("Message", 10008)
    if request.method == "GET":
        return ok_message(msg)
    if request.method == "DELETE":
        fake._delete_message(msg)
        return no_content()
    body, files = await read_body(request)
    body = body or {}
    if fake.validate and (errors := validate_message(body, fake.app_emojis.by_id)):
        return invalid_form(errors)
    headers, retry = fake.ratelimiter.hit("webhook", inter.token)
    if retry is not None:
        return rate_limited(retry, headers)
    # A test may hold the edit on its way (holds.py).
    held = [h for hold in fake.edit_holds if (h := await hold.admit(msg.id, body))]
    attachments = make_attachments(fake, msg.channel, body, files, msg.attachments)
    state = fake._edit_message(msg, body, attachments)
    fake.webhook_edits.append(WebhookEdit(inter, msg, state))
    for edit in held:
        edit.landed.set()
    return ok_message(msg, headers)


def _made_through(inter: Interaction, raw: str) -> Message | None:
    """The message ``raw`` (an id) if ``inter``'s token created it — its original response or
    one of its follow-ups.  Discord: "Edits a previously-sent webhook message from the same
    token"; a message another interaction's token created is Unknown Message (10008) here,
    even the one a component click was on (that one only as ``@original``, after a 6/7)."""
    mid = int(raw) if raw.isdigit() else -1
    return next(
        (
            m
            for m in (inter.original, *inter.followups)
            if m is not None and m.id == mid and m.interaction_id == inter.id
        ),
        None,
    )


def add_routes(r: web.UrlDispatcher) -> None:
    r.add_post(P + "/interactions/{iid}/{token}/callback", callback)
    r.add_post(P + "/webhooks/{app}/{token}", execute_webhook)
    for method in ("GET", "PATCH", "DELETE"):
        r.add_route(method, P + "/webhooks/{app}/{token}/messages/{mid}", webhook_message)
