"""Ending a table before its game is over: the host (with the other players' agreement when
they play too), a member with Manage Server, or the table's channel, thread or server being
gone.  Every such end is unrated, and the channel is told who ended it."""

from __future__ import annotations

import asyncio
import logging
import time

from bot.errors import NotHost, Refusal, StaleButton
from bot.i18n import _, for_server, later
from bot.names import md_name
from bot.tables.context import ServiceContext
from bot.tables.lobby import ensure_open
from bot.tables.state import AbandonVote, Table, TableStatus

log = logging.getLogger(__name__)

VOTE_S = 60  # how long the others have to agree to end a game early


class Endings:
    def __init__(self, ctx: ServiceContext) -> None:
        self.ctx = ctx
        self.persistence = ctx.persistence
        self._vote_timers: dict[str, asyncio.Task[None]] = {}

    async def abandon(self, table: Table, user_id: int, is_admin: bool, name: str = "") -> str:
        """End the table, unrated.  A member with Manage Server ends any table alone; the
        host ends a lobby, or a game nobody else plays in, alone; a game other people play in
        ends only when every one of them agrees (:meth:`vote`) within :data:`VOTE_S`
        seconds.  Returns what the caller is told."""
        async with table.lock:
            ensure_open(table)
            is_host = user_id == table.host_id
            if not is_host and not is_admin:
                raise NotHost(
                    _(
                        "Only the host ({host}) or a member with "
                        "Manage Server can abandon the table.",
                        host=table.host_name(),
                    )
                )
            others = self._others(table, user_id)
            if is_admin:
                who = later("a moderator") if not name else md_name(name)
                closed = later(
                    "This table was closed by {who} (Manage Server); the game is unrated.",
                    who=who,
                )
                await self._end(table, for_server(table.guild_id, closed))
                return _("The table is closed. The channel is told you closed it; it is unrated.")
            if table.status != TableStatus.PLAYING or not others:
                closed = later("This table was closed by its host, {host}.", host=table.host_name())
                await self._end(table, for_server(table.guild_id, closed))
                return _("The table is closed.")
            vote = table.abandon_vote
            if vote is not None:
                waiting = _names(table, vote.waiting_for)
                raise Refusal(
                    _("You already asked to end the game; waiting for {names}.", names=waiting)
                )
            deadline = time.time() + VOTE_S
            table.abandon_vote = AbandonVote(user_id, frozenset(others), deadline)
            self._vote_timers[table.id] = asyncio.create_task(self._vote_expires(table))
            self.ctx.changed(table)
            self.ctx.notice(
                table,
                later(
                    "🏳 {host} asks to end this game early (unrated). {names}: press "
                    "**Agree to end** or **Keep playing** on the table message by {when}; "
                    "without everyone's agreement the game goes on.",
                    host=table.host_name(),
                    names=_names(table, others),
                    when=f"<t:{int(deadline)}:R>",
                ),
            )
            return _(
                "Other people play at this table, so it ends early only if they all agree: "
                "I asked {names} (they have {s} seconds).",
                names=_names(table, others),
                s=VOTE_S,
            )

    async def vote(self, table: Table, user_id: int, agree: bool) -> str:
        """A seated player's answer to the host's request to end the game."""
        async with table.lock:
            ensure_open(table)
            vote = table.abandon_vote
            if vote is None:
                raise StaleButton(_("Nobody is asking to end this game now."))
            if user_id not in vote.needed:
                raise Refusal(_("Only the other people playing here are asked."))
            if not agree:
                self._stop_vote(table)
                self.ctx.changed(table)
                who = _names(table, {user_id})
                self.ctx.notice(
                    table, later("▶ {who} wants to keep playing: the game goes on.", who=who)
                )
                return _("You chose to keep playing; the game goes on.")
            if vote.waiting_for - {user_id}:
                vote.agreed.add(user_id)
                self.ctx.changed(table)
                return _("Noted. Still waiting for {names}.", names=_names(table, vote.waiting_for))
            # The last answer: the request stands until the end is saved (a failed save
            # leaves it open, and the same answer can be given again).
            names = _names(table, vote.needed | {vote.host_id})
            ended = later(
                "This game was ended early by agreement of {names}; unrated.", names=names
            )
            await self._end(table, for_server(table.guild_id, ended))
            return _("Everyone agreed: the table is closed (unrated).")

    async def _vote_expires(self, table: Table) -> None:
        vote = table.abandon_vote
        if vote is None:
            return
        await asyncio.sleep(max(0.0, vote.deadline - time.time()))
        async with table.lock:
            if table.abandon_vote is not vote or not table.open:
                return
            waiting = _names(table, vote.waiting_for)
            self._vote_timers.pop(table.id, None)
            table.abandon_vote = None
            self.ctx.changed(table)
            self.ctx.notice(
                table,
                later(
                    "⌛ {names} did not agree in time: the request to end the game is refused, "
                    "and the game goes on.",
                    names=waiting,
                ),
            )

    def _stop_vote(self, table: Table) -> None:
        table.abandon_vote = None
        timer = self._vote_timers.pop(table.id, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()

    @staticmethod
    def _others(table: Table, user_id: int) -> set[int]:
        """The people playing at the table (not away) other than ``user_id``."""
        return {
            o.user_id
            for o in table.seats.values()
            if o.user_id is not None and o.user_id != user_id and not o.away
        }

    async def _end(self, table: Table, reason: str, *, gone: bool = False) -> None:
        """End the table (abandoned, unrated); the caller holds its lock.  The table changes
        only once that is saved: a failed save leaves it open, as it was."""
        async with self.persistence.write(table) as conn:
            ending = await self.persistence.end(conn, table, TableStatus.ABANDONED)
        self._stop_vote(table)
        table.end_reason = reason
        table.gone = table.gone or gone
        ending.apply(table)
        self.ctx.closed(table)

    async def close_orphan(self, table: Table, why: str) -> None:
        """The table's channel, thread or server is gone: end it unrated, with its timers,
        and free its players; nothing is posted (there is nowhere to post)."""
        async with table.lock:
            if not table.open:
                return
            log.info("closing table %s: %s", table.id, why)
            await self._end(table, why, gone=True)


def _names(table: Table, user_ids: set[int] | frozenset[int]) -> str:
    names = [md_name(o.name) for o in table.seats.values() if o.user_id in user_ids]
    return ", ".join(sorted(names)) or "nobody"
