"""The table message: seats laid out as the table (one row per partnership), whose turn it is
and until when, the trick, the scores.  It reads the public :class:`SeatView` only, so a hidden
card cannot reach the channel by accident."""

from __future__ import annotations

import discord

from bot.engine import Seat, SeatView, Team
from bot.i18n import _
from bot.i18n.cards import seat_word
from bot.i18n.lines import line_text
from bot.names import md_name
from bot.tables.state import Table, TableStatus
from bot.ui.table.components import ComponentRef, TableVerb, WatchVerb, button
from bot.ui.text.card_emojis import CARD_EMOJIS, CardFaces
from bot.ui.text.games import game_title, text_of
from bot.ui.text.rules_text import rules_brief
from bot.ui.text.seed_text import commitment_footer
from bot.ui.text.words import (
    dealer_draw_text,
    number,
    seat_names,
    team_name,
    timer_footer,
    timer_text,
)

BLANK = "\u200b"  # an empty embed field (Discord refuses an empty name or value)
GREEN = discord.Colour(0x2E7D32)
GREY = discord.Colour(0x607D8B)
GOLD = discord.Colour(0xF9A825)
ON_TURN = "▶"


def deadline_text(table: Table) -> str:
    """A Discord timestamp that counts down in every client without edits."""
    return f"<t:{int(table.deadline)}:R>" if table.deadline is not None else ""


# ---------------------------------------------------------------------- the embed
def table_embed(table: Table, view: SeatView | None) -> discord.Embed:
    if table.status == TableStatus.LOBBY:
        return _lobby_embed(table)
    title = game_title(table.rules)
    if view is None:  # closed before the game started
        e = discord.Embed(title=title, colour=GREY)
        e.description = _("This table was closed before the game started.")
        e.set_footer(text=_("Table {table}", table=table.id))
        return e
    playing = table.status == TableStatus.PLAYING
    e = discord.Embed(title=title, colour=GREEN if playing else GOLD)
    e.description = status_text(table, view) if playing else final_text(table, view)
    names = seat_names(table)
    if not view.rules.partnerships:  # solo (games.md G2): every player scores alone
        body = {
            s: f"{_seat_body(table, view, s, names)}\n{_player_score(view, s)}" for s in view.seats
        }
        _players_in_rows(e, [(_seat_head(table, view, s), body[s]) for s in view.seats])
    else:
        for team in Team:
            for s in team.seats:
                e.add_field(
                    name=_seat_head(table, view, s), value=_seat_body(table, view, s, names)
                )
            e.add_field(name=team_name(team), value=_team_body(view, team))
    text = text_of(view.rules.game)
    trump = text.trump_line(view)
    if trump is not None:
        e.add_field(name=_("Trump"), value=trump, inline=False)
    faces = CARD_EMOJIS.for_guild(table.guild_id)
    e.add_field(name=_trick_head(view), value=trick_text(view, faces), inline=False)
    note = text.footer_note(view)
    unrated = timer_footer(table.turn_timer) + (
        " · " + _("practice: hints on") if table.options.hints else ""
    )
    watching = " · " + _("👁 {n} watching", n=table.watching) if table.watching and playing else ""
    head = _("Table {table} · hand {number}", table=table.id, number=number(view.hand_number))
    e.set_footer(text=f"{head}{note}{unrated}{watching}{commitment_footer(table)}")
    return e


def _lobby_embed(table: Table) -> discord.Embed:
    e = discord.Embed(title=game_title(table.rules), colour=GREY)
    e.description = (
        _("Waiting for players. Host: **{host}**.", host=table.host_name())
        + "\n"
        + _(
            "Sit with the buttons or `/spades join`; the host fills empty seats with "
            "**Add computer** or `/spades bot` and starts with **Start**."
        )
        + f"\n{timer_text(table.turn_timer)}\n{options_text(table)}"
    )
    names = seat_names(table)
    if table.rules.solo:  # games.md G2: no partners; three players sit N, E, S
        _players_in_rows(
            e, [(_("{seat} (alone)", seat=seat_word(s)), names[s]) for s in table.seat_order]
        )
    else:
        for team in Team:
            for s in team.seats:
                e.add_field(name=seat_word(s), value=names[s])
            a, b = team.seats
            e.add_field(
                name=team_name(team),
                value=_("{a} and {b} are partners", a=seat_word(a), b=seat_word(b)),
            )
    e.set_footer(text=_("Table {table}", table=table.id) + f" · {rules_brief(table.rules)}")
    return e


