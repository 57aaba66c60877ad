"""Views taken apart after sending are freed by reference counting (bot/disposal.py): no
cyclic collection is needed for them, so none of their objects ever reaches the collector's
oldest generation.  The collector is switched off in these tests: what is freed is freed by
reference counting alone."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from typing import Any

import discord
import pytest

from bot.disposal import dispose, dispose_sent
from bot.engine import Seat
from bot.ui.table.components import ComponentRef, HandVerb, MenuVerb, TableVerb, button
from bot.ui.table.controls import Control, Option, controls_view


@pytest.fixture(autouse=True)
def no_cyclic_collection() -> Iterator[None]:
    gc.collect()
    gc.disable()
    yield
    gc.enable()


def hand_view() -> discord.ui.View:
    """A hand's controls as an answer sends them: card buttons and a bid select."""
    cards = [
        Control(ComponentRef("t1", HandVerb.PLAY, Seat.N, 3, card), card, row=i // 5)
        for i, card in enumerate(("AS", "KS", "QH", "2C", "9D", "TD"))
    ]
    bid = Control(
        ComponentRef("t1", MenuVerb.BID, Seat.N, 3),
        "Bid",
        row=4,
        options=tuple(Option(str(n), str(n)) for n in range(14)),
    )
    return controls_view([*cards, bid])


def refs(view: discord.ui.View) -> list[weakref.ref[Any]]:
    return [weakref.ref(view), *(weakref.ref(item) for item in view.children)]


async def test_a_view_is_a_cycle_until_it_is_taken_apart() -> None:
    kept = hand_view()
    alive = refs(kept)
    del kept
    assert all(r() is not None for r in alive), "view and items hold each other"

    view = hand_view()
    freed = refs(view)
    dispose(view)
    del view
    assert all(r() is None for r in freed)


async def test_the_view_of_sent_keyword_arguments_is_taken_apart() -> None:
    kwargs: dict[str, Any] = {"content": "your hand", "view": hand_view()}
    freed = refs(kwargs["view"])
    dispose_sent(kwargs)
    del kwargs
    assert all(r() is None for r in freed)
    dispose_sent({"content": "no view"})
    dispose_sent({"view": None})  # a message whose buttons are removed


async def test_a_view_discord_py_keeps_for_dispatch_is_left_whole() -> None:
    """A view with an item that is not a dynamic item is dispatched through discord.py's view
    store, which holds it: taking it apart would break its buttons."""
    view = discord.ui.View(timeout=None)
    view.add_item(button(ComponentRef("t1", TableVerb.JOIN), "Join"))
    plain: discord.ui.Button[Any] = discord.ui.Button(label="Stored", custom_id="other:1")
    view.add_item(plain)
    dispose(view)
    assert len(view.children) == 2
    assert plain.view is view
