"""Buttons and selects of the table and hand messages, whose ``custom_id`` carries everything
needed to act on them.

Every component is a :class:`discord.ui.DynamicItem` (:class:`bot.ui.discord.clicks.Routed`),
registered once at start-up, so clicks on messages sent before a restart still work and no
view objects are kept in memory.

A verb is written once, in its family's enum below: the family's template (the pattern
discord.py matches a click's custom id against) is built from it, the values it takes are
checked from it (:data:`SEATED`, :data:`CARDS`, :data:`CALLS`), :func:`button` and
:func:`select` pick the family's item from it, and a click reaches the one handler
registered for its verb (:class:`bot.ui.discord.clicks.ClickRouter`).

Custom ids (≤ 100 chars, never a card of a hidden hand except on its owner's own ephemeral
message; logged only through :func:`bot.logsafe.custom_id`, which masks the card)::

    spades:t:<table>:<verb>[:<seat>]                    table message (TableVerb): join,
                                                        addbot, leave, …; game over: again
    spades:t:<table>:<verb>:<seat>:<hand>[:<card>]      a player's private hand message:
                                                        buttons (HandVerb), selects (MenuVerb)
    spades:t:<table>:<verb>                             spectators (WatchVerb): watch on the
                                                        table message, rewatch/unwatch on a
                                                        spectator's own view
    spades:t:<table>:hint:<seat>:<hand>                 a player's Hint button (HintVerb)
    spades:lg:<view>:<user>:<subject>:<season>:<sort>:<page>  league paging (league/components)
    spades:rv:<kind>:<key>[:<page>]                     reviews (review/review_components)
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Any, ClassVar, Final

import discord

from bot.engine import Seat
from bot.ui.discord.clicks import BadCustomId, Routed


class TableVerb(enum.StrEnum):
    """Buttons of the table message (and of the game-over message: ``again``)."""

    JOIN = "join"
    ADDBOT = "addbot"
    LEAVE = "leave"
    START = "start"
    RULES = "rules"
    HAND = "hand"
    AGREE = "agree"
    KEEP = "keep"
    AGAIN = "again"
    CLAIM = "claim"
    CLAIMON = "claimon"


class HandVerb(enum.StrEnum):
    """Buttons of a player's private hand message."""

    PLAY = "play"
    BLIND = "blind"
    LOOK = "look"
    REFRESH = "refresh"
    CALL = "call"
    DISCARD = "discard"


class MenuVerb(enum.StrEnum):
    """Selects of a player's private hand message."""

    BID = "bid"
    PASS = "pass"  # noqa: S105 - passing cards, not a password


class WatchVerb(enum.StrEnum):
    """Spectators: **Watch** on the table message; **Refresh** and **Stop watching** on a
    spectator's own view (bot.tables.spectators)."""

    WATCH = "watch"
    REWATCH = "rewatch"
    UNWATCH = "unwatch"


class HintVerb(enum.StrEnum):
    """A player's hand at a table with ``hints: on``: the hard player's choice for them now."""

    HINT = "hint"


Verb = TableVerb | HandVerb | MenuVerb | WatchVerb | HintVerb
SEATED: Final = frozenset({TableVerb.CLAIMON})  # need a seat (``join`` may have one)
CARDS: Final = frozenset({HandVerb.PLAY, HandVerb.DISCARD})  # need a card code
CALLS: Final = frozenset({HandVerb.CALL})  # need a call: pass, order[+], a suit[+]
_CARD = re.compile(r"[2-9TJQKA][SHDC]|BJ|LJ")
_CALL = re.compile(r"pass|order\+?|[SHDC]\+?")


@dataclass(frozen=True, slots=True)
class ComponentRef:
    """A parsed custom id: which table, what to do, and for private components whose."""

    table_id: str
    verb: Verb
    seat: Seat | None = None
    hand: int | None = None
    card: str | None = None

    @property
    def route(self) -> str:
        return self.verb.value

    @property
    def custom_id(self) -> str:
        text = f"spades:t:{self.table_id}:{self.verb}"  # a StrEnum: formatted as its value
        if self.seat is not None:
            text += _SEAT_LETTERS[self.seat]
        if self.hand is not None:
            text += f":{self.hand}"
        if self.card is not None:
            text += f":{self.card}"
        return text


