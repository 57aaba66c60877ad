"""Repository for each server's card colours: the two-colour faces (the default: no row) or
the four-colour deck."""

from __future__ import annotations

from bot.store.db import Database


class CardStyleStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def schemes(self) -> dict[int, str]:
        """Every server that chose a colour scheme other than the default."""
        rows = await self.db.fetch("SELECT guild_id, scheme FROM card_styles")
        return {int(r[0]): str(r[1]) for r in rows}

    async def set_scheme(self, guild_id: int, scheme: str) -> None:
        async with self.db.transaction("settings") as tx:
            if scheme == "two":
                await tx.execute("DELETE FROM card_styles WHERE guild_id = ?", (guild_id,))
            else:
                await tx.execute(
                    "INSERT INTO card_styles (guild_id, scheme) VALUES (?, ?) "
                    "ON CONFLICT (guild_id) DO UPDATE SET scheme = excluded.scheme",
                    (guild_id, scheme),
                )
