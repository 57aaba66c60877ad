"""Views are taken apart once sent, so that what they hold is freed at once.

A discord.py view and its items point at each other (``view._children`` → item,
``item._view`` → view): a reference cycle, which only the cyclic garbage collector frees.  The
bot builds a view for nearly every answer and table-message edit, and discord.py rebuilds one
from the clicked message for every click: at 200 tables, a great many cyclic objects a
second.  Any of them still alive at two young collections (an answer waiting on Discord, a
busy machine) moves to the oldest generation, where only a full collection frees it — and a
full collection stops the event loop for as long as it takes to walk everything there
(docs/benchmarks.md, *Discord load*).  Taken apart after use, a view is freed by reference
counting the moment its last user lets go; stopped, it no longer waits for a timeout either.

Only views made wholly of dynamic items (:class:`bot.ui.table.components.Routed`) are taken apart:
discord.py keeps no reference to them (a click is routed by its custom id alone), whereas it
keeps any other view in its view store to dispatch that view's clicks.
"""

from __future__ import annotations

from typing import Any

import discord


def dispose(view: discord.ui.View | None) -> None:
    """Break ``view``'s cycles once nothing will use it again (a view discord.py keeps for
    dispatch is left whole)."""
    if view is None:
        return
    items = view.children
    if all(isinstance(item, discord.ui.DynamicItem) for item in items):
        # An ephemeral answer's view gets a 15-minute timeout from discord.py, whose task
        # holds it until then: stopped, it goes now (a stopped view of dynamic items still
        # routes nothing, as before: clicks find their item by custom id).
        view.stop()
        view.clear_items()


def dispose_sent(kwargs: dict[str, Any]) -> None:
    """:func:`dispose` the ``view`` of a message's keyword arguments once it has been sent."""
    view = kwargs.get("view")
    if isinstance(view, discord.ui.View):
        dispose(view)
