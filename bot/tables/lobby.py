"""Seats, computer players and rules: opening a table, sitting down and leaving, filling seats,
changing the rules before the start, starting the game and abandoning it."""

from __future__ import annotations

import contextlib
import logging
import time

from bot.bounded import KeyedLocks
from bot.command_input import excerpt
from bot.engine import Game, Rules, Seat
from bot.engine.dealer import draw_first_dealer
from bot.engine.games import preset_names, same_game
from bot.engine.rules import option_names, parse_value
from bot.errors import NotHost, NotSeated, Refusal, StaleButton, StoreFailed
from bot.i18n import _
from bot.i18n.cards import seat_word
from bot.league.settings import GuildSettings
from bot.names import md_name
from bot.store.errors import UniqueViolation
from bot.tables.context import ServiceContext
from bot.tables.defaults import default_rules
from bot.tables.new_table import DEFAULT_PRESET, NewTable, check_place, check_preset, with_defaults
from bot.tables.options import TableOptions
from bot.tables.persistence import Ending, rules_doc
from bot.tables.seat_checks import after_leaving, ensure_in_play, level_fixed, seat_moves
from bot.tables.state import LEVELS, SERVER, Occupant, Place, Rematch, Table, TableStatus
from bot.tables.turns import deadline_after

log = logging.getLogger(__name__)

ID_TRIES = 20  # table ids tried before giving up (ids clash only with a test seed)


