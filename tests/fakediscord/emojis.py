"""Application emojis, as Discord keeps them: up to 2,000 per application, names of 2-32
letters, digits or underscores and unique within the application, images (PNG, JPEG, GIF, WebP
or AVIF as a ``data:`` URI) of at most 256 KiB.

Routes: ``GET/POST /applications/{app}/emojis`` (the list is ``{"items": [...]}``),
``GET/PATCH/DELETE /applications/{app}/emojis/{emoji}``.  Messages may use an application
emoji on their components; a component emoji with an id Discord does not know is refused
(``COMPONENT_INVALID_EMOJI``), as Discord does.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .rest import P, error, fake_of, invalid_form, no_content, ok, read_body, snowflake_arg

if TYPE_CHECKING:
    from .server import FakeDiscord

JSON = dict[str, Any]
MAX_APPLICATION_EMOJIS = 2000
MAX_EMOJI_BYTES = 256 * 1024
_NAME = re.compile(r"^[A-Za-z0-9_]{2,32}$")
_DATA_URI = re.compile(r"^data:image/(png|jpeg|jpg|gif|webp|avif);base64,(.+)$", re.DOTALL)
_MAGIC = {
    "png": (b"\x89PNG\r\n\x1a\n",),
    "jpeg": (b"\xff\xd8\xff",),
    "jpg": (b"\xff\xd8\xff",),
    "gif": (b"GIF87a", b"GIF89a"),
    "webp": (b"RIFF",),
    "avif": (b"",),
}


@dataclass(slots=True)
class AppEmoji:
    id: int
    name: str
    image: bytes
    format: str
    animated: bool = False

    def payload(self, owner: JSON) -> JSON:
        return {
            "id": str(self.id),
            "name": self.name,
            "roles": [],
            "user": owner,
            "require_colons": True,
            "managed": False,
            "animated": self.animated,
            "available": True,
        }


class EmojiStore:
    """The application's emojis (insertion ordered) and counters tests read."""

    def __init__(self) -> None:
        self.by_id: dict[int, AppEmoji] = {}
        self.creates = 0
        self.deletes = 0
        self.edits = 0
        self.lists = 0
        self.limit = MAX_APPLICATION_EMOJIS

    def named(self, name: str) -> AppEmoji | None:
        return next((e for e in self.by_id.values() if e.name == name), None)

    def names(self) -> list[str]:
        return [e.name for e in self.by_id.values()]

    def __len__(self) -> int:
        return len(self.by_id)


def _name_errors(name: Any) -> JSON:
    if not isinstance(name, str) or not _NAME.match(name):
        return {
            "name": {
                "_errors": [
                    {
                        "code": "BASE_TYPE_BAD_LENGTH"
                        if not isinstance(name, str) or not 2 <= len(name) <= 32
                        else "EMOJI_NAME_INVALID",
                        "message": "Must be between 2 and 32 in length and contain only "
                        "alphanumeric characters and underscores.",
                    }
                ]
            }
        }
    return {}


def _taken(fake: FakeDiscord, name: str, except_id: int | None = None) -> bool:
    e = fake.app_emojis.named(name)
    return e is not None and e.id != except_id


def _name_taken() -> web.Response:
    return invalid_form(
        {
            "name": {
                "_errors": [
                    {
                        "code": "APPLICATION_EMOJI_NAME_ALREADY_TAKEN",
                        "message": "Application emoji names must be unique.",
                    }
                ]
            }
        }
    )


def _decode_image(image: Any) -> tuple[str, bytes] | JSON:
    """(format, bytes) of a ``data:`` URI, or the form errors Discord answers."""

    def bad(code: str, message: str) -> JSON:
        return {"image": {"_errors": [{"code": code, "message": message}]}}

    if not isinstance(image, str):
        return bad("BASE_TYPE_REQUIRED", "This field is required")
    m = _DATA_URI.match(image)
    if m is None:
        return bad("IMAGE_INVALID", "Invalid image data")
    try:
        data = base64.b64decode(m.group(2), validate=True)
    except (binascii.Error, ValueError):
        return bad("IMAGE_INVALID", "Invalid image data")
    if len(data) > MAX_EMOJI_BYTES:
        return bad("BINARY_TYPE_MAX_SIZE", "File cannot be larger than 256.0 kb.")
    fmt = m.group(1)
    if not any(data.startswith(magic) for magic in _MAGIC[fmt]):
        return bad("IMAGE_INVALID", "Invalid image data")
    return fmt, data


def _check_app(request: web.Request) -> web.Response | None:
    if snowflake_arg(request, "app") != fake_of(request).application_id:
        return error(403, 50001, "Missing Access")
    return None


async def emojis_route(request: web.Request) -> web.Response:
    fake = fake_of(request)
    if (denied := _check_app(request)) is not None:
        return denied
    store = fake.app_emojis
    owner = fake.bot_user.payload()
    if request.method == "GET":
        store.lists += 1
        return ok({"items": [e.payload(owner) for e in store.by_id.values()]})
    body, _ = await read_body(request)
    body = body or {}
    errors = _name_errors(body.get("name"))
    decoded = _decode_image(body.get("image"))
    if isinstance(decoded, dict):
        errors.update(decoded)
    if errors:
        return invalid_form(errors)
    assert not isinstance(decoded, dict)
    if _taken(fake, body["name"]):
        return _name_taken()
    if len(store) >= store.limit:
        return error(400, 30008, f"Maximum number of emojis reached ({store.limit})")
    fmt, data = decoded
    emoji = AppEmoji(fake.snowflakes.next(), body["name"], data, fmt, animated=fmt == "gif")
    store.by_id[emoji.id] = emoji
    store.creates += 1
    fake._notify()
    return ok(emoji.payload(owner), 201)


async def emoji_route(request: web.Request) -> web.Response:
    fake = fake_of(request)
    if (denied := _check_app(request)) is not None:
        return denied
    store = fake.app_emojis
    emoji = store.by_id.get(snowflake_arg(request, "emoji") or 0)
    if emoji is None:
        return error(404, 10014, "Unknown Emoji")
    owner = fake.bot_user.payload()
    if request.method == "GET":
        return ok(emoji.payload(owner))
    if request.method == "DELETE":
        del store.by_id[emoji.id]
        store.deletes += 1
        fake._notify()
        return no_content()
    body, _ = await read_body(request)
    body = body or {}
    if "name" in body:
        if errors := _name_errors(body["name"]):
            return invalid_form(errors)
        if _taken(fake, body["name"], emoji.id):
            return _name_taken()
        emoji.name = body["name"]
    store.edits += 1
    return ok(emoji.payload(owner))


def add_routes(r: web.UrlDispatcher) -> None:
    base = P + "/applications/{app}/emojis"
    for method in ("GET", "POST"):
        r.add_route(method, base, emojis_route)
    for method in ("GET", "PATCH", "DELETE"):
        r.add_route(method, base + "/{emoji:\\d+}", emoji_route)
