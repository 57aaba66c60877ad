"""Typed league errors.  Each carries a ``reason`` a server admin or player can read."""

from __future__ import annotations


class LeagueError(Exception):
    """Base of every league error."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class SettingsError(LeagueError, ValueError):
    """A server setting that does not take the value given (``option`` names it)."""

    def __init__(self, reason: str, option: str) -> None:
        super().__init__(reason)
        self.option = option


class SeasonError(LeagueError, ValueError):
    """A season name or number that cannot be used."""


class InvalidGame(LeagueError, ValueError):
    """A finished game that cannot be recorded (inconsistent seats, scores or record)."""


class AlreadyRecorded(LeagueError):
    """The table's game is in the league already (``league_games.table_id`` is unique)."""
