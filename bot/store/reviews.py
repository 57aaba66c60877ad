"""Repository for post-game reviews: stored analyses, and the facts of a league game a review
needs (which game a table became, who sat where).

Every query is scoped by server where a server is involved: a review of another server's game
cannot be read from here.
"""

from __future__ import annotations

import time

from bot.engine import SEATS, Seat
from bot.store.db import Database


class ReviewStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    # ------------------------------------------------------------------ analyses
    async def load_analysis(self, game_id: int, version: int) -> bytes | None:
        data = await self.db.fetchval(
            "SELECT data FROM review_analyses WHERE game_id = ? AND version = ?",
            (game_id, version),
        )
        return None if data is None else bytes(data)

    async def save_analysis(
        self, game_id: int, version: int, data: bytes, cpu_s: float = 0.0
    ) -> None:
        """Keep an analysis; one already kept for this game and version wins (two bot
        processes analysing at once store the same thing)."""
        async with self.db.transaction("review") as tx:
            await tx.execute(
                "INSERT INTO review_analyses (game_id, version, created_at, cpu_s, data) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, version) DO NOTHING",
                (game_id, version, time.time(), cpu_s, data),
            )

    # ------------------------------------------------------------------ league games
    async def game_of_table(self, guild_id: int, table_id: str) -> int | None:
        """The league game a finished table became (``None``: not recorded)."""
        value = await self.db.fetchval(
            "SELECT game_id FROM league_games WHERE guild_id = ? AND table_id = ? "
            "ORDER BY game_id DESC LIMIT 1",
            (guild_id, table_id),
        )
        return None if value is None else int(value)

    async def seats_of_game(self, guild_id: int, game_id: int) -> dict[Seat, int | None]:
        """Who sat where (member ids; ``None`` for computer players); empty if no such game
        on this server."""
        rows = await self.db.fetch(
            "SELECT seat, user_id FROM league_seats WHERE game_id = ? AND guild_id = ?",
            (game_id, guild_id),
        )
        return {SEATS[int(r[0])]: (None if r[1] is None else int(r[1])) for r in rows}
