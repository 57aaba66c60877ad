"""Discord-like validation of message bodies, so oversize content/embeds/components fail loudly.

Returns a dict of errors in Discord's ``50035 Invalid Form Body`` style (empty when valid).
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from .components import ACTION_ROW, BUTTON, SELECT_TYPES, walk

JSON = dict[str, Any]


def _err(errors: JSON, path: str, message: str) -> None:
    errors[path] = {"_errors": [{"code": "BASE_TYPE_BAD_LENGTH", "message": message}]}


def validate_message(data: JSON, emoji_ids: Collection[int] | None = None) -> JSON:
    """``emoji_ids``: the custom emojis the bot may use (component emojis are checked)."""
    errors: JSON = {}
    content = data.get("content")
    if isinstance(content, str) and len(content) > 2000:
        _err(errors, "content", f"Must be 2000 or fewer in length (got {len(content)}).")
    embeds = data.get("embeds") or []
    if len(embeds) > 10:
        _err(errors, "embeds", "Must be 10 or fewer in length.")
    total = 0
    for i, e in enumerate(embeds):
        limits = (("title", 256), ("description", 4096))
        for key, limit in limits:
            value = e.get(key) or ""
            total += len(value)
            if len(value) > limit:
                _err(errors, f"embeds.{i}.{key}", f"Must be {limit} or fewer in length.")
        fields = e.get("fields") or []
        if len(fields) > 25:
            _err(errors, f"embeds.{i}.fields", "Must be 25 or fewer in length.")
        for j, f in enumerate(fields):
            name, value = f.get("name") or "", f.get("value") or ""
            total += len(name) + len(value)
            if not name or len(name) > 256:
                _err(errors, f"embeds.{i}.fields.{j}.name", "Must be between 1 and 256 in length.")
            if not value or len(value) > 1024:
                _err(errors, f"embeds.{i}.fields.{j}.value", "Must be between 1 and 1024.")
        total += len((e.get("footer") or {}).get("text") or "")
        total += len((e.get("author") or {}).get("name") or "")
    if total > 6000:
        _err(errors, "embeds", f"Embed size exceeds maximum size of 6000 (got {total}).")
    components = data.get("components") or []
    if components:
        _validate_components(components, errors, v2=bool((data.get("flags") or 0) & (1 << 15)))
        if emoji_ids is not None:
            _validate_emojis(components, errors, emoji_ids)
    return errors


def _validate_components(components: list[JSON], errors: JSON, *, v2: bool) -> None:
    if not v2 and len(components) > 5:
        _err(errors, "components", "Must be 5 or fewer in length.")
    seen: set[str] = set()
    for i, comp in enumerate(walk(components)):
        ctype = comp.get("type")
        if ctype == ACTION_ROW:
            children = comp.get("components") or []
            buttons = sum(1 for c in children if c.get("type") == BUTTON)
            selects = sum(1 for c in children if c.get("type") in SELECT_TYPES)
            if not children or buttons > 5 or (selects and (selects > 1 or buttons)):
                _err(errors, f"components.{i}", "Invalid action row contents.")
        custom_id = comp.get("custom_id")
        if custom_id is not None:
            if not 1 <= len(custom_id) <= 100:
                _err(errors, f"components.{i}.custom_id", "Must be between 1 and 100 in length.")
            if custom_id in seen:
                _err(errors, f"components.{i}.custom_id", "Component custom id must be unique")
            seen.add(custom_id)
        label = comp.get("label")
        if ctype == BUTTON and label is not None and len(label) > 80:
            _err(errors, f"components.{i}.label", "Must be 80 or fewer in length.")
        if ctype in SELECT_TYPES:
            options = comp.get("options") or []
            if len(options) > 25 or (ctype == 3 and not options):
                _err(errors, f"components.{i}.options", "Must be between 1 and 25 in length.")
            for o in options:
                if len(o.get("label", "")) > 100 or len(o.get("value", "")) > 100:
                    _err(errors, f"components.{i}.options", "Option too long.")


def _validate_emojis(components: list[JSON], errors: JSON, emoji_ids: Collection[int]) -> None:
    for i, comp in enumerate(walk(components)):
        emojis = [comp.get("emoji")] + [o.get("emoji") for o in comp.get("options") or []]
        for emoji in emojis:
            if emoji and emoji.get("id") is not None and int(emoji["id"]) not in emoji_ids:
                errors[f"components.{i}.emoji.id"] = {
                    "_errors": [{"code": "COMPONENT_INVALID_EMOJI", "message": "Invalid emoji"}]
                }


def validate_choices(choices: list[JSON]) -> JSON:
    errors: JSON = {}
    if len(choices) > 25:
        _err(errors, "data.choices", "Must be 25 or fewer in length.")
    for i, c in enumerate(choices):
        if not 1 <= len(str(c.get("name", ""))) <= 100:
            _err(errors, f"data.choices.{i}.name", "Must be between 1 and 100 in length.")
    return errors
