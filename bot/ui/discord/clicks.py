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

The bot routes its components' clicks as they come off the gateway
(:func:`route_from_the_gateway`), without discord.py's rebuilding of the clicked message's
view; :class:`Routed` is still a discord.py dynamic item, so a client that leaves the routing
to discord.py (``add_dynamic_items``) reaches the same handlers the same way.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, Self, TypeVar

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
OURS = "spades:"  # every custom id the bot writes starts so
COMPONENT, STRING_SELECT = 3, 3  # an interaction's type; a component's type (a string select)
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
        if log.isEnabledFor(logging.DEBUG):
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


_NOWHERE = ClickRouter()  # a client without routes: every click is told to try again


async def route_click(interaction: discord.Interaction[Any], ref: Ref, values: list[str]) -> None:
    """The click of a component, to the handler of its route on the interaction's client
    (its ``clicks``: the bot's :class:`ClickRouter`)."""
    router = getattr(interaction.client, "clicks", None)  # not a runtime Protocol check:
    if not isinstance(router, ClickRouter):  # that walks the protocol, tens of µs a click
        router = _NOWHERE
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


_routing: set[asyncio.Task[None]] = set()  # strong references to the clicks being routed


def route_from_the_gateway(client: discord.Client, items: tuple[type[Routed], ...]) -> None:
    """Route the clicks on our components (``spades:…``) as they come off the gateway.

    discord.py would find a click's item by rebuilding the clicked message's whole view —
    every button of a hand, each an object — to swap one for its :class:`Routed`: the most
    costly part of its way to the handler, for a ref the custom id alone gives.  Here the
    INTERACTION_CREATE of a component goes straight to its route (:func:`route_click`), in one
    task, when its custom id fits one of ``items``' templates and the clicked message carries
    that component — the clicks discord.py would have routed, and no others; one of ours that
    fits no template (a button of an older version) is refused with :data:`UNREADABLE` rather
    than left unanswered.  Every other interaction goes the way of discord.py as before, and
    the ``interaction`` event is dispatched for every one.

    The ``interaction.message`` of a click routed here has the clicked message's id, author,
    flags and content, but no embeds or components: the bot reads only its id."""
    state: Any = client._connection  # its gateway parsers: INTERACTION_CREATE's is replaced
    parse_as_before = state.parsers["INTERACTION_CREATE"]
    templates = [(item.__discord_ui_compiled_template__, item) for item in items]

    def parse(data: Any) -> None:
        inner = data.get("data") or {}
        custom_id = inner.get("custom_id")
        if data.get("type") != COMPONENT or not isinstance(custom_id, str):
            parse_as_before(data)
            return
        if not custom_id.startswith(OURS):
            parse_as_before(data)
            return
        kind = inner.get("component_type")
        ref: Ref | None = None
        for template, item in templates:
            match = template.fullmatch(custom_id)
            if match is not None:
                if not _carries(data.get("message"), kind, custom_id):
                    ref = None  # as discord.py: a component not on the message is dropped
                    break
                try:
                    ref = item.parse(match)
                except (ValueError, KeyError):  # as Routed.from_custom_id
                    ref = Unreadable(item.__name__)
                break
        else:
            ref = Unreadable("unknown")
        message = data.get("message")
        if isinstance(message, dict):
            # Of the clicked message the bot reads its id alone (is it the table message, is
            # there one to update): its embeds and components — a hand's dozen buttons — are
            # not made into discord.py objects for nothing.
            message["embeds"], message["components"] = [], []
        interaction: discord.Interaction[Any] = discord.Interaction(data=data, state=state)
        if ref is not None:
            values = [str(v) for v in inner.get("values", ())] if kind == STRING_SELECT else []
            task = asyncio.create_task(route_click(interaction, ref, values))
            _routing.add(task)
            task.add_done_callback(_routing.discard)
        state.dispatch("interaction", interaction)

    state.parsers["INTERACTION_CREATE"] = parse


def _carries(message: Any, kind: object, custom_id: str) -> bool:
    """Whether a message's JSON has a component of type ``kind`` and id ``custom_id`` (in an
    action row, or at the top level)."""
    if not isinstance(message, dict):
        return False
    for row in message.get("components") or ():
        for c in row.get("components") or (row,):
            if c.get("custom_id") == custom_id and c.get("type") == kind:
                return True
    return False
