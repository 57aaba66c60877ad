"""A message's buttons and selects as plain data, encoded two ways from one description: as a
discord.py ``View`` (for interaction answers) or as Discord's component JSON (for live edits of
hand messages, which go out several times a second and need not pay for discord.py's item
objects: building the View of a hand costs far more than its JSON)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from bot.ui.table.components import ComponentRef, button, select

ACTION_ROW, BUTTON, STRING_SELECT = 1, 2, 3


@dataclass(frozen=True, slots=True)
class Option:
    label: str
    value: str
    default: bool = False


@dataclass(frozen=True, slots=True)
class Control:
    """A button, or a select when ``options`` is given; ``row`` 0–4."""

    ref: ComponentRef
    label: str
    row: int
    style: discord.ButtonStyle = discord.ButtonStyle.secondary
    emoji: str | discord.PartialEmoji | None = None
    options: tuple[Option, ...] = ()
    min_values: int = 1
    max_values: int = 1


def controls_view(controls: list[Control]) -> discord.ui.View:
    v = discord.ui.View(timeout=None)
    for c in controls:
        if c.options:
            options = [discord.SelectOption(label=o.label, value=o.value, default=o.default)
                       for o in c.options]  # fmt: skip
            v.add_item(
                select(
                    c.ref,
                    options,
                    c.label,
                    min_values=c.min_values,
                    max_values=c.max_values,
                    row=c.row,
                )
            )
        else:
            v.add_item(button(c.ref, c.label, c.style, emoji=c.emoji, row=c.row))
    return v


def controls_json(controls: list[Control]) -> list[dict[str, Any]]:
    """The same as :func:`controls_view` would send: action rows in row order."""
    rows: dict[int, list[dict[str, Any]]] = {}
    for c in controls:
        item: dict[str, Any]
        if c.options:
            item = {
                "type": STRING_SELECT,
                "custom_id": c.ref.custom_id,
                "placeholder": c.label,
                "min_values": c.min_values,
                "max_values": c.max_values,
                "options": [
                    {"label": o.label, "value": o.value, "default": o.default} for o in c.options
                ],
            }
        else:
            item = {
                "type": BUTTON,
                "style": c.style.value,
                "label": c.label,
                "custom_id": c.ref.custom_id,
            }
            if isinstance(c.emoji, discord.PartialEmoji):
                item["emoji"] = {"name": c.emoji.name, "id": str(c.emoji.id)}
            elif c.emoji is not None:
                item["emoji"] = {"name": c.emoji}
        rows.setdefault(c.row, []).append(item)
    return [{"type": ACTION_ROW, "components": rows[r]} for r in sorted(rows)]
