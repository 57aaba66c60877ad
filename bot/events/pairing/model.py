"""A tournament's values: its settings, entries, the games of its rounds and their results.

Frozen and self-validating; the store keeps them, the pairing functions read them, the service
changes a tournament only by replacing them."""

from __future__ import annotations

import enum
import hashlib
import hmac
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from bot.errors import Refusal
from bot.i18n import Text, _, _p, later
from bot.names import clean_name, md_name

Format = Literal["elimination", "swiss", "duplicate"]
TeamMode = Literal["pairs", "draw", "solo"]
OddEntry = Literal["bye", "computer"]

FORMATS: Final[tuple[Format, ...]] = ("elimination", "swiss", "duplicate")
TEAM_MODES: Final[tuple[TeamMode, ...]] = ("pairs", "draw", "solo")
ODD_ENTRIES: Final[tuple[OddEntry, ...]] = ("bye", "computer")


class TournamentStatus(enum.StrEnum):
    """Where a tournament is in its life: sign-up (and its check-in window), running (or
    paused), then one end; stored as these strings (the ``tournaments.status`` column)."""

    SIGNUP = "signup"
    RUNNING = "running"
    PAUSED = "paused"
    FINISHED = "finished"
    CANCELLED = "cancelled"


OPEN_STATES: Final = (TournamentStatus.SIGNUP, TournamentStatus.RUNNING, TournamentStatus.PAUSED)


class EntryStatus(enum.StrEnum):
    """An entry in its tournament; stored as these strings (``tournament_entries.status``)."""

    IN = "in"  # plays its games
    DROPPED = "dropped"  # not playing: missed the check-in, or found no partner
    DISQUALIFIED = "disqualified"  # by the organiser: its games are lost
    COMPUTER = "computer"  # the computer team that evens an odd number of entries


PLAYING_ENTRIES: Final = frozenset({EntryStatus.IN, EntryStatus.COMPUTER})


class SlotStatus(enum.StrEnum):
    """A game of a round; stored as these strings (``tournament_games.status``)."""

    PENDING = "pending"  # paired, its table not seated yet
    PLAYING = "playing"  # its table is seated
    DONE = "done"  # played out or decided
    BYE = "bye"  # no table: the entry alone in it wins


OVER_SLOTS: Final = frozenset({SlotStatus.DONE, SlotStatus.BYE})

WIN_POINTS: Final = 2  # Swiss points: a win (and a bye), a draw is 1, a loss 0
DRAW_POINTS: Final = 1
MAX_ENTRIES: Final = 128
MAX_ROUNDS: Final = 12
MAX_BEST_OF: Final = 7
MAX_BOARDS: Final = 16
MAX_SPECTATOR_DELAY: Final = 52  # tricks (bot.tables.options.MAX_DELAY)
NAME_MAX: Final = 60  # characters of a tournament's name


