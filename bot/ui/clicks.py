"""One path per click: every component's click goes, by its route, to the one handler
registered for it, and every failure to :func:`bot.ui.failures.answer_error`.

A route is a verb of the table and hand components (:mod:`bot.ui.components`), or ``league``
and ``review`` for the paging of those messages.  The cogs register their handlers on the
bot's :class:`ClickRouter` (``bot.clicks``) when they are loaded; the bot checks at start-up
that every route has its handler (:meth:`ClickRouter.unrouted`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Protocol, TypeVar, runtime_checkable

import discord

from bot import logsafe, timely
from bot.errors import Refusal
from bot.ui.failures import answer_error

log = logging.getLogger(__name__)

STARTING = "The bot is starting up; try again."
R = TypeVar("R")
ClickHandler = Callable[[discord.Interaction[Any], Any, list[str]], Awaitable[None]]


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
        self, interaction: discord.Interaction[Any], route: str, ref: object, values: list[str]
    ) -> None:
        """Hand a click to its handler: answered in time (see :mod:`bot.timely`), and never
        left without an answer when the handler refuses or fails."""
        timely.guard(interaction)
        data: dict[str, Any] = dict(interaction.data or {})
        shown = logsafe.custom_id(data.get("custom_id"))  # a card it carries is not logged
        log.debug("component %s from user %s", shown, interaction.user.id)
        try:
            handler = self._handlers.get(route)
            if handler is None:
                raise Refusal(STARTING)
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


async def route_click(
    interaction: discord.Interaction[Any], route: str, ref: object, values: list[str]
) -> None:
    """The click of a component, to the handler of ``route`` on the interaction's client."""
    client = interaction.client
    router = client.clicks if isinstance(client, Routing) else _NOWHERE
    await router.dispatch(interaction, route, ref, values)
