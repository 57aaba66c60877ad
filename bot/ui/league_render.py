"""Embeds and paging components of the league commands."""

from __future__ import annotations

import discord

from bot.engine.rules import GAME_TITLES
from bot.league.models import (
    HistoryPage,
    LeaderboardPage,
    LeaderboardRow,
    PartnershipPage,
    PlayerStats,
)
from bot.names import md_name
from bot.ui.league_components import LeagueRef, league_button, league_select
from bot.ui.review_components import ReviewRef, review_button
from bot.ui.text import plural

BLURPLE = discord.Colour(0x5865F2)
SORT_LABELS = {"rating": "rating", "wins": "wins", "win_rate": "win rate", "games": "games"}


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{x * 100:.0f}%"


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
        title=f"Leaderboard — {GAME_TITLES[page.game]} — {season_name}",
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
        title=f"Best partnerships — {GAME_TITLES[page.game]} — {season_name}", colour=BLURPLE
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
    title = f"{md_name(s.display_name)} — {GAME_TITLES[s.game]} — {season_name}"
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
    if s.game == "spades":
        _spades_fields(e, s)
    elif s.game == "euchre":
        _euchre_fields(e, s)
    else:
        e.add_field(name="Tricks", value=f"{_per_hand(s.tricks_per_hand)} tricks per hand")
    freq, best = s.most_frequent_partner, s.most_successful_partner
    partners = []
    if freq is not None:
        partners.append(f"Most often: {md_name(freq.display_name)} ({plural(freq.games, 'game')})")
    if best is not None:
        partners.append(f"Most successful: {md_name(best.display_name)} ({_pct(best.win_rate)})")
    e.add_field(name="Partners", value="\n".join(partners) or "—")
    return e


def _per_hand(x: float | None) -> str:
    return "—" if x is None else f"{x:.2f}"


def _euchre_fields(e: discord.Embed, s: PlayerStats) -> None:
    e.add_field(
        name="Calling",
        value=f"Made trump {s.maker_made}/{s.maker_hands} ({_pct(s.maker_rate)})\n"
        f"Alone {s.alone_made}/{s.alone_hands} ({_pct(s.alone_rate)}) · "
        f"{plural(s.marches, 'march', 'marches')}",
    )
    e.add_field(
        name="Defence",
        value=f"Euchred the makers {plural(s.euchres, 'time')}\n"
        f"{_per_hand(s.tricks_per_hand)} tricks per hand",
    )


def _spades_fields(e: discord.Embed, s: PlayerStats) -> None:
    avg_bid = "—" if s.average_bid is None else f"{s.average_bid:.2f}"
    avg_tricks = "—" if s.average_tricks is None else f"{s.average_tricks:.2f}"
    e.add_field(
        name="Bidding",
        value=f"Contracts made {_pct(s.contracts_made_rate)} ({s.contracts_made}/"
        f"{s.contract_hands})\nAverage bid {avg_bid} · tricks {avg_tricks}",
    )
    e.add_field(
        name="Nil",
        value=f"Nil {s.nil_made}/{s.nil_bids} ({_pct(s.nil_rate)})\n"
        f"Blind nil {s.blind_nil_made}/{s.blind_nil_bids} ({_pct(s.blind_nil_rate)})",
    )
    bags = "—" if s.bags_per_hand is None else f"{s.bags_per_hand:.2f}"
    e.add_field(
        name="Bags and sets", value=f"{bags} bags per hand\n{plural(s.sets, 'set')} suffered"
    )
    if s.claims or s.caught:  # games.md G1: renege claims
        e.add_field(
            name="Renege claims",
            value=f"{plural(s.claims, 'claim')} made, {s.claims_won} correct\n"
            f"Caught reneging {plural(s.caught, 'time')}",
        )


def history_embed(h: HistoryPage, who: str) -> discord.Embed:
    """``who`` is a mention (it renders in the description, not in titles)."""
    e = discord.Embed(title="Recent games", colour=BLURPLE)
    lines = [f"Games of {who}:"]
    if not h.entries:
        lines.append("No games yet.")
    for g in h.entries:
        opp = (" & " if g.partner else ", ").join(md_name(p.display_name) for p in g.opponents)
        change = f" · {g.rating_change:+d}" if g.rating_change is not None else ""
        which = "" if g.game == "spades" else f"{GAME_TITLES.get(g.game, g.game)} · "
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