class EventError(Refusal, ValueError):
    """A tournament value that is not valid (a refusal: ``reason`` is one line for a person,
    answered by :func:`bot.ui.discord.failures.answer_error` as it is)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentSettings:
    """How a tournament is played (chosen with ``/tournament new``)."""

    preset: str
    target: int | None = None  # None: the preset's target
    format: Format = "swiss"
    team_mode: TeamMode = "pairs"
    rounds: int = 3  # Swiss and duplicate: rounds; elimination: as many as the bracket needs
    best_of: int = 1  # elimination: games per match
    boards: int = 4  # duplicate: hands per round
    turn_timer: int = 60
    rated: bool = True
    odd: OddEntry = "bye"
    round_minutes: int = 0  # 0: no round deadline
    checkin_minutes: int = 0  # 0: no check-in window
    players: int = 4  # seats a table plays (from the preset)
    solo: bool = False  # the preset scores everyone alone (entries are single members)
    # Members not entered may watch the tables (the organiser's choice; entrants of a
    # duplicate tournament never do), that many completed tricks behind the game.
    spectators: bool = False
    spectator_delay: int = 0

    def __post_init__(self) -> None:
        """Refused with a reason in the current language (the organiser's, at ``/tournament
        new``)."""
        if self.format not in FORMATS:
            raise EventError(
                _(
                    "The format must be one of {formats}, not {value}.",
                    formats=", ".join(FORMATS),
                    value=repr(self.format),
                )
            )
        if self.team_mode not in TEAM_MODES:
            raise EventError(
                _("The team mode must be one of {modes}.", modes=", ".join(TEAM_MODES))
            )
        if self.odd not in ODD_ENTRIES:
            raise EventError(
                _("An odd entry gets a bye or a computer team, not {value}.", value=repr(self.odd))
            )
        if self.solo != (self.team_mode == "solo"):
            raise EventError(
                _("Solo presets are played by individuals (team mode solo), and only they are.")
            )
        if not 1 <= self.rounds <= MAX_ROUNDS:
            raise EventError(_("Rounds must be between 1 and {max}.", max=MAX_ROUNDS))
        if self.best_of < 1 or self.best_of > MAX_BEST_OF or self.best_of % 2 == 0:
            raise EventError(_("Best of must be an odd number from 1 to {max}.", max=MAX_BEST_OF))
        if not 1 <= self.boards <= MAX_BOARDS:
            raise EventError(_("Boards must be between 1 and {max}.", max=MAX_BOARDS))
        if not 0 <= self.turn_timer <= 3600:
            raise EventError(_("The turn timer must be between 0 (off) and 3600 seconds."))
        if not 0 <= self.round_minutes <= 24 * 60:
            raise EventError(_("The round deadline must be between 0 (none) and 1440 minutes."))
        if not 0 <= self.checkin_minutes <= 120:
            raise EventError(_("The check-in window must be between 0 (none) and 120 minutes."))
        if self.players not in (3, 4):
            raise EventError(_("A table seats three or four players."))
        if self.solo and self.format != "swiss":
            raise EventError(
                _("Solo presets are played as Swiss rounds (every table scores alone).")
            )
        if self.format == "duplicate" and self.players != 4:
            raise EventError(_("Duplicate rounds need four-player partnership presets."))
        if not 0 <= self.spectator_delay <= MAX_SPECTATOR_DELAY:
            raise EventError(
                _(
                    "The spectators' delay must be between 0 (live) and {max} tricks.",
                    max=MAX_SPECTATOR_DELAY,
                )
            )

    @property
    def per_table(self) -> int:
        """Entries at one table: two partnerships, or every solo player."""
        return self.players if self.solo else 2

    @property
    def team_size(self) -> int:
        return 1 if self.solo else 2

    def to_record(self) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "target": self.target,
            "format": self.format,
            "team_mode": self.team_mode,
            "rounds": self.rounds,
            "best_of": self.best_of,
            "boards": self.boards,
            "turn_timer": self.turn_timer,
            "rated": self.rated,
            "odd": self.odd,
            "round_minutes": self.round_minutes,
            "checkin_minutes": self.checkin_minutes,
            "players": self.players,
            "solo": self.solo,
            "spectators": self.spectators,
            "spectator_delay": self.spectator_delay,
        }

    @classmethod
    def from_record(cls, d: dict[str, Any]) -> TournamentSettings:
        """A stored tournament's settings; one stored before spectators were the organiser's
        choice keeps what its tables had then (watchable, live) unless it is duplicate."""
        d = {"spectators": d.get("format") != "duplicate", **d}
        return cls(**d)


@dataclass(frozen=True, slots=True, kw_only=True)
class NewTournament:
    """What opening a tournament is asked with (``/tournament new``), as it travels from the
    command through the sign-up's checks to the store."""

    guild_id: int
    channel_id: int
    organiser_id: int
    name: str
    settings: TournamentSettings
    starts_at: float


@dataclass(frozen=True, slots=True)
class Member:
    user_id: int
    name: str


@dataclass(frozen=True, slots=True)
class Entry:
    """One team (or, in solo presets, one player) of a tournament."""

    id: int
    members: tuple[Member, ...]
    rating: float = 0.0
    status: EntryStatus = EntryStatus.IN
    checked_in: bool = False

    @property
    def name(self) -> str:
        """The entry's name as plain text (a picture, a thread, an export): its members'
        names cleaned (:func:`bot.names.clean_name`)."""
        if not self.members:
            return _("Computers #{id}", id=self.id)  # in the language being written
        return " & ".join(clean_name(m.name) for m in self.members)

    @property
    def md_name(self) -> str:
        """The entry's name for a message (markdown): it reads as typed, nothing more."""
        if not self.members:
            return _("Computers #{id}", id=self.id)
        return " & ".join(md_name(m.name) for m in self.members)

    @property
    def playing(self) -> bool:
        return self.status in PLAYING_ENTRIES

    def has(self, user_id: int) -> bool:
        return any(m.user_id == user_id for m in self.members)


@dataclass(frozen=True, slots=True)
class Invitation:
    """``inviter`` asked ``partner`` to play with them: the pair is entered only once the
    partner accepts, before ``expires_at`` (``message_id``: the message asking them)."""

    inviter: Member
    partner: Member
    created_at: float
    expires_at: float
    message_id: int | None = None

    def concerns(self, user_id: int) -> bool:
        return user_id in (self.inviter.user_id, self.partner.user_id)


@dataclass(frozen=True, slots=True)
class GameSlot:
    """One table of a round (or a bye): which entries, in team order, and how it ended.

    ``entries[0]`` sits North–South (solo: the seats in order).  ``scores`` by entry, in the
    same order; ``winner`` an entry id (``None``: a draw or not over); ``boards``: each hand's
    points by entry (duplicate)."""

    round: int
    slot: int
    game_no: int
    entries: tuple[int, ...]
    status: SlotStatus = SlotStatus.PENDING
    thread_id: int | None = None
    table_id: str | None = None
    scores: tuple[int, ...] | None = None
    winner: int | None = None
    decided: bool = False  # ended by the round deadline (or the organiser), not played out
    boards: tuple[tuple[int, ...], ...] = field(default=())

    @property
    def over(self) -> bool:
        return self.status in OVER_SLOTS

    def score_of(self, entry: int) -> int:
        if self.scores is None or entry not in self.entries:
            return 0
        return self.scores[self.entries.index(entry)]


