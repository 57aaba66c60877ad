"""The server league: game records, ratings, standings, stats, history and seasons.

Pure parts live here (models, settings validation, ratings, per-hand stats, the rating chart);
the database side is :class:`bot.store.league.LeagueStore` (settings, recorder, standings,
history; SQLite and PostgreSQL).
"""

from bot.league.chart import chart_points, render_rating_chart, render_rating_chart_async
from bot.league.errors import InvalidGame, LeagueError, SeasonError, SettingsError
from bot.league.models import (
    PAGE_SIZE,
    FinishedGame,
    HistoryEntry,
    HistoryPage,
    LeaderboardPage,
    LeaderboardRow,
    LeaderboardSort,
    PartnershipPage,
    PartnershipRow,
    PartnerSummary,
    PlayerStats,
    RatingChange,
    RatingPoint,
    RecordedGame,
    Season,
    SeatPlayer,
)
from bot.league.ratings import BOT_SKILLS, display_rating
from bot.league.recording import PreparedGame, prepare_game
from bot.league.settings import GuildSettings

__all__ = [
    "BOT_SKILLS",
    "PAGE_SIZE",
    "FinishedGame",
    "GuildSettings",
    "HistoryEntry",
    "HistoryPage",
    "InvalidGame",
    "LeaderboardPage",
    "LeaderboardRow",
    "LeaderboardSort",
    "LeagueError",
    "PartnerSummary",
    "PartnershipPage",
    "PartnershipRow",
    "PlayerStats",
    "PreparedGame",
    "RatingChange",
    "RatingPoint",
    "RecordedGame",
    "Season",
    "SeasonError",
    "SeatPlayer",
    "SettingsError",
    "chart_points",
    "display_rating",
    "prepare_game",
    "render_rating_chart",
    "render_rating_chart_async",
]
