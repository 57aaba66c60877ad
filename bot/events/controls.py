"""The organiser's controls: start early, pause and go on, extend a round, replace a member
(a substitute or a computer), disqualify an entry, cancel.  Each takes a reason, posted in the
tournament channel, and is refused to anyone but the organiser (or a member with Manage
Server, or with the role the server's admins named: ``/spades-admin tournaments``)."""

from __future__ import annotations

import dataclasses
import logging

from bot.errors import NotHost, Refusal
from bot.events.arrangement import private_tables
from bot.events.pairing.model import (
    EntryStatus,
    Member,
    SlotStatus,
    Tournament,
    TournamentStatus,
    duration,
    status_word,
)
from bot.events.service import TournamentService
from bot.i18n import N_, _, later
from bot.names import md_name
from bot.tables.arranged import ArrangedSeat

log = logging.getLogger(__name__)


def ensure_organiser(t: Tournament, user_id: int, may_organise: bool, what: str) -> None:
    """The member who opened the tournament, or one who may run any of the server's
    (``may_organise``: Manage Server, or the server's tournament organiser role)."""
    if user_id != t.organiser_id and not may_organise:
        raise NotHost(
            _(
                "Only the organiser (<@{organiser_id}>), a member with Manage Server or the "
                "server's tournament organiser role can {what}.",
                organiser_id=t.organiser_id,
                what=_(what),
            )
        )


def ensure_may_open(may_organise: bool, role: int | None) -> None:
    """Only a member with Manage Server, or with the server's organiser ``role``, opens a
    tournament."""
    if may_organise:
        return
    raise NotHost(
        _(
            "Only a member with Manage Server or the {role} role can open a tournament.",
            role=f"<@&{role}>",
        )
        if role is not None
        else _(
            "Only a member with Manage Server can open a tournament (the server's "
            "admins can name an organiser role: `/spades-admin tournaments`)."
        )
    )


def _why(reason: str | None) -> str:
    text = " ".join((reason or "").split())[:200]
    return f" — {text}" if text else ""


def _stopped(left: float | None) -> str:
    """The pause notice's end: how long the stopped round had left (no deadline: nothing)."""
    if left is None:
        return ""
    return later(" The round's clock stops with {left} left.", left=duration(left))


def _ends(round_no: int, deadline: float | None) -> str:
    if deadline is None:
        return ""
    return later(" Round {round} ends {when}.", round=round_no, when=f"<t:{int(deadline)}:R>")


