"""The league repository: server settings, seasons, recorded games, standings and stats.

Every method is scoped by server (``guild_id``): nothing of one server is visible from another.
Writes go through :meth:`Database.transaction`; :meth:`LeagueStore.record_game` takes the
transaction's connection so that a game's final action and its recording commit together.
Standings hold running totals, so ``/leaderboard`` and ``/stats`` read a few index entries
and never the games themselves.  Standings, ratings and partnerships are kept per game
(``spades``, ``whist``, ``euchre``): a game counts only toward its own.
"""

from __future__ import annotations

import asyncio
import math
from datetime import UTC, datetime
from typing import Any, Final

from bot.league.errors import SeasonError
from bot.league.models import (
    PAGE_SIZE,
    SEAT_NAMES,
    TEAM_NAMES,
    FinishedGame,
    HistoryEntry,
    HistoryPage,
    LeaderboardPage,
    LeaderboardRow,
    LeaderboardSort,
    PartnershipPage,
    PartnershipRow,
    PartnerSummary,
    PlayerStats,
    RatingChange,
    RatingPoint,
    RecordedGame,
    Season,
    SeatPlayer,
)
from bot.league.ratings import (
    BOT_SKILLS,
    DISPLAY_SCALE,
    INITIAL,
    Skill,
    conservative,
    display_rating,
    shown_above,
)
from bot.league.recording import RECORD_ENCODING, PreparedGame, decode_record, prepare_game
from bot.league.results import rate_finished
from bot.league.settings import GuildSettings, validate_changes
from bot.league.stats import HandTotals, total_names
from bot.store.db import Database, Queries, Row, Tx

SEASON_NAME_MAX: Final = 40
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
_DEFAULTS: Final = GuildSettings(guild_id=0)

_STANDINGS_COLUMNS: Final = (
    "guild_id, season, game, user_id, display_name, mu, sigma, rating, games, wins, losses, "
    "abandoned, rated_games, win_rate, " + ", ".join(_TOTALS) + ", last_game_id"
)
_ADDED: Final = ("games", "wins", "losses", "abandoned", "rated_games", *_TOTALS)
_S: Final = "league_standings"  # an upsert's DO UPDATE names the old row's columns in full
_STANDINGS_UPSERT: Final = (
    f"INSERT INTO league_standings ({_STANDINGS_COLUMNS}) "  # noqa: S608 - fixed column names
    f"VALUES ({', '.join('?' * len(_STANDINGS_COLUMNS.split(',')))}) "
    "ON CONFLICT (guild_id, season, game, user_id) DO UPDATE SET "
    "display_name = excluded.display_name, mu = excluded.mu, sigma = excluded.sigma, "
    "rating = excluded.rating, last_game_id = excluded.last_game_id, "
    + ", ".join(f"{c} = {_S}.{c} + excluded.{c}" for c in _ADDED)
    + f", win_rate = CASE WHEN {_S}.wins + {_S}.losses + excluded.wins + excluded.losses > 0 "
    f"THEN CAST({_S}.wins + excluded.wins AS DOUBLE PRECISION) / "
    f"({_S}.wins + {_S}.losses + excluded.wins + excluded.losses) ELSE 0.0 END"
)
_PARTNERSHIP_UPSERT: Final = (
    "INSERT INTO league_partnerships "
    "(guild_id, season, game, user_a, user_b, games, wins, score, last_game_id) "
    "VALUES (?, ?, ?, ?, ?, 1, ?, ?, ?) "
    "ON CONFLICT (guild_id, season, game, user_a, user_b) DO UPDATE SET "
    "games = league_partnerships.games + 1, wins = league_partnerships.wins + excluded.wins, "
    "score = (league_partnerships.wins + excluded.wins + 1.0) / (league_partnerships.games + 3.0), "
    "last_game_id = excluded.last_game_id"
)


def _ts(when: datetime) -> float:
    return when.timestamp()


def _dt(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, UTC)


