"""Acting for the seats nobody clicks for: computer players, and people whose turn timer ran
out.  One task per table waits for the next such turn; any accepted action reschedules it.

With renege claims (games.md G1) a computer seat may also act out of turn: after every
accepted action each computer seat is asked (the injected ``claim``) whether what it has seen
proves a renege, and its claim is committed before the next turn is taken.

This module knows nothing of how a move is committed: the service gives it a ``commit``
callable (and where to send notices), so imports run one way, from the moves to here."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from bot.engine import (
    Action,
    Bid,
    Game,
    PassCards,
    Phase,
    Play,
    Seat,
    SeatView,
    claim_targets,
    seat_view,
)
from bot.engine.actions import Claim
from bot.errors import Refusal, StoreFailed
from bot.i18n import Text, later
from bot.i18n.cards import BidWord, SeatWord
from bot.names import md_name
from bot.tables.state import MAX_TIMEOUTS, Occupant, Table, TableStatus

log = logging.getLogger(__name__)

# A failed automatic move is tried again: quickly at first, then every SLOW_RETRY_S seconds
# (the table is told), and given up (the table is told) after SLOW_RETRIES more tries.
QUICK_RETRIES_S = (0.5, 1.0, 2.0)
SLOW_RETRY_S = 10.0
SLOW_RETRIES = 30

# (view, level, seed, thinking delay in seconds) -> the computer's action
Decider = Callable[[SeatView, str, int, float], Awaitable[Action]]
# (table, seat, action, timeout seat) -> commits the action; the caller holds the table lock.
# The timeout seat is the seat acted for because its player ran out of time, else None.
Commit = Callable[[Table, Seat, Action, Seat | None], Awaitable[object]]
# (table, sequence number) -> the seed of the computer's decision at that point
Seeder = Callable[[Table, int], int]
# (table, text) -> tell the table's channel
Notify = Callable[[Table, str | Text], None]
# (a computer seat's view) -> the opponent it claims reneged now, or None (games.md G1)
Claimer = Callable[[SeatView], Seat | None]


def no_claims(view: SeatView) -> Seat | None:
    return None


def deadline_after(
    table: Table, game: Game | None, seat_override: tuple[Seat, Occupant] | None = None
) -> float | None:
    """When the seat on turn in ``game`` must act by (``None``: no timer, or a computer's
    turn).  A turn that has not changed keeps its deadline; a new turn gets a full timer."""
    if not table.turn_timer or game is None or game.over:
        return None
    seat = game.to_act
    if seat is None:
        return None
    occ = table.seats.get(seat)
    if seat_override is not None and seat_override[0] == seat:
        occ = seat_override[1]
    if occ is None or occ.is_computer:
        return None
    if game is table.game and table.deadline is not None:
        return table.deadline
    return time.time() + table.turn_timer


class AutoTurns:
    def __init__(
        self,
        decide: Decider,
        *,
        commit: Commit,
        seed: Seeder,
        notify: Notify,
        claim: Claimer = no_claims,
        bot_delay: float = 1.0,
    ) -> None:
        self.decide = decide
        self.commit = commit
        self.seed = seed
        self.notify = notify
        self.claim = claim
        self.bot_delay = bot_delay
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._failures: dict[str, int] = {}  # table id → failed tries of the pending turn
        self._closing = False

    def schedule(self, table: Table) -> None:
        """(Re)start the task that acts next for a computer seat or when the timer runs out."""
        if self._closing:
            return
        self.cancel(table)
        self._failures.pop(table.id, None)  # a new turn starts with a clean slate
        if table.status != TableStatus.PLAYING or table.game is None or table.game.over:
            return
        if table.computer_to_act() or self.computer_claim(table) is not None:
            delay = 0.0  # the decider spends the thinking delay, decision time included
        elif table.deadline is not None:
            delay = max(0.0, table.deadline - time.time())
        else:
            return
        self._tasks[table.id] = asyncio.create_task(self._act(table, table.seq, delay))

    def computer_claim(self, table: Table) -> Claim | None:
        """The renege claim a computer seat makes now, if any (games.md G1: as soon as what
        it has seen proves a renege by an opponent not yet caught)."""
        game = table.game
        if game is None or not game.rules.claims or game.phase is not Phase.PLAY:
            return None
        for seat, occ in sorted(table.seats.items()):
            targets = claim_targets(game, seat) if occ.is_computer else ()
            if targets:
                against = self.claim(seat_view(game, seat))
                if against in targets:  # never a claim the engine would refuse
                    return Claim(seat, against)
        return None

    def cancel(self, table: Table) -> None:
        task = self._tasks.pop(table.id, None)
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()

    async def _act(self, table: Table, seq: int, delay: float) -> None:
        retry_in: float | None = None
        try:
            await asyncio.sleep(delay)
            if table.seq != seq or not table.open:
                return
            claim = self.computer_claim(table)
            if claim is not None:
                async with table.lock:
                    if table.seq == seq and table.open:
                        await self.commit(table, claim.seat, claim, None)
                self._failures.pop(table.id, None)
                return
            seat = table.to_act
            game = table.game
            if seat is None or game is None:
                return
            occ = table.seats[seat]
            timed_out = not occ.is_computer
            level = occ.bot_level or table.handover
            think = 0.0 if timed_out else self.bot_delay
            view = seat_view(game, seat)
            action = await self.decide(view, level, self.seed(table, seq), think)
            if action not in view.legal:  # a computer must never stall a table
                kind = type(action).__name__.lower()  # not the action: it may name a card
                log.error("computer player (%s) chose an illegal %s at %s", level, kind, table.id)
                action = view.legal[0]
            async with table.lock:
                if table.seq != seq or not table.open:
                    return
                await self.commit(table, seat, action, seat if timed_out else None)
            self._failures.pop(table.id, None)
            if timed_out:
                self.notify(table, timeout_notice(table.seats[seat], seat, action))
        except asyncio.CancelledError:
            raise
        except StoreFailed as e:
            retry_in = self._failed(table, e.reason)
        except Refusal:
            return  # the table moved on or closed meanwhile
        except Exception as e:
            log.exception("automatic turn failed at table %s", table.id)
            retry_in = self._failed(table, type(e).__name__)
        finally:
            if self._tasks.get(table.id) is asyncio.current_task():
                del self._tasks[table.id]
                if table.seq != seq:
                    self.schedule(table)
                elif retry_in is not None and table.open and not self._closing:
                    self._tasks[table.id] = asyncio.create_task(self._act(table, seq, retry_in))

    def _failed(self, table: Table, why: str) -> float | None:
        """A computer's (or a timed-out player's) move failed: the delay before trying again,
        or ``None`` after the last try.  The table is told when quick retries did not help,
        and when the bot gives up."""
        tries = self._failures.get(table.id, 0) + 1
        self._failures[table.id] = tries
        log.warning("automatic turn at table %s failed (try %d): %s", table.id, tries, why)
        if tries <= len(QUICK_RETRIES_S):
            return QUICK_RETRIES_S[tries - 1]
        if tries == len(QUICK_RETRIES_S) + 1:
            self.notify(
                table,
                later(
                    "⚠ I could not save the computer's move here (a database error, in my "
                    "log). I keep trying every {s} s; nothing is lost.",
                    s=f"{SLOW_RETRY_S:.0f}",
                ),
            )
        if tries <= len(QUICK_RETRIES_S) + SLOW_RETRIES:
            return SLOW_RETRY_S
        log.error("gave up on the automatic turn at table %s after %d tries", table.id, tries)
        self.notify(
            table,
            later(
                "⚠ I gave up saving the computer's move here. The host or a member with "
                "Manage Server can close the table with `/spades abandon`."
            ),
        )
        self._failures.pop(table.id, None)
        return None

    async def close(self) -> None:
        self._closing = True
        tasks = list(self._tasks.values())
        self._tasks.clear()
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t


def timeout_notice(after: Occupant, seat: Seat, action: Action) -> Text:
    """What the channel is told when a computer acted for a player who ran out of time
    (written in the server's language when it is posted)."""
    what = describe(action)
    if after.is_computer:
        return later(
            "⏰ {name} ran out of time {max} times; a computer played {what} and now plays "
            "{seat} until they come back with `/spades join`.",
            name=md_name(after.name),
            max=MAX_TIMEOUTS,
            what=what,
            seat=SeatWord(seat),
        )
    return later(
        "⏰ {name} ran out of time; a computer played {what} for them ({n}/{max}).",
        name=md_name(after.name),
        what=what,
        n=after.timeouts,
        max=MAX_TIMEOUTS,
    )


def describe(action: Action) -> str | Text:
    if isinstance(action, Play):
        return str(action.card)
    if isinstance(action, Bid):
        return later("a bid of {bid}", bid=BidWord(action.value, action.blind))
    if isinstance(action, PassCards):
        return later("a pass")
    if isinstance(action, Claim):
        return later("a renege claim against {seat}", seat=SeatWord(action.against))
    return later("a look at the cards")