def options_text(table: Table) -> str:
    """The lobby's lines on the host's table settings (``/spades rule spectators|hints``)."""
    o = table.options
    if o.spectators == "hands":
        watch = _(
            "👁 Spectators: anyone not seated may watch; each hand's deal is shown to them "
            "once the hand is over."
        )
    elif o.spectators == "off":
        watch = _("👁 No spectators.")
    else:
        watch = _("👁 Spectators: anyone not seated may watch.")
    if not o.hints:
        return watch
    hints = _("💡 Hints on: a **Hint** button on every hand. A practice game: **unrated**.")
    return f"{watch}\n{hints}"


def _players_in_rows(e: discord.Embed, fields: list[tuple[str, str]]) -> None:
    """Players without partners as inline fields: three on one row; four as two rows of two
    (Discord puts three inline fields on a row, so the fourth player would sit alone on the
    second: an empty third field closes each row)."""
    for i, (name, value) in enumerate(fields):
        e.add_field(name=name, value=value)
        if len(fields) == 4 and i % 2 == 1:
            e.add_field(name=BLANK, value=BLANK)


def _seat_head(table: Table, view: SeatView, seat: Seat) -> str:
    marks = [seat_word(seat)]
    if view.to_act == seat and table.status == TableStatus.PLAYING:
        marks.insert(0, ON_TURN)
    if seat == view.dealer:
        marks.append("· " + _("dealer"))
    return " ".join(marks)


def _seat_body(table: Table, view: SeatView, seat: Seat, names: dict[Seat, str]) -> str:
    on_turn = view.to_act == seat and table.status == TableStatus.PLAYING
    name = f"**{names[seat]}**" if on_turn else names[seat]
    action = text_of(view.rules.game).seat_action(view, seat)
    lines = [name, action + _("won {n}", n=number(view.tricks_won[seat]))]
    if seat == view.sitting_out:
        lines[1] = _("sits this hand out")
    if on_turn and table.deadline is not None:
        lines.append(f"⏱ {deadline_text(table)}")
    return "\n".join(lines)


def _team_body(view: SeatView, team: Team) -> str:
    lines = [_("**{points}** points", points=number(view.scores[team]))]
    lines += text_of(view.rules.game).team_lines(view, team)
    return "\n".join(lines)


def _player_score(view: SeatView, seat: Seat) -> str:
    """A solo player's score line: points and bags."""
    line = _("**{points}** points", points=number(view.scores[seat]))
    if view.rules.has_bags:
        line += " · " + _("bags {n}", n=number(view.bag_counts[seat]))
    return line


def _trick_head(view: SeatView) -> str:
    return _("Trick") if view.current_trick or not view.completed_tricks else _("Last trick")


def trick_text(view: SeatView, faces: CardFaces | None = None) -> str:
    """The trick on the table (or the last one); with ``faces``, cards as their card faces."""
    show = str if faces is None else faces.inline
    if view.current_trick:
        return "  ".join(f"{seat_word(s)} {show(c)}" for s, c in view.current_trick)
    if view.completed_tricks:
        last = view.completed_tricks[-1]
        cards = "  ".join(f"{seat_word(s)} {show(c)}" for s, c in last.cards)
        return cards + "  → " + _("{seat} wins", seat=seat_word(last.winner))
    return "—"


def status_text(table: Table, view: SeatView) -> str:
    """Whose turn it is, what they do and until when; the dealer draw in the first hand."""
    lines = [status_line(table, view)]
    if view.hand_number == 1 and table.dealer_draw and not view.completed_tricks:
        lines.append(
            _("Draw for dealer: {draw}.", draw=dealer_draw_text(table.dealer_draw, view.dealer))
        )
    lines.append(_("Press **My hand** (or `/hand`) for your cards: it updates by itself."))
    return "\n".join(lines)


