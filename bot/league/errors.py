"""The league's errors.  A refused request (a setting, a season) is a
:class:`~bot.errors.Refusal`, answered by :func:`bot.ui.discord.failures.answer_error` as it is; a
finished game that cannot be recorded is no refusal but a fault (logged with its traceback)."""

from __future__ import annotations

from bot.errors import Refusal


class LeagueError(Refusal):
    """A league request refused (a server setting, a season); ``reason`` is for the member."""


class SettingsError(LeagueError, ValueError):
    """A server setting that does not take the value given (``option`` names it)."""

    def __init__(self, reason: str, option: str) -> None:
        super().__init__(reason)
        self.option = option


class SeasonError(LeagueError, ValueError):
    """A season name or number that cannot be used."""


class InvalidGame(ValueError):
    """A finished game that cannot be recorded (inconsistent seats, scores or record): a
    fault of the caller or of a stored record, in English for the log."""


class AlreadyRecorded(Exception):
    """The table's game is in the league already (``league_games.table_id`` is unique)."""
