"""Tournament buttons: ``spades:tn:<tournament>:<verb>`` (``join``, ``leave``, ``checkin``,
``csv``, ``json``), and a partner invitation's ``spades:tv:<tournament>:<inviter>:<verb>``
(``accept``, ``decline``).  Parsed from the custom id alone, so they keep working after a
restart."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import discord

from bot.i18n import _
from bot.ui.discord.clicks import Routed, snowflake

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


INVITATION_VERBS = ("accept", "decline")
INVITATION_ROUTE = "invitation"  # where a partner's Accept / Decline goes (bot.ui.discord.clicks)


@dataclass(frozen=True, slots=True)
class InvitationRef:
    """A partner invitation's button: the tournament, who invited, and the answer."""

    tournament_id: int
    inviter_id: int
    verb: str

    @property
    def route(self) -> str:
        return INVITATION_ROUTE

    @property
    def accept(self) -> bool:
        return self.verb == "accept"

    @property
    def custom_id(self) -> str:
        return f"spades:tv:{self.tournament_id}:{self.inviter_id}:{self.verb}"


class InvitationButton(
    Routed,
    template=(
        r"spades:tv:(?P<id>[0-9]{1,19}):(?P<inviter>[0-9]{1,20}):"
        rf"(?P<verb>{'|'.join(INVITATION_VERBS)})"
    ),
):
    routes = (INVITATION_ROUTE,)

    @classmethod
    def parse(cls, match: re.Match[str]) -> InvitationRef:
        return InvitationRef(
            snowflake(match.group("id")), snowflake(match.group("inviter")), match.group("verb")
        )


def invitation_view(tournament_id: int, inviter_id: int) -> discord.ui.View:
    """**Accept** and **Decline** of a partner invitation (labels in the current language)."""
    view = discord.ui.View(timeout=None)
    for verb, label, style in (
        ("accept", _("Accept"), discord.ButtonStyle.success),
        ("decline", _("Decline"), discord.ButtonStyle.danger),
    ):
        ref = InvitationRef(tournament_id, inviter_id, verb)
        b: discord.ui.Button[Any] = discord.ui.Button(
            custom_id=ref.custom_id, label=label, style=style
        )
        view.add_item(InvitationButton(ref, b))
    return view


TOURNAMENT_ITEMS: tuple[type[Routed], ...] = (TournamentButton, InvitationButton)
