"""Embeds and paging components of the league commands."""

from __future__ import annotations

import discord

from bot.engine.errors import RulesError
from bot.engine.games import entry_of, is_default_game
from bot.league.models import (
    HistoryPage,
    LeaderboardPage,
    LeaderboardRow,
    PartnershipPage,
    PlayerStats,
)
from bot.names import md_name
from bot.ui.game_text import percent as _pct
from bot.ui.games import text_of
from bot.ui.league_components import LeagueRef, league_button, league_select
from bot.ui.review_components import ReviewRef, review_button
from bot.ui.text import plural

BLURPLE = discord.Colour(0x5865F2)
SORT_LABELS = {"rating": "rating", "wins": "wins", "win_rate": "win rate", "games": "games"}


def _row_line(r: LeaderboardRow, me: int | None) -> str:
    rank = f"#{r.rank}" if r.rank is not None else "unranked"
    name = f"**{md_name(r.display_name)}**" if r.user_id == me else md_name(r.display_name)
    return (
        f"`{rank:>5}` {name} — {r.rating:,} · {plural(r.rated_games, 'game')} · "
        f"{plural(r.wins, 'win')} · "
        f"{_pct(r.win_rate if r.wins + r.losses else None)}"
    )


def leaderboard_embed(page: LeaderboardPage, season_name: str, viewer: int) -> discord.Embed:
    e = discord.Embed(
        title=f"Leaderboard — {entry_of(page.game).title} — {season_name}",
        description=f"Sorted by {SORT_LABELS.get(page.sort.value, page.sort.value)}.",
        colour=BLURPLE,
    )
    if page.rows:
        e.add_field(
            name="Rank · player — rating · games · wins · win rate",
            value="\n".join(_row_line(r, viewer) for r in page.rows),
            inline=False,
        )
    else:
        e.add_field(name="No ranked players yet", value="Finish a game to appear here.")
    on_page = any(r.user_id == viewer for r in page.rows)
    if page.viewer is not None and not on_page:
        e.add_field(name="You", value=_row_line(page.viewer, viewer), inline=False)
    elif page.viewer is None:
        e.add_field(name="You", value="No games this season yet.", inline=False)
    hidden = (
        f" · at least {plural(page.min_games, 'rated game')} to be ranked" if page.min_games else ""
    )
    e.set_footer(
        text=f"Page {page.page + 1}/{page.pages} · {page.ranked} ranked{hidden} · "
        "rating = 1000 + 40 × (μ − 3σ), a cautious estimate: newcomers start at 1,000"
    )
    return e


def partnerships_embed(page: PartnershipPage, season_name: str) -> discord.Embed:
    e = discord.Embed(
        title=f"Best partnerships — {entry_of(page.game).title} — {season_name}", colour=BLURPLE
    )
    if page.rows:
        e.description = "\n".join(
            f"`#{r.rank:>3}` {r.name_a} & {r.name_b} — {r.wins}/{r.games} won ({_pct(r.win_rate)})"
            for r in page.rows
        )
    else:
        e.description = "No partnership has finished a game together yet."
    e.set_footer(
        text=f"Page {page.page + 1} · pairs with at least {plural(page.min_games, 'game')}"
    )
    return e


def paging(ref: LeagueRef, page: int, pages: int | None, has_next: bool) -> discord.ui.View:
    """Previous / Next, and the switch between players and partnerships."""
    v = discord.ui.View(timeout=None)
    last = pages - 1 if pages is not None else None
    v.add_item(
        league_button(ref.to(page=max(0, page - 1)), "◀ Previous", disabled=page <= 0, tag="p")
    )
    nxt = has_next if last is None else page < last
    v.add_item(league_button(ref.to(page=page + 1), "Next ▶", disabled=not nxt, tag="n"))
    if ref.view in ("players", "pairs"):
        other = "pairs" if ref.view == "players" else "players"
        label = "Partnerships" if other == "pairs" else "Players"
        v.add_item(
            league_button(ref.to(view=other, page=0), label, style=discord.ButtonStyle.primary)
        )
    return v


def stats_embed(s: PlayerStats, season_name: str) -> discord.Embed:
    title = f"{md_name(s.display_name)} — {entry_of(s.game).title} — {season_name}"
    e = discord.Embed(title=title, colour=BLURPLE)
    rank = f"#{s.rank} of {s.ranked}" if s.rank is not None else "unranked"
    trend = "—" if s.trend is None else f"{s.trend:+d} over the last games"
    e.add_field(name="Rating", value=f"**{s.rating:,}** ({rank})\nTrend: {trend}")
    unrated = s.games - s.rated_games - s.abandoned
    e.add_field(
        name="Games",
        value=f"{plural(s.rated_games, 'rated game')} · {unrated} unrated · "
        f"{s.abandoned} abandoned\n{s.wins} won · {s.losses} lost · "
        f"win rate {_pct(s.win_rate)}",
    )
    text_of(s.game).stats_fields(e, s)
    freq, best = s.most_frequent_partner, s.most_successful_partner
    partners = []
    if freq is not None:
        partners.append(f"Most often: {md_name(freq.display_name)} ({plural(freq.games, 'game')})")
    if best is not None:
        partners.append(f"Most successful: {md_name(best.display_name)} ({_pct(best.win_rate)})")
    e.add_field(name="Partners", value="\n".join(partners) or "—")
    return e


def _title(game: str) -> str:
    """A stored game's title (its stored name if no registered game has it any more)."""
    try:
        return entry_of(game).title
    except RulesError:
        return game


def history_embed(h: HistoryPage, who: str) -> discord.Embed:
    """``who`` is a mention (it renders in the description, not in titles)."""
    e = discord.Embed(title="Recent games", colour=BLURPLE)
    lines = [f"Games of {who}:"]
    if not h.entries:
        lines.append("No games yet.")
    for g in h.entries:
        opp = (" & " if g.partner else ", ").join(md_name(p.display_name) for p in g.opponents)
        change = f" · {g.rating_change:+d}" if g.rating_change is not None else ""
        which = "" if is_default_game(g.game) else f"{_title(g.game)} · "
        # solo (games.md G2): no partner; the score beside the best of the others'
        who = f"with {md_name(g.partner.display_name)} vs {opp}" if g.partner else f"solo vs {opp}"
        lines.append(
            f"`#{g.game_id}` {discord.utils.format_dt(g.ended_at, 'd')} · {which}{who} · "
            f"{g.score_us}–{g.score_them} **{g.result}**{change}"
        )
    e.description = "\n".join(lines)
    e.set_footer(
        text=f"Page {h.page + 1}/{h.pages} · {plural(h.total, 'game')} · pick one to export it"
    )
    return e


def history_view(ref: LeagueRef, h: HistoryPage) -> discord.ui.View:
    v = paging(ref, h.page, h.pages, False)
    if h.entries:
        options = [
            discord.SelectOption(
                label=f"Game #{g.game_id} — {g.result}",
                value=str(g.game_id),
                description=f"{g.preset}, {g.score_us}–{g.score_them}"[:100],
            )
            for g in h.entries
        ]
        v.add_item(league_select(ref.to(view="pick"), options, "Export a game as a record file"))
        for i, g in enumerate(h.entries):  # rows 2 and 3: five Review buttons each
            ref_review = ReviewRef("g", str(g.game_id))
            v.add_item(review_button(ref_review, f"Review #{g.game_id}", row=2 + i // 5))
    return v
