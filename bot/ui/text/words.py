"""Words and small pieces of text shared by every message the bot renders."""

from __future__ import annotations

from bot.engine import Rules, Seat, card, preset
from bot.i18n import N_, _, number, signed
from bot.i18n.cards import seat_word
from bot.i18n.cards import team_word as team_name
from bot.league.settings import RATED_TIMER_MIN, rates_turn_timer
from bot.names import md_name
from bot.tables.state import Table

LEVEL_WORDS = (N_("easy"), N_("normal"), N_("hard"))  # computer players' levels, as shown
__all__ = ["number", "plural", "signed", "team_name"]  # the reader's words (bot.i18n)


def plural(n: int, noun: str, plural_form: str | None = None) -> str:
    """``1 game``, ``2 games``, ``0 games`` (English: ``_n`` is for what readers see)."""
    return f"{n} {noun if n == 1 else plural_form or noun + 's'}"


def preset_title(rules: Rules) -> str:
    return _(preset(rules.preset).title)


def timer_text(turn_timer: int) -> str:
    """The lobby's line on the turn timer, saying when it leaves the game unrated."""
    if not turn_timer:
        return _("⏱ No turn timer.")
    line = _("⏱ Turn timer: {s} s a turn", s=number(turn_timer))
    if rates_turn_timer(turn_timer):
        return line + "."
    return line + " — " + _("**unrated**: {why}.", why=rated_timers())


def rated_timers() -> str:
    return _("a rated game has no turn timer or one of at least {s} s", s=RATED_TIMER_MIN)


def timer_footer(turn_timer: int) -> str:
    """What the table message's footer adds when the turn timer leaves the game unrated."""
    if rates_turn_timer(turn_timer):
        return ""
    return " · " + _("unrated: turn timer under {s} s", s=RATED_TIMER_MIN)


def timer_unrated_reason(turn_timer: int) -> str:
    """Why a table whose timer is under the server settings' minimum is not rated."""
    return _(
        "its turn timer ({timer} s) is under {s} s; {rule}",
        timer=number(turn_timer),
        s=RATED_TIMER_MIN,
        rule=rated_timers(),
    )


def seat_names(table: Table, *, markdown: bool = True) -> dict[Seat, str]:
    """Who sits where, as the table shows it: markdown, each member's name escaped
    (:func:`bot.names.md_name`); with ``markdown=False`` plain text (button labels)."""
    name = md_name if markdown else str
    out = {}
    for s in table.seat_order:  # N, E, S with three players
        occ = table.seats.get(s)
        if occ is None:
            out[s] = "*" + _("(empty)") + "*" if markdown else _("(empty)")
        elif occ.left:
            out[s] = _(
                "Computer ({level}) · {name} left",
                level=_(occ.bot_level or "normal"),
                name=name(occ.name),
            )
        elif occ.away:
            out[s] = _("{name} (a computer plays)", name=name(occ.name))
        else:
            out[s] = name(occ.shown_name)
    return out


def dealer_draw_text(draw: list[dict[str, str]], dealer: Seat) -> str:
    """``North 6♥ · East K♦ · South 2♣ · West 9♠ → East deals first`` (ties redraw)."""
    rounds = []
    for d in draw:
        rounds.append(" · ".join(f"{seat_word(Seat[s])} {card(code)}" for s, code in d.items()))
    then = " · " + _("then") + " "
    return then.join(rounds) + " → " + _("**{seat}** deals first", seat=seat_word(dealer))
