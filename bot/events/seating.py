"""Seating a round: each game of the round gets a table in its table number's thread, through
the table service's arranged tables (``bot/tables/arranged.py``).

A game is seated at most once: the table and the game's ``table_id`` are stored in one
transaction (``ArrangedTables.open`` with ``TournamentStore.claim_table``) — only that claim
says a game is seated, never another table open in its thread (the table number then gets a
new thread, and the game is seated there); a game stored as playing whose table is open but
not started (a restart in between) is started, not seated again.

A private table thread (a duplicate round's, :func:`~bot.events.arrangement.private_tables`)
has its members set before the table opens there: the earlier games' players who do not play
this one leave it, this game's players (and the organiser) join it."""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from collections.abc import Callable

from bot.errors import Refusal
from bot.events.announcer import Announcer
from bot.events.arrangement import (
    duplicate_deals,
    private_tables,
    seating,
    table_options,
    thread_members,
    tournament_rules,
)
from bot.events.pairing.model import GameSlot, SlotStatus, Tournament
from bot.events.threads import TableThreads
from bot.store.db import Tx
from bot.store.errors import StoreError
from bot.store.tournaments import TournamentStore
from bot.tables.arranged import AlreadySeated, ChannelBusy
from bot.tables.service import TableService
from bot.tables.state import Table

log = logging.getLogger(__name__)


class RoundSeating:
    def __init__(
        self,
        store: TournamentStore,
        write: Callable[[], contextlib.AbstractAsyncContextManager[Tx]],
        tables: TableService,
        threads: TableThreads,
        announcer: Announcer,
    ) -> None:
        self.store = store
        self.write = write
        self.tables = tables
        self.threads = threads
        self.announcer = announcer

    async def seat_round(self, t: Tournament) -> bool:
        """Seat every game of the current round that has no table yet; start one stored
        but not started (a restart in between).  ``False``: a game could not be seated (the
        caller arms a retry)."""
        seated = True
        for g in list(t.round_games()):
            if g.status == SlotStatus.PENDING and g.table_id is None:
                try:
                    await self.seat(t, g)
                except (Refusal, OSError, StoreError) as e:
                    log.warning("could not seat %s round %s table %s: %s", t.id, g.round, g.slot, e)
                    seated = False
                except Exception:
                    log.exception("could not seat %s round %s table %s", t.id, g.round, g.slot)
                    seated = False
            elif g.status == SlotStatus.PLAYING and g.table_id is not None:
                table = self.tables.registry.find_by_id(g.table_id)
                if table is not None:
                    limit, key = duplicate_deals(t, g)
                    self.tables.arranged.adopt(table, t.settings.rated, limit, key)
                    await self.tables.arranged.start_if_waiting(table)
        return seated

    async def seat(self, t: Tournament, g: GameSlot) -> None:
        """Seat one game (its thread first, made or taken again); nothing if another pass
        seated it already.  Another table open in its thread (a member's, another
        process's) does not make it seated: its table number gets a new thread, and the
        game is seated there."""
        names = " v ".join(t.entries[e].name for e in g.entries)
        if g.thread_id is None:
            g = await self._in_thread(t, g, await self.threads.for_table(t, g.slot))
        try:
            table = await self._open(t, g)
        except AlreadySeated:
            return
        except ChannelBusy:
            g = await self._in_thread(t, g, await self.threads.renew(t, g.slot))
            try:
                table = await self._open(t, g)  # busy again: refused, tried again later
            except AlreadySeated:
                return
        g = dataclasses.replace(g, table_id=table.id, status=SlotStatus.PLAYING)
        t.replace_game(g)
        log.info("tournament %s round %s: %s seated at %s", t.id, g.round, names, table.id)
        self.announcer.seated(t, g, table)

    async def _in_thread(self, t: Tournament, g: GameSlot, thread: int) -> GameSlot:
        g = dataclasses.replace(g, thread_id=thread)
        async with self.write() as tx:
            await self.store.put_game(tx, t.id, g)
        t.replace_game(g)
        return g

    async def _open(self, t: Tournament, g: GameSlot) -> Table:
        """The game's table, opened in its thread (a private thread's members set first)."""
        assert g.thread_id is not None
        if private_tables(t):
            add, remove = thread_members(t, g)
            await self.announcer.admit(t, g.thread_id, add, remove)
        limit, key = duplicate_deals(t, g)

        async def claim(tx: Tx, table_id: str) -> bool:
            return await self.store.claim_table(tx, t.id, g, table_id)

        return await self.tables.arranged.open(
            guild_id=t.guild_id,
            channel_id=g.thread_id,
            host_id=t.organiser_id,
            seats=seating(t, g),
            rules=tournament_rules(t.settings),
            turn_timer=t.settings.turn_timer,
            rated=t.settings.rated,
            claim=claim,
            hand_limit=limit,
            deal_source=key,
            options=table_options(t),
        )