def status_line(table: Table, view: SeatView) -> str:
    seat = view.to_act
    if seat is None:
        return _("Dealing…")
    who = md_name(table.seats[seat].shown_name) if seat in table.seats else seat_word(seat)
    what = text_of(view.rules.game).doing(view)
    if what is None:
        what = _("to lead") if not view.current_trick else _("to play")
    hand = _("Hand {number}", number=number(view.hand_number))
    line = f"{hand} · {ON_TURN} **{who}** ({seat_word(seat)}) {what}"
    if table.deadline is not None and not table.seats[seat].is_computer:
        line += " · " + _("time runs out {when}", when=deadline_text(table))
    return line + "."


def final_text(table: Table, view: SeatView) -> str:
    if table.status == TableStatus.ABANDONED:
        return _("This table was abandoned. The game is not rated.")
    if view.winner is None:
        return _("The game is over.")
    names = seat_names(table)
    reason = line_text(view.end_reason) if view.end_reason else ""
    why = f" — {reason}." if reason else "."
    if isinstance(view.winner, Seat):  # solo (games.md G2): a player wins alone
        w = view.winner
        others = ", ".join(f"{names[s]} {number(view.scores[s])}" for s in view.seats if s != w)
        return (
            _(
                "🏆 **{name}** ({seat}) wins with {points} ({others})",
                name=names[w],
                seat=seat_word(w),
                points=number(view.scores[w]),
                others=others,
            )
            + why
        )
    a, b = view.winner.seats
    return (
        _(
            "🏆 **{team}** win ({a} & {b}) {points} to {theirs}",
            team=team_name(view.winner),
            a=names[a],
            b=names[b],
            points=number(view.scores[view.winner]),
            theirs=number(view.scores[view.winner.other]),
        )
        + why
    )


def table_components(table: Table) -> discord.ui.View:
    v = discord.ui.View(timeout=None)
    tid = table.id
    if table.status == TableStatus.LOBBY:
        for s in table.free_seats():
            v.add_item(
                button(
                    ComponentRef(tid, TableVerb.JOIN, s),
                    _("Sit {seat}", seat=seat_word(s)),
                    discord.ButtonStyle.primary,
                    row=0,
                )
            )
        v.add_item(button(ComponentRef(tid, TableVerb.ADDBOT), _("Add computer"), row=1))
        v.add_item(
            button(
                ComponentRef(tid, TableVerb.LEAVE), _("Leave"), discord.ButtonStyle.danger, row=1
            )
        )
        v.add_item(
            button(
                ComponentRef(tid, TableVerb.START), _("Start"), discord.ButtonStyle.success, row=1
            )
        )
        v.add_item(button(ComponentRef(tid, TableVerb.RULES), _("Rules"), row=1))
    elif table.status == TableStatus.PLAYING:
        v.add_item(
            button(
                ComponentRef(tid, TableVerb.HAND),
                _("My hand"),
                discord.ButtonStyle.primary,
                emoji="🂠",
            )
        )
        v.add_item(button(ComponentRef(tid, TableVerb.RULES), _("Rules")))
        if table.rules.claims:  # games.md G1
            v.add_item(button(ComponentRef(tid, TableVerb.CLAIM), _("Claim renege"), emoji="⚖"))
        # A tournament's seats are the organiser's to fill (bot.tables.lobby.refuse_stranger).
        open_seat = any(o.is_computer and o.user_id is None for o in table.seats.values())
        if open_seat and not table.arranged:
            v.add_item(button(ComponentRef(tid, TableVerb.JOIN), _("Take a computer's seat")))
        if table.options.watchable:
            v.add_item(button(ComponentRef(tid, WatchVerb.WATCH), _("Watch"), emoji="👁"))
        if table.abandon_vote is not None:  # the host asked to end the game early
            for verb, label, style in (
                (TableVerb.AGREE, _("Agree to end"), discord.ButtonStyle.danger),
                (TableVerb.KEEP, _("Keep playing"), discord.ButtonStyle.success),
            ):
                v.add_item(button(ComponentRef(tid, verb), label, style, row=1))
    return v


def claim_components(table: Table, targets: tuple[Seat, ...]) -> discord.ui.View:
    """The ephemeral choice of the opponent a renege claim names (games.md G1)."""
    v = discord.ui.View(timeout=None)
    names = seat_names(table, markdown=False)  # button labels show no markdown
    for s in targets:
        v.add_item(
            button(
                ComponentRef(table.id, TableVerb.CLAIMON, s),
                f"{names[s]} ({seat_word(s)})",
                discord.ButtonStyle.danger,
            )
        )
    return v
