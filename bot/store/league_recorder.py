"""Recording a finished game: the league's writes (what to write is the league's to say:
:mod:`bot.league.outcome`).

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
from bot.league.models import SEAT_NAMES, FinishedGame, RecordedGame, SeatPlayer
from bot.league.outcome import SeatOutcome, settle, skills_before
from bot.league.ratings import Skill, conservative
from bot.league.recording import RECORD_ENCODING, PreparedGame, prepare_game
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
        async with self.db.transaction("league") as conn:
            return await self.record_game(conn, prepared)

    async def record_game(self, conn: Tx, game: FinishedGame | PreparedGame) -> RecordedGame:
        """Store a finished game whole and update standings, ratings and partnerships.

        ``conn`` is the connection of an open :meth:`Database.transaction`.  ``game`` is best
        prepared beforehand (:func:`bot.league.recording.prepare_game`, off the event loop and
        outside the transaction); a plain :class:`FinishedGame` is prepared here.  A record
        that does not replay to the game's scores and winner raises
        :class:`~bot.league.errors.InvalidGame` before anything is written.  What the game
        changes is the league's to say (:func:`bot.league.outcome.settle`); this writes it.
        """
        prepared = game if isinstance(game, PreparedGame) else prepare_game(game)
        finished, summary = prepared.finished, prepared.summary
        guild, solo = finished.guild_id, finished.solo
        game_name = finished.rules.game
        settings = await lock_settings(conn, guild)
        season = settings.current_season
        await ensure_season(conn, guild, season, finished.started_at)
        known = await _known_skills(conn, guild, season, game_name, finished.seats)
        outcome = settle(finished, skills_before(finished.seats, known), settings.rate_bot_games)
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
                    int(outcome.rated),
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
        await conn.executemany(
            "INSERT INTO league_seats (game_id, seat, guild_id, season, user_id, display_name, "
            "bot_level, mu_before, sigma_before, mu_after, sigma_after, forfeit, score, game) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [_seat_row(game_id, guild, season, game_name, s) for s in outcome.seats],
        )
        await conn.executemany(
            _STANDINGS_UPSERT,
            [
                _standing_row(finished, season, game_id, s, summary.seats[s.seat])
                for s in outcome.seats
                if s.player.user_id is not None
            ],
        )
        await conn.executemany(
            _PARTNERSHIP_UPSERT,
            [
                (guild, season, game_name, p.low, p.high, int(p.won), (p.won + 1) / 3, game_id)
                for p in outcome.partnerships
            ],
        )
        return RecordedGame(game_id, guild, season, outcome.rated, outcome.changes)


async def _known_skills(
    conn: Tx, guild_id: int, season: int, game: str, seats: tuple[SeatPlayer, ...]
) -> dict[int, Skill]:
    """The skills the seated members have in this season and game (none yet: absent)."""
    users = [s.user_id for s in seats if s.user_id is not None]
    if not users:
        return {}
    rows = await conn.fetch(
        "SELECT user_id, mu, sigma FROM league_standings "  # noqa: S608 - placeholders only
        f"WHERE guild_id = ? AND season = ? AND game = ? AND user_id IN ({in_marks(len(users))})",
        (guild_id, season, game, *users),
    )
    return {r[0]: Skill(r[1], r[2]) for r in rows}


def _seat_row(game_id: int, guild: int, season: int, game: str, s: SeatOutcome) -> tuple[Any, ...]:
    b, a, p = s.before, s.after, s.player
    skills = (b.mu, b.sigma, a.mu, a.sigma) if s.rated else (None, None, None, None)
    who = (p.user_id, p.display_name, p.bot_level)
    return (game_id, s.seat, guild, season, *who, *skills, int(p.forfeit), s.score, game)


def _standing_row(
    finished: FinishedGame, season: int, game_id: int, s: SeatOutcome, totals: HandTotals
) -> tuple[Any, ...]:
    skill = s.after
    return (
        finished.guild_id,
        season,
        finished.rules.game,
        s.player.user_id,
        s.player.display_name,
        skill.mu,
        skill.sigma,
        conservative(skill.mu, skill.sigma),
        1,
        int(s.won),
        int(s.lost),
        int(finished.abandoned),
        int(s.rated),
        float(s.won),
        *totals.values(),
        game_id,
    )
