"""Embeds and paging components of the league commands."""

from __future__ import annotations

import discord

from bot.engine.errors import RulesError
from bot.engine.games import entry_of, is_default_game
from bot.i18n import N_, _, _n, number
from bot.league.models import (
    HistoryPage,
    LeaderboardPage,
    LeaderboardRow,
    PartnershipPage,
    PlayerStats,
)
from bot.names import md_name
from bot.ui.league.components import LeagueRef, league_button, league_select
from bot.ui.review.review_components import ReviewRef, review_button
from bot.ui.text.game_text import percent as _pct
from bot.ui.text.games import text_of

BLURPLE = discord.Colour(0x5865F2)
SORT_LABELS = {
    "rating": N_("rating"),
    "wins": N_("wins"),
    "win_rate": N_("win rate"),
    "games": N_("games"),
}


RESULTS = {  # a game's result for one player (bot.league.models.HistoryEntry.result)
    "won": N_("won"),
    "lost": N_("lost"),
    "left (lost)": N_("left (lost)"),
    "abandoned": N_("abandoned"),
}


def season_title(name: str, number: int) -> str:
    """A season's name as shown: one never named (stored as ``Season 3``) in the reader's
    language, a name an admin gave as it is."""
    if name == f"Season {number}":
        return _("Season {number}", number=number)
    return name


def result_word(result: str) -> str:
    return _(RESULTS[result]) if result in RESULTS else result


def game_name(game: str) -> str:
    """Spades, Whist, Euchre in the reader's language."""
    return _title(game)


def _row_line(r: LeaderboardRow, me: int | None) -> str:
    rank = f"#{r.rank}" if r.rank is not None else _("unranked")
    name = f"**{md_name(r.display_name)}**" if r.user_id == me else md_name(r.display_name)
    games = _n("{n} game", "{n} games", r.rated_games)
    wins = _n("{n} win", "{n} wins", r.wins)
    rate = _pct(r.win_rate if r.wins + r.losses else None)
    return f"`{rank:>5}` {name} — {number(r.rating)} · {games} · {wins} · {rate}"


def leaderboard_embed(page: LeaderboardPage, season_name: str, viewer: int) -> discord.Embed:
    sort = SORT_LABELS.get(page.sort.value)
    e = discord.Embed(
        title=_("Leaderboard — {game} — {season}", game=game_name(page.game), season=season_name),
        description=_("Sorted by {order}.", order=_(sort) if sort else page.sort.value),
        colour=BLURPLE,
    )
    if page.rows:
        e.add_field(
            name=_("Rank · player — rating · games · wins · win rate"),
            value="\n".join(_row_line(r, viewer) for r in page.rows),
            inline=False,
        )
    else:
        e.add_field(name=_("No ranked players yet"), value=_("Finish a game to appear here."))
    on_page = any(r.user_id == viewer for r in page.rows)
    if page.viewer is not None and not on_page:
        e.add_field(name=_("You"), value=_row_line(page.viewer, viewer), inline=False)
    elif page.viewer is None:
        e.add_field(name=_("You"), value=_("No games this season yet."), inline=False)
    hidden = (
        " · "
        + _n(
            "at least {n} rated game to be ranked",
            "at least {n} rated games to be ranked",
            page.min_games,
        )
        if page.min_games
        else ""
    )
    pages = _("Page {page}/{pages}", page=page.page + 1, pages=page.pages)
    ranked = _("{n} ranked", n=number(page.ranked))
    how = _("rating = 1000 + 40 × (μ − 3σ), a cautious estimate: newcomers start at {start}")
    e.set_footer(text=f"{pages} · {ranked}{hidden} · " + how.replace("{start}", number(1000)))
    return e


def partnerships_embed(page: PartnershipPage, season_name: str) -> discord.Embed:
    e = discord.Embed(
        title=_(
            "Best partnerships — {game} — {season}", game=game_name(page.game), season=season_name
        ),
        colour=BLURPLE,
    )
    if page.rows:
        e.description = "\n".join(
            f"`#{r.rank:>3}` {r.name_a} & {r.name_b} — "
            + _("{won}/{games} won ({rate})", won=r.wins, games=r.games, rate=_pct(r.win_rate))
            for r in page.rows
        )
    else:
        e.description = _("No partnership has finished a game together yet.")
    least = _n("pairs with at least {n} game", "pairs with at least {n} games", page.min_games)
    e.set_footer(text=_("Page {page}", page=page.page + 1) + f" · {least}")
    return e


