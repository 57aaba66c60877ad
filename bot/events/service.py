"""The tournament director: sign-up, the start, seating each round's tables through the table
service, advancing rounds as tables end or a round deadline passes, and resuming after a
restart.

Every change is committed before it is announced (the announcer is the Discord side,
:mod:`bot.events.announcer`).  One lock per tournament serialises its changes.  Its parts:
seating a round (:mod:`bot.events.seating`, a game seated at most once), the tables' threads
(:mod:`bot.events.threads`), its alarm (:mod:`bot.events.alarms`); a table's result is
recorded in the transaction that ends it (:mod:`bot.events.results`).  Only the process
serving the tournament's server (its shard) runs it: :meth:`TournamentService.resume` takes
that process's guild filter."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Callable, Coroutine

from bot.errors import Refusal
from bot.events.alarms import Alarms
from bot.events.announcer import Announcer, QuietAnnouncer
from bot.events.arrangement import round_key, round_seed_notice, tournament_game
from bot.events.finder import TournamentFinder
from bot.events.invitations import Invitations
from bot.events.pairing import rounds
from bot.events.pairing.model import (
    EntryStatus,
    SlotStatus,
    Tournament,
    TournamentStatus,
)
from bot.events.results import record_table_end
from bot.events.seating import RoundSeating
from bot.events.threads import TableThreads
from bot.i18n import _, later
from bot.store.db import Database, Tx
from bot.store.errors import StoreError, UniqueViolation
from bot.store.tables import hold_seed, release_seed
from bot.store.tournaments import (
    TournamentStore,
    UnreadableTournament,
    league_ratings,
)
from bot.tables.service import TableService
from bot.tables.state import Table

log = logging.getLogger(__name__)


class TournamentService(TournamentFinder):
    def __init__(
        self,
        db: Database,
        tables: TableService,
        announcer: Announcer | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.db = db
        self.store = TournamentStore(db)
        self.tables = tables
        self.announcer: Announcer = announcer or QuietAnnouncer()
        self.clock = clock
        self.open: dict[int, Tournament] = {}
        self._locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self.alarms = Alarms(clock, self.tick)
        self._tasks: set[asyncio.Task[None]] = set()
        self._poked: set[int] = set()
        # open tournaments of this process's servers that could not be loaded at the start
        self.unreadable: dict[int, UnreadableTournament] = {}
        self.threads = TableThreads(
            self.store, self.write, self.announcer, tables.registry, self.open.get
        )
        self.seating = RoundSeating(self.store, self.write, tables, self.threads, self.announcer)
        self.invitations = Invitations(
            self.store, self.write, self.announcer, lambda: list(self.open.values())
        )
        tables.persistence.on_table_ended.append(functools.partial(record_table_end, self.store))
        tables.on_closed(self._table_closed)
        tables.on_hand_finished(self._hand_finished)
        tables.spectators.guards.append(self._watch_guard)

    @contextlib.asynccontextmanager
    async def changing(self, t: Tournament) -> AsyncIterator[Tournament]:
        """Hold the tournament's lock; yields it as stored now."""
        try:
            async with self._locks[t.id]:
                current = self.open.get(t.id)
                if current is None:
                    raise Refusal(_("That tournament is over."))
                yield current
        finally:
            self._unlocked(t.id)

    async def reload(self, tid: int) -> Tournament:
        t = await self.store.load(self.db, tid)
        assert t is not None
        if t.open:
            self.open[tid] = t
        else:
            self._forget(tid)
        return t

    def _forget(self, tid: int) -> None:
        """A tournament ended: nothing of it stays in memory (its lock goes once free:
        :meth:`_unlocked`)."""
        self.open.pop(tid, None)
        self._poked.discard(tid)
        self.alarms.forget(tid)
        self.threads.forget(tid)

    def _unlocked(self, tid: int) -> None:
        """After a change under ``tid``'s lock: an ended tournament's lock is dropped."""
        lock = self._locks.get(tid)
        if tid not in self.open and lock is not None and not lock.locked():
            del self._locks[tid]

    @contextlib.asynccontextmanager
    async def write(self) -> AsyncIterator[Tx]:
        try:
            async with self.db.transaction("tournament") as tx:
                yield tx
        except UniqueViolation:
            raise
        except StoreError as e:
            log.error("tournament write failed: %s", e)
            raise Refusal(_("I could not save that, so nothing changed. Please try again.")) from e

    async def set_message(self, t: Tournament, message_id: int) -> None:
        async with self.write() as tx:
            await self.store.update(tx, t.id, message_id=message_id)
        t.message_id = message_id

    # ------------------------------------------------------------------ the start
    async def start(self, t: Tournament) -> str:
        """Close sign-up: drop no-shows, draw partners, seed, pair round 1 and seat it."""
        async with self.changing(t) as t:
            began = time.perf_counter()
            if t.status != TournamentStatus.SIGNUP:
                raise Refusal(_("{name} has already started.", name=t.md_name))
            await self.threads.settle(t.id)  # threads made ahead during sign-up are used
            notes, entries = rounds.line_up(t)
            enough = t.settings.per_table
            if len([e for e in entries if e.status == EntryStatus.IN]) < enough:
                now = len([e for e in entries if e.status == EntryStatus.IN])
                raise Refusal(
                    _(
                        "{name} needs at least {n} entries to start ({now} now).",
                        name=t.md_name,
                        n=enough,
                        now=now,
                    )
                )
            users = [m.user_id for e in entries for m in e.members]
            ratings = await league_ratings(self.db, t.guild_id, tournament_game(t), users)
            rated = []
            for e in entries:
                r = sum(ratings.get(m.user_id, 0.0) for m in e.members) / max(len(e.members), 1)
                rated.append(dataclasses.replace(e, rating=r))
            rated, note = rounds.with_computer_team(t, rated)
            notes += [note] if note else []
            trial = dataclasses.replace(t, entries={e.id: e for e in rated}, games=[])
            games = rounds.next_round(trial)
            deadline = self._deadline(t)
            async with self.write() as tx:
                unanswered = await self.invitations.close_all(tx, t)
                for e in rated:
                    await self.store.put_entry(tx, t.id, e)
                    for m in e.members:
                        await self.store.set_member_entry(tx, t.id, m.user_id, e.id)
                for e in t.entries.values():
                    if e.id not in trial.entries:
                        await self.store.delete_entry(tx, t.id, e.id)
                for g in games:
                    await self.store.put_game(tx, t.id, g)
                await self.hold_deals(tx, t, 1)
                await self.store.update(
                    tx, t.id, status=TournamentStatus.RUNNING, round=1, round_deadline=deadline
                )
            t = await self.reload(t.id)
            for inv in unanswered:
                self.invitations.announce(t, inv, "closed")
            for note in notes:
                self.announcer.say(t, note)
            begins = later(
                "🏁 **{name}** begins: round 1 of {rounds}.",
                name=t.md_name,
                rounds=rounds.total_rounds(t),
            )
            await self._seat_round(t, began, begins)
        return _("{name} has started.", name=t.md_name)

    def signup_changed(self, t: Tournament) -> None:
        """An entry came, went or checked in: the threads the first round would need now
        are made ahead (:mod:`bot.events.threads`)."""
        if t.status == TournamentStatus.SIGNUP:
            self.threads.prepare(t, rounds.first_round_tables(t))

    def _deadline(self, t: Tournament) -> float | None:
        """When a round starting now must end (``None``: no round deadline)."""
        minutes = t.settings.round_minutes
        return self.clock() + minutes * 60 if minutes else None

    def _watch_guard(self, table: Table, user_id: int) -> None:
        """Nobody entered in a duplicate tournament watches its tables: they deal the boards
        that member plays (or played, or will).  Nor does anyone watch a duplicate table whose
        tournament is not running here (a start-up still under way, one that could not be
        loaded).  Everyone else: the organiser's ``spectators`` setting, on the table."""
        if not table.arranged:
            return
        t = self.of_table(table.id)
        if t is None:
            if table.deal_source is not None:
                raise Refusal(
                    _("This tournament table cannot be watched now: its tournament is not running.")
                )
            return
        if t.settings.format == "duplicate" and t.signed_up(user_id):
            raise Refusal(
                _(
                    "You are entered in {name}: nobody entered watches its tables (they deal "
                    "the same boards as yours).",
                    name=t.name,
                )
            )

    # ------------------------------------------------------------------ advancing
    def _table_closed(self, table: Table) -> None:
        if not table.arranged:
            return
        t = self.of_table(table.id)
        if t is not None:
            self._poke(t.id)

    def _hand_finished(self, table: Table) -> None:
        """A hand ended at a tournament table: the standings show its score (not in a
        duplicate round: they show none of it until the round is over)."""
        t = self.of_table(table.id) if table.arranged else None
        if t is not None and t.settings.format != "duplicate":
            self.announcer.updated(t)

    def _spawn(self, work: Coroutine[object, object, None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def advance(self, tid: int) -> None:
        """Catch up with what the tables did: the next game of a match, the next round, or
        the end.  Safe to call any time (it only acts on what is stored)."""
        async with self._locks[tid]:
            await self._advance_locked(tid)
            await self._caught_up(tid)
        self._unlocked(tid)

    async def _caught_up(self, tid: int) -> None:
        """A catch-up pass went through: a mark from a failed one is cleared."""
        t = self.open.get(tid)
        if t is None or t.fault is None:
            return
        async with self.write() as tx:
            await self.store.update(tx, tid, fault=None)
        t.fault = None
        self.announcer.updated(t)

    def _poke(self, tid: int) -> None:
        """A table of ``tid`` ended: one catch-up pass is queued (tables ending together —
        a whole round at its deadline — share it)."""
        if tid in self._poked:
            return
        self._poked.add(tid)
        self._spawn(self._poked_pass(tid))

    async def _poked_pass(self, tid: int) -> None:
        async with self._locks[tid]:
            self._poked.discard(tid)  # a table ending from now on queues another pass
            await self._advance_locked(tid)
            await self._caught_up(tid)
        self._unlocked(tid)

    async def _advance_locked(self, tid: int) -> None:
        """Catch up (under the tournament's lock), then arm its alarm afresh: the round's
        deadline, or sooner a retry of a game that could not be seated.  Every pass re-arms,
        so a restart, a retry or going on after a pause never leaves a deadline unwatched."""
        began = time.perf_counter()
        t = await self.reload(tid)
        if t.status != TournamentStatus.RUNNING:
            self.announcer.updated(t)
            return
        more = rounds.more_games(t)
        if more:
            async with self.write() as tx:
                for g in more:
                    await self.store.put_game(tx, t.id, g)
            t = await self.reload(tid)
        if not rounds.round_over(t):
            seated = await self.seating.seat_round(t)
            self.alarms.arm(t, retry=not seated)
            self.announcer.updated(t)
            return
        if t.settings.format == "duplicate":  # every game of the round is over
            async with self.write() as tx:
                await release_seed(tx, round_key(t, t.round))
        if (notice := round_seed_notice(t)) is not None:
            self.announcer.say(t, notice)
        if rounds.is_final_round(t) or len(t.playing()) < t.settings.per_table:
            await self._finish(t)
            return
        games = rounds.next_round(t)
        deadline = self._deadline(t)
        async with self.write() as tx:
            for g in games:
                await self.store.put_game(tx, t.id, g)
            await self.hold_deals(tx, t, t.round + 1)
            await self.store.update(tx, t.id, round=t.round + 1, round_deadline=deadline)
        t = await self.reload(tid)
        seated_news = later(
            "▶ Round {round} of {rounds} is seated.", round=t.round, rounds=rounds.total_rounds(t)
        )
        await self._seat_round(t, began, seated_news)

    async def _seat_round(self, t: Tournament, began: float, news: str) -> None:
        """How every round begins, the first and each next one: ``news`` is posted, the round's
        tables are seated (timed from ``began``) and its alarms armed."""
        self.announcer.say(t, news)
        seated = await self.seating.seat_round(t)
        self._seated_in(t, began)
        self.alarms.arm(t, retry=not seated)
        self.announcer.updated(t)

    @staticmethod
    async def hold_deals(tx: Tx, t: Tournament, round_no: int) -> None:
        """A duplicate round's deal key is held back from the moment its games are stored
        until every one of them is over (released in :meth:`_advance_locked`): no table of
        the round reveals it while another — seated or still to be — plays its boards."""
        if t.settings.format == "duplicate":
            await hold_seed(tx, round_key(t, round_no))

    def _seated_in(self, t: Tournament, began: float) -> None:
        """Log how long the pass that paired and seated a round took (from taking the
        tournament's lock): the figure ``benchmarks/tournament.py`` reports."""
        tables = sum(1 for g in t.round_games() if len(g.entries) > 1)
        ms = (time.perf_counter() - began) * 1000
        log.info(
            "tournament %s round %s: %d tables paired and seated in %.0f ms",
            t.id,
            t.round,
            tables,
            ms,
        )

    async def _finish(self, t: Tournament) -> None:
        places = rounds.places(t)
        async with self.write() as tx:
            await self.store.set_places(tx, t.id, places)
            await self.store.update(
                tx, t.id, status=TournamentStatus.FINISHED, ended_at=self.clock()
            )
        t = await self.reload(t.id)
        self.alarms.disarm(t.id)
        self.announcer.finished(t)

    # ------------------------------------------------------------------ what is due
    async def tick(self, tid: int) -> None:
        """Do what is due now: start a tournament at its start time, decide a round whose
        deadline passed, or catch up (a table that could not be seated is tried again)."""
        t = self.open.get(tid)
        if t is None:
            return
        try:
            if t.status == TournamentStatus.SIGNUP:
                await self._expire_invitations(t)
                if self.clock() >= t.starts_at:
                    await self._start_on_time(t)
                else:
                    self.alarms.arm(t)
            elif (
                t.status == TournamentStatus.RUNNING
                and t.round_deadline
                and self.clock() >= t.round_deadline
            ):
                await self.decide_round(
                    t, later("⏰ The round's time is up: decided by the score.")
                )
            else:
                await self.advance(tid)
        except Refusal as e:
            log.info("tournament %s: %s", tid, e.reason)
        except Exception:
            log.exception("tournament %s: its timer failed", tid)

    async def _expire_invitations(self, t: Tournament) -> None:
        """Withdraw the invitations whose time is up (their inviters are told)."""
        async with self.changing(t) as t:
            if await self.invitations.expire_due(t, self.clock()):
                await self.reload(t.id)

    async def _start_on_time(self, t: Tournament) -> None:
        try:
            await self.start(t)
        except Refusal as e:
            await self.cancel(t, later("it could not start on time: {reason}", reason=e.reason))

    async def cancel(self, t: Tournament, reason: str) -> None:
        """End the tournament now: every table still playing ends (unrated), nothing more is
        seated, and the channel is told why."""
        async with self.changing(t) as t:
            async with self.write() as tx:
                unanswered = await self.invitations.close_all(tx, t)
                await self.store.update(
                    tx,
                    t.id,
                    status=TournamentStatus.CANCELLED,
                    ended_at=self.clock(),
                    note=reason[:300],
                )
                if t.settings.format == "duplicate" and t.round:
                    await release_seed(tx, round_key(t, t.round))  # the last table reveals it
            t = await self.reload(t.id)
            self.alarms.disarm(t.id)
        cancelled = later("🛑 **{name}** is cancelled: {reason}", name=t.md_name, reason=reason)
        for inv in unanswered:  # their messages say so, and lose their buttons
            self.announcer.invitation_closed(t, inv, cancelled)
        for g in t.games:
            if g.status == SlotStatus.PLAYING and g.table_id is not None:
                table = self.tables.registry.find_by_id(g.table_id)
                if table is not None:
                    await self.tables.arranged.decide(
                        table, later("The tournament was cancelled: {reason}", reason=reason)
                    )
        self.announcer.say(t, cancelled)
        self.announcer.updated(t)

    async def decide_round(self, t: Tournament, reason: str) -> None:
        """End every table of the round still playing: the score decides each."""
        for g in t.round_games():
            if g.status == SlotStatus.PLAYING and g.table_id is not None:
                table = self.tables.registry.find_by_id(g.table_id)
                if table is not None:
                    await self.tables.arranged.decide(table, reason)
        await self.advance(t.id)

    async def close(self) -> None:
        await self.threads.close()
        self.alarms.close()
        for task in list(self._tasks):
            task.cancel()
