"""Live private hands: each seated player's latest hand message follows the game by itself.

A player's hand is an ephemeral message, which only the interaction that showed it can edit
(through the interaction webhook, for 15 minutes).  So for every seated person this module
keeps the latest interaction whose answer showed them their hand (an opaque *handle*: the
Discord layer knows what it is) and what that message shows (a :func:`live_key`).  When the
game moves in a way that changes what the player sees — their turn comes, a trick completes,
bidding ends, cards are passed to them, a new hand is dealt, the game ends — the message is
edited through the handle to show the current state, on their turn with their buttons.

* Edits are coalesced per player (a small token bucket: two at once, then one a second —
  at most four in any two seconds, inside Discord's five per two seconds per token — each
  rendering the state at the moment of sending), run in their own task, and never hold the
  table's lock: nobody's answer waits for them.  Nor do they go ahead of one: each first
  awaits the ``gate`` (the bot's: until no click is waiting for its answer, half a second at
  most), so under load the event loop answers the clicks before it edits the other hands.
  An update that is not urgent (a trick completed, bidding ended) waits up to ``settle``
  seconds, so that it goes out together with the player's turn when that comes soon; the
  player's turn, a new deal and the end of the game go out at once.
* While one of the player's own interactions is being answered, that answer shows the hand;
  no edit is sent in between, and the answer's interaction becomes the new handle.  An answer
  that edits the message lands after the live edit already on its way, or the message is
  edited again after it (:mod:`bot.tables.in_flight`).
* A message that cannot be edited any more (token older than 15 minutes, message deleted) is
  forgotten silently: the player gets a new one with **My hand** or ``/hand``.  When it is a
  person's turn and their hand could not be shown live, ``remind`` is called once per turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

from bot.engine import Seat
from bot.engine.game import Phase
from bot.tables.in_flight import ANSWER_WAIT_S, InFlight, Landing, LandsAfterEdit
from bot.tables.state import Table, TableStatus
from bot.token_bucket import TokenBucket

log = logging.getLogger(__name__)

TOKEN_LIFETIME = 15 * 60.0  # Discord: an interaction token works for 15 minutes
TOKEN_MARGIN = 20.0  # a write is not started with a token this close to its end
EDIT_BURST = 2.0  # per player: edits at once ...
EDIT_RATE = 1.0  # ... then edits a second (Discord: 5 per 2 s per interaction token)
# Seconds a non-urgent update (a trick completed, bidding ended) waits to go out with a later
# one: in trick play the player's own turn is at most three cards away, so most of these ride
# along with the turn's edit (live edits per play: docs/benchmarks.md, *Discord load*); the
# table message shows the last trick meanwhile.
SETTLE = 4.0


class LiveKey(NamedTuple):
    """What a player's hand message must show anew when it changes (see :func:`live_key`)."""

    hand_number: int
    phase: Phase
    my_turn: bool
    tricks_done: int  # tricks completed this hand
    # the game's own part's marks (GamePart.marks): Spades' cards received from the partner
    # and whether the cards are still face down, Euchre's calling round (the up-card turned down)
    marks: tuple[object, ...]
    open: bool  # the table still open


class Edit(enum.Enum):
    SHOWN = "shown"  # the message now shows the current state
    GONE = "gone"  # it cannot be edited any more (expired token, deleted message): forget it
    FAILED = "failed"  # this edit failed (network, Discord error); the handle may work later


class HandEditor(Protocol):
    """The Discord side: edit the message behind ``handle`` to show ``seat``'s hand at
    ``table`` now.  It must render before its first ``await`` (so that the state shown is
    the state of the call)."""

    async def edit(self, handle: Any, table: Table, seat: Seat) -> Edit: ...


# (table, seat, user id): tell a person it is their turn (their hand could not be updated)
Reminder = Callable[[Table, Seat, int], None]


def live_key(table: Table, seat: Seat) -> LiveKey | None:
    """What changes a player's view enough to edit their hand message (``None``: no game).

    Not every card: a card played by someone else only shows when the trick completes or the
    player's turn comes (both are in the key), which keeps edits fewer than the cards played
    (measured in docs/benchmarks.md, *Discord load*).  Read
    from the game directly (it is computed for every seat after every move), and equal to what
    :func:`~bot.engine.seat_view` shows: the hand number, phase, turn, tricks completed, and
    the marks of the game's own part (Spades: cards received from the partner, whether the
    cards are still face down; Euchre: the calling round)."""
    game = table.game
    if game is None:
        return None
    part = game.view_part(seat)
    return LiveKey(
        game.hand_number,
        game.phase,
        game.to_act == seat,
        sum(game.tricks_won),  # each completed trick won by one seat: counted, not rebuilt
        part.marks() if part is not None else (),
        table.open,
    )


