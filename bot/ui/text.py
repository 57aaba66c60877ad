"""Words and small pieces of text shared by every message the bot renders."""

from __future__ import annotations

import re

from bot.engine import Rules, Seat, Team, card, preset
from bot.league.settings import RATED_TIMER_MIN, rates_turn_timer
from bot.names import md_name
from bot.tables.state import Table

TEAM_NAMES = ("North–South", "East–West")


def plural(n: int, noun: str, plural_form: str | None = None) -> str:
    """``1 game``, ``2 games``, ``0 games`` (``plural_form`` for irregular nouns)."""
    return f"{n} {noun if n == 1 else plural_form or noun + 's'}"


def signed(n: int) -> str:
    """``+70``, ``−50`` (a real minus sign), ``0``."""
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def number(n: int) -> str:
    """A score: ``−1,250`` with a real minus sign."""
    return f"−{-n:,}" if n < 0 else f"{n:,}"


def preset_title(rules: Rules) -> str:
    return preset(rules.preset).title


def team_name(team: Team) -> str:
    return TEAM_NAMES[team]


_TEAM_FELL = re.compile(r"^(NS|EW) fell to (-?\d+) or below$")
_TEAM_SET_TWICE = re.compile(r"^(NS|EW) set twice in a row$")
_PLAYER_FELL = re.compile(r"^a player fell to (-?\d+) or below; highest score$")
_REASONS = {
    "both teams claimed the game; higher score": (
        "both teams claimed the game; the higher score wins"
    ),
    "tied at the target; more bags over the game": (
        "tied at the target; the team with more bags over the game wins"
    ),
}


def end_reason_text(reason: str, lose_at: int | None) -> str:
    """Why a game ended, in the table's words: the engine's reason with team names, real minus
    signs and no option keys (``lose_at`` is the mercy rule)."""
    if m := _TEAM_FELL.match(reason):
        return f"{team_name(Team[m[1]])} fell to {number(int(m[2]))} or below (mercy rule)"
    if m := _TEAM_SET_TWICE.match(reason):
        return f"{team_name(Team[m[1]])} were set twice in a row"
    if m := _PLAYER_FELL.match(reason):
        return f"a player fell to {number(int(m[1]))} or below (mercy rule); the highest score wins"
    if reason == "both teams fell to lose_at; higher score":
        floor = "the mercy rule's floor" if lose_at is None else f"{number(lose_at)} or below"
        return f"both teams fell to {floor} (mercy rule); the higher score wins"
    return _REASONS.get(reason, reason)


def timer_text(turn_timer: int) -> str:
    """The lobby's line on the turn timer, saying when it leaves the game unrated."""
    if not turn_timer:
        return "⏱ No turn timer."
    line = f"⏱ Turn timer: {turn_timer} s a turn"
    if rates_turn_timer(turn_timer):
        return line + "."
    return f"{line} — **unrated**: {RATED_TIMERS}."


RATED_TIMERS = f"a rated game has no turn timer or one of at least {RATED_TIMER_MIN} s"


def timer_footer(turn_timer: int) -> str:
    """What the table message's footer adds when the turn timer leaves the game unrated."""
    return (
        "" if rates_turn_timer(turn_timer) else f" · unrated: turn timer under {RATED_TIMER_MIN} s"
    )


def timer_unrated_reason(turn_timer: int) -> str:
    """Why a table whose timer is under the server settings' minimum is not rated."""
    return f"its turn timer ({turn_timer} s) is under {RATED_TIMER_MIN} s; {RATED_TIMERS}"


def seat_names(table: Table, *, markdown: bool = True) -> dict[Seat, str]:
    """Who sits where, as the table shows it: markdown, each member's name escaped
    (:func:`bot.names.md_name`); with ``markdown=False`` plain text (button labels)."""
    name = md_name if markdown else str
    out = {}
    for s in table.seat_order:  # N, E, S with three players
        occ = table.seats.get(s)
        if occ is None:
            out[s] = "*(empty)*" if markdown else "(empty)"
        elif occ.left:
            out[s] = f"Computer ({occ.bot_level}) · {name(occ.name)} left"
        elif occ.away:
            out[s] = f"{name(occ.name)} (a computer plays)"
        else:
            out[s] = name(occ.name)
    return out


def dealer_draw_text(draw: list[dict[str, str]], dealer: Seat) -> str:
    """``North 6♥ · East K♦ · South 2♣ · West 9♠ → East deals first`` (ties redraw)."""
    rounds = []
    for d in draw:
        rounds.append(" · ".join(f"{Seat[s].word} {card(code)}" for s, code in d.items()))
    return " · then ".join(rounds) + f" → **{dealer.word}** deals first"
