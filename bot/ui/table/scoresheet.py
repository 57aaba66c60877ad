"""Score sheets: what each hand scored and why, and the end of the game (final scores, the
winner, each member's rating change, **Play again**)."""

from __future__ import annotations

import discord

from bot.engine import HandResult, Seat, SeatView, Team
from bot.engine.scoring import ScorePart, TeamHandScore
from bot.i18n import _, _n, number, signed
from bot.i18n.cards import bid_word, seat_word
from bot.i18n.lines import line_text
from bot.league.settings import rates_turn_timer
from bot.names import md_name
from bot.tables.state import Table
from bot.ui.table.components import ComponentRef, TableVerb, button
from bot.ui.table.render import GOLD, GREY, final_text
from bot.ui.text.game_text import took_text
from bot.ui.text.games import text_of
from bot.ui.text.seed_text import reveal_text
from bot.ui.text.words import seat_names, team_name, timer_unrated_reason


def hand_result_embed(table: Table, result: HandResult) -> discord.Embed:
    """The score sheet of a hand: per team, what was bid and taken, then every item of its
    points in plain words (contract made or set, bags, each nil, bag penalty, jokers, New
    York), which add up to the hand's total."""
    names = seat_names(table)
    e = discord.Embed(title=_("Hand {number} — scores", number=result.number), colour=GREY)
    about = text_of(table.rules.game).result_line(result, names)
    if about:
        e.description = about
    if table.rules.solo:  # games.md G2: a sheet per player
        for s in table.seat_order:
            e.add_field(
                name=f"{seat_word(s)} — {names[s]}", value=player_sheet(table, result, s, names)
            )
    else:
        for t in Team:
            e.add_field(name=team_name(t), value=team_sheet(table, result, t, names))
    if result.claims:  # games.md G1: the hand's renege claims, as judged
        text = "\n".join(f"⚖ {names[c.seat]}: {line_text(c.text)}" for c in result.claims)
        e.add_field(name=_("Renege claims"), value=text, inline=False)
    e.set_footer(text=_("Table {table}", table=table.id))
    return e


def player_sheet(table: Table, result: HandResult, seat: Seat, names: dict[Seat, str]) -> str:
    """One player's sheet in a solo game: bid, tricks, every item of the points, the total."""
    res = result.teams[seat]
    bids = {x.seat: x.value for x in result.bids}
    bid = bid_word(bids[seat]) if seat in bids else "?"
    lines = [_("Bid {bid} · took {n}", bid=bid, n=result.tricks[seat])]
    lines.extend(f"{part_label(p, names)}: {signed(p.points)}" for p in res.parts)
    lines.append(_total(table, res))
    return "\n".join(lines)


def team_sheet(table: Table, result: HandResult, team: Team, names: dict[Seat, str]) -> str:
    res = result.teams[team]
    took = took_text(result, team, names)
    lines = [text_of(table.rules.game).sheet_head(table.rules, result, team, took)]
    lines.extend(f"{part_label(p, names)}: {signed(p.points)}" for p in res.parts)
    lines.append(_total(table, res))
    return "\n".join(lines)


def _total(table: Table, res: TeamHandScore) -> str:
    total = _(
        "= **{points}** this hand · score **{score}**",
        points=signed(res.points),
        score=number(res.score),
    )
    if table.rules.has_bags:
        total += " · " + _("bags {n}", n=number(res.bag_count))
    return total


def part_label(part: ScorePart, names: dict[Seat, str]) -> str:
    """The engine's words in the reader's language, with the player's name for a seat
    ("carol's nil made")."""
    return line_text(part.label, names)


def game_over_embed(table: Table, view: SeatView) -> discord.Embed:
    e = discord.Embed(title=_("Game over"), colour=GOLD, description=final_text(table, view))
    if view.rules.partnerships:
        ns, ew = number(view.scores[0]), number(view.scores[1])
        final = f"{team_name(Team.NS)} {ns} · {team_name(Team.EW)} {ew}"
    else:  # solo: every player's score
        names = seat_names(table)
        final = " · ".join(
            f"{names[s]} ({seat_word(s)}) {number(view.scores[s])}" for s in view.seats
        )
    e.add_field(name=_("Final score"), value=final, inline=False)
    e.add_field(name=_("Ratings"), value=ratings_text(table), inline=False)
    if table.options.hints:
        e.add_field(name=_("💡 Hints taken"), value=hints_text(table), inline=False)
    reveal = reveal_text(table)
    if reveal is not None:  # docs/verifiable-deals.md: the game is over, the seed is shown
        e.add_field(name=_("Verifiable deals"), value=reveal, inline=False)
    hands = _n("{n} hand", "{n} hands", len(view.results))
    e.set_footer(text=_("Table {table}", table=table.id) + f" · {hands}")
    return e


def ratings_text(table: Table) -> str:
    """Each member's rating change, or why the game is not rated."""
    if table.ratings is None:
        if table.options.hints:
            return _("Not rated: a practice game with hints.")
        if not rates_turn_timer(table.turn_timer):
            return _("Not rated: {why}.", why=timer_unrated_reason(table.turn_timer))
        if any(o.user_id is None for o in table.seats.values()):
            return _("Not rated: computer players took part (the server's league settings).")
        return _("Not rated.")
    names = seat_names(table)
    lines = [
        f"{names[r.seat]}: {number(r.before)} → **{number(r.after)}** ({signed(r.delta)})"
        for r in sorted(table.ratings, key=lambda r: r.seat)
    ]
    return "\n".join(lines) or _("Not rated.")


def hints_text(table: Table) -> str:
    """How many hints each member took (a practice game with ``hints: on``)."""
    people = [(s, o) for s, o in sorted(table.seats.items()) if o.user_id is not None]
    return " · ".join(
        f"{md_name(o.name)} ({seat_word(s)}) "
        + _n("{n} hint", "{n} hints", table.hints_taken.get(s, 0))
        for s, o in people
    )


def game_over_components(table: Table) -> discord.ui.View:
    """**Play again** — not at a tournament's table: its organiser seats the next game."""
    v = discord.ui.View(timeout=None)
    if table.arranged:
        return v
    v.add_item(
        button(
            ComponentRef(table.id, TableVerb.AGAIN),
            _("Play again"),
            discord.ButtonStyle.success,
            emoji="🔁",
        )
    )
    return v
