"""Reading the league's running totals: leaderboards, ranks, partnerships, a member's stats
and rating history.

Every method is scoped by server (``guild_id``) and by game (``spades``, ``whist``,
``euchre``: a game counts only toward its own).  Standings hold running totals
(:mod:`bot.store.league_recorder` keeps them), so these reads touch a few index entries and
never the games themselves.
"""

from __future__ import annotations

from typing import Final

from bot.engine.games import DEFAULT_GAME
from bot.league.models import (
    PAGE_SIZE,
    LeaderboardPage,
    LeaderboardRow,
    LeaderboardSort,
    PartnershipPage,
    PartnershipRow,
    PartnerSummary,
    PlayerStats,
    RatingPoint,
    page_count,
)
from bot.league.ratings import DISPLAY_SCALE, display_rating, shown_above
from bot.league.stats import total_names
from bot.store.db import Database, Row
from bot.store.league_settings import season_scope
from bot.store.sql import utc

TREND_GAMES: Final = 10
_TOTALS: Final = total_names()

# Per order: ORDER BY clause, and the row value that sorts descending in that order ({p}: the
# table alias), so that "ranks above" is one row-value comparison an index range can answer.
_ORDER: Final[dict[LeaderboardSort, tuple[str, str]]] = {
    LeaderboardSort.RATING: (
        "rating DESC, rated_games DESC, user_id",
        "({p}rating, {p}rated_games, -{p}user_id)",
    ),
    LeaderboardSort.WINS: (
        "wins DESC, rated_games, user_id",
        "({p}wins, -{p}rated_games, -{p}user_id)",
    ),
    LeaderboardSort.WIN_RATE: (
        "win_rate DESC, rated_games DESC, user_id",
        "({p}win_rate, {p}rated_games, -{p}user_id)",
    ),
    LeaderboardSort.GAMES: (
        "rated_games DESC, wins DESC, user_id",
        "({p}rated_games, {p}wins, -{p}user_id)",
    ),
}
_ROW_COLUMNS: Final = "user_id, display_name, mu, sigma, games, wins, losses, rated_games"
# One query for the count of ranked players, a member's standing row and how many ranked
# players come before it.  Parameters: ?1 guild, ?2 season, ?3 min_games, ?4 user, ?5 game.
# Ranked above: by rating, a higher *displayed* rating (equal ratings share a rank; the
# displayed rating is 1000 + round(40 × rating), so it is higher from rating ≥ (shown − 1000
# + 0.5) / 40 on, an index range); in the other orders, every row that sorts before.
_ABOVE: Final = {
    order: f"{above.format(p='o.')} > {above.format(p='v.')}"
    for order, (_, above) in _ORDER.items()
}
_ABOVE[LeaderboardSort.RATING] = (
    f"o.rating >= (ROUND(v.rating * {DISPLAY_SCALE}) + 0.5) / {DISPLAY_SCALE}.0"
)
_HEAD: Final = {
    order: (
        "SELECT (SELECT COUNT(*) FROM league_standings "  # noqa: S608 - fixed SQL pieces
        "        WHERE guild_id = ?1 AND season = ?2 AND game = ?5 AND rated_games >= ?3) "
        "       AS ranked, "
        "       (SELECT COUNT(*) FROM league_standings o "
        "        WHERE o.guild_id = ?1 AND o.season = ?2 AND o.game = ?5 "
        f"         AND o.rated_games >= ?3 AND {above}) AS above, v.* "
        "FROM (SELECT 1 AS one) AS viewer LEFT JOIN league_standings v "
        "ON v.guild_id = ?1 AND v.season = ?2 AND v.game = ?5 AND v.user_id = ?4"
    )
    for order, above in _ABOVE.items()
}


