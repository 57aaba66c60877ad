"""The values the league works with: a finished game coming in, and what the store answers.

Times are timezone-aware :class:`datetime.datetime` values (UTC); the store keeps them as
unix seconds.  Seats are always in the order N, E, S, W (N, E, S with three players); teams
are ``"NS"`` and ``"EW"``.  In solo games (games.md G2: ``partnerships`` off) every player is
a side of their own, keyed by seat name.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any, Final

from bot.engine.game import HandResult
from bot.engine.games import DEFAULT_GAME
from bot.engine.rules import Rules
from bot.league.errors import InvalidGame
from bot.league.ratings import BOT_SKILLS, display_rating

TEAM_NAMES: Final = ("NS", "EW")
SEAT_NAMES: Final = ("N", "E", "S", "W")
PAGE_SIZE: Final = 10


def page_count(total: int) -> int:
    """Pages of :data:`PAGE_SIZE` that ``total`` items fill (at least one, empty)."""
    return max(1, math.ceil(total / PAGE_SIZE))


def team_of(seat: int) -> str:
    """``"NS"`` for seats 0 and 2, ``"EW"`` for 1 and 3."""
    return TEAM_NAMES[seat & 1]


def side_names(rules: Rules) -> tuple[str, ...]:
    """The keys of a game's sides: the teams, or in solo each seat's name."""
    return SEAT_NAMES[: rules.players] if rules.solo else TEAM_NAMES


@dataclass(frozen=True, slots=True)
class SeatPlayer:
    """Who sat in a seat: a member (``user_id``) or a computer player (``user_id`` ``None``,
    ``bot_level`` one of easy/normal/hard).  ``display_name`` is the name at the time.
    A member's seat may carry a ``bot_level`` when a computer finished the game for them;
    the game still counts for the member.  ``forfeit``: the member left the game in progress;
    a rated game counts as a loss for them whatever the final score (their partner and the
    opponents get the result the table reached)."""

    user_id: int | None
    display_name: str
    bot_level: str | None = None
    forfeit: bool = False

    @property
    def is_bot(self) -> bool:
        return self.user_id is None


@dataclass(frozen=True, slots=True, kw_only=True)
class FinishedGame:
    """A game that ended (or was abandoned), as the table service hands it to the league.

    ``record`` is the ``spades-record/1`` document of :func:`bot.engine.record.export_record`;
    ``scores`` are (NS, EW) and ``winner`` ``"NS"``, ``"EW"`` or ``None`` (abandoned) — in a
    solo game one score per seat and the winner's seat name (``"N"`` …).  ``seats`` are the
    game's seats: four, or three (N, E, S) in a three-player game.
    ``results`` (optional) is the engine's ``Game.results`` of the same game: when given, the
    statistics are counted from it instead of replaying the record (much faster; the record
    is then trusted to be the engine's export of that game).
    ``rateable`` ``False``: the table ruled the game out of the ratings whatever the server's
    settings (a turn timer under the minimum, :func:`bot.league.settings.rates_turn_timer`);
    it is stored and counted like any unrated game.
    """

    guild_id: int
    channel_id: int
    table_id: str
    started_at: datetime
    ended_at: datetime
    abandoned: bool
    seats: tuple[SeatPlayer, ...]
    rules: Rules
    scores: tuple[int, ...]
    winner: str | None
    record: Mapping[str, Any]
    results: tuple[HandResult, ...] | None = None
    rateable: bool = True

    def __post_init__(self) -> None:
        if len(self.seats) != self.rules.players:
            raise InvalidGame(f"this game has {self.rules.players} seats, not {len(self.seats)}")
        if len(self.scores) != len(self.side_names):
            raise InvalidGame(f"this game has {len(self.side_names)} scores")
        users = [s.user_id for s in self.seats if s.user_id is not None]
        if len(set(users)) != len(users):
            raise InvalidGame("a member sits in two seats")
        if not users:
            raise InvalidGame("a game without members is not recorded")
        for s in self.seats:
            if s.bot_level is not None and s.bot_level not in BOT_SKILLS:
                raise InvalidGame(f"unknown computer level {s.bot_level!r}")
            if s.user_id is None and s.bot_level is None:
                raise InvalidGame("a computer seat needs its level")
        if self.winner not in (*self.side_names, None):
            names = ", ".join(self.side_names)
            raise InvalidGame(f"winner must be one of {names} or None, not {self.winner!r}")
        if not self.abandoned and self.winner is None:
            raise InvalidGame("a finished game that was not abandoned has a winner")
        if self.started_at.tzinfo is None or self.ended_at.tzinfo is None:
            raise InvalidGame("times must be timezone-aware")

    @property
    def has_bots(self) -> bool:
        return any(s.is_bot for s in self.seats)

    @property
    def solo(self) -> bool:
        """Every player scores alone (games.md G2)."""
        return self.rules.solo

    @property
    def side_names(self) -> tuple[str, ...]:
        """The sides' keys: ``("NS", "EW")``, or the seat names in solo."""
        return side_names(self.rules)

    def side_of(self, seat: int) -> int:
        """The index of the side seat ``seat`` plays for."""
        return seat if self.solo else seat & 1


@dataclass(frozen=True, slots=True)
class RatingChange:
    """A member's rating before and after a rated game."""

    user_id: int
    seat: str
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float

    @property
    def before(self) -> int:
        return display_rating(self.mu_before, self.sigma_before)

    @property
    def after(self) -> int:
        return display_rating(self.mu_after, self.sigma_after)

    @property
    def delta(self) -> int:
        return self.after - self.before


@dataclass(frozen=True, slots=True)
class RecordedGame:
    """What :meth:`bot.store.league_recorder.GameRecorder.record_game` stored."""

    game_id: int
    guild_id: int
    season: int
    rated: bool
    changes: tuple[RatingChange, ...]  # one per rated member seat; empty when unrated


@dataclass(frozen=True, slots=True)
class Season:
    number: int
    name: str
    started_at: datetime | None  # None: the implicit first season, before any game
    current: bool


class LeaderboardSort(StrEnum):
    """Leaderboard orders.  Ties: rating → more games; wins → fewer games; win rate → more
    games; games → more wins; then the lower user id."""

    RATING = "rating"
    WINS = "wins"
    WIN_RATE = "win_rate"
    GAMES = "games"

    @classmethod
    def parse(cls, value: str | LeaderboardSort) -> LeaderboardSort:
        text = str(value).strip().lower().replace(" ", "_")
        try:
            return cls(text)
        except ValueError:
            names = ", ".join(s.value.replace("_", " ") for s in cls)
            raise ValueError(f"sort must be one of {names}, not {value!r}") from None


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    rank: int | None  # None: below the server's minimum number of games
    user_id: int
    display_name: str
    mu: float
    sigma: float
    games: int
    wins: int
    losses: int
    rated_games: int

    @property
    def rating(self) -> int:
        """The displayed (conservative) rating; see :func:`bot.league.ratings.display_rating`."""
        return display_rating(self.mu, self.sigma)

    @property
    def win_rate(self) -> float:
        """Wins over decided games (abandoned games are not decided), 0.0 without any."""
        decided = self.wins + self.losses
        return self.wins / decided if decided else 0.0


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    guild_id: int
    season: int
    sort: LeaderboardSort
    page: int  # counted from 0, clamped to the last page
    pages: int  # at least 1
    ranked: int  # players with at least min_games games
    min_games: int
    rows: tuple[LeaderboardRow, ...]
    viewer: LeaderboardRow | None  # the viewer's own row (rank None when unranked); None if
    # the viewer has no game this season
    game: str = DEFAULT_GAME  # standings are kept per game


@dataclass(frozen=True, slots=True)
class PartnershipRow:
    rank: int
    user_a: int
    name_a: str
    user_b: int
    name_b: str
    games: int
    wins: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class PartnershipPage:
    guild_id: int
    season: int
    page: int  # counted from 0
    has_next: bool
    min_games: int  # pairs with fewer finished games together are left out
    rows: tuple[PartnershipRow, ...]
    game: str = DEFAULT_GAME


@dataclass(frozen=True, slots=True)
class PartnerSummary:
    user_id: int
    display_name: str
    games: int
    wins: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A member's rating after one rated game."""

    game_id: int
    ended_at: datetime
    mu: float
    sigma: float

    @property
    def rating(self) -> int:
        return display_rating(self.mu, self.sigma)


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerStats:
    """A member's season in one server.  Rates are ``None`` when there is nothing to divide."""

    guild_id: int
    season: int
    user_id: int
    display_name: str
    games: int
    wins: int
    losses: int
    abandoned: int
    rated_games: int
    mu: float
    sigma: float
    rank: int | None  # by rating, among ranked players; None below min_games
    ranked: int
    trend: int | None  # rating change over the last (up to) 10 rated games
    hands: int
    contract_hands: int
    contracts_made: int
    bid_hands: int
    bid_sum: int
    bid_tricks: int
    nil_bids: int
    nil_made: int
    blind_nil_bids: int
    blind_nil_made: int
    bags: int
    sets: int
    claims: int
    claims_won: int
    caught: int
    most_frequent_partner: PartnerSummary | None
    most_successful_partner: PartnerSummary | None
    game: str = DEFAULT_GAME  # the game these standings are of
    tricks: int = 0
    maker_hands: int = 0  # Euchre: the member named trump
    maker_made: int = 0
    alone_hands: int = 0
    alone_made: int = 0
    marches: int = 0
    euchres: int = 0  # Euchre: as a defender, the member's side euchred the makers

    @property
    def rating(self) -> int:
        return display_rating(self.mu, self.sigma)

    @property
    def win_rate(self) -> float | None:
        decided = self.wins + self.losses
        return self.wins / decided if decided else None

    @property
    def contracts_made_rate(self) -> float | None:
        return self.contracts_made / self.contract_hands if self.contract_hands else None

    @property
    def average_bid(self) -> float | None:
        return self.bid_sum / self.bid_hands if self.bid_hands else None

    @property
    def average_tricks(self) -> float | None:
        """Tricks taken in the hands counted by :attr:`average_bid` (numeric bids)."""
        return self.bid_tricks / self.bid_hands if self.bid_hands else None

    @property
    def nil_rate(self) -> float | None:
        return self.nil_made / self.nil_bids if self.nil_bids else None

    @property
    def blind_nil_rate(self) -> float | None:
        return self.blind_nil_made / self.blind_nil_bids if self.blind_nil_bids else None

    @property
    def bags_per_hand(self) -> float | None:
        return self.bags / self.hands if self.hands else None

    @property
    def tricks_per_hand(self) -> float | None:
        return self.tricks / self.hands if self.hands else None

    @property
    def maker_rate(self) -> float | None:
        return self.maker_made / self.maker_hands if self.maker_hands else None

    @property
    def alone_rate(self) -> float | None:
        return self.alone_made / self.alone_hands if self.alone_hands else None


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One game from a member's point of view."""

    game_id: int
    season: int
    ended_at: datetime
    preset: str
    seat: str  # the member's seat, N/E/S/W
    team: str  # NS or EW; in a solo game the member's seat
    partner: SeatPlayer | None  # None in a solo game
    opponents: tuple[SeatPlayer, ...]  # two; in a solo game every other player
    score_us: int  # the member's side's final score
    score_them: int  # the other team's; in a solo game the best of the others' scores
    result: str  # "won", "lost", "left (lost)" (they left; charged a loss) or "abandoned"
    rated: bool
    rating_change: int | None  # displayed-rating points, rated games only
    game: str = DEFAULT_GAME
    # a duplicate round's game whose round is not over: its boards are still being played at
    # other tables, so nothing of how it went is shown (bot.store.tables.seed_in_play)
    withheld: bool = False


@dataclass(frozen=True, slots=True)
class HistoryPage:
    guild_id: int
    user_id: int
    page: int
    pages: int
    total: int
    entries: tuple[HistoryEntry, ...] = field(default_factory=tuple)
