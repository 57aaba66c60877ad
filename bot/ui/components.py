"""Buttons and selects whose ``custom_id`` carries everything needed to act on them.

Every component is a :class:`discord.ui.DynamicItem`, registered once at start-up, so clicks
on messages sent before a restart still work and no view objects are kept in memory.

Custom ids (≤ 100 chars, never a card of a hidden hand except on its owner's own ephemeral
message; logged only through :func:`bot.logsafe.custom_id`, which masks the card)::

    spades:t:<table>:<verb>[:<seat>]                    table message: join/addbot/leave/...,
                                                        game over: again (Play again)
    spades:t:<table>:<verb>:<seat>:<hand>[:<card>]      a player's private hand message
    spades:t:<table>:watch|rewatch|unwatch              spectators (table message, own view)
    spades:t:<table>:hint:<seat>:<hand>                 a player's Hint button (hints: on)
    spades:lb:<kind>:<user>:<season>:<sort>:<page>      league paging (see cogs/league.py)
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Self

import discord

from bot import logsafe, timely
from bot.engine import Seat, SpadesError
from bot.errors import Refusal

log = logging.getLogger(__name__)

TABLE_VERBS = (
    "join",
    "addbot",
    "leave",
    "start",
    "rules",
    "hand",
    "agree",
    "keep",
    "again",
    "claim",
    "claimon",
)
HAND_VERBS = ("play", "blind", "look", "refresh", "bid", "pass", "call", "discard")
# Spectators: Watch on the table message; Refresh and Stop on a spectator's own message.
WATCH_VERBS = ("watch", "rewatch", "unwatch")
HINT_VERB = "hint"  # a player's hand: the hard player's choice for them now (hints: on)


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
    """Hand a click to its cog: answered in time (see :mod:`bot.timely`), and never left
    without an answer when the cog refuses or fails."""
    timely.guard(interaction)
    data: dict[str, Any] = dict(interaction.data or {})
    shown = logsafe.custom_id(data.get("custom_id"))  # a card it carries is not logged
    log.debug("component %s from user %s", shown, interaction.user.id)
    handler = _handlers.get(kind)
    try:
        if handler is None:
            raise Refusal("The bot is starting up; try again.")
        await handler(interaction, *args)
    except (Refusal, SpadesError) as e:
        with contextlib.suppress(discord.HTTPException):
            await timely.answer(interaction, e.reason)
    except Exception:
        log.exception("component %s failed", shown)
        with contextlib.suppress(discord.HTTPException):
            await timely.answer(interaction, "Sorry, something went wrong on my side. Try again.")
    finally:
        timely.release(interaction)


class Routed(discord.ui.DynamicItem[discord.ui.Item[Any]], template=r"(?!)"):
    """A component rebuilt from its custom id alone, whose click goes to the cog registered
    for ``kind``.  Subclasses give the ``template`` and ``parse`` (match → ref)."""

    kind: ClassVar[str] = "table"

    def __init__(self, ref: Any, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)
        self.ref = ref

    @staticmethod
    def parse(match: re.Match[str]) -> Any:
        raise NotImplementedError

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(cls.parse(match), item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = list(self.item.values) if isinstance(self.item, discord.ui.Select) else []
        try:
            await dispatch(interaction, self.kind, self.ref, values)
        finally:
            # discord.py rebuilt the clicked message's whole view to find this item and keeps
            # it nowhere: taken apart, it is freed at once (see bot.ui.disposal).
            if self.view is not None:
                self.view.clear_items()


_TABLE_TEMPLATE = (
    rf"spades:t:(?P<table>[a-z0-9]{{1,16}}):(?P<verb>{'|'.join(TABLE_VERBS)})"
    r"(?::(?P<seat>[NESW]))?"
)
_HAND_TEMPLATE = (
    r"spades:t:(?P<table>[a-z0-9]{1,16}):(?P<verb>play|blind|look|refresh|call|discard)"
    r":(?P<seat>[NESW]):(?P<hand>\d{1,4})"
    r"(?::(?P<card>[2-9TJQKA][SHDC]|BJ|LJ|pass|order\+?|[SHDC]\+?))?"
)
_WATCH_TEMPLATE = rf"spades:t:(?P<table>[a-z0-9]{{1,16}}):(?P<verb>{'|'.join(WATCH_VERBS)})"
_HINT_TEMPLATE = (
    rf"spades:t:(?P<table>[a-z0-9]{{1,16}}):(?P<verb>{HINT_VERB})"
    r":(?P<seat>[NESW]):(?P<hand>\d{1,4})"
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


class TableButton(Routed, template=_TABLE_TEMPLATE):
    parse = staticmethod(_ref)


class HandButton(Routed, template=_HAND_TEMPLATE):
    parse = staticmethod(_ref)


class HandSelect(Routed, template=_SELECT_TEMPLATE):
    parse = staticmethod(_ref)


class WatchButton(Routed, template=_WATCH_TEMPLATE):
    kind = "watch"
    parse = staticmethod(_ref)


class HintButton(Routed, template=_HINT_TEMPLATE):
    kind = "hint"
    parse = staticmethod(_ref)


def button(
    ref: ComponentRef,
    label: str,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    *,
    emoji: str | discord.PartialEmoji | None = None,
    disabled: bool = False,
    row: int | None = None,
) -> Routed:
    b: discord.ui.Button[Any] = discord.ui.Button(
        custom_id=ref.custom_id, label=label, style=style, emoji=emoji, disabled=disabled, row=row
    )
    if ref.verb in TABLE_VERBS:
        return TableButton(ref, b)
    if ref.verb in WATCH_VERBS:
        return WatchButton(ref, b)
    if ref.verb == HINT_VERB:
        return HintButton(ref, b)
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


DYNAMIC_ITEMS = (TableButton, HandButton, HandSelect, WatchButton, HintButton)
