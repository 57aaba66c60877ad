"""One path per click: every component is rebuilt from its custom id (:class:`Routed`), its
values checked, and its click goes — by its route — to the one handler registered for it;
every failure is answered by :func:`bot.ui.discord.failures.answer_error`.

A route is a verb of the table and hand components (:mod:`bot.ui.table.components`), or ``league``
and ``review`` for the paging of those messages.  The cogs register their handlers on the
bot's :class:`ClickRouter` (``bot.clicks``) when they are loaded; the bot checks at start-up
that every route has its handler (:meth:`ClickRouter.unrouted`).

Every custom id is checked before use: its template (ASCII digits only, ``[0-9]`` rather
than ``\\d``, which matches every script's digits), then its values (:meth:`Routed.parse`
raises :class:`BadCustomId`: a card for a verb that takes none, an id no database can hold…).
Such a component — left by an older version of the bot, say — is refused with one line
(:data:`UNREADABLE`), logged at DEBUG without its content; it never reaches a handler.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, Self, TypeVar, runtime_checkable

import discord

from bot import logcontext, logsafe, timely
from bot.errors import Refusal
from bot.i18n import N_, _, answering
from bot.ui.discord.failures import answer_error

log = logging.getLogger(__name__)

STARTING = N_("The bot is starting up; try again.")
UNREADABLE = N_(
    "I cannot read that button (it may be from an older version of the bot): use the slash "
    "commands, or `/spades table` for a fresh table message."
)
MAX_ID = 2**63 - 1  # the largest id a database column (signed 64-bit) holds
R = TypeVar("R")
ClickHandler = Callable[[discord.Interaction[Any], Any, list[str]], Awaitable[None]]


class BadCustomId(ValueError):
    """A custom id of a known shape whose values are not ones the bot writes."""


def snowflake(text: str) -> int:
    """An id from a custom id: ASCII digits (the template's), at most :data:`MAX_ID`."""
    value = int(text)
    if not 0 <= value <= MAX_ID:
        raise BadCustomId("an id out of range")
    return value


class Ref(Protocol):
    """What a component's custom id says: where its click goes (:attr:`route`)."""

    @property
    def route(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Unreadable:
    """The ref of a component whose custom id did not pass its checks (nothing of it kept);
    ``kind`` names the component for the log."""

    kind: str

    @property
    def route(self) -> str:
        return ""  # no handler's: refused by the router


class ClickRouter:
    """Routes → handlers.  A handler gets the interaction, the component's parsed ref and,
    for a select, the values chosen; it answers the click or raises."""

    def __init__(self) -> None:
        self._handlers: dict[str, ClickHandler] = {}

    def on(
        self,
        routes: Iterable[str],
        handler: Callable[[discord.Interaction[Any], R, list[str]], Awaitable[None]],
    ) -> None:
        for route in map(str, routes):  # a verb is its value
            if route in self._handlers:
                raise ValueError(f"two handlers for the route {route!r}")
            self._handlers[route] = handler

    def unrouted(self, routes: Iterable[str]) -> list[str]:
        """The routes among ``routes`` that no handler answers."""
        return [str(r) for r in routes if r not in self._handlers]

    async def dispatch(
        self, interaction: discord.Interaction[Any], ref: Ref, values: list[str]
    ) -> None:
        """Hand a click to the handler of its ref's route: answered in time (see
        :mod:`bot.timely`), and never left without an answer when the handler refuses or
        fails."""
        timely.guard(interaction, kind=("component", ref.route or "unreadable"))
        table_id = getattr(ref, "table_id", None)
        if isinstance(table_id, str):  # a table's component: its handling's lines name it
            logcontext.TABLE.set(table_id)
        answering(interaction)  # every answer to the click in the clicker's language
        data: dict[str, Any] = dict(interaction.data or {})
        shown = logsafe.custom_id(data.get("custom_id"))  # a card it carries is not logged
        log.debug("component %s from user %s", shown, interaction.user.id)
        try:
            if isinstance(ref, Unreadable):
                log.debug("refused a %s component whose custom id does not check out", ref.kind)
                raise Refusal(_(UNREADABLE))
            handler = self._handlers.get(ref.route)
            if handler is None:
                raise Refusal(_(STARTING))
            await handler(interaction, ref, values)
        except Exception as e:
            await answer_error(interaction, e)
        finally:
            timely.release(interaction)


@runtime_checkable
class Routing(Protocol):
    """A client that routes clicks (the bot)."""

    @property
    def clicks(self) -> ClickRouter: ...


_NOWHERE = ClickRouter()  # a client without routes: every click is told to try again


async def route_click(interaction: discord.Interaction[Any], ref: Ref, values: list[str]) -> None:
    """The click of a component, to the handler of its route on the interaction's client."""
    client = interaction.client
    router = client.clicks if isinstance(client, Routing) else _NOWHERE
    await router.dispatch(interaction, ref, values)


class Routed(discord.ui.DynamicItem[discord.ui.Item[Any]], template=r"(?!)"):
    """A component rebuilt from its custom id alone, whose click goes to the handler of its
    ref's route.  Subclasses give the ``template``, the ``routes`` it can lead to, and
    ``parse`` (match → ref, its values checked)."""

    routes: ClassVar[tuple[str, ...]] = ()

    def __init__(self, ref: Ref, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)
        self.ref = ref

    @classmethod
    def parse(cls, match: re.Match[str]) -> Ref:
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
            ref = Unreadable(cls.__name__)
        return cls(ref, item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = list(self.item.values) if isinstance(self.item, discord.ui.Select) else []
        try:
            await route_click(interaction, self.ref, values)
        finally:
            # discord.py rebuilt the clicked message's whole view to find this item and keeps
            # it nowhere: taken apart, it is freed at once (see bot.disposal).
            if self.view is not None:
                self.view.clear_items()


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
    await route_click(interaction, Unreadable("unknown"), [])
