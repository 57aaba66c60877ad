"""Cooldowns: how often one member, or one whole server, may do something that costs the bot.

A :class:`Limit` allows ``uses`` uses in any ``per_s`` seconds (a sliding window) for each
key it is applied to (a member's id, a server's id).  :meth:`Cooldowns.take` records one use
under several limits at once — all of them or none — and otherwise raises
:class:`CoolingDown`, a refusal that names the moment the first blocking limit frees up as a
Discord timestamp (``<t:1700000000:R>``: "in 40 seconds", in the reader's own clock).

The state lives in this process's memory: one process owns a guild's shard
(:mod:`bot.sharding`), so it sees every use of that server's limits; a restart forgets them,
which costs at most one more window's worth of use.  Keys whose last use is older than their
window are swept out, so the memory held is bounded by the uses of the last window.

Times are seconds since the epoch.  The cogs pass the interaction's creation time (Discord's
clock, carried by its snowflake id), so a refusal's timestamp is on the clock its reader sees
and the tests can move that clock; without one the injected ``clock`` is read.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Final

from bot.errors import Refusal
from bot.i18n import N_, _

SWEEP_EVERY: Final = 1024  # uses recorded between two sweeps of expired keys


@dataclass(frozen=True, slots=True)
class Limit:
    """At most ``uses`` uses in any ``per_s`` seconds, per key.  ``refusal`` is the first half
    of the sentence a refused member reads; the time to try again follows it."""

    name: str
    uses: int
    per_s: float
    refusal: str

    def __post_init__(self) -> None:
        if self.uses < 1:
            raise ValueError(f"limit {self.name}: uses must be at least 1, not {self.uses}")
        if not self.per_s > 0:
            raise ValueError(f"limit {self.name}: per_s must be positive, not {self.per_s}")


def relative_time(at: float) -> str:
    """A Discord timestamp that each reader sees as "in 40 seconds" (rounded up, so the
    moment it names is never before the limit frees)."""
    return f"<t:{math.ceil(at)}:R>"


class CoolingDown(Refusal):
    """Refused by ``limit``: ``retry_at`` (epoch seconds) is when a use is allowed again."""

    def __init__(self, limit: Limit, retry_at: float) -> None:
        when = relative_time(retry_at)
        super().__init__(_(limit.refusal) + " " + _("Try again {when}.", when=when))
        self.limit = limit
        self.retry_at = retry_at


class Cooldowns:
    """The uses of every limit and key in the last window, in memory."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self._uses: dict[tuple[str, Hashable], tuple[float, list[float]]] = {}
        self._since_sweep = 0

    def retry_at(self, limit: Limit, key: Hashable, now: float | None = None) -> float | None:
        """When ``limit`` allows ``key`` a use again; ``None`` when it allows one now."""
        now = self.clock() if now is None else now
        entry = self._uses.get((limit.name, key))
        if entry is None:
            return None
        recent = [t for t in entry[1] if t > now - limit.per_s]
        if len(recent) < limit.uses:
            return None
        # The oldest uses in the window leave it first; enough of them must have left.
        return sorted(recent)[len(recent) - limit.uses] + limit.per_s

    def check(self, *wanted: tuple[Limit, Hashable], now: float | None = None) -> None:
        """Raise :class:`CoolingDown` for the limit that frees up last when any of ``wanted``
        is spent (the earliest moment all allow); record nothing.  For a use that counts only
        once it changed something: :meth:`check` before, :meth:`take` after."""
        now = self.clock() if now is None else now
        blocked = [
            (at, limit)
            for limit, key in wanted
            if (at := self.retry_at(limit, key, now)) is not None
        ]
        if blocked:
            at, limit = max(blocked, key=lambda b: b[0])
            raise CoolingDown(limit, at)

    def take(self, *wanted: tuple[Limit, Hashable], now: float | None = None) -> None:
        """Record one use of each (limit, key), or none: raise :class:`CoolingDown` for the
        limit that frees up last when any of them is spent (the earliest moment all allow)."""
        now = self.clock() if now is None else now
        self.check(*wanted, now=now)
        for limit, key in wanted:
            _, times = self._uses.get((limit.name, key), (limit.per_s, []))
            times = [t for t in times if t > now - limit.per_s]
            times.append(now)
            self._uses[(limit.name, key)] = (limit.per_s, times)
        self._since_sweep += 1
        if self._since_sweep >= SWEEP_EVERY:
            self.sweep(now)

    def sweep(self, now: float | None = None) -> None:
        """Forget every key whose uses have all left their window."""
        now = self.clock() if now is None else now
        self._uses = {
            k: (per_s, times)
            for k, (per_s, times) in self._uses.items()
            if times and max(times) > now - per_s
        }
        self._since_sweep = 0

    def __len__(self) -> int:
        """Keys held (for tests of the memory bound)."""
        return len(self._uses)