def winner_by_score(entries: tuple[int, ...], scores: tuple[int, ...]) -> int | None:
    """The entry with the highest score; ``None`` when the best score is shared (a draw)."""
    best = max(scores)
    top = [e for e, s in zip(entries, scores, strict=True) if s == best]
    return top[0] if len(top) == 1 else None


def duration(seconds: float) -> Text:
    """A time left, for people: ``45 s``, ``12 min 5 s``, ``2 h 10 min`` (a :class:`Text`:
    written in the language of wherever it is shown)."""
    minutes, secs = divmod(max(0, round(seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    if hours and minutes:
        return later("{hours} h {minutes} min", hours=hours, minutes=minutes)
    if hours:
        return later("{hours} h", hours=hours)
    if minutes and secs:
        return later("{minutes} min {seconds} s", minutes=minutes, seconds=secs)
    if minutes:
        return later("{minutes} min", minutes=minutes)
    return later("{seconds} s", seconds=secs)


def status_word(status: TournamentStatus) -> str:
    """A tournament's status in the current language, as a refusal names it ("it is
    {status}")."""
    words = {
        TournamentStatus.SIGNUP: _p("tournament", "open for sign-up"),
        TournamentStatus.RUNNING: _p("tournament", "running"),
        TournamentStatus.PAUSED: _p("tournament", "paused"),
        TournamentStatus.FINISHED: _p("tournament", "finished"),
        TournamentStatus.CANCELLED: _p("tournament", "cancelled"),
    }
    return words[status]


@dataclass(slots=True, eq=False)
class Tournament:
    """A tournament as stored: the service changes it only after the change is committed."""

    id: int
    guild_id: int
    channel_id: int
    organiser_id: int
    name: str
    status: TournamentStatus
    settings: TournamentSettings
    starts_at: float
    round: int = 0
    round_deadline: float | None = None
    round_left: float | None = None  # paused: the seconds the round's deadline had left
    message_id: int | None = None
    created_at: float = 0.0
    ended_at: float | None = None
    note: str | None = None
    secret: str = field(default="", repr=False)  # never shown: every draw derives from it
    # why it could not be caught up at the last start (shown to the organiser); None: it was
    fault: str | None = None
    entries: dict[int, Entry] = field(default_factory=dict)
    singles: list[Member] = field(default_factory=list)  # signed up alone, drawn at the start
    games: list[GameSlot] = field(default_factory=list)
    threads: dict[int, int] = field(default_factory=dict)  # table number → its thread
    # pairs waiting for the partner's answer, by inviter (docs/tournaments.md)
    invitations: dict[int, Invitation] = field(default_factory=dict)

    @property
    def open(self) -> bool:
        return self.status in OPEN_STATES

    def derived(self, label: str) -> bytes:
        """HMAC-SHA256 of ``label`` keyed with the tournament's secret: every draw and deal
        key of the tournament comes from it, so nobody can work one out before it is used
        (the secret is never shown), and a restarted bot derives the same."""
        return hmac.new(self.secret.encode(), label.encode(), hashlib.sha256).digest()

    @property
    def plain_name(self) -> str:
        """The name as plain text (a thread's name, an export), cleaned as it was typed in."""
        return clean_name(self.name, "?", limit=NAME_MAX)

    @property
    def md_name(self) -> str:
        """The name for a message (markdown): it reads as typed and does nothing else — no
        emphasis, spoiler, masked link, mention or bidi override (:func:`bot.names.md_name`)."""
        return md_name(self.name, limit=NAME_MAX)

    def entry_of(self, user_id: int) -> Entry | None:
        for e in self.entries.values():
            if e.has(user_id):
                return e
        return None

    def signed_up(self, user_id: int) -> bool:
        return self.entry_of(user_id) is not None or any(m.user_id == user_id for m in self.singles)

    def invitation_of(self, user_id: int) -> Invitation | None:
        """The invitation waiting for an answer that ``user_id`` sent or was sent."""
        for inv in self.invitations.values():
            if inv.concerns(user_id):
                return inv
        return None

    def members(self) -> list[Member]:
        out = [m for e in self.entries.values() for m in e.members]
        return out + list(self.singles)

    def playing(self) -> list[int]:
        return [e.id for e in self.entries.values() if e.playing]

    def round_games(self, round_no: int | None = None) -> list[GameSlot]:
        r = self.round if round_no is None else round_no
        return [g for g in self.games if g.round == r]

    def game_of_table(self, table_id: str) -> GameSlot | None:
        for g in self.games:
            if g.table_id == table_id:
                return g
        return None

    def replace_game(self, new: GameSlot) -> None:
        for i, g in enumerate(self.games):
            if (g.round, g.slot, g.game_no) == (new.round, new.slot, new.game_no):
                self.games[i] = new
                return
        self.games.append(new)
