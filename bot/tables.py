"""The table service: every change to a table goes through here.

One ``asyncio.Lock`` per table serialises its actions; tables never wait on each other.  An
action is checked by the engine on a copy of the game, the copy (plus any deal that follows)
is committed to SQLite in one transaction, and only then does it replace the live game and the
caller get its answer.  A failed commit leaves the table as it was.
"""

from __future__ import annotations

import contextlib
import logging
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from bot.autoturn import AutoTurns, Decider, deadline_after
from bot.engine import (
    Action,
    Bid,
    Deal,
    Game,
    HandResult,
    IllegalAction,
    Look,
    PassCards,
    Play,
    Rules,
    RulesError,
    Seat,
    SeatView,
    seat_view,
)
from bot.engine.cards import Card
from bot.engine.dealer import draw_first_dealer
from bot.engine.game import Phase
from bot.engine.rules import parse_value
from bot.errors import (
    Duplicate,
    NoTable,
    NotHost,
    NotSeated,
    NotYourButtons,
    Refusal,
    StaleButton,
    StoreFailed,
)
from bot.store.db import Database, Tx
from bot.store.errors import StoreError, UniqueViolation
from bot.store.tables import SeatRow, StoredTable, TableRow, TableStore
from bot.table import LEVELS, MAX_TIMEOUTS, Occupant, Table

log = logging.getLogger(__name__)

GameStoredHook = Callable[[Tx, Table, Game], Awaitable[None]]


class TableListener(Protocol):
    """What the Discord layer is told; every method must return quickly."""

    def changed(self, table: Table) -> None: ...

    def hand_finished(self, table: Table, result: HandResult) -> None: ...

    def game_finished(self, table: Table) -> None: ...

    def notice(self, table: Table, text: str) -> None: ...


@dataclass(frozen=True, slots=True)
class ActResult:
    table: Table
    seat: Seat
    action: Action


