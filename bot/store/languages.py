"""Repository for each server's language of public messages (``/spades-admin language``):
no row is the server's preferred locale in Discord."""

from __future__ import annotations

from bot.store.db import Database


class LanguageStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def languages(self) -> dict[int, str]:
        """Every server that chose a language for its public messages."""
        rows = await self.db.fetch("SELECT guild_id, language FROM server_languages")
        return {int(r[0]): str(r[1]) for r in rows}

    async def set_language(self, guild_id: int, language: str | None) -> None:
        """Choose ``language`` (one of :data:`bot.i18n.LANGUAGES`), or ``None``: follow the
        server's preferred locale again."""
        async with self.db.transaction("settings") as tx:
            if language is None:
                await tx.execute("DELETE FROM server_languages WHERE guild_id = ?", (guild_id,))
            else:
                await tx.execute(
                    "INSERT INTO server_languages (guild_id, language) VALUES (?, ?) "
                    "ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language",
                    (guild_id, language),
                )
