"""A live message's writes in order: the answer to a click lands after the live edit on its way.

Discord applies two writes to one message in the order they arrive.  A live edit (a webhook
``PATCH`` through the latest answer's token) and the answer to a click on that same message
(the interaction's callback) are separate requests: an answer sent while the edit is still on
its way can land first, and the edit — rendered before the click — then shows an older state
over it, with buttons from a trick or a hand that is gone.  So an answer waits, briefly, for
the edit that was in flight when it began (:meth:`Landing.wait`); when that edit has not
landed by then, what the message shows is unknown (:attr:`Landing.sure` is false) and the live
loop edits it again through the answer's token.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator

# At most this long an answer waits for the live edit of its message in flight (a request's
# round trip; the answer's own deadline is Discord's 3 s, and the bot defers at 2 s).
ANSWER_WAIT_S = 0.5


class InFlight:
    """Whether a live edit of one message is on its way.  A future to wait on is made only
    when an answer asks for one: most edits meet no answer, and every live edit passes here."""

    __slots__ = ("_busy", "_landed")

    def __init__(self) -> None:
        self._busy = False
        self._landed: asyncio.Future[None] | None = None  # what an answer waits on

    @contextlib.contextmanager
    def editing(self) -> Iterator[None]:
        """Around sending one live edit of the message (one at a time: a message's edits are
        sent by one task, in turn)."""
        self._busy = True
        try:
            yield
        finally:
            self._busy = False
            landed, self._landed = self._landed, None
            if landed is not None:
                landed.set_result(None)

    def landing(self, max_wait: float = ANSWER_WAIT_S) -> Landing:
        """Taken when an answer to a click on the message begins: the edit to land after,
        waited for ``max_wait`` seconds at most."""
        if not self._busy:
            return Landing(None, max_wait)
        if self._landed is None:
            self._landed = asyncio.get_running_loop().create_future()
        return Landing(self._landed, max_wait)


class Landing:
    """The live edit an answer must land after (none when nothing was on its way)."""

    __slots__ = ("_after", "_edit", "_max_wait")

    def __init__(
        self, edit: asyncio.Future[None] | None = None, max_wait: float = ANSWER_WAIT_S
    ) -> None:
        self._edit = edit
        self._after = edit is None  # the answer is sent after the edit landed
        self._max_wait = max_wait

    async def wait(self) -> None:
        """Before the answer is sent: until the edit has landed (at most ``max_wait``)."""
        if not self._after and self._edit is not None:
            done, _ = await asyncio.wait({self._edit}, timeout=self._max_wait)
            self._after = bool(done)

    @property
    def sure(self) -> bool:
        """Whether the answer went out after the edit landed, so that the message shows what
        the answer showed (false also for an answer that did not wait: a new message, say)."""
        return self._after


class LandsAfterEdit:
    """The part of an answer to a player or a spectator that orders it after the live edit
    of its message (:class:`bot.tables.live.Answer`, :class:`bot.tables.spectators.WatchAnswer`)."""

    __slots__ = ("landing",)

    def __init__(self, landing: Landing | None = None) -> None:
        self.landing = landing or Landing()  # the live edit on its way when the answer began

    async def after_live_edit(self) -> None:
        """Called before an answer that edits the message is sent: wait (briefly) until the
        live edit on its way has landed, so that the answer lands after it and not under it."""
        await self.landing.wait()
