"""What is said where the bot is no member of the chat (issue 27, docs/user-installs.md): a
group DM, a DM, or a server that has not added the bot, where the app installed to a member's
account answers interactions only."""

from __future__ import annotations

from typing import Final

import discord

from bot.i18n import N_, _
from bot.league.scope import GROUP
from bot.tables.state import Place
from bot.ui.text.rules_text import GREY

NO_LEAGUE_SERVER: Final = N_(
    "This server has not added the bot, so this game counts in **no league** (ask a server "
    "admin to add it for the server's league)."
)
NO_LEAGUE_DM: Final = N_("A game in a DM with me counts in **no league**.")
GROUP_LEAGUE: Final = N_(
    "The game counts in **this group's league**: `/leaderboard` and `/stats` here."
)


def anywhere_league_note(place: Place, in_server: bool) -> str:
    """The line ``/spades new`` adds about the league where the bot is no member."""
    if place.league == GROUP:
        return _(GROUP_LEAGUE)
    return _(NO_LEAGUE_SERVER) if in_server else _(NO_LEAGUE_DM)


def anywhere_help_embed(place: Place, in_server: bool) -> discord.Embed:
    """``/spades help``'s second page where the bot is no member: what differs, plainly."""
    e = discord.Embed(title=_("Playing here: what is different"), colour=GREY)
    e.description = _(
        "I am not a member of this chat (the app is installed to your account), so I can only "
        "answer what you do. Everything else works as in a server: private hands, live hands, "
        "timers, computer players, and a game that survives my restarts."
    )
    e.add_field(
        name=_("The table message"),
        value=_(
            "It is the answer to `/spades new`, and I update it through your clicks: each "
            "click lets me change it for 15 minutes. If nobody clicks for 15 minutes it waits, "
            "and the next click brings it up to date (it says so)."
        ),
        inline=False,
    )
    e.add_field(
        name=_("Posts"),
        value=_(
            "Hand summaries, notices and game over come as follow-ups (deal pictures "
            "attached); a turn ping is a follow-up that mentions the player."
        ),
        inline=False,
    )
    e.add_field(
        name=_("Not here"),
        value=_(
            "Threads (`thread: true` is refused) and the server's settings "
            "(`/spades-admin`) need a server that added the bot."
        ),
        inline=False,
    )
    e.add_field(name=_("League"), value=anywhere_league_note(place, in_server), inline=False)
    return e