_SEAT_LETTERS: Final = tuple(f":{s.name}" for s in Seat)  # by seat: cheaper than an enum's name


class VerbItem(Routed, template=r"(?!)"):
    """The items of one verb family: the verb in the custom id is one of ``verbs``, and it is
    the click's route."""

    verbs: ClassVar[type[enum.StrEnum]]

    @classmethod
    def parse(cls, match: re.Match[str]) -> ComponentRef:
        """The ref, its values checked against its verb: a seat where the verb needs one (and
        only for ``join``/``claimon``), a card code for a play or a discard, a call for a
        call, nothing else for the others."""
        g = match.groupdict()
        verb = cls.verbs(g["verb"])
        assert isinstance(verb, TableVerb | HandVerb | MenuVerb | WatchVerb | HintVerb)
        seat, hand, card = g.get("seat"), g.get("hand"), g.get("card")
        if isinstance(verb, TableVerb):
            if (verb in SEATED) != (seat is not None) and verb is not TableVerb.JOIN:
                raise BadCustomId("a seat where the verb takes none, or none where it needs one")
        elif verb in CARDS:
            if card is None or not _CARD.fullmatch(card):
                raise BadCustomId("a play or discard without a card")
        elif verb in CALLS:
            if card is None or not _CALL.fullmatch(card):
                raise BadCustomId("a call without a call")
        elif card is not None:
            raise BadCustomId("a card where the verb takes none")
        return ComponentRef(
            g["table"], verb, Seat[seat] if seat else None, int(hand) if hand else None, card
        )


def _either(verbs: type[enum.StrEnum]) -> str:
    return "|".join(re.escape(v.value) for v in verbs)


_TABLE = r"spades:t:(?P<table>[a-z0-9]{1,16})"
_PRIVATE = r":(?P<seat>[NESW]):(?P<hand>[0-9]{1,4})"
_CARD_PART = r"(?::(?P<card>[2-9TJQKA][SHDC]|BJ|LJ|pass|order\+?|[SHDC]\+?))?"


class TableButton(
    VerbItem, template=rf"{_TABLE}:(?P<verb>{_either(TableVerb)})(?::(?P<seat>[NESW]))?"
):
    verbs = TableVerb
    routes = tuple(TableVerb)


class HandButton(
    VerbItem, template=rf"{_TABLE}:(?P<verb>{_either(HandVerb)}){_PRIVATE}{_CARD_PART}"
):
    verbs = HandVerb
    routes = tuple(HandVerb)


class HandSelect(VerbItem, template=rf"{_TABLE}:(?P<verb>{_either(MenuVerb)}){_PRIVATE}"):
    verbs = MenuVerb
    routes = tuple(MenuVerb)


class WatchButton(VerbItem, template=rf"{_TABLE}:(?P<verb>{_either(WatchVerb)})"):
    verbs = WatchVerb
    routes = tuple(WatchVerb)


class HintButton(VerbItem, template=rf"{_TABLE}:(?P<verb>{_either(HintVerb)}){_PRIVATE}"):
    verbs = HintVerb
    routes = tuple(HintVerb)


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
    if isinstance(ref.verb, TableVerb):
        return TableButton(ref, b)
    if isinstance(ref.verb, WatchVerb):
        return WatchButton(ref, b)
    if isinstance(ref.verb, HintVerb):
        return HintButton(ref, b)
    assert isinstance(ref.verb, HandVerb), f"{ref.verb} is a select's verb"
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
    assert isinstance(ref.verb, MenuVerb), f"{ref.verb} is a button's verb"
    s: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=ref.custom_id,
        options=options,
        placeholder=placeholder,
        min_values=min_values,
        max_values=max_values,
        row=row,
    )
    return HandSelect(ref, s)


DYNAMIC_ITEMS: tuple[type[Routed], ...] = (
    TableButton,
    HandButton,
    HandSelect,
    WatchButton,
    HintButton,
)
