"""A setting each server may choose, kept in a table of its own ``(guild_id, <column>)``: a
row holds a server's choice, no row means the default (:mod:`bot.store.card_styles`,
:mod:`bot.store.languages`)."""

from __future__ import annotations

from typing import ClassVar

from bot.store.db import Database


class ServerChoices:
    """Reads and writes one per-server choice; subclasses name the ``table``, its ``column``
    and the ``default`` value (choosing it deletes the server's row)."""

    table: ClassVar[str]
    column: ClassVar[str]
    default: ClassVar[str | None] = None

    def __init__(self, db: Database) -> None:
        self.db = db

    async def chosen(self) -> dict[int, str]:
        """Every server that chose something other than the default."""
        rows = await self.db.fetch(
            f"SELECT guild_id, {self.column} FROM {self.table}"  # noqa: S608 - fixed names
        )
        return {int(r[0]): str(r[1]) for r in rows}

    async def choose(self, guild_id: int, value: str | None) -> None:
        """``value`` becomes the server's choice; the default (or ``None``) forgets it."""
        async with self.db.transaction("settings") as tx:
            if value is None or value == self.default:
                await tx.execute(
                    f"DELETE FROM {self.table} WHERE guild_id = ?",  # noqa: S608 - fixed names
                    (guild_id,),
                )
            else:
                await tx.execute(
                    f"INSERT INTO {self.table} (guild_id, {self.column}) VALUES (?, ?) "  # noqa: S608
                    f"ON CONFLICT (guild_id) DO UPDATE SET {self.column} = excluded.{self.column}",
                    (guild_id, value),
                )
