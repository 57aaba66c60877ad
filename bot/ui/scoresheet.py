"""Score sheets: what each hand scored and why, and the end of the game (final scores, the
winner, each member's rating change, **Play again**)."""

from __future__ import annotations

import discord

from bot.engine import HandResult, SeatView, Team, bid_text
from bot.tables.state import Table
from bot.ui.components import ComponentRef, button
from bot.ui.render import GOLD, GREY, final_text
from bot.ui.text import number, plural, seat_names, signed, team_name


def hand_result_embed(table: Table, result: HandResult) -> discord.Embed:
    names = seat_names(table)
    e = discord.Embed(title=f"Hand {result.number} — scores", colour=GREY)
    ny = table.rules.new_york
    for t in Team:
        a, b = t.seats
        res = result.teams[t]
        took = result.tricks[a] + result.tricks[b]
        if ny:
            tb = next((x for x in result.bids if x.seat.team == t), None)
            bid = bid_text(tb.value, tb.blind) if tb else "no bidding"
        else:
            bids = {x.seat: x.value for x in result.bids}
            bid = " + ".join(_bid_word(bids.get(s)) for s in (a, b))
        lines = [
            f"Bid {bid} · took {took} "
            f"({names[a]} {result.tricks[a]}, {names[b]} {result.tricks[b]})",
            f"Points **{signed(res.points)}**" + (f" · bags +{res.bags}" if res.bags else ""),
        ]
        if res.bag_penalty:
            lines.append(f"Bag penalty −{res.bag_penalty}")
        lines.append(
            f"Score {number(res.score)}" + (f" · bag count {res.bag_count}" if not ny else "")
        )
        e.add_field(name=team_name(t), value="\n".join(lines))
    return e


def _bid_word(value: int | None) -> str:
    if value is None:
        return "?"
    return bid_text(value)


def game_over_embed(table: Table, view: SeatView) -> discord.Embed:
    e = discord.Embed(title="Game over", colour=GOLD, description=final_text(table, view))
    e.add_field(
        name="Final score",
        value=f"{team_name(Team.NS)} {view.scores[0]} · {team_name(Team.EW)} {view.scores[1]}",
        inline=False,
    )
    e.add_field(name="Ratings", value=ratings_text(table), inline=False)
    e.set_footer(text=f"Table {table.id} · {plural(len(view.results), 'hand')}")
    return e


def ratings_text(table: Table) -> str:
    """Each member's rating change, or why the game is not rated."""
    if table.ratings is None:
        if any(o.user_id is None for o in table.seats.values()):
            return "Not rated: computer players took part (the server's league settings)."
        return "Not rated."
    names = seat_names(table)
    lines = [
        f"{names[r.seat]}: {r.before:,} → **{r.after:,}** ({signed(r.delta)})"
        for r in sorted(table.ratings, key=lambda r: r.seat)
    ]
    return "\n".join(lines) or "Not rated."


def game_over_components(table: Table) -> discord.ui.View:
    v = discord.ui.View(timeout=None)
    v.add_item(
        button(
            ComponentRef(table.id, "again"),
            "Play again",
            discord.ButtonStyle.success,
            emoji="🔁",
        )
    )
    return v
