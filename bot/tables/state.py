"""A table in memory: seats, rules, the engine game, and its bookkeeping (no behaviour beyond
reading itself: the other modules of the service change it)."""

from __future__ import annotations

import asyncio
import enum
import weakref
from contextvars import Token
from dataclasses import dataclass, field

from bot import logcontext
from bot.engine import Game, Rules, Seat
from bot.engine.shuffle import GameSeed
from bot.i18n import _
from bot.names import md_name
from bot.tables.options import TableOptions

LEVELS = ("easy", "normal", "hard")
MAX_TIMEOUTS = 3


class TableStatus(enum.StrEnum):
    """Where a table is in its life; stored as these strings (the ``tables.status`` column)."""

    LOBBY = "lobby"  # open: people sit down, the host sets the rules
    PLAYING = "playing"  # open: the game is on
    FINISHED = "finished"  # the game was played to its end
    ABANDONED = "abandoned"  # closed before its end (by agreement, orphaned, everyone left)


OPEN = frozenset({TableStatus.LOBBY, TableStatus.PLAYING})


@dataclass(slots=True)
class Occupant:
    """Who sits in a seat.  ``bot_level`` set means a computer plays it (for a human who is
    away, ``user_id`` stays set so they can come back with ``/spades join``)."""

    user_id: int | None
    name: str
    bot_level: str | None = None
    timeouts: int = 0
    left: bool = False  # the member left the game in progress (charged a loss if rated)

    @property
    def is_computer(self) -> bool:
        return self.bot_level is not None

    @property
    def shown_name(self) -> str:
        """The name as the table shows it: a computer's seat (``Computer (hard)``, stored in
        English) in the current language, a member's name as it is."""
        if self.user_id is None and self.bot_level is not None:
            return _("Computer ({level})", level=_(self.bot_level))
        return self.name

    @property
    def away(self) -> bool:
        return self.user_id is not None and self.bot_level is not None


@dataclass(frozen=True, slots=True)
class Place:
    """Where a table lives (docs/user-installs.md).

    ``surface``: ``"channel"`` — a server that added the bot: the table is a channel message
    the bot posts and edits; ``"interaction"`` — a group DM, a DM or a server that has not
    added the bot (the app is installed to a member's account): the bot may only answer
    interactions, so the table is the public answer to one and is edited through a token
    that owns it (bot/ui/discord/surfaces.py).  ``league``: whose league the game counts in —
    the server's, the group DM's (keyed by its channel), or none."""

    surface: str = "channel"
    league: str = "server"

    @property
    def by_interaction(self) -> bool:
        return self.surface == "interaction"


SERVER = Place()


@dataclass(frozen=True, slots=True)
class SurfaceToken:
    """An interaction token of a click at the table, and when it stops (unix seconds).  A
    secret: never in a repr or a log line.

    Discord lets a token edit only the messages it created, and its interaction's first
    answer (``@original``: for a click answered with an update, the clicked message).
    ``edits_original`` says how the token reaches the table message when it is the table's
    :attr:`Table.token`: ``False`` by id (it posted the message), ``True`` as ``@original``
    (a click on the table message answered with an update); ``None`` when that is not known —
    any other click's token, or one restored from the database (Discord is asked then)."""

    token: str = field(repr=False)
    expires_at: float
    edits_original: bool | None = None


@dataclass(frozen=True, slots=True)
class SeatRating:
    """A seated member's displayed league rating before and after a rated game."""

    seat: Seat
    before: int
    after: int

    @property
    def delta(self) -> int:
        return self.after - self.before


@dataclass(frozen=True, slots=True)
class Rematch:
    """What **Play again** needs of a finished game: where, its rules, and who sat where."""

    table_id: str
    guild_id: int
    channel_id: int
    rules: Rules
    turn_timer: int
    handover: str
    seats: dict[Seat, Occupant]
    place: Place = SERVER
    options: TableOptions = field(default_factory=TableOptions)
    arranged: bool = False  # a tournament's table: its organiser seats the next game

    def humans(self) -> list[int]:
        return [o.user_id for o in self.seats.values() if o.user_id is not None]


@dataclass(slots=True, eq=False)
class AbandonVote:
    """The host asked to end a game others play in: who must agree, and by when."""

    host_id: int
    needed: frozenset[int]  # the other people seated (not away)
    deadline: float  # unix time
    agreed: set[int] = field(default_factory=set)

    @property
    def waiting_for(self) -> frozenset[int]:
        return self.needed - self.agreed


class TableLock(asyncio.Lock):
    """A table's lock (its actions take turns).  While a task holds it, that task's log lines
    name the table and its server (:mod:`bot.logcontext`).  It knows its table by a weak
    reference (no cycle to collect), and reads the id when taken (a new table's id may be
    drawn again)."""

    def __init__(self, table: Table) -> None:
        super().__init__()
        self._table = weakref.ref(table)
        self._restore: tuple[Token[str | None], Token[int | None]] | None = None

    async def __aenter__(self) -> None:
        await self.acquire()
        table = self._table()
        if table is not None:
            self._restore = (logcontext.TABLE.set(table.id), logcontext.GUILD.set(table.guild_id))

    async def __aexit__(self, *exc: object) -> None:
        if self._restore is not None:
            table, guild = self._restore
            self._restore = None
            logcontext.TABLE.reset(table)
            logcontext.GUILD.reset(guild)
        self.release()


