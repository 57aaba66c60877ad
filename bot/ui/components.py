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
    spades:lg:<view>:<user>:<subject>:<season>:<sort>:<page>  league paging (league_components)
    spades:rv:<kind>:<key>[:<page>]                     reviews (review_components)

Every custom id is checked before use: its template (ASCII digits only, ``[0-9]`` rather
than ``\\d``, which matches every script's digits), then its values (:meth:`Routed.parse`
raises :class:`BadCustomId`: a card for a verb that takes none, an id no database can hold…).
Such a component — left by an older version of the bot, say — is refused with one line
(:data:`UNREADABLE`), logged at DEBUG without its content; it never reaches a cog.
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
SEATED_VERBS = ("claimon",)  # table verbs that need a seat (``join`` may have one)
CARD_VERBS = ("play", "discard")  # hand verbs that need a card code
CALL_VERBS = ("call",)  # hand verbs that need a call (pass, order[+], a suit[+])
_CARD = re.compile(r"[2-9TJQKA][SHDC]|BJ|LJ")
_CALL = re.compile(r"pass|order\+?|[SHDC]\+?")
UNREADABLE = (
    "I cannot read that button (it may be from an older version of the bot): use the slash "
    "commands, or `/spades table` for a fresh table message."
)
MAX_ID = 2**63 - 1  # the largest id a database column (signed 64-bit) holds


class BadCustomId(ValueError):
    """A custom id of a known shape whose values are not ones the bot writes."""


@dataclass(frozen=True, slots=True)
class Unreadable:
    """The ref of a component whose custom id did not pass its checks (nothing of it kept)."""

    kind: str


def snowflake(text: str) -> int:
    """An id from a custom id: ASCII digits (the template's), at most :data:`MAX_ID`."""
    value = int(text)
    if not 0 <= value <= MAX_ID:
        raise BadCustomId("an id out of range")
    return value


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
        """Never raises (discord.py would log a traceback and leave the click unanswered): a
        custom id whose values do not check out gives an :class:`Unreadable` ref."""
        try:
            ref = cls.parse(match)
        except (ValueError, KeyError):  # BadCustomId, and any conversion the parse makes
            ref = Unreadable(cls.kind)
        return cls(ref, item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = list(self.item.values) if isinstance(self.item, discord.ui.Select) else []
        try:
            if isinstance(self.ref, Unreadable):
                await refuse_unreadable(interaction, self.ref.kind)
                return
            await dispatch(interaction, self.kind, self.ref, values)
        finally:
            # discord.py rebuilt the clicked message's whole view to find this item and keeps
            # it nowhere: taken apart, it is freed at once (see bot.ui.disposal).
            if self.view is not None:
                self.view.clear_items()


async def refuse_unreadable(interaction: discord.Interaction[Any], kind: str) -> None:
    """Answer a component whose custom id does not check out: one line, only to the clicker;
    the log says what kind it was, never its content."""
    timely.guard(interaction)
    log.debug("refused a %s component whose custom id does not check out", kind)
    try:
        with contextlib.suppress(discord.HTTPException):
            await timely.answer(interaction, UNREADABLE)
    finally:
        timely.release(interaction)


async def refuse_unknown(
    interaction: discord.Interaction[Any], items: tuple[type[Routed], ...]
) -> None:
    """A click on one of our components (``spades:…``) whose custom id fits none of
    ``items``' templates — a button of an older version, say — gets :data:`UNREADABLE`
    instead of no answer at all (discord.py drops it)."""
    if interaction.type is not discord.InteractionType.component:
        return
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = data.get("custom_id")
    if not isinstance(custom_id, str) or not custom_id.startswith("spades:"):
        return
    if any(item.__discord_ui_compiled_template__.fullmatch(custom_id) for item in items):
        return
    await refuse_unreadable(interaction, "unknown")


_TABLE_TEMPLATE = (
    rf"spades:t:(?P<table>[a-z0-9]{{1,16}}):(?P<verb>{'|'.join(TABLE_VERBS)})"
    r"(?::(?P<seat>[NESW]))?"
)
_HAND_TEMPLATE = (
    r"spades:t:(?P<table>[a-z0-9]{1,16}):(?P<verb>play|blind|look|refresh|call|discard)"
    r":(?P<seat>[NESW]):(?P<hand>[0-9]{1,4})"
    r"(?::(?P<card>[2-9TJQKA][SHDC]|BJ|LJ|pass|order\+?|[SHDC]\+?))?"
)
_WATCH_TEMPLATE = rf"spades:t:(?P<table>[a-z0-9]{{1,16}}):(?P<verb>{'|'.join(WATCH_VERBS)})"
_HINT_TEMPLATE = (
    rf"spades:t:(?P<table>[a-z0-9]{{1,16}}):(?P<verb>{HINT_VERB})"
    r":(?P<seat>[NESW]):(?P<hand>[0-9]{1,4})"
)
_SELECT_TEMPLATE = (
    r"spades:t:(?P<table>[a-z0-9]{1,16}):(?P<verb>bid|pass):(?P<seat>[NESW])"
    r":(?P<hand>[0-9]{1,4})"
)


def _ref(match: re.Match[str]) -> ComponentRef:
    """The ref of a table or hand component, its values checked against its verb: a seat
    where the verb needs one (and only for ``join``/``claimon``), a card code for a play or
    a discard, a call for a call, nothing else for the others."""
    g = match.groupdict()
    verb, seat, hand, card = g["verb"], g.get("seat"), g.get("hand"), g.get("card")
    if hand is None:  # a table message's button
        if (verb in SEATED_VERBS) != (seat is not None) and verb != "join":
            raise BadCustomId("a seat where the verb takes none, or none where it needs one")
    elif verb in CARD_VERBS:
        if card is None or not _CARD.fullmatch(card):
            raise BadCustomId("a play or discard without a card")
    elif verb in CALL_VERBS:
        if card is None or not _CALL.fullmatch(card):
            raise BadCustomId("a call without a call")
    elif card is not None:
        raise BadCustomId("a card where the verb takes none")
    return ComponentRef(
        g["table"],
        verb,
        Seat[seat] if seat else None,
        int(hand) if hand else None,
        card,
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
