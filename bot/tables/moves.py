"""The move pipeline: whose seat a click acts for, then check on a copy → commit → swap in →
notify.  The caller holds the table's lock for the whole pipeline, so a table's moves are
serialised and each is persisted before its answer; tables never wait on each other."""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from bot.engine import (
    Action,
    Bid,
    Call,
    Deal,
    Discard,
    Look,
    Play,
    Seat,
    SeatView,
    check_claimant,
    claim_targets,
    look_then_bid,
    public_claims,
    seat_view,
)
from bot.engine.actions import Claim
from bot.engine.cards import Card
from bot.engine.game import Phase
from bot.errors import Duplicate, NotSeated, NotYourButtons, Refusal, StaleButton, StoreFailed
from bot.i18n import N_, _, later
from bot.i18n.cards import SeatWord, seat_word
from bot.i18n.lines import LineWord
from bot.names import md_name
from bot.store.errors import UniqueViolation
from bot.tables.context import ServiceContext
from bot.tables.persistence import Ending
from bot.tables.state import MAX_TIMEOUTS, Occupant, Table, TableStatus
from bot.tables.turns import deadline_after

SEEN_INTERACTIONS = 10_000  # interaction ids remembered to refuse a second delivery
NOTICE_EVERY_S = 60.0  # at most one "could not save" notice per table per minute
SAVE_FAILED = N_("I could not save that, so nothing changed. Please try again.")
log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ActResult:
    table: Table
    seat: Seat
    action: Action


