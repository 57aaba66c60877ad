"""What the tournament director asks of the Discord side (:class:`Announcer`; the real one is
``bot/ui/tournament/publisher.py``), and one that announces nothing (tests, benchmarks)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from bot.events.pairing.model import GameSlot, Invitation, Tournament
from bot.tables.state import Table


class Announcer(Protocol):
    """The methods without ``async`` return at once (their messages are sent in the
    background).  Texts are :class:`bot.i18n.Text` where they can be: the announcer writes
    them in the server's language."""

    async def make_thread(self, t: Tournament, title: str) -> int: ...

    async def thread_usable(self, t: Tournament, thread_id: int) -> bool: ...

    async def admit(
        self, t: Tournament, thread_id: int, add: Sequence[int], remove: Sequence[int]
    ) -> None:
        """A private table thread's members: ``remove`` leave it, ``add`` join it (raises
        when Discord refuses either: the table is then not seated)."""

    def updated(self, t: Tournament) -> None: ...

    def say(self, t: Tournament, text: str, mention: Sequence[int] = ()) -> None: ...

    def alert(self, guild_id: int, channel_id: int, text: str) -> None:
        """Post ``text`` in a tournament's channel (one that could not be loaded)."""

    def seated(self, t: Tournament, g: GameSlot, table: Table) -> None: ...

    def finished(self, t: Tournament) -> None: ...

    async def ask_partner(self, t: Tournament, inv: Invitation, text: str) -> int | None:
        """Post ``text`` asking ``inv``'s partner (mentioned) with **Accept** / **Decline**;
        the message's id, or ``None`` when it could not be posted."""
        ...

    def invitation_closed(self, t: Tournament, inv: Invitation, text: str) -> None:
        """The invitation was answered, withdrawn or expired: its message says ``text`` and
        loses its buttons."""
        ...


class QuietAnnouncer:
    """Announces nothing (tests of the service alone, benchmarks)."""

    threads = 0
    messages = 0

    async def make_thread(self, t: Tournament, title: str) -> int:
        QuietAnnouncer.threads += 1
        return 10**15 + QuietAnnouncer.threads * 1000 + t.id

    async def thread_usable(self, t: Tournament, thread_id: int) -> bool:
        return True

    async def admit(
        self, t: Tournament, thread_id: int, add: Sequence[int], remove: Sequence[int]
    ) -> None:
        return

    def updated(self, t: Tournament) -> None:
        return

    def say(self, t: Tournament, text: str, mention: Sequence[int] = ()) -> None:
        return

    def alert(self, guild_id: int, channel_id: int, text: str) -> None:
        return

    def seated(self, t: Tournament, g: GameSlot, table: Table) -> None:
        return

    def finished(self, t: Tournament) -> None:
        return

    async def ask_partner(self, t: Tournament, inv: Invitation, text: str) -> int | None:
        QuietAnnouncer.messages += 1
        return 2 * 10**15 + QuietAnnouncer.messages

    def invitation_closed(self, t: Tournament, inv: Invitation, text: str) -> None:
        return