def _marks(n: int) -> str:
    """``?, ?, …``: ``n`` bound parameters for an ``IN`` list."""
    return ", ".join("?" * n)


def _pages(total: int) -> int:
    return max(1, math.ceil(total / PAGE_SIZE))


class LeagueStore:
    """League reads and writes over one :class:`Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    # ------------------------------------------------------------------ settings
    async def get_settings(self, guild_id: int) -> GuildSettings:
        """The server's settings (the defaults when it never changed any)."""
        return await _settings(self.db, guild_id)

    async def update_settings(self, guild_id: int, **changes: Any) -> GuildSettings:
        """Change some of ``preset``, ``target`` (``None`` = the preset's), ``turn_timer``,
        ``allowed_channels`` (ids; empty = all), ``min_games``, ``rate_bot_games``.

        Raises :class:`~bot.league.errors.SettingsError` (nothing changed) on a bad value.
        """
        async with self.db.transaction() as conn:
            current = await _lock_settings(conn, guild_id)
            valid = validate_changes(current, changes)
            columns = [c for c in valid if c != "allowed_channels"]
            if columns:
                # column names come from the fixed list of SETTING_NAMES, values are bound
                assignments = ", ".join(f"{c} = ?" for c in columns)
                values = [int(v) if isinstance(v, bool) else v for v in map(valid.get, columns)]
                await conn.execute(
                    f"UPDATE league_settings SET {assignments} WHERE guild_id = ?",  # noqa: S608
                    (*values, guild_id),
                )
            if "allowed_channels" in valid:
                await conn.execute(
                    "DELETE FROM league_allowed_channels WHERE guild_id = ?", (guild_id,)
                )
                await conn.executemany(
                    "INSERT INTO league_allowed_channels (guild_id, channel_id) VALUES (?, ?)",
                    [(guild_id, c) for c in sorted(valid["allowed_channels"])],
                )
            return await _settings(conn, guild_id)

    # ------------------------------------------------------------------ seasons
    async def seasons(self, guild_id: int) -> list[Season]:
        """The server's seasons, oldest first; the current one is always included."""
        _, cur = await self._season(guild_id, None)
        rows = await self.db.fetch(
            "SELECT season, name, started_at FROM league_seasons WHERE guild_id = ? "
            "ORDER BY season",
            (guild_id,),
        )
        out = [Season(r[0], r[1], _dt(r[2]), r[0] == cur) for r in rows]
        if all(s.number != cur for s in out):
            out.append(Season(cur, f"Season {cur}", None, True))
        return out

    async def start_season(
        self, guild_id: int, name: str | None = None, *, now: datetime | None = None
    ) -> Season:
        """Start a new season: standings start afresh; old seasons stay viewable."""
        started = now or datetime.now(UTC)
        async with self.db.transaction() as conn:
            settings = await _lock_settings(conn, guild_id)
            number = settings.current_season + 1
            title = _season_name(name, number)
            if await conn.fetchrow(
                "SELECT 1 FROM league_seasons WHERE guild_id = ? AND lower(name) = lower(?)",
                (guild_id, title),
            ):
                raise SeasonError(f"There is already a season called {title!r}")
            await _ensure_season(conn, guild_id, settings.current_season, started)
            await conn.execute(
                "INSERT INTO league_seasons (guild_id, season, name, started_at) "
                "VALUES (?, ?, ?, ?)",
                (guild_id, number, title, _ts(started)),
            )
            await conn.execute(
                "UPDATE league_settings SET current_season = ? WHERE guild_id = ?",
                (number, guild_id),
            )
        return Season(number, title, started, True)

    async def _season(self, guild_id: int, season: int | None) -> tuple[int, int]:
        """(min_games, season number): ``season`` checked, ``None`` = the current one."""
        row = await self.db.fetchrow(
            "SELECT min_games, current_season FROM league_settings WHERE guild_id = ?",
            (guild_id,),
        )
        min_games, current = (row[0], row[1]) if row else (0, _DEFAULTS.current_season)
        if season is None:
            return min_games, current
        if not 1 <= season <= current:
            raise SeasonError(f"There is no season {season} on this server")
        return min_games, season

    # ------------------------------------------------------------------ recording
    async def record(self, finished: FinishedGame) -> RecordedGame:
        """Prepare the game in a worker thread, then :meth:`record_game` in a transaction of
        its own."""
        prepared = await asyncio.to_thread(prepare_game, finished)
        async with self.db.transaction() as conn:
            return await self.record_game(conn, prepared)

    async def record_game(self, conn: Tx, game: FinishedGame | PreparedGame) -> RecordedGame:
        """Store a finished game whole and update standings, ratings and partnerships.

        ``conn`` is the connection of an open :meth:`Database.transaction`.  ``game`` is best
        prepared beforehand (:func:`bot.league.recording.prepare_game`, off the event loop and
        outside the transaction); a plain :class:`FinishedGame` is prepared here.  A record
        that does not replay to the game's scores and winner raises
        :class:`~bot.league.errors.InvalidGame` before anything is written.
        """
        prepared = game if isinstance(game, PreparedGame) else prepare_game(game)
        finished, summary = prepared.finished, prepared.summary
        guild, solo = finished.guild_id, finished.solo
        game_name = finished.rules.game
        settings = await _lock_settings(conn, guild)
        rate_bots, season = settings.rate_bot_games, settings.current_season
        await _ensure_season(conn, guild, season, finished.started_at)
        rated = not finished.abandoned and (rate_bots or not finished.has_bots)
        before = await _skills(conn, guild, season, game_name, finished.seats)
        after = rate_finished(finished, before) if rated else before
        game_id = await conn.fetchval(
            "INSERT INTO league_games (guild_id, season, channel_id, table_id, started_at, "
            "ended_at, abandoned, rated, preset, rules, hands, score_ns, score_ew, winner, "
            "solo, players, winner_seat, game) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING game_id",
            (
                guild,
                season,
                finished.channel_id,
                finished.table_id,
                _ts(finished.started_at),
                _ts(finished.ended_at),
                int(finished.abandoned),
                int(rated),
                finished.rules.preset,
                prepared.rules_json,
                summary.hands,
                *((0, 0, None) if solo else (*finished.scores, finished.winner)),
                int(solo),
                len(finished.seats),
                SEAT_NAMES.index(finished.winner) if solo and finished.winner else None,
                game_name,
            ),
        )
        assert game_id is not None
        await conn.execute(
            "INSERT INTO league_records (game_id, encoding, data) VALUES (?, ?, ?)",
            (game_id, RECORD_ENCODING, prepared.record_blob),
        )
        changes: list[RatingChange] = []
        seat_rows = []
        standing_rows = []
        for i, sp in enumerate(finished.seats):
            b, a = before[i], after[i]
            rated_seat = rated and sp.user_id is not None
            seat_rows.append(
                (game_id, i, guild, season, sp.user_id, sp.display_name, sp.bot_level)
                + ((b.mu, b.sigma, a.mu, a.sigma) if rated_seat else (None, None, None, None))
                + (int(sp.forfeit), finished.scores[finished.side_of(i)], game_name)
            )
            if sp.user_id is None:
                continue
            if rated_seat:
                changes.append(
                    RatingChange(sp.user_id, SEAT_NAMES[i], b.mu, b.sigma, a.mu, a.sigma)
                )
            standing_rows.append(
                _standing_row(
                    finished, i, sp.user_id, season, game_id, a, rated_seat, summary.seats[i]
                )
            )
        await conn.executemany(
            "INSERT INTO league_seats (game_id, seat, guild_id, season, user_id, display_name, "
            "bot_level, mu_before, sigma_before, mu_after, sigma_after, forfeit, score, game) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            seat_rows,
        )
        await conn.executemany(_STANDINGS_UPSERT, standing_rows)
        if not finished.abandoned and not solo:
            pairs = []
            for team in (0, 1):
                x, y = finished.seats[team].user_id, finished.seats[team + 2].user_id
                if x is None or y is None:
                    continue
                if finished.seats[team].forfeit or finished.seats[team + 2].forfeit:
                    continue  # a pair one of whom left did not finish together
                won = int(finished.winner == TEAM_NAMES[team])
                lo, hi = sorted((x, y))
                pairs.append((guild, season, game_name, lo, hi, won, (won + 1) / 3, game_id))
            await conn.executemany(_PARTNERSHIP_UPSERT, pairs)
        return RecordedGame(game_id, guild, season, rated, tuple(changes))

    # ------------------------------------------------------------------ leaderboard
    async def leaderboard(
        self,
        guild_id: int,
        season: int | None = None,
        sort: LeaderboardSort | str = LeaderboardSort.RATING,
        page: int = 0,
        viewer_id: int | None = None,
        game: str = "spades",
    ) -> LeaderboardPage:
        """One page (from 0, clamped) of the ranked players of ``game`` — those with at least
        the server's ``min_games`` — and the viewer's own row and rank wherever it is."""
        order = LeaderboardSort.parse(sort)
        min_games, season_no = await self._season(guild_id, season)
        head = await self.db.fetchrow(
            _HEAD[order], (guild_id, season_no, min_games, viewer_id, game)
        )
        assert head is not None
        ranked = head["ranked"]
        pages = _pages(ranked)
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
        self, guild_id: int, season: int | None = None, page: int = 0, game: str = "spades"
    ) -> PartnershipPage:
        """The best pairs: highest smoothed win rate ``(wins + 1) / (games + 2)``, then more
        games; pairs with fewer finished games together than ``min_games`` (at least 1) are
        left out.  Paged with ``has_next`` (no total: counting every pair is not worth it)."""
        min_games, season_no = await self._season(guild_id, season)
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

    # ------------------------------------------------------------------ stats
    async def stats(
        self, guild_id: int, user_id: int, season: int | None = None, game: str = "spades"
    ) -> PlayerStats | None:
        """A member's season of ``game`` on this server, or ``None`` if they have no game of
        it in that season."""
        min_games, season_no = await self._season(guild_id, season)
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
        self, guild_id: int, user_id: int, season: int | None = None, game: str = "spades"
    ) -> list[RatingPoint]:
        """The member's rating in ``game`` after each rated game of the season, oldest first."""
        _, season_no = await self._season(guild_id, season)
        rows = await self.db.fetch(
            "SELECT s.game_id, g.ended_at, s.mu_after, s.sigma_after FROM league_seats s "
            "JOIN league_games g ON g.game_id = s.game_id "
            "WHERE s.guild_id = ? AND s.user_id = ? AND s.game = ? AND s.season = ? "
            "AND s.mu_after IS NOT NULL ORDER BY s.game_id",
            (guild_id, user_id, game, season_no),
        )
        return [RatingPoint(r[0], _dt(r[1]), r[2], r[3]) for r in rows]

    # ------------------------------------------------------------------ history
    async def history(self, guild_id: int, user_id: int, page: int = 0) -> HistoryPage:
        """The member's games on this server (every season), newest first, 10 per page."""
        conn = self.db
        page = max(page, 0)
        mine = await self._my_games(guild_id, user_id, page)
        if not mine:
            count = await conn.fetchrow(
                "SELECT COUNT(*) FROM league_seats WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            )
            total = int(count[0]) if count else 0
            page = min(page, _pages(total) - 1)
            mine = await self._my_games(guild_id, user_id, page) if total else []
            if not mine:
                return HistoryPage(guild_id, user_id, page, _pages(total), total, ())
        total = mine[0]["total"]
        ids = [r[0] for r in mine]
        games: dict[int, Row] = {}
        seats: dict[int, list[SeatPlayer]] = {i: [] for i in ids}
        scores: dict[int, list[int | None]] = {i: [] for i in ids}
        for r in await conn.fetch(
            "SELECT g.game_id, g.season, g.ended_at, g.preset, g.abandoned, g.rated, "  # noqa: S608
            "g.score_ns, g.score_ew, g.winner, g.solo, g.winner_seat, s.user_id, s.display_name, "
            "s.bot_level, s.score, g.game "
            "FROM league_games g JOIN league_seats s ON s.game_id = g.game_id "
            f"WHERE g.game_id IN ({_marks(len(ids))}) ORDER BY g.game_id, s.seat",
            ids,
        ):
            games[r[0]] = r
            seats[r[0]].append(SeatPlayer(r["user_id"], r["display_name"], r["bot_level"]))
            scores[r[0]].append(r["score"])
        entries = tuple(_history_entry(m, games[m[0]], seats[m[0]], scores[m[0]]) for m in mine)
        return HistoryPage(guild_id, user_id, page, _pages(total), total, entries)

    async def _my_games(self, guild_id: int, user_id: int, page: int) -> list[Row]:
        return await self.db.fetch(
            "SELECT game_id, seat, mu_before, sigma_before, mu_after, sigma_after, forfeit, "
            "(SELECT COUNT(*) FROM league_seats WHERE guild_id = ?1 AND user_id = ?2) AS total "
            "FROM league_seats WHERE guild_id = ?1 AND user_id = ?2 "
            "ORDER BY game_id DESC LIMIT ?3 OFFSET ?4",
            (guild_id, user_id, PAGE_SIZE, page * PAGE_SIZE),
        )

    async def game_record(self, guild_id: int, game_id: int) -> dict[str, Any] | None:
        """The stored ``spades-record/1`` document of a game of this server, else ``None``."""
        row = await self.db.fetchrow(
            "SELECT r.data, r.encoding FROM league_records r "
            "JOIN league_games g ON g.game_id = r.game_id "
            "WHERE r.game_id = ? AND g.guild_id = ?",
            (game_id, guild_id),
        )
        return None if row is None else decode_record(row[0], row[1])


# ---------------------------------------------------------------------- helpers
async def _settings(conn: Queries, guild_id: int, *, lock: bool = False) -> GuildSettings:
    row = await conn.fetchrow(
        "SELECT preset, target, turn_timer, min_games, rate_bot_games, current_season "
        "FROM league_settings WHERE guild_id = ?" + (" FOR UPDATE" if lock else ""),
        (guild_id,),
    )
    if row is None:
        return GuildSettings(guild_id=guild_id)
    channels = await conn.fetch(
        "SELECT channel_id FROM league_allowed_channels WHERE guild_id = ?", (guild_id,)
    )
    return GuildSettings(
        guild_id=guild_id,
        preset=row[0],
        target=row[1],
        turn_timer=row[2],
        allowed_channels=frozenset(int(c[0]) for c in channels),
        min_games=row[3],
        rate_bot_games=bool(row[4]),
        current_season=row[5],
    )


async def _lock_settings(conn: Tx, guild_id: int) -> GuildSettings:
    """The server's settings, its row locked until the transaction ends.

    Every league write of a server (recording a game, a settings change, a new season) starts
    here, so two processes — or two transactions of one process on PostgreSQL's connection
    pool — never interleave on one server's league: the second waits for the first to commit
    and then reads what it wrote.  Ratings, standings and partnerships are kept per server, so
    this one row lock covers every row such a write touches; a transaction locks one server
    only, so there is no lock order to get wrong.  On SQLite, ``BEGIN IMMEDIATE`` already
    serialises all writers and ``FOR UPDATE`` is dropped.
    """
    await conn.execute(
        "INSERT INTO league_settings (guild_id) VALUES (?) ON CONFLICT DO NOTHING", (guild_id,)
    )
    return await _settings(conn, guild_id, lock=True)


async def _ensure_season(conn: Tx, guild_id: int, season: int, started: datetime) -> None:
    await conn.execute(
        "INSERT INTO league_seasons (guild_id, season, name, started_at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT DO NOTHING",
        (guild_id, season, f"Season {season}", _ts(started)),
    )


def _season_name(name: str | None, number: int) -> str:
    if name is None:
        return f"Season {number}"
    title = " ".join(name.split())
    if not title:
        raise SeasonError("A season name cannot be empty")
    if len(title) > SEASON_NAME_MAX:
        raise SeasonError(f"A season name is at most {SEASON_NAME_MAX} characters")
    return title


async def _skills(
    conn: Tx, guild_id: int, season: int, game: str, seats: tuple[SeatPlayer, ...]
) -> tuple[Skill, ...]:
    users = [s.user_id for s in seats if s.user_id is not None]
    marks = _marks(len(users))
    rows = (
        []
        if not users
        else await conn.fetch(
            "SELECT user_id, mu, sigma FROM league_standings "  # noqa: S608 - placeholders only
            f"WHERE guild_id = ? AND season = ? AND game = ? AND user_id IN ({marks})",
            (guild_id, season, game, *users),
        )
    )
    known = {r[0]: Skill(r[1], r[2]) for r in rows}
    out = []
    for s in seats:
        if s.user_id is not None:
            out.append(known.get(s.user_id, INITIAL))
        else:
            out.append(BOT_SKILLS[s.bot_level or "normal"])
    return tuple(out)


def _standing_row(
    finished: FinishedGame,
    seat: int,
    user_id: int,
    season: int,
    game_id: int,
    skill: Skill,
    rated: bool,
    totals: HandTotals,
) -> tuple[Any, ...]:
    side = finished.side_names[finished.side_of(seat)]
    abandoned = finished.abandoned
    won = int(not abandoned and finished.winner == side and not finished.seats[seat].forfeit)
    lost = int(not abandoned and not won)
    return (
        finished.guild_id,
        season,
        finished.rules.game,
        user_id,
        finished.seats[seat].display_name,
        skill.mu,
        skill.sigma,
        conservative(skill.mu, skill.sigma),
        1,
        won,
        lost,
        int(abandoned),
        int(rated),
        float(won),
        *totals.values(),
        game_id,
    )


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


def _history_entry(
    mine: Row, game: Row, seats: list[SeatPlayer], seat_scores: list[int | None]
) -> HistoryEntry:
    seat = mine[1]
    solo = bool(game["solo"])
    if solo:  # games.md G2: every player alone; the best of the others' scores is "them"
        side, partner = SEAT_NAMES[seat], None
        others = [i for i in range(len(seats)) if i != seat]
        opponents = tuple(seats[i] for i in others)
        us = seat_scores[seat] or 0
        them = max((seat_scores[i] or 0) for i in others)
        won = game["winner_seat"] == seat
    else:
        side, partner = TEAM_NAMES[seat & 1], seats[seat ^ 2]
        opponents = (seats[(seat + 1) % 4], seats[(seat + 3) % 4])
        scores = (game["score_ns"], game["score_ew"])
        us, them = scores[seat & 1], scores[(seat & 1) ^ 1]
        won = game["winner"] == side
    if game["abandoned"]:
        result = "abandoned"
    elif mine["forfeit"]:
        result = "left (lost)"
    else:
        result = "won" if won else "lost"
    change = None
    if mine[4] is not None:
        change = display_rating(mine[4], mine[5]) - display_rating(mine[2], mine[3])
    return HistoryEntry(
        game_id=game["game_id"],
        season=game["season"],
        ended_at=_dt(game["ended_at"]),
        preset=game["preset"],
        seat=SEAT_NAMES[seat],
        team=side,
        partner=partner,
        opponents=opponents,
        score_us=us,
        score_them=them,
        result=result,
        rated=bool(game["rated"]),
        rating_change=change,
        game=game["game"],
    )