class Moves:
    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx
        self.persistence = ctx.persistence
        self.store = ctx.persistence.store
        self._seen: OrderedDict[int, None] = OrderedDict()
        self._notified: dict[str, float] = {}  # table id → when its last failure was shown

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
            who = md_name(owner.name) if owner else seat_word(button_seat)
            raise NotYourButtons(
                _(
                    "These buttons are {who}'s ({seat}). Use `/hand` to see your own cards.",
                    who=who,
                    seat=seat_word(button_seat),
                )
            )
        if seat is None:
            raise NotSeated(_("You are not seated at this table."))
        if table.seats[seat].left:
            raise NotSeated(_("You left this game: `/spades join` takes your seat back."))
        if table.game is None or table.status != TableStatus.PLAYING:
            raise StaleButton(_("The game has not started yet."))
        if button_hand is not None and button_hand != table.game.hand_number:
            raise StaleButton(_("That button is from an earlier hand; here is your current hand."))
        return seat

    def view(self, table: Table, seat: Seat | None) -> SeatView | None:
        return seat_view(table.game, seat) if table.game is not None else None

    # ------------------------------------------------------------------ a person's moves
    async def act(
        self,
        table: Table,
        user_id: int,
        build: Callable[[Seat], Action],
        *,
        interaction_id: int | None = None,
        button_seat: Seat | None = None,
        button_hand: int | None = None,
    ) -> ActResult:
        """A person's move: their seat is checked once, under the table's lock (with a private
        button's seat and hand number), then ``build`` makes the action for that seat — a
        refusal it raises (what a button carries cannot be read, say) comes after the check,
        like the engine's — and the pipeline commits it."""
        async with table.lock:
            seat = self.seat_for(table, user_id, button_seat, button_hand)
            self._check_dup(interaction_id)
            return await self.commit(table, seat, [build(seat)], interaction_id)

    async def play(
        self, table: Table, user_id: int, card: Card, *, interaction_id: int | None = None
    ) -> ActResult:
        return await self.act(
            table, user_id, lambda s: Play(s, card), interaction_id=interaction_id
        )

    async def call(
        self,
        table: Table,
        user_id: int,
        call: str,
        alone: bool = False,
        *,
        interaction_id: int | None = None,
    ) -> ActResult:
        """Euchre: order up, pass, or name a suit (``call``), alone or not."""
        return await self.act(
            table, user_id, lambda s: Call(s, call, alone), interaction_id=interaction_id
        )

    async def discard(
        self, table: Table, user_id: int, card: Card, *, interaction_id: int | None = None
    ) -> ActResult:
        """Euchre: the dealer, having taken the up-card, discards ``card``."""
        return await self.act(
            table, user_id, lambda s: Discard(s, card), interaction_id=interaction_id
        )

    async def look(
        self, table: Table, user_id: int, *, interaction_id: int | None = None
    ) -> ActResult:
        return await self.act(table, user_id, Look, interaction_id=interaction_id)

    async def bid(
        self,
        table: Table,
        user_id: int,
        value: int,
        blind: bool = False,
        *,
        interaction_id: int | None = None,
        look_first: bool = False,
    ) -> ActResult:
        """A bid; with ``look_first`` (``/bid`` while the cards are face down) the player looks
        at them first, in the same commit."""
        async with table.lock:
            seat = self.seat_for(table, user_id)
            self._check_dup(interaction_id)
            game = table.game
            assert game is not None
            bid = Bid(seat, value, blind)
            actions: list[Action] = list(look_then_bid(game, bid) if look_first else (bid,))
            return await self.commit(table, seat, actions, interaction_id)

    def claim_targets(self, table: Table, user_id: int) -> tuple[Seat, ...]:
        """**Claim** (games.md G1): the opponents the member may claim a renege against now,
        or refused saying why (the engine's reason when the game allows no claim now)."""
        seat = table.seat_of(user_id)
        if seat is None:
            raise NotSeated(_("You are not seated at this table."))
        if table.game is None or not table.rules.claims:
            raise Refusal(_("Renege claims are not played at this table."))
        check_claimant(table.game, seat)
        return claim_targets(table.game, seat)

    async def claim(
        self, table: Table, user_id: int, against: Seat, *, interaction_id: int | None = None
    ) -> ActResult:
        """games.md G1: a renege claim, at any moment of the play (not only on turn)."""
        if not table.rules.claims:
            raise Refusal(_("Renege claims are not played at this table (renege = prevented)."))
        async with table.lock:
            seat = self.seat_for(table, user_id)
            self._check_dup(interaction_id)
            return await self.commit(table, seat, [Claim(seat, against)], interaction_id)

    def _failed(self, table: Table) -> None:
        """A move could not be saved: say so on the table (at most once a minute), so that a
        table never stops without a trace."""
        now = time.monotonic()
        if now - self._notified.get(table.id, -NOTICE_EVERY_S) < NOTICE_EVERY_S:
            return
        # only the notices of the last minute matter: older ones go (the map never grows)
        for tid in [t for t, at in self._notified.items() if now - at >= NOTICE_EVERY_S]:
            del self._notified[tid]
        self._notified[table.id] = now
        self.ctx.notice(
            table,
            later(
                "⚠ I could not save a move here (a database error, in my log); nothing "
                "changed. Try again in a moment."
            ),
        )

    def _check_dup(self, interaction_id: int | None) -> None:
        if interaction_id is not None and interaction_id in self._seen:
            raise Duplicate(_("This action has already been applied."))

    def _remember(self, interaction_id: int | None) -> None:
        if interaction_id is None:
            return
        self._seen[interaction_id] = None
        while len(self._seen) > SEEN_INTERACTIONS:
            self._seen.popitem(last=False)

    # ------------------------------------------------------------------ the pipeline
    async def commit(
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
            raise StaleButton(_("The game has not started yet."))
        sim = game.clone()
        for action in actions:
            sim.apply(action)  # IllegalAction propagates; the live game is untouched
        stored: list[Action | Deal] = list(actions)
        # An arranged table may end after a number of hands (duplicate boards).
        limit = table.hand_limit is not None and len(sim.results) >= table.hand_limit
        if sim.phase is Phase.DEAL and not limit:
            deal = self.ctx.randomness.deal(table, sim)
            sim.apply(deal)
            stored.append(deal)
        occupant_update: tuple[Seat, Occupant] | None = None
        if timeout_seat is not None:
            occ = table.seats[timeout_seat]
            timeouts = occ.timeouts + 1
            level = table.handover if timeouts >= MAX_TIMEOUTS else None
            occupant_update = (timeout_seat, Occupant(occ.user_id, occ.name, level, timeouts))
        deadline = deadline_after(table, sim, seat_override=occupant_update)
        finished = sim.over or limit
        ending: Ending | None = None
        try:
            async with self.persistence.write(table) as conn:
                for i, a in enumerate(stored):
                    await self.store.append_action(
                        conn, table.id, table.seq + 1 + i, a, interaction_id if i == 0 else None
                    )
                if occupant_update is not None:
                    s, o = occupant_update
                    await self.store.put_seat(conn, table.id, self.persistence.seat_row(s, o))
                if finished:
                    ending = await self.persistence.end(conn, table, TableStatus.FINISHED, sim)
                elif deadline != table.deadline:
                    await self.store.update_table(conn, table.id, deadline=deadline)
        except UniqueViolation as e:
            if interaction_id is not None and "interaction" in (e.constraint or ""):
                self._remember(interaction_id)  # the same click, delivered again
                raise Duplicate(_("This action has already been applied.")) from None
            log.error("saving a move at table %s broke a constraint: %s", table.id, e)
            self._failed(table)
            raise StoreFailed(_(SAVE_FAILED)) from e
        except StoreFailed:
            self._failed(table)
            raise
        # Committed: only now does the table change in memory.
        results_before = len(game.results)
        same_hand = sim.hand_number == game.hand_number and game.rules.claims
        claims_before = len(public_claims(game)) if same_hand else None
        table.game = sim
        table.seq += len(stored)
        table.deadline = deadline
        if occupant_update is not None:
            table.seats[occupant_update[0]] = occupant_update[1]
        if ending is not None:
            ending.apply(table)
        self._remember(interaction_id)
        for result in sim.results[results_before:]:
            self.ctx.hand_finished(table, result)
        if claims_before is not None:
            for claim in public_claims(sim)[claims_before:]:  # G1: the result is public
                self.ctx.notice(
                    table,
                    later(
                        "⚖ {seat} claims a renege: {claim}.",
                        seat=SeatWord(claim.seat),
                        claim=LineWord(claim.text),
                    ),
                )
        if finished:
            self.ctx.closed(table)
        else:
            self.ctx.changed(table)
            self.ctx.turns.schedule(table)
        return ActResult(table, seat, actions[-1])