def paging(ref: LeagueRef, page: int, pages: int | None, has_next: bool) -> discord.ui.View:
    """Previous / Next, and the switch between players and partnerships."""
    v = discord.ui.View(timeout=None)
    last = pages - 1 if pages is not None else None
    v.add_item(
        league_button(ref.to(page=max(0, page - 1)), _("◀ Previous"), disabled=page <= 0, tag="p")
    )
    nxt = has_next if last is None else page < last
    v.add_item(league_button(ref.to(page=page + 1), _("Next ▶"), disabled=not nxt, tag="n"))
    if ref.view in ("players", "pairs"):
        other = "pairs" if ref.view == "players" else "players"
        label = _("Partnerships") if other == "pairs" else _("Players")
        v.add_item(
            league_button(ref.to(view=other, page=0), label, style=discord.ButtonStyle.primary)
        )
    return v


def stats_embed(s: PlayerStats, season_name: str) -> discord.Embed:
    title = f"{md_name(s.display_name)} — {game_name(s.game)} — {season_name}"
    e = discord.Embed(title=title, colour=BLURPLE)
    rank = (
        _("#{rank} of {ranked}", rank=s.rank, ranked=s.ranked)
        if s.rank is not None
        else _("unranked")
    )
    trend = "—" if s.trend is None else _("{change} over the last games", change=f"{s.trend:+d}")
    rating = f"**{number(s.rating)}** ({rank})\n" + _("Trend: {trend}", trend=trend)
    e.add_field(name=_("Rating"), value=rating)
    unrated = s.games - s.rated_games - s.abandoned
    e.add_field(
        name=_("Games"),
        value=_n("{n} rated game", "{n} rated games", s.rated_games)
        + " · "
        + _(
            "{unrated} unrated · {abandoned} abandoned\n{won} won · {lost} lost · win rate {rate}",
            unrated=unrated,
            abandoned=s.abandoned,
            won=s.wins,
            lost=s.losses,
            rate=_pct(s.win_rate),
        ),
    )
    text_of(s.game).stats_fields(e, s)
    freq, best = s.most_frequent_partner, s.most_successful_partner
    partners = []
    if freq is not None:
        games = _n("{n} game", "{n} games", freq.games)
        name = md_name(freq.display_name)
        partners.append(_("Most often: {name} ({games})", name=name, games=games))
    if best is not None:
        name, rate = md_name(best.display_name), _pct(best.win_rate)
        partners.append(_("Most successful: {name} ({rate})", name=name, rate=rate))
    e.add_field(name=_("Partners"), value="\n".join(partners) or "—")
    return e


def _title(game: str) -> str:
    """A stored game's title (its stored name if no registered game has it any more)."""
    try:
        return _(entry_of(game).title)
    except RulesError:
        return game


def history_embed(h: HistoryPage, who: str) -> discord.Embed:
    """``who`` is a mention (it renders in the description, not in titles)."""
    e = discord.Embed(title=_("Recent games"), colour=BLURPLE)
    lines = [_("Games of {who}:", who=who)]
    if not h.entries:
        lines.append(_("No games yet."))
    for g in h.entries:
        opp = (" & " if g.partner else ", ").join(md_name(p.display_name) for p in g.opponents)
        change = f" · {g.rating_change:+d}" if g.rating_change is not None else ""
        which = "" if is_default_game(g.game) else f"{_title(g.game)} · "
        # solo (games.md G2): no partner; the score beside the best of the others'
        who = (
            _(
                "with {partner} vs {opponents}",
                partner=md_name(g.partner.display_name),
                opponents=opp,
            )
            if g.partner
            else _("solo vs {opponents}", opponents=opp)
        )
        when = f"`#{g.game_id}` {discord.utils.format_dt(g.ended_at, 'd')} · {which}{who} · "
        if g.withheld:  # other tables of its round still play its boards
            lines.append(when + _("⏳ its round is still being played"))
            continue
        lines.append(f"{when}{g.score_us}–{g.score_them} **{result_word(g.result)}**{change}")
    e.description = "\n".join(lines)
    games = _n("{n} game", "{n} games", h.total)
    pages = _("Page {page}/{pages}", page=h.page + 1, pages=h.pages)
    e.set_footer(text=f"{pages} · {games} · " + _("pick one to export it"))
    return e


def history_view(ref: LeagueRef, h: HistoryPage) -> discord.ui.View:
    v = paging(ref, h.page, h.pages, False)
    if h.entries:
        options = [
            discord.SelectOption(
                label=_("Game #{id} — {result}", id=g.game_id, result=result_word(g.result)),
                value=str(g.game_id),
                description=f"{g.preset}, {g.score_us}–{g.score_them}"[:100],
            )
            if not g.withheld
            else discord.SelectOption(
                label=_("Game #{id}", id=g.game_id),
                value=str(g.game_id),
                description=_("its round is still being played")[:100],
            )
            for g in h.entries
        ]
        v.add_item(league_select(ref.to(view="pick"), options, _("Export a game as a record file")))
        for i, g in enumerate(h.entries):  # rows 2 and 3: five Review buttons each
            ref_review = ReviewRef("g", str(g.game_id))
            label = _("Review #{id}", id=g.game_id)
            v.add_item(review_button(ref_review, label, row=2 + i // 5))
    return v
