"""Shared replay buttons (``spades:rp:…``).

* ``…:share`` — **Share as replay** on a player's review: post the game's replay in a thread;
* ``…:<poster>:<step>:<tag>`` — **Previous** / **Next** / **Next hand** on the replay message,
  for the member who posted it (``poster``, their user id) and nobody else; ``tag`` keeps two
  buttons that lead to the same step distinct.

Parsed from the custom id alone: a replay keeps turning after a restart, and nothing is stored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import discord

from bot.ui.discord.clicks import Routed, snowflake

SHARE = -1  # the step of the share button
REPLAY_ROUTE = "replay"  # where every replay button's click goes (bot.ui.discord.clicks)


@dataclass(frozen=True, slots=True)
class ReplayRef:
    game_id: int
    poster: int = 0
    step: int = SHARE

    @property
    def route(self) -> str:
        return REPLAY_ROUTE

    def custom_id(self, tag: str = "") -> str:
        if self.step == SHARE:
            return f"spades:rp:{self.game_id}:share"
        return f"spades:rp:{self.game_id}:{self.poster}:{self.step}:{tag or 'n'}"


_TEMPLATE = (
    r"spades:rp:(?P<game>[0-9]{1,20}):"
    r"(?:share|(?P<poster>[0-9]{1,20}):(?P<step>[0-9]{1,4}):(?P<tag>[pnh]))"
)


def _ref(match: re.Match[str]) -> ReplayRef:
    game = snowflake(match.group("game"))
    poster = match.group("poster")
    if poster is None:
        return ReplayRef(game)
    return ReplayRef(game, snowflake(poster), int(match.group("step")))


class ReplayButton(Routed, template=_TEMPLATE):
    routes = (REPLAY_ROUTE,)

    @classmethod
    def parse(cls, match: re.Match[str]) -> ReplayRef:
        return _ref(match)


def replay_button(
    ref: ReplayRef,
    label: str,
    *,
    tag: str = "",
    disabled: bool = False,
    row: int | None = None,
    emoji: str | None = None,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
) -> ReplayButton:
    return ReplayButton(
        ref,
        discord.ui.Button(
            custom_id=ref.custom_id(tag),
            label=label,
            style=style,
            disabled=disabled,
            row=row,
            emoji=emoji,
        ),
    )


REPLAY_ITEMS: tuple[type[Routed], ...] = (ReplayButton,)
