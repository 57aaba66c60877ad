"""League paging components:
``spades:lg:<view>:<viewer>:<subject>:<season>:<sort>:<page>[:@<game>][:<tag>]``.

``view`` is ``players``, ``pairs``, ``hist`` or ``pick`` (the history select); ``viewer`` is
the member who asked (only they may page); ``subject`` the member a history is about (0
otherwise); ``season`` 0 means the current one; ``game`` the game whose standings are shown
(absent: Spades, as on messages sent before the league kept games apart).  Parsed from the
custom id alone, so paging keeps working after a restart.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Any

import discord

from bot.engine.games import DEFAULT_GAME, entries, is_default_game
from bot.league.models import LeaderboardSort
from bot.ui.discord.clicks import BadCustomId, Routed, snowflake

LEAGUE_ROUTE = "league"  # where every league component's click goes (bot.ui.discord.clicks)


@dataclass(frozen=True, slots=True)
class LeagueRef:
    view: str
    viewer: int
    subject: int = 0
    season: int = 0
    sort: str = "rating"
    page: int = 0
    game: str = DEFAULT_GAME

    @property
    def route(self) -> str:
        return LEAGUE_ROUTE

    @property
    def custom_id(self) -> str:
        game = "" if is_default_game(self.game) else f":@{self.game}"
        return (
            f"spades:lg:{self.view}:{self.viewer}:{self.subject}:{self.season}:{self.sort}:"
            f"{self.page}{game}"
        )

    def to(self, **changes: Any) -> LeagueRef:
        return dataclasses.replace(self, **changes)


_REST = (
    r":(?P<viewer>[0-9]{1,20}):(?P<subject>[0-9]{1,20}):(?P<season>[0-9]{1,6})"
    r":(?P<sort>[a-z_]{1,12}):(?P<page>[0-9]{1,6})(?::@(?P<game>[a-z]{1,12}))?"
    r"(?::(?P<tag>[a-z]{1,8}))?"
)
_SORTS = frozenset(s.value for s in LeaderboardSort)
_BUTTONS = r"spades:lg:(?P<view>players|pairs|hist)" + _REST
_SELECT = r"spades:lg:(?P<view>pick)" + _REST


class LeagueItem(Routed, template=r"(?!)"):
    """A league paging component: its clicks go to the ``league`` route."""

    routes = (LEAGUE_ROUTE,)

    @classmethod
    def parse(cls, match: re.Match[str]) -> LeagueRef:
        """The ref, its values checked: ids a database holds, a sort and a game there are."""
        g = match.groupdict()
        game = g["game"] or DEFAULT_GAME
        if g["sort"] not in _SORTS:
            raise BadCustomId("no such sort")
        if not any(e.kind == game for e in entries()):
            raise BadCustomId("no such game")
        return LeagueRef(
            g["view"],
            snowflake(g["viewer"]),
            snowflake(g["subject"]),
            int(g["season"]),
            g["sort"],
            int(g["page"]),
            game,
        )


class LeagueButton(LeagueItem, template=_BUTTONS):
    pass


class LeagueSelect(LeagueItem, template=_SELECT):
    pass


def league_button(
    ref: LeagueRef,
    label: str,
    *,
    disabled: bool = False,
    tag: str = "",
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
) -> LeagueButton:
    """``tag`` keeps two buttons that lead to the same page distinct (custom ids are unique)."""
    cid = ref.custom_id + (f":{tag}" if tag else "")
    return LeagueButton(
        ref, discord.ui.Button(custom_id=cid, label=label, disabled=disabled, style=style)
    )


def league_select(
    ref: LeagueRef, options: list[discord.SelectOption], placeholder: str
) -> LeagueSelect:
    return LeagueSelect(
        ref, discord.ui.Select(custom_id=ref.custom_id, options=options, placeholder=placeholder)
    )


LEAGUE_ITEMS: tuple[type[Routed], ...] = (LeagueButton, LeagueSelect)
