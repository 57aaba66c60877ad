"""Parsing of message components (v1 action rows and v2 layouts) and embeds into plain objects."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]

ACTION_ROW, BUTTON, STRING_SELECT, TEXT_INPUT = 1, 2, 3, 4
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
SECTION, TEXT_DISPLAY, CONTAINER, LABEL = 9, 10, 17, 18


@dataclass(frozen=True, slots=True)
class SelectOption:
    label: str
    value: str
    description: str | None = None
    default: bool = False
    emoji: str | None = None


@dataclass(slots=True)
class Component:
    """One interactive (or text) component, flattened from the raw payload."""

    type: int
    custom_id: str | None = None
    label: str | None = None
    style: int | None = None
    disabled: bool = False
    url: str | None = None
    emoji: str | None = None
    placeholder: str | None = None
    min_values: int = 1
    max_values: int = 1
    options: list[SelectOption] = field(default_factory=list)
    content: str | None = None  # text display (components v2)
    raw: JSON = field(default_factory=dict, repr=False)

    @property
    def is_button(self) -> bool:
        return self.type == BUTTON

    @property
    def is_select(self) -> bool:
        return self.type in SELECT_TYPES

    @property
    def values(self) -> list[str]:
        return [o.value for o in self.options]


@dataclass(slots=True)
class ActionRow:
    components: list[Component]

    @property
    def custom_ids(self) -> list[str | None]:
        return [c.custom_id for c in self.components]


def _emoji_str(raw: JSON | None) -> str | None:
    if not raw:
        return None
    return raw.get("name") or raw.get("id")


def parse_component(raw: JSON) -> Component:
    t = raw.get("type", 0)
    return Component(
        type=t,
        custom_id=raw.get("custom_id"),
        label=raw.get("label"),
        style=raw.get("style"),
        disabled=bool(raw.get("disabled", False)),
        url=raw.get("url"),
        emoji=_emoji_str(raw.get("emoji")),
        placeholder=raw.get("placeholder"),
        min_values=raw.get("min_values", 1),
        max_values=raw.get("max_values", 1),
        options=[
            SelectOption(
                label=o.get("label", ""),
                value=o.get("value", ""),
                description=o.get("description"),
                default=bool(o.get("default", False)),
                emoji=_emoji_str(o.get("emoji")),
            )
            for o in raw.get("options", ())
        ],
        content=raw.get("content"),
        raw=raw,
    )


def walk(raw_components: list[JSON]) -> Iterator[JSON]:
    """Depth-first over every raw component, including nested v2 layouts."""
    stack = list(reversed(raw_components))
    while stack:
        comp = stack.pop()
        yield comp
        children: list[JSON] = []
        children.extend(comp.get("components", ()))
        if "accessory" in comp:
            children.append(comp["accessory"])
        if "component" in comp:
            children.append(comp["component"])
        stack.extend(reversed(children))


def parse_rows(raw_components: list[JSON]) -> list[ActionRow]:
    """All action rows (top level for v1, anywhere for v2 layouts)."""
    return [
        ActionRow([parse_component(c) for c in comp.get("components", ())])
        for comp in walk(raw_components)
        if comp.get("type") == ACTION_ROW
    ]


def flatten(raw_components: list[JSON]) -> list[Component]:
    """Every non-layout component (buttons, selects, text inputs, text displays...)."""
    return [
        parse_component(c)
        for c in walk(raw_components)
        if c.get("type") not in (ACTION_ROW, SECTION, CONTAINER, LABEL)
    ]


def component_texts(raw_components: list[JSON]) -> Iterator[str]:
    for c in walk(raw_components):
        for key in ("label", "placeholder", "content", "title", "description"):
            value = c.get(key)
            if isinstance(value, str) and value:
                yield value
        for option in c.get("options", ()):
            yield option.get("label", "")
            if option.get("description"):
                yield option["description"]


def embed_texts(embeds: list[JSON]) -> Iterator[str]:
    for e in embeds:
        for key in ("title", "description"):
            if e.get(key):
                yield e[key]
        for sub in ("author", "footer"):
            part = e.get(sub) or {}
            text = part.get("name") or part.get("text")
            if text:
                yield text
        for f in e.get("fields", ()):
            yield f.get("name", "")
            yield f.get("value", "")