class StandingsStore:
    """League standings reads over one :class:`Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def leaderboard(
        self,
        guild_id: int,
        season: int | None = None,
        sort: LeaderboardSort | str = LeaderboardSort.RATING,
        page: int = 0,
        viewer_id: int | None = None,
        game: str = DEFAULT_GAME,
    ) -> LeaderboardPage:
        """One page (from 0, clamped) of the ranked players of ``game`` — those with at least
        the server's ``min_games`` — and the viewer's own row and rank wherever it is."""
        order = LeaderboardSort.parse(sort)
        min_games, season_no = await season_scope(self.db, guild_id, season)
        head = await self.db.fetchrow(
            _HEAD[order], (guild_id, season_no, min_games, viewer_id, game)
        )
        assert head is not None
        ranked = head["ranked"]
        pages = page_count(ranked)
        page = min(max(page, 0), pages - 1)
        rows = await self.db.fetch(
            f"SELECT {_ROW_COLUMNS} FROM league_standings "  # noqa: S608 - fixed SQL pieces
            f"WHERE guild_id = ? AND season = ? AND game = ? AND rated_games >= ? "
            f"ORDER BY {_ORDER[order][0]} "
            "LIMIT ? OFFSET ?",
            (guild_id, season_no, game, min_games, PAGE_SIZE, page * PAGE_SIZE),
        )
        ranks = [page * PAGE_SIZE + i + 1 for i in range(len(rows))]
        if order is LeaderboardSort.RATING and rows:
            ranks = await self._shared_ranks(guild_id, season_no, game, min_games, rows, ranks[0])
        entries = tuple(_leader_row(r, rank) for r, rank in zip(rows, ranks, strict=True))
        viewer = None
        if head["user_id"] is not None:
            ranked_viewer = head["rated_games"] >= min_games
            viewer = _leader_row(head, head["above"] + 1 if ranked_viewer else None)
        return LeaderboardPage(
            guild_id, season_no, order, page, pages, ranked, min_games, entries, viewer, game
        )

    async def _shared_ranks(
        self, guild_id: int, season: int, game: str, min_games: int, rows: list[Row], first: int
    ) -> list[int]:
        """Ranks of a page of the rating order: players showing the same rating share the
        rank of the first of them (1, 2, 2, 4 …), across page boundaries too."""
        shown = [display_rating(r["mu"], r["sigma"]) for r in rows]
        above = await self.db.fetchval(
            "SELECT COUNT(*) FROM league_standings WHERE guild_id = ? AND season = ? "
            "AND game = ? AND rated_games >= ? AND rating >= ?",
            (guild_id, season, game, min_games, shown_above(shown[0])),
        )
        ranks = [int(above) + 1]
        for i in range(1, len(rows)):
            ranks.append(ranks[-1] if shown[i] == shown[i - 1] else first + i)
        return ranks

    async def partnerships(
        self, guild_id: int, season: int | None = None, page: int = 0, game: str = DEFAULT_GAME
    ) -> PartnershipPage:
        """The best pairs: highest smoothed win rate ``(wins + 1) / (games + 2)``, then more
        games; pairs with fewer finished games together than ``min_games`` (at least 1) are
        left out.  Paged with ``has_next`` (no total: counting every pair is not worth it)."""
        min_games, season_no = await season_scope(self.db, guild_id, season)
        min_games = max(1, min_games)
        page = max(page, 0)
        rows = await self.db.fetch(
            "SELECT p.user_a, a.display_name, p.user_b, b.display_name, p.games, p.wins "
            "FROM (SELECT user_a, user_b, games, wins, score FROM league_partnerships "
            "      WHERE guild_id = ? AND season = ? AND game = ? AND games >= ? "
            "      ORDER BY score DESC, games DESC, user_a, user_b LIMIT ? OFFSET ?) AS p "
            "JOIN league_standings a ON a.guild_id = ? AND a.season = ? AND a.game = ? "
            "     AND a.user_id = p.user_a "
            "JOIN league_standings b ON b.guild_id = ? AND b.season = ? AND b.game = ? "
            "     AND b.user_id = p.user_b "
            "ORDER BY p.score DESC, p.games DESC, p.user_a, p.user_b",
            (
                guild_id,
                season_no,
                game,
                min_games,
                PAGE_SIZE + 1,
                page * PAGE_SIZE,
                guild_id,
                season_no,
                game,
                guild_id,
                season_no,
                game,
            ),
        )
        out = tuple(
            PartnershipRow(page * PAGE_SIZE + i + 1, r[0], r[1], r[2], r[3], r[4], r[5])
            for i, r in enumerate(rows[:PAGE_SIZE])
        )
        return PartnershipPage(
            guild_id, season_no, page, len(rows) > PAGE_SIZE, min_games, out, game
        )

    async def stats(
        self, guild_id: int, user_id: int, season: int | None = None, game: str = DEFAULT_GAME
    ) -> PlayerStats | None:
        """A member's season of ``game`` on this server, or ``None`` if they have no game of
        it in that season."""
        min_games, season_no = await season_scope(self.db, guild_id, season)
        row = await self.db.fetchrow(
            _HEAD[LeaderboardSort.RATING],
            (guild_id, season_no, min_games, user_id, game),
        )
        if row is None or row["user_id"] is None:
            return None
        ranked = row["ranked"]
        rank = row["above"] + 1 if row["rated_games"] >= min_games else None
        trend_rows = await self.db.fetch(
            "SELECT mu_before, sigma_before, mu_after, sigma_after FROM league_seats "
            "WHERE guild_id = ? AND user_id = ? AND game = ? AND season = ? "
            "AND mu_after IS NOT NULL ORDER BY game_id DESC LIMIT ?",
            (guild_id, user_id, game, season_no, TREND_GAMES),
        )
        trend = None
        if trend_rows:
            newest, oldest = trend_rows[0], trend_rows[-1]
            trend = display_rating(newest[2], newest[3]) - display_rating(oldest[0], oldest[1])
        frequent, successful = await self._partners(guild_id, season_no, game, user_id)
        return PlayerStats(
            guild_id=guild_id,
            season=season_no,
            user_id=user_id,
            display_name=row["display_name"],
            games=row["games"],
            wins=row["wins"],
            losses=row["losses"],
            abandoned=row["abandoned"],
            rated_games=row["rated_games"],
            mu=row["mu"],
            sigma=row["sigma"],
            rank=rank,
            ranked=ranked,
            trend=trend,
            most_frequent_partner=frequent,
            most_successful_partner=successful,
            game=game,
            **{name: row[name] for name in _TOTALS},
        )

    async def _partners(
        self, guild_id: int, season: int, game: str, user_id: int
    ) -> tuple[PartnerSummary | None, PartnerSummary | None]:
        """Most frequent partner (most games, then wins) and most successful (highest
        ``(wins + 1) / (games + 2)``, then games), over finished games."""
        rows = await self.db.fetch(
            "SELECT p.partner, s.display_name, p.games, p.wins, p.score, p.last_game_id FROM ("
            "  SELECT user_b AS partner, games, wins, score, last_game_id "
            "  FROM league_partnerships "
            "  WHERE guild_id = ?1 AND season = ?2 AND game = ?4 AND user_a = ?3 "
            "  UNION ALL SELECT user_a, games, wins, score, last_game_id "
            "  FROM league_partnerships "
            "  WHERE guild_id = ?1 AND season = ?2 AND game = ?4 AND user_b = ?3"
            ") AS p JOIN league_standings s "
            "ON s.guild_id = ?1 AND s.season = ?2 AND s.game = ?4 AND s.user_id = p.partner",
            (guild_id, season, user_id, game),
        )
        if not rows:
            return None, None
        frequent = max(rows, key=lambda r: (r[2], r[3], r[5]))
        successful = max(rows, key=lambda r: (r[4], r[2], r[5]))
        return (
            PartnerSummary(frequent[0], frequent[1], frequent[2], frequent[3]),
            PartnerSummary(successful[0], successful[1], successful[2], successful[3]),
        )

    async def rating_history(
        self, guild_id: int, user_id: int, season: int | None = None, game: str = DEFAULT_GAME
    ) -> list[RatingPoint]:
        """The member's rating in ``game`` after each rated game of the season, oldest first."""
        _, season_no = await season_scope(self.db, guild_id, season)
        rows = await self.db.fetch(
            "SELECT s.game_id, g.ended_at, s.mu_after, s.sigma_after FROM league_seats s "
            "JOIN league_games g ON g.game_id = s.game_id "
            "WHERE s.guild_id = ? AND s.user_id = ? AND s.game = ? AND s.season = ? "
            "AND s.mu_after IS NOT NULL ORDER BY s.game_id",
            (guild_id, user_id, game, season_no),
        )
        return [RatingPoint(r[0], utc(r[1]), r[2], r[3]) for r in rows]


def _leader_row(r: Row, rank: int | None) -> LeaderboardRow:
    return LeaderboardRow(
        rank,
        r["user_id"],
        r["display_name"],
        r["mu"],
        r["sigma"],
        r["games"],
        r["wins"],
        r["losses"],
        r["rated_games"],
    )
