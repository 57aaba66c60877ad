"""The league's repositories over one database, as the bot hands them around.

Each part is one concern; every one is scoped by server (``guild_id``), and standings,
ratings and partnerships are kept per game (``spades``, ``whist``, ``euchre``):

* :attr:`LeagueStore.settings` — a server's settings and seasons
  (:mod:`bot.store.league_settings`, also the server row lock every league write takes);
* :attr:`LeagueStore.recorder` — recording a finished game: the writes
  (:mod:`bot.store.league_recorder`);
* :attr:`LeagueStore.standings` — leaderboards, ranks, partnerships, stats, rating history:
  reads of running totals (:mod:`bot.store.league_standings`);
* :attr:`LeagueStore.history` — a member's games and a game's stored record
  (:mod:`bot.store.league_history`).
"""

from __future__ import annotations

from bot.store.db import Database
from bot.store.league_history import HistoryStore
from bot.store.league_recorder import GameRecorder
from bot.store.league_settings import SettingsStore
from bot.store.league_standings import StandingsStore


class LeagueStore:
    """Every league repository over one :class:`Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.settings = SettingsStore(db)
        self.recorder = GameRecorder(db)
        self.standings = StandingsStore(db)
        self.history = HistoryStore(db)