class Lobby:
    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx
        self.persistence = ctx.persistence
        self.store = ctx.persistence.store
        self.registry = ctx.registry
        # Opening a table and sitting down are serialised per server: one member, one seat;
        # one channel, one table — however many clicks arrive at once.
        self._guild_locks: KeyedLocks[int] = KeyedLocks()  # kept while in use

    def seating(self, guild_id: int) -> contextlib.AbstractAsyncContextManager[None]:
        """Hold the server's seating lock (opening tables, sitting down)."""
        return self._guild_locks.hold(guild_id)

    def check_new(self, ask: NewTable, server: GuildSettings | None) -> NewTable:
        """Everything that refuses ``/spades new``, before anything is made for it: where
        (:func:`~bot.tables.new_table.check_place`), whether the member and the channel are
        free, the preset; ``ask`` with the server's defaults (``server``: the settings of a
        server that added the bot, else ``None``)."""
        check_place(ask, server)
        where = -1 if ask.thread else ask.channel_id  # a new thread is free
        self.registry.check_can_open(ask.guild_id, where, ask.host_id)
        return with_defaults(ask, server)

    async def open_new(self, ask: NewTable, channel_id: int) -> Table:
        """Open the table :meth:`check_new` passed, in ``channel_id`` (where it was asked
        for, or the thread opened for it); its host sits North."""
        return await self.open_table(
            guild_id=ask.guild_id,
            channel_id=channel_id,
            host_id=ask.host_id,
            host_name=ask.host_name,
            preset=ask.preset or DEFAULT_PRESET,
            target=ask.target,
            turn_timer=ask.turn_timer or 0,
            place=ask.place,
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
        place: Place = SERVER,
    ) -> Table:
        async with self.seating(guild_id):
            return await self._open(
                guild_id, channel_id, host_id, host_name, preset, target, turn_timer, place
            )

    async def _open(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        preset: str,
        target: int | None,
        turn_timer: int,
        place: Place,
    ) -> Table:
        self.registry.check_can_open(guild_id, channel_id, host_id)
        overrides = {"target": target} if target is not None else {}
        rules = default_rules(preset, **overrides)  # a RulesError is answered as it is
        if not 0 <= turn_timer <= 3600:
            raise Refusal(_("turn_timer must be between 0 (off) and 3600 seconds"))
        table = Table(
            id=self.ctx.randomness.table_id(),
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            rules=rules,
            turn_timer=turn_timer,
            created_at=time.time(),
            place=place,
        )
        table.seats[Seat.N] = Occupant(host_id, host_name)
        await self._insert(table)
        return table

    async def _insert(self, table: Table) -> None:
        """Store a new table with its seats and register it (a taken id is drawn again)."""
        for _attempt in range(ID_TRIES):
            try:
                async with self.persistence.write() as conn:
                    await self.store.insert_table(conn, self.persistence.row(table))
                    for seat, occ in table.seats.items():
                        await self.store.put_seat(
                            conn, table.id, self.persistence.seat_row(seat, occ)
                        )
                break
            except UniqueViolation as e:
                if e.constraint not in ("tables.id", "tables_pkey"):  # not a taken table id
                    log.error("opening a table in channel %s failed: %s", table.channel_id, e)
                    raise StoreFailed(
                        _(
                            "I could not open a table here (an old table of this channel is "
                            "still in my database; the error is in my log)."
                        )
                    ) from e
                table.id = self.ctx.randomness.table_id()
        else:
            raise StoreFailed(_("I could not find a free table id. Please try again."))
        self.registry.add(table)

    async def play_again(self, finished_id: str, user_id: int) -> Table:
        """**Play again**: a new table in the same channel with the same rules and seats,
        started at once, hosted by whoever asked (a player of the finished game).  A player
        now seated at another table, or whose seat a computer played at the end, is replaced
        by a computer player."""
        async with self.seating(self.registry.finished(finished_id).guild_id):
            old = self.check_play_again(finished_id, user_id)
            table = Table(
                id=self.ctx.randomness.table_id(),
                guild_id=old.guild_id,
                channel_id=old.channel_id,
                host_id=user_id,
                rules=old.rules,
                turn_timer=old.turn_timer,
                handover=old.handover,
                created_at=time.time(),
                place=old.place,
                options=old.options,
            )
            for seat, occ in old.seats.items():
                # away (a computer played for them at the end) unless they are asking now
                here = occ.user_id is not None and (not occ.away or occ.user_id == user_id)
                if here and occ.user_id is not None:
                    here = self.registry.find_of_user(old.guild_id, occ.user_id) is None
                if here:
                    table.seats[seat] = Occupant(occ.user_id, occ.name)
                else:
                    level = occ.bot_level or "normal"
                    table.seats[seat] = Occupant(None, f"Computer ({level})", level)
            await self._insert(table)
        return await self.start(table, user_id)

    def check_play_again(self, finished_id: str, user_id: int) -> Rematch:
        """Refuse **Play again** unless a player of that game asks, nothing else is open in
        the channel and they sit nowhere else."""
        old = self.registry.finished(finished_id)
        if old.arranged:
            raise Refusal(
                _("This was a tournament's game: its organiser seats the next one, not Play again.")
            )
        if user_id not in old.humans():
            raise Refusal(_("Only the players of that game can start another one."))
        if self.registry.find_in_channel(old.channel_id) is not None:
            raise Refusal(
                _("A new table is already open in this channel: use `/spades table` to see it.")
            )
        self.registry.check_can_open(old.guild_id, old.channel_id, user_id)
        return old

    # ------------------------------------------------------------------ sitting and leaving
    async def join(self, table: Table, user_id: int, name: str, seat: Seat | None = None) -> Seat:
        async with self.seating(table.guild_id), table.lock:
            ensure_open(table)
            mine = table.seat_of(user_id)
            refuse_stranger(table, mine)
            self.registry.check_can_sit(table, user_id)
            if table.status == TableStatus.LOBBY:
                return await self._join_lobby(table, user_id, name, seat, mine)
            return await self._join_game(table, user_id, name, seat, mine)

    async def _join_lobby(
        self, table: Table, user_id: int, name: str, seat: Seat | None, mine: Seat | None
    ) -> Seat:
        ensure_in_play(table, seat)
        free = table.free_seats()
        if seat is None:
            if mine is not None:
                raise Refusal(_("You are already seated ({seat}).", seat=seat_word(mine)))
            if not free:
                raise Refusal(_("The table is full."))
            seat = free[0]
        elif seat not in free:
            if seat == mine:
                raise Refusal(_("You are already seated ({seat}).", seat=seat_word(mine)))
            raise Refusal(
                _(
                    "{seat} is taken by {name}.",
                    seat=seat_word(seat),
                    name=md_name(table.seats[seat].shown_name),
                )
            )
        new = Occupant(user_id, name)
        async with self.persistence.write(table) as conn:
            if mine is not None:
                await self.store.delete_seat(conn, table.id, mine)
            await self.store.put_seat(conn, table.id, self.persistence.seat_row(seat, new))
        if mine is not None:
            del table.seats[mine]
        table.seats[seat] = new
        self.registry.seated(table, user_id)
        self.ctx.changed(table)
        return seat

    async def _join_game(
        self, table: Table, user_id: int, name: str, seat: Seat | None, mine: Seat | None
    ) -> Seat:
        if mine is not None:
            occ = table.seats[mine]
            if not occ.away:
                raise Refusal(_("You are already playing {seat}.", seat=seat_word(mine)))
            seat = mine
        else:
            open_seats = [s for s, o in table.seats.items() if o.is_computer and o.user_id is None]
            if seat is None:
                if not open_seats:
                    raise Refusal(_("The game has started and every seat is taken."))
                seat = open_seats[0]
            elif seat not in open_seats:
                raise Refusal(
                    _(
                        "{seat} is not open: only seats played by a computer "
                        "after their player left can be taken.",
                        seat=seat_word(seat),
                    )
                )
        new = Occupant(user_id, name, None, 0)
        async with self.persistence.write(table) as conn:
            await self.store.put_seat(conn, table.id, self.persistence.seat_row(seat, new))
            deadline = deadline_after(table, table.game, seat_override=(seat, new))
            await self.store.update_table(conn, table.id, deadline=deadline)
        table.seats[seat] = new
        table.deadline = deadline
        self.registry.seated(table, user_id)
        self.ctx.changed(table)
        self.ctx.turns.schedule(table)
        return seat

    async def leave(self, table: Table, user_id: int) -> str:
        async with table.lock:
            ensure_open(table)
            seat = table.seat_of(user_id)
            if seat is None or table.seats[seat].left:
                raise NotSeated(_("You are not seated at this table."))
            if table.status == TableStatus.LOBBY:
                return await self._leave_lobby(table, user_id, seat)
            level = table.handover
            # The member keeps the seat (a computer plays it): a rated game is charged to
            # them as a loss however it ends, so leaving never beats finishing.
            mine = table.seats[seat]
            occ = Occupant(user_id, mine.name, level, 0, left=True)
            humans_left, new_host = after_leaving(table, user_id)
            # An arranged (tournament) table plays on with computers: its result counts.
            close = not humans_left and not table.arranged
            ending: Ending | None = None
            async with self.persistence.write(table) as conn:
                await self.store.put_seat(conn, table.id, self.persistence.seat_row(seat, occ))
                await self.store.update_table(conn, table.id, host_id=new_host, deadline=None)
                if close:
                    ending = await self.persistence.end(conn, table, TableStatus.ABANDONED)
            # Saved: only now does the table change (a failed save leaves it as it was).
            table.abandon_vote = None  # a request to end early is void once anyone leaves
            table.seats[seat] = occ
            table.host_id = new_host
            table.deadline = None
            self.registry.unseated(table, user_id)
            if ending is not None:
                ending.apply(table)
                self.ctx.closed(table)
                return _("You left; with no players left the table is closed.")
            self.ctx.changed(table)
            self.ctx.turns.schedule(table)
            return _(
                "You left {seat}; a computer player ({level}) takes over. If the game "
                "is rated it counts as a loss for you, whatever the score; `/spades join` "
                "takes your seat back.",
                seat=seat_word(seat),
                level=_(level),
            )

    async def _leave_lobby(self, table: Table, user_id: int, seat: Seat) -> str:
        humans_left, new_host = after_leaving(table, user_id)
        ending: Ending | None = None
        async with self.persistence.write(table) as conn:
            await self.store.delete_seat(conn, table.id, seat)
            await self.store.update_table(conn, table.id, host_id=new_host)
            if not humans_left:
                ending = await self.persistence.end(conn, table, TableStatus.ABANDONED)
        del table.seats[seat]
        table.host_id = new_host
        self.registry.unseated(table, user_id)
        if ending is not None:
            ending.apply(table)
            self.ctx.closed(table)
            return _("You left; the table is closed.")
        self.ctx.changed(table)
        return _("You left {seat}.", seat=seat_word(seat))

    # ------------------------------------------------------------------ host
    async def add_bot(self, table: Table, user_id: int, seat: Seat | None, level: str) -> Seat:
        """Host: seat a computer player in the lobby.  Once the game has started no level
        changes (see :func:`level_fixed`)."""
        if level not in LEVELS:
            raise Refusal(_("The level must be one of {levels}.", levels=", ".join(LEVELS)))
        async with table.lock:
            ensure_open(table)
            ensure_host(table, user_id, _("add computer players"))
            if table.status == TableStatus.PLAYING:
                raise Refusal(level_fixed(table, seat))
            ensure_in_play(table, seat)
            free = table.free_seats()
            if seat is None:
                if not free:
                    raise Refusal(_("The table is full."))
                seat = free[0]
            elif seat not in free:
                raise Refusal(
                    _(
                        "{seat} is taken by {name}.",
                        seat=seat_word(seat),
                        name=md_name(table.seats[seat].shown_name),
                    )
                )
            new = Occupant(None, f"Computer ({level})", level)
            async with self.persistence.write(table) as conn:
                await self.store.put_seat(conn, table.id, self.persistence.seat_row(seat, new))
            table.seats[seat] = new
            self.ctx.changed(table)
            return seat

    @staticmethod
    def _switched(rules: Rules, preset: str) -> Rules:
        """Another preset, keeping a changed target when the game stays the same (a Whist
        target means nothing to Euchre, a Spades one nothing to Whist)."""
        if preset not in preset_names():
            return default_rules(preset)  # refused with the list of presets
        keep = same_game(preset, rules.preset) and "target" in rules.overrides()
        return default_rules(preset, **({"target": rules.target} if keep else {}))

    async def set_option(self, table: Table, user_id: int, name: str, value: str) -> TableOptions:
        """Host, in the lobby: one of the table's own settings (``spectators``, ``hints``)."""
        async with table.lock:
            ensure_open(table)
            ensure_host(table, user_id, _("change the table's settings"))
            if table.status != TableStatus.LOBBY:
                raise Refusal(_("`{name}` is fixed once the game has started.", name=name))
            options = table.options.with_option(name, value)
            if options.hints and table.arranged:
                raise Refusal(_("There are no hints in a tournament game."))
            async with self.persistence.write(table) as conn:
                await self.store.update_table(
                    conn, table.id, rules=rules_doc(table, options=options)
                )
            table.options = options
            self.ctx.changed(table)
            return options

    async def set_rule(self, table: Table, user_id: int, name: str, value: str) -> Rules:
        """``/spades rule``: the host changes one rule option (or the preset) in the lobby."""
        if name != "preset" and name not in option_names(table.rules.game)[1:]:
            raise Refusal(
                _(
                    "There is no rule option {name} in {game}; pick one from the list.",
                    name=excerpt(name),
                    game=_(table.rules.title),
                )
            )
        if name == "preset":
            check_preset(value.strip())
        async with table.lock:
            ensure_open(table)
            ensure_host(table, user_id, _("change the rules"))
            if table.status != TableStatus.LOBBY:
                raise Refusal(_("The rules are fixed once the game has started."))
            if name == "preset":  # a RulesError (the engine's reason) is answered as it is
                rules = self._switched(table.rules, value.strip())
            else:
                rules = table.rules.with_option(name, parse_value(name, value, table.rules.game))
            moves = seat_moves(table, rules)
            async with self.persistence.write(table) as conn:
                await self.store.update_table(conn, table.id, rules=rules_doc(table, rules=rules))
                for old, new in moves.items():
                    await self.store.delete_seat(conn, table.id, old)
                    await self.store.put_seat(
                        conn, table.id, self.persistence.seat_row(new, table.seats[old])
                    )
            for old, new in moves.items():
                table.seats[new] = table.seats.pop(old)
            table.rules = rules
            self.ctx.changed(table)
            return rules

    async def start(self, table: Table, user_id: int) -> Table:
        async with table.lock:
            ensure_open(table)
            ensure_host(table, user_id, _("start the game"))
            if table.status != TableStatus.LOBBY:
                raise Refusal(_("The game has already started."))
            if table.free_seats():
                free = ", ".join(seat_word(s) for s in table.free_seats())
                raise Refusal(
                    _(
                        "{n} players are needed: {free} still empty. "
                        "Fill a seat with `/spades bot`.",
                        n=table.rules.players,
                        free=free,
                    )
                )
            # The game's seed (docs/verifiable-deals.md): the draw and every deal come from it.
            seed = self.ctx.randomness.game_seed(table)
            draws, dealer = draw_first_dealer(seed.secret, table.seat_order)
            draw_doc = [{s.name: c.code for s, c in d.items()} for d in draws]
            game = Game(table.rules, dealer)
            deal = game.seeded_deal(seed.secret)
            game.apply(deal)
            now = time.time()
            deadline = deadline_after(table, game)
            async with self.persistence.write(table) as conn:
                await self.store.update_table(
                    conn,
                    table.id,
                    status=TableStatus.PLAYING.value,
                    first_dealer=dealer.name,
                    dealer_draw=draw_doc,
                    started_at=now,
                    deadline=deadline,
                    seed=seed.reveal(),  # stored, never shown before the game is over
                )
                await self.store.append_action(conn, table.id, 1, deal, None)
            table.status = TableStatus.PLAYING
            table.game = game
            table.dealer_draw = draw_doc
            table.seed = seed
            table.started_at = now
            table.deadline = deadline
            table.seq = 1
            self.ctx.changed(table)
            self.ctx.turns.schedule(table)
            return table


def refuse_stranger(table: Table, mine: Seat | None) -> None:
    """Only the organiser seats people at a tournament's table (``/tournament replace``): a
    member sits there only in the seat recorded under their own id (coming back after they
    left or timed out), never in a computer's seat — that would be playing for an entry they
    are not in, and seeing its hand."""
    if table.arranged and mine is None:
        raise Refusal(
            _(
                "This is a tournament's table: only its organiser seats players here "
                "(`/tournament replace`). You can only come back to a seat of your own."
            )
        )


def ensure_open(table: Table) -> None:
    if not table.open:
        raise StaleButton(_("That table has ended."))


def ensure_host(table: Table, user_id: int, what: str) -> None:
    if user_id != table.host_id:
        raise NotHost(_("Only the host ({host}) can {what}.", host=table.host_name(), what=_(what)))