# ---------------------------------------------------------------------- the bot's limits
# Members are keyed by user id (whichever server they are in), servers by guild id.  Why these:
# * a repost is wanted when the table message scrolled away: twice a minute leaves room for a
#   slip; a server's 60 a minute is one channel write a second, 1/36 of the tables' channel-write
#   budget (bot.app.WRITES_PER_SECOND), however many members (or accounts) take part;
# * a table in a new thread leaves a thread in the channel list for a day: two per member in
#   ten minutes (open, abandon, open again), ten per server;
# * a review costs up to REVIEW_CPU_BUDGET CPU-seconds on the bot's one review lane: own games
#   (six an hour) are what reviews are for, others' (three an hour, 12 per server) are browsing;
# * a new rating chart is a matplotlib drawing in a thread; repeats come from the chart cache;
# * a spectator's view is edited as the game moves for 15 minutes (within a bot-wide budget):
#   six new views a minute is more than anyone follows, and stops a member probing table ids;
# * a shared replay is a message in a thread for everyone: three every ten minutes per member
#   (a game night's best hands), twenty per server;
# * joining or leaving a tournament (a partner invited, an invitation withdrawn) redraws the
#   sign-up message and an invitation mentions its partner: five changes an hour per member
#   and tournament leave room for changing one's mind and for a partner who declined;
# * a hint is two searches of the hard player in the worker pool the computer players share:
#   ten a minute is one at every turn of a brisk game; asking again in a position whose hint
#   is worked out (or under way) costs nothing.
MINUTE: Final = 60.0
HOUR: Final = 3600.0

REPOST_BY_MEMBER: Final = Limit(
    "repost/member",
    2,
    MINUTE,
    N_("You have posted a table message again twice in the last minute."),
)
REPOST_BY_SERVER: Final = Limit(
    "repost/server",
    60,
    MINUTE,
    N_("Table messages were posted again 60 times on this server in the last minute."),
)
THREAD_BY_MEMBER: Final = Limit(
    "thread/member",
    2,
    10 * MINUTE,
    N_("You have opened two tables in new threads in the last 10 minutes."),
)
THREAD_BY_SERVER: Final = Limit(
    "thread/server",
    10,
    10 * MINUTE,
    N_("Ten tables were opened in new threads on this server in the last 10 minutes."),
)
# A review of one's own game, and of someone else's (each up to REVIEW_CPU_BUDGET CPU-seconds).
OWN_REVIEW_BY_MEMBER: Final = Limit(
    "review-own/member", 6, HOUR, N_("You have had six of your games reviewed in the last hour.")
)
OTHER_REVIEW_BY_MEMBER: Final = Limit(
    "review-other/member",
    3,
    HOUR,
    N_("You have asked for reviews of three games you did not play in the last hour."),
)
OTHER_REVIEW_BY_SERVER: Final = Limit(
    "review-other/server",
    12,
    HOUR,
    N_(
        "Members of this server have asked for reviews of 12 games they did not play in "
        "the last hour."
    ),
)
CHART_BY_MEMBER: Final = Limit(
    "chart/member", 4, MINUTE, N_("You have had four new rating charts drawn in the last minute.")
)
CHART_BY_SERVER: Final = Limit(
    "chart/server",
    20,
    MINUTE,
    N_("Twenty new rating charts were drawn on this server in the last minute."),
)

WATCH_BY_MEMBER: Final = Limit(
    "watch/member", 6, MINUTE, N_("You have started watching a table six times in the last minute.")
)
REPLAY_BY_MEMBER: Final = Limit(
    "replay/member",
    3,
    10 * MINUTE,
    N_("You have shared three replays in the last 10 minutes."),
)
REPLAY_BY_SERVER: Final = Limit(
    "replay/server",
    20,
    10 * MINUTE,
    N_("Twenty replays were shared on this server in the last 10 minutes."),
)
SIGNUP_BY_MEMBER: Final = Limit(
    "signup/member",
    5,
    HOUR,
    N_("You have joined or left this tournament five times in the last hour."),
)
HINT_BY_MEMBER: Final = Limit(
    "hint/member", 10, MINUTE, N_("You have had ten hints worked out in the last minute.")
)


def repost(guild_id: int, user_id: int) -> tuple[tuple[Limit, Hashable], ...]:
    return (REPOST_BY_MEMBER, user_id), (REPOST_BY_SERVER, guild_id)


def thread(guild_id: int, user_id: int) -> tuple[tuple[Limit, Hashable], ...]:
    return (THREAD_BY_MEMBER, user_id), (THREAD_BY_SERVER, guild_id)


def review(guild_id: int, user_id: int, own: bool) -> tuple[tuple[Limit, Hashable], ...]:
    if own:
        return ((OWN_REVIEW_BY_MEMBER, user_id),)
    return (OTHER_REVIEW_BY_MEMBER, user_id), (OTHER_REVIEW_BY_SERVER, guild_id)


def chart(guild_id: int, user_id: int) -> tuple[tuple[Limit, Hashable], ...]:
    return (CHART_BY_MEMBER, user_id), (CHART_BY_SERVER, guild_id)


def watch(user_id: int) -> tuple[tuple[Limit, Hashable], ...]:
    return ((WATCH_BY_MEMBER, user_id),)


def replay(guild_id: int, user_id: int) -> tuple[tuple[Limit, Hashable], ...]:
    return (REPLAY_BY_MEMBER, user_id), (REPLAY_BY_SERVER, guild_id)


def signup(tournament_id: int, user_id: int) -> tuple[tuple[Limit, Hashable], ...]:
    """A join or a leave of one tournament (the member's own, or inviting a partner)."""
    return ((SIGNUP_BY_MEMBER, (tournament_id, user_id)),)


def hint(user_id: int) -> tuple[tuple[Limit, Hashable], ...]:
    return ((HINT_BY_MEMBER, user_id),)
