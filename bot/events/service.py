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
from bot.events.arrangement import round_seed_notice, tournament_game
from bot.events.invitations import Invitations
from bot.events.pairing import rounds
from bot.events.pairing.model import (
    NAME_MAX,
    EntryStatus,
    SlotStatus,
    Tournament,
    TournamentStatus,
)
from bot.events.results import record_table_end
from bot.events.seating import RoundSeating
from bot.events.threads import TableThreads
from bot.i18n import _, later
from bot.names import md_name
from bot.store.db import Database, Tx
from bot.store.errors import StoreError, UniqueViolation
from bot.store.tournaments import TournamentStore, league_ratings
from bot.tables.service import TableService
from bot.tables.state import Table

log = logging.getLogger(__name__)


class TournamentService:
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

    # ------------------------------------------------------------------ lookups
    def running(self, guild_id: int, name: str | None = None) -> Tournament:
        """The open tournament of the server named ``name`` (or its only one)."""
        mine = [t for t in self.open.values() if t.guild_id == guild_id]
        if name:
            key = " ".join(name.casefold().split())
            mine = [t for t in mine if " ".join(t.name.casefold().split()) == key]
            if not mine:
                raise Refusal(
                    _(
                        "No tournament named {name} is running in this server.",
                        name=md_name(name, limit=NAME_MAX),
                    )
                )
        if not mine:
            raise Refusal(
                _("No tournament is running in this server: `/tournament new` opens one.")
            )
        if len(mine) > 1:
            names = ", ".join(t.md_name for t in mine)
            raise Refusal(
                _("Several tournaments are running ({names}): name one with `name`.", names=names)
            )
        return mine[0]

    def get(self, tournament_id: int) -> Tournament:
        t = self.open.get(tournament_id)
        if t is None:
            raise Refusal(_("That tournament is over."))
        return t

    async def named(self, guild_id: int, name: str | None) -> Tournament:
        """The server's tournament named ``name``, running or over (its results), or without
        a name the one running."""
        t = await self.store.find(guild_id, name) if name else self.running(guild_id)
        if t is None:
            raise Refusal(
                _(
                    "There is no tournament named {name} in this server.",
                    name=md_name(name or "", limit=NAME_MAX),
                )
            )
        return t

    async def of_server(self, guild_id: int, tournament_id: int) -> Tournament:
        """A tournament of this server, running or over (its results' files)."""
        t = await self.store.load(self.db, tournament_id)
        if t is None or t.guild_id != guild_id:
            raise Refusal(_("That tournament is gone."))
        return t

    def of_table(self, table_id: str) -> Tournament | None:
        for t in self.open.values():
            if t.game_of_table(table_id) is not None:
                return t
        return None

    @contextlib.asynccontextmanager
    async def changing(self, t: Tournament) -> AsyncIterator[Tournament]:
        """Hold the tournament's lock; yields it as stored now."""
        async with self._locks[t.id]:
            current = self.open.get(t.id)
            if current is None:
                raise Refusal(_("That tournament is over."))
            yield current

    async def reload(self, tid: int) -> Tournament:
        t = await self.store.load(self.db, tid)
        assert t is not None
        if t.open:
            self.open[tid] = t
        else:
            self.open.pop(tid, None)
        return t

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
                await self.store.update(
                    tx, t.id, status=TournamentStatus.RUNNING, round=1, round_deadline=deadline
                )
            t = await self.reload(t.id)
            for inv in unanswered:
                self.invitations.announce(t, inv, "closed")
            for note in notes:
                self.announcer.say(t, note)
            self.announcer.say(
                t,
                later(
                    "🏁 **{name}** begins: round 1 of {rounds}.",
                    name=t.md_name,
                    rounds=rounds.total_rounds(t),
                ),
            )
            seated = await self.seating.seat_round(t)
            self._seated_in(t, began)
        self.alarms.arm(t, retry=not seated)
        self.announcer.updated(t)
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

    # ------------------------------------------------------------------ advancing
    def _table_closed(self, table: Table) -> None:
        if not table.arranged:
            return
        t = self.of_table(table.id)
        if t is not None:
            self._poke(t.id)

    def _hand_finished(self, table: Table) -> None:
        """A hand ended at a tournament table: the standings show its score."""
        if table.arranged and (t := self.of_table(table.id)) is not None:
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
        if (notice := round_seed_notice(t)) is not None:  # every table of the round has ended
            self.announcer.say(t, notice)
        if rounds.is_final_round(t) or len(t.playing()) < t.settings.per_table:
            await self._finish(t)
            return
        games = rounds.next_round(t)
        deadline = self._deadline(t)
        async with self.write() as tx:
            for g in games:
                await self.store.put_game(tx, t.id, g)
            await self.store.update(tx, t.id, round=t.round + 1, round_deadline=deadline)
        t = await self.reload(tid)
        self.announcer.say(
            t,
            later(
                "▶ Round {round} of {rounds} is seated.",
                round=t.round,
                rounds=rounds.total_rounds(t),
            ),
        )
        seated = await self.seating.seat_round(t)
        self._seated_in(t, began)
        self.alarms.arm(t, retry=not seated)
        self.announcer.updated(t)

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

    # ------------------------------------------------------------------ restart
    async def resume(self, guild_filter: Callable[[int], bool] | None = None) -> list[Tournament]:
        """Load the open tournaments of this process's servers and catch each one up."""
        loaded = await self.store.load_open(guild_filter)
        for t in loaded:
            self.open[t.id] = t
        for t in loaded:
            if t.status == TournamentStatus.RUNNING:
                await self.advance(t.id)
            else:
                self.alarms.arm(t)
                self.signup_changed(t)
                self.announcer.updated(t)
        return loaded

    async def close(self) -> None:
        await self.threads.close()
        self.alarms.close()
        for task in list(self._tasks):
            task.cancel()
