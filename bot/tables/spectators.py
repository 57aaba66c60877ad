"""Spectators: members who are not playing follow a table's game in a private live view.

The same live-edit mechanism as the players' hands (:mod:`bot.tables.live`): a spectator's
view is an ephemeral message that only the interaction that showed it can edit (through the
interaction webhook, for 15 minutes); this module keeps, per spectator, that interaction (an
opaque *handle*) and what its message shows, and edits it as the game moves.  A click on the
view's **Refresh** (or **Watch** again) answers with the current view and re-arms it with a
fresh token.

What differs from hands is the fan-out: twenty people may watch one table, and they all see the
same thing.  So a table's spectators are served together by one task per table (a *room*):
when the table changes it waits until ``interval`` seconds after its previous round (a new
hand and the end of the game go out at once), renders the view once, and edits every
spectator's message with that one payload, one message after the other (the longest behind
first).  Edits are coalesced (a round shows the state at the moment of each edit) and, over
all tables, spread by a process-wide budget of ``edits_per_second`` — interaction webhooks are
not counted in Discord's global limit, but each edit still costs the bot's event loop about a
millisecond, and the players' own answers must not queue behind a burst of them.  With many
spectators the rounds simply grow further apart.  Per token that is at most one edit every
``interval`` seconds plus the urgent ones, inside Discord's five per two seconds.

Who may watch: a member who has not sat at the table during its game (playing, away or left:
they could pass on what spectators are shown), once the game has started, unless the host
closed the table to spectators (``/spades rule spectators off``) or an organiser's rule
refuses them (:attr:`Spectators.guards`: a duplicate tournament's entrants never watch its
tables).  A table whose options set a ``delay`` is shown that many completed tricks behind
the game (its view changes only when a trick completes: :func:`watch_key`).  Nothing here
reads a card: what a spectator's message shows is rendered by the Discord layer from the
public view only.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.engine.rewind import tricks_completed
from bot.errors import Refusal
from bot.i18n import _
from bot.tables.in_flight import ANSWER_WAIT_S, InFlight, Landing, LandsAfterEdit
from bot.tables.live import TOKEN_LIFETIME, TOKEN_MARGIN, Edit
from bot.tables.state import Table, TableStatus
from bot.token_bucket import TokenBucket

log = logging.getLogger(__name__)

INTERVAL = 1.5  # seconds between two rounds of a table's spectator edits (coalescing)
# Spectator edits a second, all tables together, and at once: each costs the bot's event loop
# about a millisecond, and the players' answers come first.  Measured (docs/benchmarks.md,
# "Spectators under load"): at 100 a second the players' p99 rose to about 1.2x (the median of
# six rounds), at 50 it stayed level; with 1,000 spectators a view then follows every ~20 s.
EDITS_PER_SECOND = 50.0
EDIT_BURST = 5

WatchKey = tuple[int, str]
# An organiser's rule on who may watch a table: raises a Refusal (with the reason) for a
# member who may not (bot/events: a duplicate tournament's entrants).
WatchGuard = Callable[[Table, int], None]


def watch_key(table: Table) -> WatchKey:
    """What changes a spectator's view: any change of the table (a move, a seat, the end) —
    at a table shown ``delay`` tricks behind, only a completed trick (and the end)."""
    if table.options.delay and table.open and table.game is not None:
        return (tricks_completed(table.game), table.status)
    return (table.version, table.status)


@dataclass(frozen=True, slots=True)
class Frame:
    """A spectator view rendered once for every spectator of a table: the Discord payload,
    and the hand whose deal picture it carries (``None``: no picture)."""

    payload: Any
    picture: int | None = None


class SpectatorEditor(Protocol):
    """The Discord side: render a table's spectator view (before any ``await``: the state
    shown is the state of the call), and edit a spectator's message to show it."""

    def render(self, table: Table) -> Frame: ...

    async def edit(self, handle: Any, table: Table, frame: Frame, with_picture: bool) -> Edit: ...


@dataclass(slots=True, eq=False)
class Watcher:
    user_id: int
    handle: Any = None
    issued: float = 0.0  # time.monotonic() when the handle's token was issued
    shown: WatchKey | None = None
    picture: int | None = None  # the hand whose deal picture the message carries
    answering: int = 0
    shown_at: float = 0.0  # when the message was last brought up to date
    in_flight: InFlight = field(default_factory=InFlight)  # the edit of the view on its way


class WatchAnswer(LandsAfterEdit):
    """What an answer to a spectator showed: :meth:`shown` once the view was sent.  An
    answer that edits the spectator's message awaits :meth:`after_live_edit` before it is sent."""

    __slots__ = ("handle", "key", "picture")

    def __init__(self, landing: Landing | None = None) -> None:
        super().__init__(landing)
        self.handle: Any = None
        self.key: WatchKey | None = None
        self.picture: int | None = None

    def shown(self, handle: Any, key: WatchKey, picture: int | None) -> None:
        self.handle, self.key, self.picture = handle, key, picture


