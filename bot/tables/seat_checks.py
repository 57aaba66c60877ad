"""The checks and consequences of where people sit: the seats a table's rules play, where the
people of a seat the new rules leave empty move, who hosts once someone leaves, and why a
computer seat's level is fixed once the game has started."""

from __future__ import annotations

from bot.engine import Rules, Seat
from bot.errors import Refusal
from bot.i18n import _
from bot.i18n.cards import seat_word
from bot.names import md_name
from bot.tables.state import Table


def after_leaving(table: Table, user_id: int) -> tuple[list[int], int]:
    """The people left at the table, and its host once ``user_id`` has gone."""
    humans_left = [u for u in table.humans() if u != user_id]
    if user_id == table.host_id and humans_left:
        return humans_left, humans_left[0]
    return humans_left, table.host_id


def ensure_in_play(table: Table, seat: Seat | None) -> None:
    """Refuse a seat the table's rules leave empty (West at a three-player table)."""
    if seat is not None and seat not in table.seat_order:
        seats = ", ".join(seat_word(s) for s in table.seat_order)
        raise Refusal(
            _(
                "{seat} does not play at a three-player table: choose {seats}.",
                seat=seat_word(seat),
                seats=seats,
            )
        )


def seat_moves(table: Table, rules: Rules) -> dict[Seat, Seat]:
    """Where the people seated in a seat that ``rules`` leave empty move (the first free seats
    in play); refuses when they would not fit."""
    outside = [s for s in table.seats if s not in rules.seats]
    free = [s for s in rules.seats if s not in table.seats]
    if len(outside) > len(free):
        who = ", ".join(f"{md_name(table.seats[s].shown_name)} ({seat_word(s)})" for s in outside)
        raise Refusal(
            _(
                "{n} players play {seats}: a seat must be free for {who} first.",
                n=len(rules.seats),
                seats=", ".join(seat_word(s) for s in rules.seats),
                who=who,
            )
        )
    return dict(zip(outside, free, strict=False))


def level_fixed(table: Table, seat: Seat | None) -> str:
    """Why no computer's level changes once the game has started: a rated game is rated
    against the players it began with, and a member's seat stays theirs while they are away
    (timed out or left) — played at the table's ``handover`` level, the same for every member,
    with a leaver's forfeit kept.  Otherwise a host could hand their opponents' seats to easy
    computers and their own to a hard one."""
    occ = table.seats.get(seat) if seat is not None else None
    if seat is None or occ is None or occ.user_id is None:
        return _(
            "The game has started: computer players keep the level they started with (a rated "
            "game is rated against the players it began with)."
        )
    if not occ.is_computer:
        return _(
            "{name} plays {seat}: only a computer player's seat has a level.",
            name=md_name(occ.name),
            seat=seat_word(seat),
        )
    yours = occ.user_id == table.host_id
    whose = _("your seat") if yours else _("{name}'s seat", name=md_name(occ.name))
    if occ.left:
        why = (
            _("you left the game")
            if yours
            else _("they left the game (a loss for them if it is rated)")
        )
    else:
        why = _("you ran out of time") if yours else _("they ran out of time")
    away = _(
        "{seat} is {whose}: {why}, and a computer plays it at the {level} level, as for every "
        "member who is away, until `/spades join` takes it back.",
        seat=seat_word(seat),
        whose=whose,
        why=why,
        level=_(occ.bot_level or "normal"),
    )
    return (
        away
        + " "
        + (
            _("Its level is not yours to choose, even as host.")
            if yours
            else _("Its level is not the host's to choose.")
        )
    )
