"""League commands (``/leaderboard``, ``/stats``, ``/history``, ``/spades-admin``): see issue 4."""

from __future__ import annotations

from discord.ext import commands


async def setup(bot: commands.Bot) -> None:
    """Nothing yet: the league commands are wired when the league store lands."""
