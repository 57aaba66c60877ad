"""Review buttons: ``spades:rv:<kind>:<key>[:<page>[:<tag>]]``.

* ``spades:rv:t:<table id>`` — **Review** on a game-over message (the table's league game);
* ``spades:rv:g:<game id>`` — **Review** on a ``/history`` entry;
* ``spades:rv:g:<game id>:<page>`` — paging inside the (ephemeral) review.

Opening buttons send a new ephemeral review to whoever clicks; paging buttons edit it.  Parsed
from the custom id alone, so they keep working after a restart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import discord

from bot.i18n import _
from bot.ui.discord.clicks import BadCustomId, Routed, snowflake

REVIEW_ROUTE = "review"  # where every review component's click goes (bot.ui.discord.clicks)


@dataclass(frozen=True, slots=True)
class ReviewRef:
    kind: str  # "t" (table id) or "g" (league game id)
    key: str
    page: int | None = None  # None: open the review (a new message)

    @property
    def route(self) -> str:
        return REVIEW_ROUTE

    @property
    def custom_id(self) -> str:
        base = f"spades:rv:{self.kind}:{self.key}"
        return base if self.page is None else f"{base}:{self.page}"

    @property
    def game_id(self) -> int | None:
        return int(self.key) if self.kind == "g" else None


_TEMPLATE = (
    r"spades:rv:(?P<kind>[tg]):(?P<key>[a-z0-9]{1,20})"
    r"(?::(?P<page>[0-9]{1,4})(?::(?P<tag>[a-z]{1,8}))?)?"
)
_TABLE_ID = re.compile(r"[a-z0-9]{1,16}")


def _ref(match: re.Match[str]) -> ReviewRef:
    """The ref, its key checked: a league game id (digits a database holds) or a table id."""
    kind, key, page = match.group("kind"), match.group("key"), match.group("page")
    if kind == "g":
        if not key.isdigit():
            raise BadCustomId("a game id that is not a number")
        key = str(snowflake(key))
    elif not _TABLE_ID.fullmatch(key):
        raise BadCustomId("a table id of the wrong form")
    return ReviewRef(kind, key, int(page) if page else None)


class ReviewButton(Routed, template=_TEMPLATE):
    routes = (REVIEW_ROUTE,)

    @classmethod
    def parse(cls, match: re.Match[str]) -> ReviewRef:
        return _ref(match)


class ReviewSelect(Routed, template=r"spades:rv:(?P<kind>g):(?P<key>[0-9]{1,20}):jump"):
    routes = (REVIEW_ROUTE,)

    @classmethod
    def parse(cls, match: re.Match[str]) -> ReviewRef:
        return ReviewRef("g", str(snowflake(match.group("key"))), -1)


def review_button(
    ref: ReviewRef,
    label: str,
    *,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    disabled: bool = False,
    tag: str = "",
    row: int | None = None,
    emoji: str | None = None,
) -> ReviewButton:
    """``tag`` keeps two buttons that lead to the same page distinct (custom ids are unique)."""
    cid = ref.custom_id + (f":{tag}" if tag else "")
    return ReviewButton(
        ref,
        discord.ui.Button(
            custom_id=cid, label=label, style=style, disabled=disabled, row=row, emoji=emoji
        ),
    )


def jump_select(game_id: int, options: list[discord.SelectOption], row: int) -> ReviewSelect:
    ref = ReviewRef("g", str(game_id), -1)
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=f"spades:rv:g:{game_id}:jump", options=options, placeholder=_("Go to…"), row=row
    )
    return ReviewSelect(ref, select)


REVIEW_ITEMS: tuple[type[Routed], ...] = (ReviewButton, ReviewSelect)
