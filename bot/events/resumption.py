"""Resuming the tournaments at start-up, each on its own: the open tournaments of this
process's servers are loaded and caught up (seat what is not seated, start a table stored but
not started, advance a round that ended while the bot was down).

One that cannot be loaded (a stored value that no longer validates) or caught up (a failing
pass) is logged and *marked*: the reason is stored with it (``tournaments.fault``), its
channel is told once, its message and any command naming it say so — and every other
tournament, and the bot, go on.  A tournament that failed to catch up is tried again by its
alarm (with a back-off); the mark goes with the first pass that succeeds."""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.events.pairing import rounds
from bot.events.pairing.model import Tournament, TournamentStatus
from bot.events.service import TournamentService
from bot.i18n import Text, later

log = logging.getLogger(__name__)


def fault_notice(name: str, loaded: bool) -> Text:
    """What a tournament's channel is told when it could not be loaded (``loaded=False``) or
    caught up at a start (the error itself is in the operator's log)."""
    if not loaded:
        return later(
            "⚠ **{name}** could not be loaded after my restart (the error is in my log), so "
            "it is stopped until the bot's operator repairs it. Other tournaments go on.",
            name=name,
        )
    return later(
        "⚠ **{name}** could not be resumed after my restart (the error is in my log). I try "
        "again from time to time; its organiser can `/tournament cancel` it.",
        name=name,
    )


def why(error: BaseException) -> str:
    """An error in one line, as stored with the tournament (for the operator)."""
    return " ".join(f"{type(error).__name__}: {error}".split())[:300]


async def resume(
    service: TournamentService, guild_filter: Callable[[int], bool] | None = None
) -> list[Tournament]:
    """Load the open tournaments of this process's servers and catch each one up."""
    loaded, unreadable = await service.store.load_open(guild_filter)
    for u in unreadable:
        service.unreadable[u.id] = u
        notice = fault_notice(u.name, loaded=False)
        await _mark(service, u.id, u.fault, u.reason, u.guild_id, u.channel_id, notice)
    for t in loaded:
        service.open[t.id] = t
    for t in loaded:
        try:
            await _catch_up(service, t)
        except Exception as e:
            log.exception("tournament %s could not be caught up; it is tried again", t.id)
            notice = fault_notice(t.name, loaded=True)
            await _mark(service, t.id, t.fault, why(e), t.guild_id, t.channel_id, notice)
            service.alarms.arm(t, retry=True)
    return loaded


async def _catch_up(service: TournamentService, t: Tournament) -> None:
    if t.status != TournamentStatus.RUNNING:
        service.alarms.arm(t)
        service.signup_changed(t)
        service.announcer.updated(t)
        return
    if not rounds.round_over(t):  # a round stored by an older version: its deals held too
        async with service.write() as tx:
            await service.hold_deals(tx, t, t.round)
    await service.advance(t.id)


async def _mark(
    service: TournamentService,
    tid: int,
    stored: str | None,
    fault: str,
    guild_id: int,
    channel_id: int,
    notice: Text,
) -> None:
    """Store the fault with the tournament and tell its channel — once per fault, not at
    every restart."""
    if stored == fault:
        return
    try:
        async with service.write() as tx:
            await service.store.update(tx, tid, fault=fault)
    except Exception:
        log.exception("could not mark tournament %s", tid)
    if (t := service.open.get(tid)) is not None:
        t.fault = fault
        service.announcer.updated(t)
    service.announcer.alert(guild_id, channel_id, notice)