class TableService:
    def __init__(
        self,
        db: Database,
        decide: Decider,
        *,
        test_seed: int | None = None,
        bot_delay: float = 1.0,
    ) -> None:
        self.db = db
        self.store = TableStore(db)
        self.test_seed = test_seed
        self.auto = AutoTurns(self, decide, bot_delay=bot_delay, test_seed=test_seed)
        self.listener: TableListener | None = None
        self.on_game_stored: GameStoredHook | None = None
        self._by_id: dict[str, Table] = {}
        self._by_channel: dict[int, Table] = {}
        self._by_user: dict[tuple[int, int], Table] = {}
        self._seen: OrderedDict[int, None] = OrderedDict()
        self._table_counter = 0

    # ------------------------------------------------------------------ lookup
    def get(self, table_id: str) -> Table:
        table = self._by_id.get(table_id)
        if table is None or not table.open:
            raise StaleButton("That table has ended.")
        return table

    def in_channel(self, channel_id: int) -> Table:
        table = self._by_channel.get(channel_id)
        if table is None:
            raise NoTable("There is no table in this channel. Open one with `/spades new`.")
        return table

    def find_in_channel(self, channel_id: int) -> Table | None:
        return self._by_channel.get(channel_id)

    def of_user(self, guild_id: int, user_id: int) -> Table:
        table = self._by_user.get((guild_id, user_id))
        if table is None:
            raise NotSeated(
                "You are not seated at a table in this server. Join one with "
                "`/spades join` or open one with `/spades new`."
            )
        return table

    def find_of_user(self, guild_id: int, user_id: int) -> Table | None:
        return self._by_user.get((guild_id, user_id))

    # ------------------------------------------------------------------ lobby
    def check_can_open(self, guild_id: int, channel_id: int, user_id: int) -> None:
        other = self._by_user.get((guild_id, user_id))
        if other is not None:
            raise Refusal(
                f"You are already seated at a table in <#{other.channel_id}>. "
                "Leave it with `/spades leave` first."
            )
        if channel_id in self._by_channel:
            raise Refusal(
                "This channel already has a table. Use `/spades table` to see it, "
                "or open one with `thread: true`."
            )

    async def open_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        preset: str,
        target: int | None = None,
        turn_timer: int = 0,
    ) -> Table:
        self.check_can_open(guild_id, channel_id, host_id)
        overrides = {"target": target} if target is not None else {}
        try:
            rules = Rules.from_preset(preset, **overrides)
        except RulesError as e:
            raise Refusal(e.reason) from None
        if not 0 <= turn_timer <= 3600:
            raise Refusal("turn_timer must be between 0 (off) and 3600 seconds")
        table = Table(
            id=self._new_id(),
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            rules=rules,
            turn_timer=turn_timer,
            created_at=time.time(),
        )
        table.seats[Seat.N] = Occupant(host_id, host_name)
        async with self._write() as conn:
            await self.store.insert_table(conn, self._row(table))
            await self.store.put_seat(conn, table.id, self._seat_row(Seat.N, table.seats[Seat.N]))
        self._register(table)
        return table

    def _new_id(self) -> str:
        if self.test_seed is not None:
            self._table_counter += 1
            rng = random.Random(f"{self.test_seed}:{self._table_counter}:{time.time_ns()}")
            return "".join(rng.choice("abcdefghjkmnpqrstuvwxyz23456789") for _ in range(8))
        return "".join(secrets.choice("abcdefghjkmnpqrstuvwxyz23456789") for _ in range(8))

    async def join(self, table: Table, user_id: int, name: str, seat: Seat | None = None) -> Seat:
        async with table.lock:
            self._ensure_open(table)
            mine = table.seat_of(user_id)
            other = self._by_user.get((table.guild_id, user_id))
            if other is not None and other is not table:
                raise Refusal(f"You are already seated at a table in <#{other.channel_id}>.")
            if table.status == "lobby":
                return await self._join_lobby(table, user_id, name, seat, mine)
            return await self._join_game(table, user_id, name, seat, mine)

    async def _join_lobby(
        self, table: Table, user_id: int, name: str, seat: Seat | None, mine: Seat | None
    ) -> Seat:
        free = table.free_seats()
        if seat is None:
            if mine is not None:
                raise Refusal(f"You are already seated ({mine.word}).")
            if not free:
                raise Refusal("The table is full.")
            seat = free[0]
        elif seat not in free:
            if seat == mine:
                raise Refusal(f"You are already seated ({mine.word}).")
            raise Refusal(f"{seat.word} is taken by {table.seats[seat].name}.")
        new = Occupant(user_id, name)
        async with self._write() as conn:
            if mine is not None:
                await self.store.delete_seat(conn, table.id, mine)
            await self.store.put_seat(conn, table.id, self._seat_row(seat, new))
        if mine is not None:
            del table.seats[mine]
        table.seats[seat] = new
        self._by_user[(table.guild_id, user_id)] = table
        self._changed(table)
        return seat

    async def _join_game(
        self, table: Table, user_id: int, name: str, seat: Seat | None, mine: Seat | None
    ) -> Seat:
        if mine is not None:
            occ = table.seats[mine]
            if not occ.away:
                raise Refusal(f"You are already playing {mine.word}.")
            seat = mine
        else:
            open_seats = [s for s, o in table.seats.items() if o.is_computer and o.user_id is None]
            if seat is None:
                if not open_seats:
                    raise Refusal("The game has started and every seat is taken.")
                seat = open_seats[0]
            elif seat not in open_seats:
                raise Refusal(
                    f"{seat.word} is not open: only seats played by a computer "
                    "after their player left can be taken."
                )
        new = Occupant(user_id, name, None, 0)
        async with self._write() as conn:
            await self.store.put_seat(conn, table.id, self._seat_row(seat, new))
            deadline = deadline_after(table, table.game, seat_override=(seat, new))
            await self.store.update_table(conn, table.id, deadline=deadline)
        table.seats[seat] = new
        table.deadline = deadline
        self._by_user[(table.guild_id, user_id)] = table
        self._changed(table)
        self.auto.schedule(table)
        return seat

    async def leave(self, table: Table, user_id: int) -> str:
        async with table.lock:
            self._ensure_open(table)
            seat = table.seat_of(user_id)
            if seat is None:
                raise NotSeated("You are not seated at this table.")
            if table.status == "lobby":
                return await self._leave_lobby(table, user_id, seat)
            level = table.handover
            occ = Occupant(None, f"Computer ({level})", level, 0)
            humans_left, new_host = self._after_leaving(table, user_id)
            async with self._write() as conn:
                await self.store.put_seat(conn, table.id, self._seat_row(seat, occ))
                await self.store.update_table(conn, table.id, host_id=new_host, deadline=None)
                if not humans_left:
                    await self._end(conn, table, "abandoned")
            table.seats[seat] = occ
            table.host_id = new_host
            table.deadline = None
            self._by_user.pop((table.guild_id, user_id), None)
            if not humans_left:
                self._closed(table)
                return "You left; with no players left the table is closed."
            self._changed(table)
            self.auto.schedule(table)
            return f"You left {seat.word}; a computer player ({level}) takes over."

    @staticmethod
    def _after_leaving(table: Table, user_id: int) -> tuple[list[int], int]:
        """The people left at the table, and its host once ``user_id`` has gone."""
        humans_left = [u for u in table.humans() if u != user_id]
        if user_id == table.host_id and humans_left:
            return humans_left, humans_left[0]
        return humans_left, table.host_id

    async def _leave_lobby(self, table: Table, user_id: int, seat: Seat) -> str:
        humans_left, new_host = self._after_leaving(table, user_id)
        async with self._write() as conn:
            await self.store.delete_seat(conn, table.id, seat)
            await self.store.update_table(conn, table.id, host_id=new_host)
            if not humans_left:
                await self._end(conn, table, "abandoned")
        del table.seats[seat]
        table.host_id = new_host
        self._by_user.pop((table.guild_id, user_id), None)
        if not humans_left:
            self._closed(table)
            return "You left; the table is closed."
        self._changed(table)
        return f"You left {seat.word}."

    async def add_bot(self, table: Table, user_id: int, seat: Seat | None, level: str) -> Seat:
        if level not in LEVELS:
            raise Refusal(f"The level must be one of {', '.join(LEVELS)}.")
        async with table.lock:
            self._ensure_open(table)
            self._ensure_host(table, user_id, "add computer players")
            if table.status == "playing":
                if seat is None or not table.seats[seat].is_computer:
                    raise Refusal(
                        "The game has started: you can only change the level of a "
                        "seat a computer already plays (give `seat`)."
                    )
                occ = table.seats[seat]
                new = Occupant(
                    occ.user_id,
                    occ.name if occ.user_id else f"Computer ({level})",
                    level,
                    occ.timeouts,
                )
            else:
                free = table.free_seats()
                if seat is None:
                    if not free:
                        raise Refusal("The table is full.")
                    seat = free[0]
                elif seat not in free:
                    raise Refusal(f"{seat.word} is taken by {table.seats[seat].name}.")
                new = Occupant(None, f"Computer ({level})", level)
            async with self._write() as conn:
                await self.store.put_seat(conn, table.id, self._seat_row(seat, new))
                if table.status == "playing":
                    await self.store.update_table(conn, table.id, handover=level)
            table.seats[seat] = new
            if table.status == "playing":
                table.handover = level
            self._changed(table)
            self.auto.schedule(table)
            return seat

    async def set_rule(self, table: Table, user_id: int, name: str, value: str) -> Rules:
        async with table.lock:
            self._ensure_open(table)
            self._ensure_host(table, user_id, "change the rules")
            if table.status != "lobby":
                raise Refusal("The rules are fixed once the game has started.")
            try:
                if name == "preset":
                    rules = Rules.from_preset(value.strip(), target=table.rules.target)
                else:
                    rules = table.rules.with_option(name, parse_value(name, value))
            except RulesError as e:
                raise Refusal(e.reason) from None
            async with self._write() as conn:
                await self.store.update_table(conn, table.id, rules=rules.to_record())
            table.rules = rules
            self._changed(table)
            return rules

    async def start(self, table: Table, user_id: int) -> Table:
        async with table.lock:
            self._ensure_open(table)
            self._ensure_host(table, user_id, "start the game")
            if table.status != "lobby":
                raise Refusal("The game has already started.")
            if len(table.seats) < 4:
                free = ", ".join(s.word for s in table.free_seats())
                raise Refusal(
                    f"Four players are needed: {free} still empty. Fill a seat with `/spades bot`."
                )
            draws, dealer = draw_first_dealer(self._rng(table, 0))
            draw_doc = [{s.name: c.code for s, c in d.items()} for d in draws]
            game = Game(table.rules, dealer)
            deal = self._make_deal(table, game)
            game.apply(deal)
            now = time.time()
            deadline = deadline_after(table, game)
            async with self._write() as conn:
                await self.store.update_table(
                    conn,
                    table.id,
                    status="playing",
                    first_dealer=dealer.name,
                    dealer_draw=draw_doc,
                    started_at=now,
                    deadline=deadline,
                )
                await self.store.append_action(conn, table.id, 1, deal, None)
            table.status = "playing"
            table.game = game
            table.dealer_draw = draw_doc
            table.started_at = now
            table.deadline = deadline
            table.seq = 1
            self._changed(table)
            self.auto.schedule(table)
            return table

    async def abandon(self, table: Table, user_id: int, is_admin: bool) -> None:
        async with table.lock:
            self._ensure_open(table)
            if user_id != table.host_id and not is_admin:
                raise NotHost(
                    f"Only the host ({table.host_name()}) or a member with "
                    "Manage Server can abandon the table."
                )
            async with self._write() as conn:
                await self._end(conn, table, "abandoned")
            self._closed(table)

    async def set_message(self, table: Table, message_id: int) -> None:
        async with self._write() as conn:
            await self.store.update_table(conn, table.id, message_id=message_id)
        table.message_id = message_id

    # ------------------------------------------------------------------ game actions
    def seat_for(
        self,
        table: Table,
        user_id: int,
        button_seat: Seat | None = None,
        button_hand: int | None = None,
    ) -> Seat:
        """The caller's seat, checking a private button's seat and hand number."""
        seat = table.seat_of(user_id)
        if button_seat is not None and seat != button_seat:
            owner = table.seats.get(button_seat)
            who = owner.name if owner else button_seat.word
            raise NotYourButtons(
                f"These buttons are {who}'s ({button_seat.word}). "
                "Use `/hand` to see your own cards."
            )
        if seat is None:
            raise NotSeated("You are not seated at this table.")
        if table.game is None or table.status != "playing":
            raise StaleButton("The game has not started yet.")
        if button_hand is not None and button_hand != table.game.hand_number:
            raise StaleButton("That button is from an earlier hand; here is your current hand.")
        return seat

    def view(self, table: Table, seat: Seat | None) -> SeatView | None:
        return seat_view(table.game, seat) if table.game is not None else None

    async def play(
        self,
        table: Table,
        user_id: int,
        card: Card,
        *,
        interaction_id: int | None = None,
        button_seat: Seat | None = None,
        button_hand: int | None = None,
    ) -> ActResult:
        return await self._human_act(
            table, user_id, lambda s: Play(s, card), interaction_id, button_seat, button_hand
        )

    async def bid(
        self,
        table: Table,
        user_id: int,
        value: int,
        blind: bool = False,
        *,
        interaction_id: int | None = None,
        button_seat: Seat | None = None,
        button_hand: int | None = None,
        look_first: bool = False,
    ) -> ActResult:
        async with table.lock:
            seat = self.seat_for(table, user_id, button_seat, button_hand)
            self._check_dup(interaction_id)
            game = table.game
            assert game is not None
            actions: list[Action] = []
            if look_first and not blind and game.blind_open(seat) and value >= 0:
                actions.append(Look(seat))
            actions.append(Bid(seat, value, blind))
            return await self.commit_actions(table, seat, actions, interaction_id)

    async def look(
        self,
        table: Table,
        user_id: int,
        *,
        interaction_id: int | None = None,
        button_seat: Seat | None = None,
        button_hand: int | None = None,
    ) -> ActResult:
        return await self._human_act(table, user_id, Look, interaction_id, button_seat, button_hand)

    async def pass_cards(
        self,
        table: Table,
        user_id: int,
        cards: tuple[Card, ...],
        *,
        interaction_id: int | None = None,
        button_seat: Seat | None = None,
        button_hand: int | None = None,
    ) -> ActResult:
        return await self._human_act(
            table,
            user_id,
            lambda s: PassCards(s, cards),
            interaction_id,
            button_seat,
            button_hand,
        )

    async def _human_act(
        self,
        table: Table,
        user_id: int,
        build: Callable[[Seat], Action],
        interaction_id: int | None,
        button_seat: Seat | None,
        button_hand: int | None,
    ) -> ActResult:
        async with table.lock:
            seat = self.seat_for(table, user_id, button_seat, button_hand)
            self._check_dup(interaction_id)
            return await self.commit_actions(table, seat, [build(seat)], interaction_id)

    def _check_dup(self, interaction_id: int | None) -> None:
        if interaction_id is not None and interaction_id in self._seen:
            raise Duplicate("This action has already been applied.")

    def _remember(self, interaction_id: int | None) -> None:
        if interaction_id is None:
            return
        self._seen[interaction_id] = None
        while len(self._seen) > 10_000:
            self._seen.popitem(last=False)

    async def commit_actions(
        self,
        table: Table,
        seat: Seat,
        actions: list[Action],
        interaction_id: int | None,
        timeout_seat: Seat | None = None,
    ) -> ActResult:
        """Check on a copy, commit, then swap the copy in.  The caller holds the table lock.

        ``timeout_seat``: the seat a computer acted for because its player ran out of time.
        """
        game = table.game
        if game is None:
            raise StaleButton("The game has not started yet.")
        sim = game.clone()
        for action in actions:
            sim.apply(action)  # IllegalAction propagates; the live game is untouched
        stored: list[Action | Deal] = list(actions)
        if sim.phase is Phase.DEAL:
            deal = self._make_deal(table, sim)
            sim.apply(deal)
            stored.append(deal)
        occupant_update: tuple[Seat, Occupant] | None = None
        if timeout_seat is not None:
            occ = table.seats[timeout_seat]
            timeouts = occ.timeouts + 1
            level = table.handover if timeouts >= MAX_TIMEOUTS else None
            occupant_update = (timeout_seat, Occupant(occ.user_id, occ.name, level, timeouts))
        deadline = deadline_after(table, sim, seat_override=occupant_update)
        finished = sim.over
        try:
            async with self._write() as conn:
                for i, a in enumerate(stored):
                    await self.store.append_action(
                        conn, table.id, table.seq + 1 + i, a, interaction_id if i == 0 else None
                    )
                if occupant_update is not None:
                    s, o = occupant_update
                    await self.store.put_seat(conn, table.id, self._seat_row(s, o))
                if finished:
                    await self._end(conn, table, "finished", sim)
                elif deadline != table.deadline:
                    await self.store.update_table(conn, table.id, deadline=deadline)
        except UniqueViolation:
            self._remember(interaction_id)
            raise Duplicate("This action has already been applied.") from None
        results_before = len(game.results)
        table.game = sim
        table.seq += len(stored)
        table.deadline = deadline
        if occupant_update is not None:
            table.seats[occupant_update[0]] = occupant_update[1]
        self._remember(interaction_id)
        if self.listener is not None:
            for result in sim.results[results_before:]:
                self.listener.hand_finished(table, result)
        if finished:
            self._closed(table)
        else:
            self._changed(table)
            self.auto.schedule(table)
        return ActResult(table, seat, actions[-1])

    # ------------------------------------------------------------------ randomness
    def _rng(self, table: Table, salt: int) -> random.Random:
        if self.test_seed is None:
            return secrets.SystemRandom()
        return random.Random(f"{self.test_seed}:{table.id}:{salt}")

    def _make_deal(self, table: Table, game: Game) -> Deal:
        cards = list(game.deck.cards)
        self._rng(table, game.hand_number).shuffle(cards)
        return Deal(
            (tuple(cards[0::4]), tuple(cards[1::4]), tuple(cards[2::4]), tuple(cards[3::4]))
        )

    # ------------------------------------------------------------------ bookkeeping
    @contextlib.asynccontextmanager
    async def _write(self) -> AsyncIterator[Tx]:
        try:
            async with self.db.transaction() as conn:
                yield conn
        except UniqueViolation:
            raise
        except StoreError as e:
            log.error("database write failed: %s", e)
            raise StoreFailed("I could not save that, so nothing changed. Please try again.") from e

    async def _end(self, conn: Tx, table: Table, status: str, game: Game | None = None) -> None:
        """Mark the table ended and hand the game to the league, in the caller's transaction."""
        game = game or table.game
        now = time.time()
        await self.store.update_table(conn, table.id, status=status, ended_at=now, deadline=None)
        previous = (table.status, table.ended_at)
        table.status, table.ended_at = status, now
        try:
            if self.on_game_stored is not None and game is not None:
                await self.on_game_stored(conn, table, game)
        except BaseException:
            table.status, table.ended_at = previous
            raise

    def _ensure_open(self, table: Table) -> None:
        if not table.open:
            raise StaleButton("That table has ended.")

    def _ensure_host(self, table: Table, user_id: int, what: str) -> None:
        if user_id != table.host_id:
            raise NotHost(f"Only the host ({table.host_name()}) can {what}.")

    def _register(self, table: Table) -> None:
        self._by_id[table.id] = table
        self._by_channel[table.channel_id] = table
        for uid in table.humans():
            self._by_user[(table.guild_id, uid)] = table

    def _closed(self, table: Table) -> None:
        table.deadline = None
        self.auto.cancel(table)
        self._by_id.pop(table.id, None)
        if self._by_channel.get(table.channel_id) is table:
            del self._by_channel[table.channel_id]
        for key, t in list(self._by_user.items()):
            if t is table:
                del self._by_user[key]
        table.version += 1
        if self.listener is not None:
            self.listener.game_finished(table)

    def _changed(self, table: Table) -> None:
        table.version += 1
        if self.listener is not None:
            self.listener.changed(table)

    def _row(self, table: Table) -> TableRow:
        return TableRow(
            id=table.id,
            guild_id=table.guild_id,
            channel_id=table.channel_id,
            host_id=table.host_id,
            status=table.status,
            rules=table.rules.to_record(),
            turn_timer=table.turn_timer,
            handover=table.handover,
            message_id=table.message_id,
            created_at=table.created_at,
        )

    @staticmethod
    def _seat_row(seat: Seat, o: Occupant) -> SeatRow:
        return SeatRow(seat, o.user_id, o.name, o.bot_level, o.timeouts)

    # ------------------------------------------------------------------ start-up
    async def restore(self) -> list[Table]:
        """Load every unfinished table and rebuild its game by replaying its actions."""
        restored = []
        for stored in await self.store.load_unfinished():
            try:
                table = self._rebuild(stored)
            except (IllegalAction, RulesError, ValueError, KeyError):
                log.exception("table %s could not be restored; leaving it", stored.row.id)
                continue
            self._register(table)
            restored.append(table)
        for table in restored:
            self.auto.schedule(table)
        return restored

    @staticmethod
    def _rebuild(stored: StoredTable) -> Table:
        row = stored.row
        table = Table(
            id=row.id,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            host_id=row.host_id,
            rules=Rules.from_record(row.rules),
            turn_timer=row.turn_timer,
            handover=row.handover,
            status=row.status,
            dealer_draw=row.dealer_draw,
            message_id=row.message_id,
            deadline=row.deadline,
            created_at=row.created_at,
            started_at=row.started_at,
            ended_at=row.ended_at,
        )
        for s in stored.seats:
            table.seats[s.seat] = Occupant(s.user_id, s.name, s.bot_level, s.timeouts)
        if row.status == "playing" and row.first_dealer:
            game = Game(table.rules, Seat[row.first_dealer])
            for action in stored.actions:
                game.apply(action)
            table.game = game
            table.seq = len(stored.actions)
        return table

    async def close(self) -> None:
        await self.auto.close()