class OrganiserControls:
    def __init__(self, service: TournamentService) -> None:
        self.service = service

    async def start_early(self, t: Tournament, by: int, admin: bool, reason: str | None) -> str:
        ensure_organiser(t, by, admin, N_("start the tournament"))
        answer = await self.service.start(t)
        self.service.announcer.say(
            t, later("▶ Started early by {who}{why}.", who=f"<@{by}>", why=_why(reason))
        )
        return answer

    async def pause(self, t: Tournament, by: int, admin: bool, reason: str | None) -> str:
        """Tables in play finish; no round is seated and the round's clock stops: the time
        its deadline had left is stored, and :meth:`go_on` restores it."""
        ensure_organiser(t, by, admin, N_("pause the tournament"))
        s = self.service
        async with s.changing(t) as t:
            if t.status != TournamentStatus.RUNNING:
                raise Refusal(
                    _(
                        "{name} is not running (it is {status}).",
                        name=t.md_name,
                        status=status_word(t.status),
                    )
                )
            left = None if t.round_deadline is None else max(0.0, t.round_deadline - s.clock())
            async with s.write() as tx:
                await s.store.update(
                    tx, t.id, status=TournamentStatus.PAUSED, round_deadline=None, round_left=left
                )
            t = await s.reload(t.id)
            s.alarms.disarm(t.id)
        s.announcer.say(
            t,
            later(
                "⏸ **{name}** is paused{why}. Tables in play finish their games; the next "
                "round waits.{stopped}",
                name=t.md_name,
                why=_why(reason),
                stopped=_stopped(left),
            ),
        )
        s.announcer.updated(t)
        return _("Paused. `/tournament pause` again goes on.")

    async def go_on(self, t: Tournament, by: int, admin: bool, reason: str | None) -> str:
        """Go on after a pause: the round's deadline is the time it had left from now."""
        ensure_organiser(t, by, admin, N_("go on with the tournament"))
        s = self.service
        async with s.changing(t) as t:
            if t.status != TournamentStatus.PAUSED:
                raise Refusal(_("{name} is not paused.", name=t.md_name))
            deadline = None if t.round_left is None else s.clock() + t.round_left
            async with s.write() as tx:
                await s.store.update(
                    tx,
                    t.id,
                    status=TournamentStatus.RUNNING,
                    round_deadline=deadline,
                    round_left=None,
                )
            t = await s.reload(t.id)
            s.alarms.arm(t)
        s.announcer.say(
            t,
            later(
                "▶ **{name}** goes on{why}.{ends}",
                name=t.md_name,
                why=_why(reason),
                ends=_ends(t.round, deadline),
            ),
        )
        await s.advance(t.id)
        return _("The tournament goes on.")

    async def extend(
        self, t: Tournament, by: int, admin: bool, minutes: int, reason: str | None
    ) -> str:
        """More time for the current round: on its deadline, or (paused) on the time left."""
        ensure_organiser(t, by, admin, N_("extend a round"))
        if not 1 <= minutes <= 240:
            raise Refusal(_("Extend a round by 1 to 240 minutes."))
        s = self.service
        async with s.changing(t) as t:
            if t.status == TournamentStatus.PAUSED:
                left = (t.round_left or 0.0) + minutes * 60
                async with s.write() as tx:
                    await s.store.update(tx, t.id, round_left=left)
                t = await s.reload(t.id)
                notice = later(
                    "⏳ Round {round} has {left} left when the tournament goes on "
                    "(+{minutes} min){why}.",
                    round=t.round,
                    left=duration(left),
                    minutes=minutes,
                    why=_why(reason),
                )
            elif t.status == TournamentStatus.RUNNING:
                base = max(t.round_deadline or s.clock(), s.clock())
                deadline = base + minutes * 60
                async with s.write() as tx:
                    await s.store.update(tx, t.id, round_deadline=deadline)
                t = await s.reload(t.id)
                s.alarms.arm(t)
                notice = later(
                    "⏳ Round {round} now ends {when} (+{minutes} min){why}.",
                    round=t.round,
                    when=f"<t:{int(deadline)}:R>",
                    minutes=minutes,
                    why=_why(reason),
                )
            else:
                raise Refusal(_("{name} is not running.", name=t.md_name))
        s.announcer.say(t, notice)
        s.announcer.updated(t)
        return _("Round {round} extended by {minutes} minutes.", round=t.round, minutes=minutes)

    async def replace(
        self,
        t: Tournament,
        by: int,
        admin: bool,
        member_id: int,
        substitute: Member | None,
        reason: str | None,
    ) -> str:
        """A substitute (or, ``None``, a computer) takes ``member_id``'s place in their team
        and at their table now."""
        ensure_organiser(t, by, admin, N_("replace a player"))
        s = self.service
        async with s.changing(t) as t:
            entry = t.entry_of(member_id)
            if entry is None:
                raise Refusal(
                    _(
                        "<@{member_id}> is not playing in {name}.",
                        member_id=member_id,
                        name=t.md_name,
                    )
                )
            if substitute is not None and t.signed_up(substitute.user_id):
                raise Refusal(
                    _(
                        "{substitute} is already in {name}.",
                        substitute=md_name(substitute.name),
                        name=t.md_name,
                    )
                )
            table, thread = None, None
            for g in t.round_games():
                if g.status == SlotStatus.PLAYING and g.table_id and entry.id in g.entries:
                    table = s.tables.registry.find_by_id(g.table_id)
                    thread = g.thread_id
            if table is not None and substitute is not None:
                s.tables.registry.check_can_sit(table, substitute.user_id)
            members = tuple(m for m in entry.members if m.user_id != member_id)
            if substitute is not None:
                members += (substitute,)
            async with s.write() as tx:
                await s.store.remove_member(tx, t.id, member_id)
                if substitute is not None:
                    await s.store.add_member(tx, t.id, substitute, entry.id)
            t = await s.reload(t.id)
            if substitute is not None:  # entered now: they watch no table any more
                s.tables.spectators.forget(substitute.user_id)
                if table is not None and thread is not None and private_tables(t):
                    try:
                        await s.announcer.admit(t, thread, [substitute.user_id], [])
                    except Exception:
                        log.exception("could not add a substitute to table thread %s", thread)
            if table is not None:
                seat = ArrangedSeat(
                    substitute.user_id if substitute else None,
                    substitute.name if substitute else "Computer",
                    None if substitute else table.handover,
                )
                await s.tables.arranged.replace_seat(table, member_id, seat)
        who = md_name(substitute.name) if substitute is not None else later("a computer player")
        mention = [substitute.user_id] if substitute is not None else []
        replaced = later(
            "🔁 {member} is replaced by {who}{why}.",
            member=f"<@{member_id}>",
            who=who,
            why=_why(reason),
        )
        s.announcer.say(t, replaced, mention)
        s.announcer.updated(t)
        return _("Replaced by {who}.", who=who)

    async def disqualify(
        self, t: Tournament, by: int, admin: bool, member_id: int, reason: str | None
    ) -> str:
        """The member's entry is out: its game in play is lost (ended now), it is paired no
        more (in a knock-out its opponent goes through)."""
        ensure_organiser(t, by, admin, N_("disqualify a team"))
        s = self.service
        async with s.changing(t) as t:
            entry = t.entry_of(member_id)
            if entry is None or entry.status != EntryStatus.IN:
                raise Refusal(
                    _(
                        "<@{member_id}> is not playing in {name}.",
                        member_id=member_id,
                        name=t.md_name,
                    )
                )
            async with s.write() as tx:
                await s.store.put_entry(
                    tx, t.id, dataclasses.replace(entry, status=EntryStatus.DISQUALIFIED)
                )
            t = await s.reload(t.id)
            playing = [
                g
                for g in t.round_games()
                if g.status == SlotStatus.PLAYING and g.table_id and entry.id in g.entries
            ]
            for g in playing:
                assert g.table_id is not None
                table = s.tables.registry.find_by_id(g.table_id)
                if table is not None:
                    await s.tables.arranged.decide(
                        table, later("{name} was disqualified.", name=entry.md_name)
                    )
                others = [e for e in g.entries if e != entry.id]
                if len(others) == 1:
                    async with s.write() as tx:
                        done = dataclasses.replace(
                            g, status=SlotStatus.DONE, winner=others[0], decided=True
                        )
                        stored = await s.store.load(tx, t.id)
                        if stored is not None:
                            now = next(
                                (
                                    x
                                    for x in stored.games
                                    if (x.round, x.slot, x.game_no) == (g.round, g.slot, g.game_no)
                                ),
                                None,
                            )
                            if now is not None:
                                done = dataclasses.replace(
                                    now, status=SlotStatus.DONE, winner=others[0], decided=True
                                )
                        await s.store.put_game(tx, t.id, done)
        s.announcer.say(
            t, later("🚫 {name} is disqualified{why}.", name=entry.md_name, why=_why(reason))
        )
        await s.advance(t.id)
        return _("{name} is disqualified.", name=entry.md_name)

    async def cancel(self, t: Tournament, by: int, admin: bool, reason: str | None) -> str:
        ensure_organiser(t, by, admin, N_("cancel the tournament"))
        await self.service.cancel(
            t, later("cancelled by {who}{why}", who=f"<@{by}>", why=_why(reason))
        )
        return _("{name} is cancelled.", name=t.md_name)
