"""Recording a finished game: the league's writes.

A game is stored whole (its row, its record, one row per seat) and the running totals it
changes are updated in the same transaction: each member's standing (rating, counts, per-hand
totals) and each pair's partnership, per server, season and game.  The transaction starts with
the server's settings row lock (:func:`bot.store.league_settings.lock_settings`), so ratings
read before the game and written after it never interleave with another write of the server.
:meth:`GameRecorder.record_game` takes the transaction's connection so that a table's final
action and its recording commit together.
"""

from __future__ import annotations

import asyncio
from typing import Any, Final

from bot.league.errors import AlreadyRecorded
from bot.league.models import (
    SEAT_NAMES,
    TEAM_NAMES,
    FinishedGame,
    RatingChange,
    RecordedGame,
    SeatPlayer,
)
from bot.league.ratings import BOT_SKILLS, INITIAL, Skill, conservative
from bot.league.recording import RECORD_ENCODING, PreparedGame, prepare_game
from bot.league.results import rate_finished
from bot.league.stats import HandTotals, total_names
from bot.store.db import Database, Tx
from bot.store.errors import UniqueViolation
from bot.store.league_settings import ensure_season, lock_settings
from bot.store.sql import epoch, in_marks

_TOTALS: Final = total_names()
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


class GameRecorder:
    """Stores finished games over one :class:`Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

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
        settings = await lock_settings(conn, guild)
        rate_bots, season = settings.rate_bot_games, settings.current_season
        await ensure_season(conn, guild, season, finished.started_at)
        rated = (
            finished.rateable and not finished.abandoned and (rate_bots or not finished.has_bots)
        )
        before = await _skills(conn, guild, season, game_name, finished.seats)
        after = rate_finished(finished, before) if rated else before
        try:
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
                    epoch(finished.started_at),
                    epoch(finished.ended_at),
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
        except UniqueViolation as e:
            if "table_id" not in e.columns:
                raise
            raise AlreadyRecorded(
                f"the game of table {finished.table_id} is recorded already"
            ) from e
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


async def _skills(
    conn: Tx, guild_id: int, season: int, game: str, seats: tuple[SeatPlayer, ...]
) -> tuple[Skill, ...]:
    users = [s.user_id for s in seats if s.user_id is not None]
    marks = in_marks(len(users))
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
