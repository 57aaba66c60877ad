"""Buttons and selects whose ``custom_id`` carries everything needed to act on them.

Every component is a :class:`discord.ui.DynamicItem`, registered once at start-up, so clicks
on messages sent before a restart still work and no view objects are kept in memory.

Custom ids (≤ 100 chars, never a card of a hidden hand except on its owner's own ephemeral
message)::

    spades:t:<table>:<verb>[:<seat>]                    table message: join/addbot/leave/...
    spades:t:<table>:<verb>:<seat>:<hand>[:<card>]      a player's private hand message
    spades:lb:<kind>:<user>:<season>:<sort>:<page>      league paging (see cogs/league.py)
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.engine import Seat

TABLE_VERBS = ("join", "addbot", "leave", "start", "rules", "hand")
HAND_VERBS = ("play", "blind", "look", "refresh", "bid", "pass")


@dataclass(frozen=True, slots=True)
class ComponentRef:
    """A parsed custom id: which table, what to do, and for private components whose."""

    table_id: str
    verb: str
    seat: Seat | None = None
    hand: int | None = None
    card: str | None = None

    @property
    def custom_id(self) -> str:
        parts = ["spades", "t", self.table_id, self.verb]
        if self.seat is not None:
            parts.append(self.seat.name)
        if self.hand is not None:
            parts.append(str(self.hand))
        if self.card is not None:
            parts.append(self.card)
        return ":".join(parts)


Handler = Callable[[discord.Interaction[Any], ComponentRef, list[str]], Awaitable[None]]
_handlers: dict[str, Any] = {}


def set_handler(handler: Callable[..., Awaitable[None]], kind: str = "table") -> None:
    """The cog that answers a kind of component (``table``, ``league``) registers here."""
    _handlers[kind] = handler


async def dispatch(interaction: discord.Interaction[Any], kind: str, *args: Any) -> None:
    handler = _handlers.get(kind)
    if handler is None:
        await interaction.response.send_message(
            "The bot is starting up; try again.", ephemeral=True
        )
        return
    await handler(interaction, *args)


async def _dispatch(
    interaction: discord.Interaction[Any], ref: ComponentRef, values: list[str]
) -> None:
    await dispatch(interaction, "table", ref, values)


_TABLE_TEMPLATE = (
    r"spades:t:(?P<table>[a-z0-9]{1,16}):(?P<verb>join|addbot|leave|start|rules|hand)"
    r"(?::(?P<seat>[NESW]))?"
)
_HAND_TEMPLATE = (
    r"spades:t:(?P<table>[a-z0-9]{1,16}):(?P<verb>play|blind|look|refresh):(?P<seat>[NESW])"
    r":(?P<hand>\d{1,4})(?::(?P<card>[2-9TJQKA][SHDC]|BJ|LJ))?"
)
_SELECT_TEMPLATE = (
    r"spades:t:(?P<table>[a-z0-9]{1,16}):(?P<verb>bid|pass):(?P<seat>[NESW]):(?P<hand>\d{1,4})"
)


def _ref(match: re.Match[str]) -> ComponentRef:
    g = match.groupdict()
    return ComponentRef(
        g["table"],
        g["verb"],
        Seat[g["seat"]] if g.get("seat") else None,
        int(g["hand"]) if g.get("hand") else None,
        g.get("card"),
    )


class TableButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=_TABLE_TEMPLATE):
    def __init__(self, ref: ComponentRef, button: discord.ui.Button[Any] | None = None) -> None:
        super().__init__(button or discord.ui.Button(custom_id=ref.custom_id, label=ref.verb))
        self.ref = ref

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TableButton:
        assert isinstance(item, discord.ui.Button)
        return cls(_ref(match), item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _dispatch(interaction, self.ref, [])


class HandButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=_HAND_TEMPLATE):
    def __init__(self, ref: ComponentRef, button: discord.ui.Button[Any] | None = None) -> None:
        super().__init__(button or discord.ui.Button(custom_id=ref.custom_id, label=ref.verb))
        self.ref = ref

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HandButton:
        assert isinstance(item, discord.ui.Button)
        return cls(_ref(match), item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _dispatch(interaction, self.ref, [])


class HandSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=_SELECT_TEMPLATE):
    def __init__(self, ref: ComponentRef, select: discord.ui.Select[Any] | None = None) -> None:
        super().__init__(select or discord.ui.Select(custom_id=ref.custom_id, options=[]))
        self.ref = ref

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> HandSelect:
        assert isinstance(item, discord.ui.Select)
        return cls(_ref(match), item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _dispatch(interaction, self.ref, list(self.item.values))


def button(
    ref: ComponentRef,
    label: str,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    *,
    emoji: str | None = None,
    disabled: bool = False,
    row: int | None = None,
) -> discord.ui.DynamicItem[discord.ui.Button[Any]]:
    b: discord.ui.Button[Any] = discord.ui.Button(
        custom_id=ref.custom_id, label=label, style=style, emoji=emoji, disabled=disabled, row=row
    )
    if ref.verb in TABLE_VERBS:
        return TableButton(ref, b)
    return HandButton(ref, b)


def select(
    ref: ComponentRef,
    options: list[discord.SelectOption],
    placeholder: str,
    *,
    min_values: int = 1,
    max_values: int = 1,
    row: int | None = None,
) -> HandSelect:
    s: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=ref.custom_id,
        options=options,
        placeholder=placeholder,
        min_values=min_values,
        max_values=max_values,
        row=row,
    )
    return HandSelect(ref, s)


DYNAMIC_ITEMS = (TableButton, HandButton, HandSelect)
