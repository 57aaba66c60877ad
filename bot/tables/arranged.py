"""Tables arranged by an organiser (a tournament): opened with their seats filled, started at
once, and ended by the organiser when a deadline passes.

This is the table service's one entry point for the tournament director
(``bot/events/service.py``): it never reaches into the lobby's internals.  An arranged table
is an ordinary table afterwards — live hands, timers, computer hand-over, everything — except
that it plays on when every member has left (its result counts), that only the organiser
seats people there (a member comes back only to a seat of their own:
:func:`bot.tables.lobby.refuse_stranger`), and that its terms — rated or not, its board
limit, its shared deal key, who may watch and how far behind — are stored with it, so a
restart has them in force before any turn is played.

Seating is idempotent through the database: :meth:`ArrangedTables.open` stores the table and
runs the organiser's ``claim`` in the same transaction; a claim that finds the game already
seated rolls the whole table back (:class:`AlreadySeated`).  Only the claim says a game is
seated: another table open in the channel (a member's, or an older game's) is
:class:`ChannelBusy`, and the organiser seats the game elsewhere.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.engine import Rules, Seat
from bot.errors import Refusal
from bot.i18n import _
from bot.store.db import Tx
from bot.store.errors import UniqueViolation
from bot.tables.context import ServiceContext
from bot.tables.lobby import ID_TRIES, Lobby
from bot.tables.options import TableOptions
from bot.tables.state import Occupant, Table, TableStatus
from bot.tables.turns import deadline_after

log = logging.getLogger(__name__)

Claim = Callable[[Tx, str], Awaitable[bool]]


class AlreadySeated(Refusal):
    """The organiser's game already has a table (seated before a restart, or by another
    process): nothing was opened."""


class ChannelBusy(Refusal):
    """Another table is open in the channel the organiser chose: nothing was opened."""


class _IdTaken(Exception):
    """The table id drawn was used before: another is drawn."""


@dataclass(frozen=True, slots=True)
class ArrangedSeat:
    """Who the organiser seats: a member (``user_id``) or a computer player (``level``)."""

    user_id: int | None
    name: str
    level: str | None = None


class ArrangedTables:
    def __init__(self, ctx: ServiceContext, lobby: Lobby) -> None:
        self.ctx = ctx
        self.lobby = lobby
        self.persistence = ctx.persistence

    async def open(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        seats: dict[Seat, ArrangedSeat],
        rules: Rules,
        turn_timer: int,
        rated: bool,
        claim: Claim,
        hand_limit: int | None = None,
        deal_source: str | None = None,
        options: TableOptions | None = None,
    ) -> Table:
        """Open a table in ``channel_id`` (a thread made for it) with these seats and start
        it (``options``: who may watch it, and how far behind).  ``claim(tx, table_id)`` runs
        in the transaction that stores the table; ``False`` rolls it back and raises
        :class:`AlreadySeated`.  A member already seated at another
        table of the server keeps that seat: a computer plays theirs here (at the table's
        hand-over level) until they come with ``/spades join``."""
        if set(seats) != set(rules.seats):
            raise ValueError("every seat the rules play must be filled")
        table = Table(
            id=self.ctx.randomness.table_id(),
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            rules=rules,
            turn_timer=turn_timer,
            created_at=time.time(),
            arranged=True,
            rated=rated,
            hand_limit=hand_limit,
            deal_source=deal_source,
            options=options or TableOptions(),
        )
        async with self.lobby.seating(guild_id):
            for seat, who in seats.items():
                busy = (
                    who.user_id is not None
                    and self.ctx.registry.find_of_user(guild_id, who.user_id) is not None
                )
                level = table.handover if busy else who.level
                if who.user_id is None and level is None:
                    level = "normal"
                table.seats[seat] = Occupant(who.user_id, who.name, level)
            await self._insert(table, claim)
        return await self.lobby.start(table, host_id)

    async def _insert(self, table: Table, claim: Claim) -> None:
        """Store the table with its seats and the organiser's claim in one transaction (a
        taken table id is drawn again); the claim refused: :class:`AlreadySeated`; a table
        already open in the channel: :class:`ChannelBusy`."""
        store = self.persistence.store
        for _attempt in range(ID_TRIES):
            try:
                async with self.persistence.write() as conn:
                    # The claim first (with an id no table ever had): only the game's own row
                    # says whether it is seated, not another table open in the channel.
                    if await store.table_exists(conn, table.id):
                        raise _IdTaken
                    if not await claim(conn, table.id):
                        raise AlreadySeated(_("That game already has a table."))
                    await store.insert_table(conn, self.persistence.row(table))
                    for seat, occ in table.seats.items():
                        await store.put_seat(conn, table.id, self.persistence.seat_row(seat, occ))
                break
            except _IdTaken:
                table.id = self.ctx.randomness.table_id()
            except UniqueViolation as e:
                if e.constraint not in ("tables.id", "tables_pkey"):
                    raise ChannelBusy(_("Another table is open in that channel.")) from e
                table.id = self.ctx.randomness.table_id()  # another process drew it just now
        else:
            raise Refusal(_("I could not find a free table id. Please try again."))
        self.ctx.registry.add(table)

    async def start_if_waiting(self, table: Table) -> None:
        """Start an arranged table stored before a restart cut its start short."""
        if table.status == TableStatus.LOBBY:
            await self.lobby.start(table, table.host_id)

    def adopt(
        self,
        table: Table,
        rated: bool,
        hand_limit: int | None = None,
        deal_source: str | None = None,
    ) -> None:
        """Mark a restored table as arranged again: one stored before its terms were stored
        with it (an older version's); the terms of any other are already in force."""
        table.arranged = True
        table.rated = rated
        table.hand_limit = hand_limit
        table.deal_source = deal_source

    async def decide(self, table: Table, reason: str) -> None:
        """End an arranged table now (a round deadline, the organiser): unrated and recorded
        as abandoned, its score as it stands deciding it for the organiser's hooks."""
        async with table.lock:
            if not table.open:
                return
            async with self.persistence.write(table) as conn:
                ending = await self.persistence.end(conn, table, TableStatus.ABANDONED)
            table.end_reason = reason
            ending.apply(table)
            self.ctx.closed(table)

    async def replace_seat(self, table: Table, user_id: int, new: ArrangedSeat) -> Seat | None:
        """The organiser seats someone else (a substitute, or a computer) in a member's seat;
        the member is no longer seated here.  ``None``: they do not sit at this table."""
        async with self.lobby.seating(table.guild_id), table.lock:
            if not table.open:
                return None
            seat = table.seat_of(user_id)
            if seat is None:
                return None
            if new.user_id is not None:
                self.ctx.registry.check_can_sit(table, new.user_id)
                occ = Occupant(new.user_id, new.name)
            else:
                level = new.level or table.handover
                occ = Occupant(None, f"Computer ({level})", level)
            async with self.persistence.write(table) as conn:
                await self.persistence.store.put_seat(
                    conn, table.id, self.persistence.seat_row(seat, occ)
                )
                deadline = deadline_after(table, table.game, seat_override=(seat, occ))
                await self.persistence.store.update_table(conn, table.id, deadline=deadline)
            table.seats[seat] = occ
            table.deadline = deadline
            self.ctx.registry.unseated(table, user_id)
            if new.user_id is not None:
                self.ctx.registry.seated(table, new.user_id)
            self.ctx.changed(table)
            self.ctx.turns.schedule(table)
            return seat