@dataclass(slots=True, eq=False)
class _Hand:
    user_id: int
    edits: TokenBucket  # the edits that may go out now (a fresh allowance with each token)
    handle: Any = None
    issued: float = 0.0  # time.monotonic() when the handle's token was issued
    shown: LiveKey | None = None  # what the message behind ``handle`` shows
    answering: int = 0  # the player's interactions being answered right now
    stale_since: float | None = None  # when the message first fell behind the game
    task: asyncio.Task[None] | None = None
    wake: asyncio.Event = field(default_factory=asyncio.Event)  # the game moved: look again
    in_flight: InFlight = field(default_factory=InFlight)  # the live edit on its way


class Answer(LandsAfterEdit):
    """What an answer to the player showed: :meth:`shown` once the hand message was sent.
    An answer that edits the hand message awaits :meth:`after_live_edit` before it is sent."""

    __slots__ = ("handle", "key")

    def __init__(self, landing: Landing | None = None) -> None:
        super().__init__(landing)
        self.handle: Any = None
        self.key: LiveKey | None = None

    def shown(self, handle: Any, key: LiveKey | None) -> None:
        self.handle, self.key = handle, key


class LiveHands:
    def __init__(
        self,
        *,
        editor: HandEditor | None = None,
        remind: Reminder | None = None,
        burst: float = EDIT_BURST,
        rate: float = EDIT_RATE,
        settle: float = SETTLE,
        token_lifetime: float = TOKEN_LIFETIME - TOKEN_MARGIN,
        gate: Callable[[], Awaitable[None]] | None = None,
        answer_wait: float = ANSWER_WAIT_S,
    ) -> None:
        self.editor = editor  # the Discord side, which edits hand messages
        self.gate = gate  # awaited before each edit: the players' answers go first
        self.answer_wait = answer_wait  # an answer's wait for the edit on its way (at most)
        self.remind = remind  # tells a person it is their turn when their hand could not
        self.burst = burst
        self.rate = rate
        self.settle = settle
        self.token_lifetime = token_lifetime
        self._hands: dict[tuple[str, Seat], _Hand] = {}
        self._reminded: dict[tuple[str, Seat], int] = {}  # the turn (table.seq) reminded of
        self.edits = 0  # messages edited (for the benchmark and tests)
        self.dropped = 0  # handles forgotten because their message could not be edited

    @property
    def held(self) -> int:
        """Players' hand messages followed live now (for the metrics)."""
        return len(self._hands)

    # ------------------------------------------------------------------ the Discord layer
    @contextlib.contextmanager
    def answering(self, table: Table, user_id: int) -> Iterator[Answer]:
        """Around answering one of a member's interactions with their hand (a move, ``/hand``,
        **My hand**): no live edit of their hand goes out meanwhile, and the answer
        (``answer.shown(handle, key)``) becomes the new handle.  ``key`` is :func:`live_key`
        when the answer was rendered.

        Opened for the seat the member plays now, before the move checks it (under the
        table's lock, once): a member who plays no seat — or left theirs — gets an answer
        that follows nothing (the move refuses them, and their cards are not shown)."""
        seat = table.seat_of(user_id)
        if seat is None or table.seats[seat].left:
            yield Answer()
            return
        hand = self._hand_of(table, seat, user_id)
        hand.answering += 1
        answer = Answer(hand.in_flight.landing(self.answer_wait))
        try:
            yield answer
        finally:
            hand.answering -= 1
            if answer.handle is not None:
                # An edit on its way may land after the answer: the message shows nothing known.
                shown = answer.key if answer.landing.sure else None
                hand.handle, hand.shown, hand.issued = answer.handle, shown, time.monotonic()
                hand.stale_since = None
                hand.edits.refill()  # a new token's allowance
            self._check(table, seat, hand)

    # ------------------------------------------------------------------ the service
    def changed(self, table: Table) -> None:
        """The table changed: edit the hands whose view changed; remind whom we cannot."""
        for seat, occupant in table.seats.items():
            if occupant.user_id is None or occupant.left:
                # A seat's cards reach only the member who plays it: not one who left it.
                self._forget(table, seat)
                continue
            hand = self._hands.get((table.id, seat))
            if hand is not None and hand.user_id != occupant.user_id:
                self._forget(table, seat)
                hand = None
            if hand is None:
                if self._on_turn(table, seat):
                    self._missed(table, seat, occupant.user_id)
                continue
            self._check(table, seat, hand)

    def closed(self, table: Table) -> None:
        """The table ended: show everyone the end, then forget the table."""
        for (tid, seat), hand in list(self._hands.items()):
            if tid != table.id:
                continue
            occupant = table.seats.get(seat)
            if occupant is None or occupant.user_id != hand.user_id or occupant.left:
                self._forget(table, seat)  # the member left the seat: nothing more to show
            else:
                self._check(table, seat, hand)
        for key in [k for k in self._reminded if k[0] == table.id]:
            del self._reminded[key]

    async def close(self) -> None:
        tasks = [h.task for h in self._hands.values() if h.task is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t

    # ------------------------------------------------------------------ inside
    def _hand_of(self, table: Table, seat: Seat, user_id: int) -> _Hand:
        hand = self._hands.get((table.id, seat))
        if hand is None or hand.user_id != user_id:
            if hand is not None:
                self._forget(table, seat)
            edits = TokenBucket(self.rate, self.burst)
            hand = self._hands[(table.id, seat)] = _Hand(user_id, edits)
        return hand

    def _forget(self, table: Table, seat: Seat) -> None:
        hand = self._hands.pop((table.id, seat), None)
        if hand is not None and hand.task is not None and hand.task is not asyncio.current_task():
            hand.task.cancel()

    def _on_turn(self, table: Table, seat: Seat) -> bool:
        occupant = table.seats.get(seat)
        return (
            table.status == TableStatus.PLAYING
            and table.to_act == seat
            and occupant is not None
            and not occupant.is_computer
        )

    def _usable(self, hand: _Hand) -> bool:
        return hand.handle is not None and time.monotonic() - hand.issued < self.token_lifetime

    def _check(self, table: Table, seat: Seat, hand: _Hand) -> None:
        """Start the player's edit task if their message is behind; remind if it cannot be
        edited and it is their turn; forget a finished table's hand once it is shown.  A task
        already waiting to send a change that can wait is woken only when the change now
        cannot (see :func:`_urgent`): it looks again when its wait ends anyway."""
        if hand.task is not None and not hand.task.done():
            key = live_key(table, seat)
            if key is None or _urgent(key, hand.shown, table):
                hand.wake.set()
            return
        if hand.answering:
            return
        if hand.shown == live_key(table, seat):
            if not table.open:
                self._forget(table, seat)
            return
        if not self._usable(hand) or self.editor is None:
            hand.handle = None
            if self._on_turn(table, seat):
                self._missed(table, seat, hand.user_id)
            if not table.open:
                self._forget(table, seat)
            return
        hand.task = asyncio.create_task(self._run(table, seat, hand), name=f"live-{table.id}")

    async def _run(self, table: Table, seat: Seat, hand: _Hand) -> None:
        """Edit the player's message until it shows the current state (coalesced)."""
        passed = self.gate is None  # the gate was the last thing awaited
        try:
            while not hand.answering and self._usable(hand) and self.editor is not None:
                key = live_key(table, seat)
                if key is None or key == hand.shown:
                    break
                now = time.monotonic()
                if hand.stale_since is None:
                    hand.stale_since = now
                if not _urgent(key, hand.shown, table) and now < hand.stale_since + self.settle:
                    await _nap(hand, hand.stale_since + self.settle - now)
                    passed = self.gate is None
                    continue  # look again: the player's turn may have come meanwhile
                if not passed:
                    assert self.gate is not None
                    await self.gate()
                    passed = True
                    continue  # look again: an answer may have shown the hand meanwhile
                if not hand.edits.try_take():
                    await _nap(hand, hand.edits.wait_s())
                    passed = self.gate is None
                    continue
                handle = hand.handle
                with hand.in_flight.editing():
                    result = await self.editor.edit(handle, table, seat)
                passed = self.gate is None
                if hand.handle is not handle:
                    continue  # an answer replaced the message meanwhile
                if result is Edit.SHOWN:
                    hand.shown = key
                    hand.stale_since = None
                    self.edits += 1
                elif result is Edit.GONE:
                    hand.handle = None
                    self.dropped += 1
                else:
                    break
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("live edit of a hand at table %s failed", table.id)
        finally:
            if hand.task is asyncio.current_task():
                hand.task = None
        if self._hands.get((table.id, seat)) is not hand or hand.answering:
            return  # forgotten, or an answer is showing the hand (it checks again after)
        if hand.shown != live_key(table, seat) and self._on_turn(table, seat):
            self._missed(table, seat, hand.user_id)
        if not table.open:
            self._forget(table, seat)

    def _missed(self, table: Table, seat: Seat, user_id: int) -> None:
        """Once per turn: the player's hand could not show that it is their turn."""
        key = (table.id, seat)
        if self._reminded.get(key) == table.seq or self.remind is None:
            return
        self._reminded[key] = table.seq
        self.remind(table, seat, user_id)


def _urgent(key: LiveKey, shown: LiveKey | None, table: Table) -> bool:
    """Whether a message showing ``shown`` must show ``key`` at once: the player's turn, new
    cards dealt, or the end of the game (a completed trick, bidding's end can wait: SETTLE)."""
    return key.my_turn or not table.open or shown is None or shown.hand_number != key.hand_number


async def _nap(hand: _Hand, seconds: float) -> None:
    """Sleep ``seconds``, or less if the game moves (``hand.wake``): a timer sets the event
    (no task is made for the wait)."""
    hand.wake.clear()
    timer = asyncio.get_running_loop().call_later(seconds, hand.wake.set)
    try:
        await hand.wake.wait()
    finally:
        timer.cancel()
