"""A server's league settings and seasons, and the server's row lock every league write takes.

Every method is scoped by server (``guild_id``): nothing of one server is visible from another.
:func:`lock_settings` is where each league write of a server starts (a settings change, a new
season, :mod:`bot.store.league_recorder` recording a game); :func:`season_scope` resolves the
season a read asks for (:mod:`bot.store.league_standings`).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Final

from bot.i18n import _
from bot.league.errors import SeasonError
from bot.league.models import Season
from bot.league.settings import GuildSettings, validate_changes
from bot.store.db import Database, Queries, Tx
from bot.store.sql import epoch, utc

SEASON_NAME_MAX: Final = 40
_DEFAULTS: Final = GuildSettings(guild_id=0)


class SettingsStore:
    """A server's settings and seasons over one :class:`Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def get(self, guild_id: int) -> GuildSettings:
        """The server's settings (the defaults when it never changed any)."""
        return await read_settings(self.db, guild_id)

    async def update(self, guild_id: int, **changes: Any) -> GuildSettings:
        """Change some of ``preset``, ``target`` (``None`` = the preset's), ``turn_timer``,
        ``allowed_channels`` (ids; empty = all), ``min_games``, ``rate_bot_games``,
        ``organiser_role`` (a role id; ``None`` = none).

        Raises :class:`~bot.league.errors.SettingsError` (nothing changed) on a bad value.
        """
        async with self.db.transaction("settings") as conn:
            current = await lock_settings(conn, guild_id)
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
            return await read_settings(conn, guild_id)

    async def seasons(self, guild_id: int) -> list[Season]:
        """The server's seasons, oldest first; the current one is always included."""
        _, cur = await season_scope(self.db, guild_id, None)
        rows = await self.db.fetch(
            "SELECT season, name, started_at FROM league_seasons WHERE guild_id = ? "
            "ORDER BY season",
            (guild_id,),
        )
        out = [Season(r[0], r[1], utc(r[2]), r[0] == cur) for r in rows]
        if all(s.number != cur for s in out):
            out.append(Season(cur, f"Season {cur}", None, True))
        return out

    async def start_season(
        self, guild_id: int, name: str | None = None, *, now: datetime | None = None
    ) -> Season:
        """Start a new season: standings start afresh; old seasons stay viewable."""
        started = now or datetime.now(UTC)
        async with self.db.transaction("league") as conn:
            settings = await lock_settings(conn, guild_id)
            number = settings.current_season + 1
            title = _season_name(name, number)
            if await conn.fetchrow(
                "SELECT 1 FROM league_seasons WHERE guild_id = ? AND lower(name) = lower(?)",
                (guild_id, title),
            ):
                raise SeasonError(_("There is already a season called {name}", name=repr(title)))
            await ensure_season(conn, guild_id, settings.current_season, started)
            await conn.execute(
                "INSERT INTO league_seasons (guild_id, season, name, started_at) "
                "VALUES (?, ?, ?, ?)",
                (guild_id, number, title, epoch(started)),
            )
            await conn.execute(
                "UPDATE league_settings SET current_season = ? WHERE guild_id = ?",
                (number, guild_id),
            )
        return Season(number, title, started, True)


async def season_scope(db: Queries, guild_id: int, season: int | None) -> tuple[int, int]:
    """(min_games, season number) of a read: ``season`` checked, ``None`` = the current one."""
    row = await db.fetchrow(
        "SELECT min_games, current_season FROM league_settings WHERE guild_id = ?",
        (guild_id,),
    )
    min_games, current = (row[0], row[1]) if row else (0, _DEFAULTS.current_season)
    if season is None:
        return min_games, current
    if not 1 <= season <= current:
        raise SeasonError(_("There is no season {number} on this server", number=season))
    return min_games, season


async def read_settings(conn: Queries, guild_id: int, *, lock: bool = False) -> GuildSettings:
    row = await conn.fetchrow(
        "SELECT preset, target, turn_timer, min_games, rate_bot_games, current_season, "
        "organiser_role "
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
        organiser_role=None if row[6] is None else int(row[6]),
    )


async def lock_settings(conn: Tx, guild_id: int) -> GuildSettings:
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
    return await read_settings(conn, guild_id, lock=True)


async def ensure_season(conn: Tx, guild_id: int, season: int, started: datetime) -> None:
    """The season's row, named ``Season N``, unless it has one."""
    await conn.execute(
        "INSERT INTO league_seasons (guild_id, season, name, started_at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT DO NOTHING",
        (guild_id, season, f"Season {season}", epoch(started)),
    )


def _season_name(name: str | None, number: int) -> str:
    if name is None:
        return f"Season {number}"
    title = " ".join(name.split())
    if not title:
        raise SeasonError(_("A season name cannot be empty"))
    if len(title) > SEASON_NAME_MAX:
        raise SeasonError(_("A season name is at most {n} characters", n=SEASON_NAME_MAX))
    return title