@dataclass(slots=True, eq=False, weakref_slot=True)
class Table:
    id: str
    guild_id: int
    channel_id: int
    host_id: int
    rules: Rules
    turn_timer: int = 0
    # The level a computer plays an absent member's seat at (timed out or left): the same for
    # every member, and nobody chooses it (issue 23: a host could make opponents' stand-ins easy).
    handover: str = "normal"
    status: TableStatus = TableStatus.LOBBY
    seats: dict[Seat, Occupant] = field(default_factory=dict)
    game: Game | None = None
    dealer_draw: list[dict[str, str]] | None = None
    # The game's secret seed (docs/verifiable-deals.md), drawn at the start: only its
    # commitment is shown until the game is over.  None: a game from before seeds.
    seed: GameSeed | None = field(default=None, repr=False)
    # The game is over but its seed is shared with a table still playing (a duplicate round):
    # it is not revealed here (set when the table ends, bot.tables.persistence.Ending).
    seed_withheld: bool = False
    message_id: int | None = None
    deadline: float | None = None
    created_at: float = 0.0
    started_at: float | None = None
    ended_at: float | None = None
    ratings: tuple[SeatRating, ...] | None = None  # set when a rated game ended
    seq: int = 0  # number of stored game actions
    version: int = 0  # bumps on every change, for the renderer
    revision: int = 0  # the stored table's revision this process last wrote or read
    lock: TableLock = field(init=False, repr=False)
    # its writes in this process take turns (bot.tables.persistence.TablePersistence.write)
    write_lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    # How it ended, for the channel: who closed it, or why (None: the game was finished or
    # the last player left).  ``gone``: its channel, thread or server is gone (post nothing).
    end_reason: str | None = None
    gone: bool = False
    # Set when the finished game could not be recorded in the league (the table still ends).
    league_error: str | None = None
    abandon_vote: AbandonVote | None = None  # in memory only: a restart drops the request
    place: Place = SERVER
    # "interaction" tables: the token that can edit the table message (stored, migration
    # 010), and the freshest token any click at the table gave (in memory: follow-ups, and a
    # re-post of the table once its own token is stale — bot/ui/discord/surfaces.py).
    token: SurfaceToken | None = field(default=None, repr=False)
    latest_token: SurfaceToken | None = field(default=None, repr=False)
    # Opened by an organiser (a tournament, bot/tables/arranged.py): it plays on when every
    # member has left (computers finish it: its result counts), only the organiser seats
    # people there, and ``rated`` says whether the league rates it.  Stored with the table's
    # settings (bot.tables.options.ArrangedTerms) with ``hand_limit`` and ``deal_source``.
    arranged: bool = False
    rated: bool = True
    hand_limit: int | None = None  # the game ends after this many hands (duplicate boards)
    # The game's seed, given instead of drawn (64 hex digits): every table given the same one
    # draws the same dealer and deals the same boards (duplicate rounds).
    deal_source: str | None = field(default=None, repr=False)
    # The host's table settings (spectators, hints) and the hints each seat took: stored with
    # the rules (bot.tables.options).
    options: TableOptions = field(default_factory=TableOptions)
    hints_taken: dict[Seat, int] = field(default_factory=dict)
    watching: int = 0  # spectators following the game live now (in memory only)

    def __post_init__(self) -> None:
        self.lock = TableLock(self)

    @property
    def open(self) -> bool:
        return self.status in OPEN

    @property
    def boards_withheld(self) -> bool:
        """Must the deals of this table's finished hands stay unseen by anyone but their
        players (no deal picture, no spectator's "hand as dealt")?  Yes while its shared seed
        (a duplicate round's ``deal_source``) is in play, the answer of
        :func:`bot.store.tables.seed_in_play`: an open table's own seed is in play, and an
        ended one keeps the answer it got when it ended (``seed_withheld``)."""
        return self.deal_source is not None and (self.open or self.seed_withheld)

    def sat_here(self, user_id: int) -> bool:
        """Has ``user_id`` sat at this table during its game (playing, away or left)?  A seat
        taken during the game keeps its member's id until the end, whatever happens."""
        return any(o.user_id == user_id for o in self.seats.values())

    def seat_of(self, user_id: int) -> Seat | None:
        for seat, occ in self.seats.items():
            if occ.user_id == user_id:
                return seat
        return None

    @property
    def seat_order(self) -> tuple[Seat, ...]:
        """The seats this table's rules play: N, E, S, W — or N, E, S with three players."""
        return self.rules.seats

    def free_seats(self) -> list[Seat]:
        return [s for s in self.rules.seats if s not in self.seats]

    def humans(self) -> list[int]:
        """The members seated here (not those who left the game)."""
        return [o.user_id for o in self.seats.values() if o.user_id is not None and not o.left]

    def host_name(self) -> str:
        """The host's name for a markdown message (escaped: :func:`bot.names.md_name`)."""
        seat = self.seat_of(self.host_id)
        return md_name(self.seats[seat].shown_name) if seat is not None else _("the host")

    def rematch(self) -> Rematch:
        return Rematch(
            self.id,
            self.guild_id,
            self.channel_id,
            self.rules,
            self.turn_timer,
            self.handover,
            dict(self.seats),
            self.place,
            self.options,
            self.arranged,
        )

    @property
    def to_act(self) -> Seat | None:
        return self.game.to_act if self.game is not None else None

    def computer_to_act(self) -> bool:
        seat = self.to_act
        return seat is not None and self.seats[seat].is_computer
