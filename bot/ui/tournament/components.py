"""Tournament buttons: ``spades:tn:<tournament>:<verb>`` (``join``, ``leave``, ``checkin``,
``csv``, ``json``).  Parsed from the custom id alone, so they keep working after a restart."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import discord

from bot.ui.discord.clicks import Routed

TOURNAMENT_VERBS = ("join", "leave", "checkin", "csv", "json")
TOURNAMENT_ROUTE = (
    "tournament"  # where every tournament button's click goes (bot.ui.discord.clicks)
)


@dataclass(frozen=True, slots=True)
class TournamentRef:
    tournament_id: int
    verb: str

    @property
    def route(self) -> str:
        return TOURNAMENT_ROUTE

    @property
    def custom_id(self) -> str:
        return f"spades:tn:{self.tournament_id}:{self.verb}"


class TournamentButton(
    Routed, template=rf"spades:tn:(?P<id>[0-9]{{1,18}}):(?P<verb>{'|'.join(TOURNAMENT_VERBS)})"
):
    routes = (TOURNAMENT_ROUTE,)

    @classmethod
    def parse(cls, match: re.Match[str]) -> TournamentRef:
        return TournamentRef(int(match.group("id")), match.group("verb"))


def tournament_button(
    ref: TournamentRef,
    label: str,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    emoji: str | None = None,
) -> TournamentButton:
    b: discord.ui.Button[Any] = discord.ui.Button(
        custom_id=ref.custom_id, label=label, style=style, emoji=emoji
    )
    return TournamentButton(ref, b)


TOURNAMENT_ITEMS: tuple[type[Routed], ...] = (TournamentButton,)