@dataclass(slots=True, eq=False)
class _Room:
    table: Table
    watchers: dict[int, Watcher] = field(default_factory=dict)
    hand: int = 0  # the hand number of the last round
    last_round: float = 0.0
    task: asyncio.Task[None] | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)


class Spectators:
    def __init__(
        self,
        *,
        editor: SpectatorEditor | None = None,
        recounted: Callable[[Table], None] | None = None,
        gate: Callable[[], Awaitable[None]] | None = None,
        interval: float = INTERVAL,
        edits_per_second: float = EDITS_PER_SECOND,
        burst: int = EDIT_BURST,
        token_lifetime: float = TOKEN_LIFETIME - TOKEN_MARGIN,
        answer_wait: float = ANSWER_WAIT_S,
    ) -> None:
        self.editor = editor  # the Discord side, which renders the view and edits messages
        self.answer_wait = answer_wait  # an answer's wait for the edit on its way (at most)
        # Told when a table's number of spectators changed (the table message shows it).
        self.recounted = recounted
        # Awaited before each edit: returns once no player's interaction waits for its answer
        # (the Discord layer's; None: no waiting).
        self.gate = gate
        self.guards: list[WatchGuard] = []  # organisers' rules, asked after the table's own
        self.interval = interval
        self.token_lifetime = token_lifetime
        self._budget = TokenBucket(edits_per_second, burst)  # all tables', taken in turn
        self._rooms: dict[str, _Room] = {}
        self.edits = 0  # spectator messages edited (for the benchmark and tests)
        self.dropped = 0  # spectators forgotten: their message could not be edited any more

    # ------------------------------------------------------------------ who may watch
    def check(self, table: Table, user_id: int) -> None:
        """Refuse (with the reason) a member who may not watch ``table`` now."""
        if not table.open:
            raise Refusal(_("That table has ended."))
        if table.sat_here(user_id):
            raise Refusal(
                _(
                    "You sit at this table in this game (or did), so you cannot watch it: "
                    "a player who watched could pass on what spectators are shown."
                )
            )
        for guard in self.guards:
            guard(table, user_id)
        if not table.options.watchable:
            if table.arranged:
                raise Refusal(_("The organiser has closed this tournament's tables to spectators."))
            raise Refusal(_("The host has closed this table to spectators."))
        if table.status != TableStatus.PLAYING or table.game is None:
            raise Refusal(_("The game has not started yet: watch once it has."))

    def watchable_by(self, tables: list[Table], user_id: int) -> list[Table]:
        """The tables ``user_id`` may watch now (``/spades watch``'s autocomplete lists no
        other)."""
        out = []
        for table in tables:
            try:
                self.check(table, user_id)
            except Refusal:
                continue
            out.append(table)
        return out

    def count(self, table: Table) -> int:
        room = self._rooms.get(table.id)
        return len(room.watchers) if room is not None else 0

    # ------------------------------------------------------------------ the Discord layer
    @contextlib.contextmanager
    def answering(self, table: Table, user_id: int) -> Iterator[WatchAnswer]:
        """Around answering a spectator's interaction with the view: no edit of their message
        goes out meanwhile, and the answer (``answer.shown(handle, key, picture)``) becomes
        their message from now on.  Call :meth:`check` first."""
        room = self._room(table)
        watcher = room.watchers.get(user_id) or Watcher(user_id)
        watcher.answering += 1
        answer = WatchAnswer(watcher.in_flight.landing(self.answer_wait))
        try:
            yield answer
        finally:
            watcher.answering -= 1
            if answer.handle is not None:
                # An edit on its way may land after the answer: the message shows nothing known
                # (nor which deal picture: the next edit sends it again).
                sure = answer.landing.sure
                watcher.handle, watcher.shown = answer.handle, answer.key if sure else None
                watcher.picture = answer.picture if sure else None
                watcher.issued = time.monotonic()
                watcher.shown_at = watcher.issued
                if table.open and not table.sat_here(user_id):
                    room.watchers[user_id] = watcher
            self._recount(room)
            self._poke(room)

    def forget(self, user_id: int) -> None:
        """``user_id`` watches nothing any more (they were just entered in a tournament)."""
        for room in list(self._rooms.values()):
            if room.watchers.pop(user_id, None) is not None:
                self._recount(room)

    def stop(self, table: Table, user_id: int) -> bool:
        """The spectator stops watching (their message is theirs to close)."""
        room = self._rooms.get(table.id)
        if room is None or room.watchers.pop(user_id, None) is None:
            return False
        self._recount(room)
        return True

    # ------------------------------------------------------------------ the service
    def changed(self, table: Table) -> None:
        """The table changed: its spectators' views follow (a member who now plays there
        is no spectator any more)."""
        room = self._rooms.get(table.id)
        if room is None:
            return
        if room.table is not table:  # reloaded from the database: the same table anew
            room.table = table
        for uid in [u for u in room.watchers if table.sat_here(u)]:
            del room.watchers[uid]
        self._recount(room)
        self._poke(room)

    def closed(self, table: Table) -> None:
        """The table ended: show the spectators the end, then forget them."""
        self.changed(table)

    async def close(self) -> None:
        tasks = [r.task for r in self._rooms.values() if r.task is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t

    # ------------------------------------------------------------------ inside
    def _room(self, table: Table) -> _Room:
        room = self._rooms.get(table.id)
        if room is None:
            room = self._rooms[table.id] = _Room(table, hand=_hand(table))
        return room

    def _recount(self, room: _Room) -> None:
        n = len(room.watchers) if room.table.open else 0
        if room.table.watching != n:
            room.table.watching = n
            if self.recounted is not None and room.table.open:
                try:
                    self.recounted(room.table)
                except Exception:
                    log.exception("showing the spectators of table %s failed", room.table.id)
        if not room.watchers and (room.task is None or room.task.done()):
            self._rooms.pop(room.table.id, None)

    def _poke(self, room: _Room) -> None:
        if not room.watchers:
            return
        room.wake.set()
        if room.task is None or room.task.done():
            room.task = asyncio.create_task(self._run(room), name=f"watch-{room.table.id}")

    def _usable(self, w: Watcher) -> bool:
        return w.handle is not None and time.monotonic() - w.issued < self.token_lifetime

    async def _run(self, room: _Room) -> None:
        """Edit the room's spectators until every message shows the table as it is."""
        table = room.table
        try:
            while room.watchers and self.editor is not None:
                table = room.table
                key = watch_key(table)
                due = [w for w in room.watchers.values() if w.shown != key and not w.answering]
                if not due:
                    if not table.open:
                        break
                    await _nap(room, None)
                    continue
                now = time.monotonic()
                urgent = not table.open or _hand(table) != room.hand
                wait = room.last_round + self.interval - now
                if wait > 0 and not urgent:
                    await _nap(room, wait)
                    continue
                room.last_round, room.hand = now, _hand(table)
                await self._round(room, due)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the spectators' views of table %s failed", table.id)
        finally:
            if room.task is asyncio.current_task():
                room.task = None
        if not room.table.open:
            room.watchers.clear()
        self._recount(room)

    async def _round(self, room: _Room, due: list[Watcher]) -> None:
        """Edit ``due`` one after the other (the longest behind first), each within the
        budget; the view is rendered once, and again only when the table changed meanwhile."""
        table = room.table
        key, frame = watch_key(table), None
        for w in sorted(due, key=lambda w: w.shown_at):
            if not self._usable(w):
                self._drop(room, w)
                continue
            await self._budget.take()
            if self.gate is not None:
                await self.gate()  # the players' answers first
            if self.editor is None:
                return
            if frame is None or watch_key(room.table) != key:
                table = room.table
                key, frame = watch_key(table), self.editor.render(table)
            await self._edit(room, w, key, frame)

    async def _edit(self, room: _Room, w: Watcher, key: WatchKey, frame: Frame) -> None:
        handle = w.handle
        if w.answering or room.watchers.get(w.user_id) is not w or self.editor is None:
            return  # answered meanwhile (the answer shows the view), or gone
        with_picture = frame.picture is not None and frame.picture != w.picture
        with w.in_flight.editing():
            result = await self.editor.edit(handle, room.table, frame, with_picture)
        if w.handle is not handle:
            return  # an answer replaced the message meanwhile
        if result is Edit.SHOWN:
            w.shown, w.shown_at = key, time.monotonic()
            if with_picture:
                w.picture = frame.picture
            self.edits += 1
        elif result is Edit.GONE:
            self._drop(room, w)
        else:
            w.shown = None  # failed: the next round tries again

    def _drop(self, room: _Room, w: Watcher) -> None:
        if room.watchers.get(w.user_id) is w:
            del room.watchers[w.user_id]
            self.dropped += 1
            self._recount(room)


def _hand(table: Table) -> int:
    return table.game.hand_number if table.game is not None else 0


async def _nap(room: _Room, seconds: float | None) -> None:
    """Sleep ``seconds`` (``None``: until woken), or less if the table changes."""
    room.wake.clear()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(room.wake.wait(), seconds)
