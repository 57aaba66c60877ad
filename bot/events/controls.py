"""The organiser's controls: start early, pause and go on, extend a round, replace a member
(a substitute or a computer), disqualify an entry, cancel.  Each takes a reason, posted in the
tournament channel, and is refused to anyone but the organiser (or a member with Manage
Server, or with the role the server's admins named: ``/spades-admin tournaments``)."""

from __future__ import annotations

import dataclasses

from bot.errors import NotHost, Refusal
from bot.events.model import Member, Tournament, duration
from bot.events.service import TournamentService
from bot.tables.arranged import ArrangedSeat


def ensure_organiser(t: Tournament, user_id: int, may_organise: bool, what: str) -> None:
    """The member who opened the tournament, or one who may run any of the server's
    (``may_organise``: Manage Server, or the server's tournament organiser role)."""
    if user_id != t.organiser_id and not may_organise:
        raise NotHost(
            f"Only the organiser (<@{t.organiser_id}>), a member with Manage Server or the "
            f"server's tournament organiser role can {what}."
        )


def _why(reason: str | None) -> str:
    text = " ".join((reason or "").split())[:200]
    return f" — {text}" if text else ""


class OrganiserControls:
    def __init__(self, service: TournamentService) -> None:
        self.service = service

    async def start_early(self, t: Tournament, by: int, admin: bool, reason: str | None) -> str:
        ensure_organiser(t, by, admin, "start the tournament")
        answer = await self.service.start(t)
        self.service.announcer.say(t, f"▶ Started early by <@{by}>{_why(reason)}.")
        return answer

    async def pause(self, t: Tournament, by: int, admin: bool, reason: str | None) -> str:
        """Tables in play finish; no round is seated and the round's clock stops: the time
        its deadline had left is stored, and :meth:`go_on` restores it."""
        ensure_organiser(t, by, admin, "pause the tournament")
        s = self.service
        async with s.changing(t) as t:
            if t.status != "running":
                raise Refusal(f"{t.name} is not running (it is {t.status}).")
            left = None if t.round_deadline is None else max(0.0, t.round_deadline - s.clock())
            async with s.write() as tx:
                await s.store.update(
                    tx, t.id, status="paused", round_deadline=None, round_left=left
                )
            t = await s._reload(t.id)
            s._disarm(t.id)
        stopped = "" if left is None else f" The round's clock stops with {duration(left)} left."
        s.announcer.say(
            t,
            f"⏸ **{t.name}** is paused{_why(reason)}. Tables in play finish their games; "
            f"the next round waits.{stopped}",
        )
        s.announcer.updated(t)
        return "Paused. `/tournament pause` again goes on."

    async def go_on(self, t: Tournament, by: int, admin: bool, reason: str | None) -> str:
        """Go on after a pause: the round's deadline is the time it had left from now."""
        ensure_organiser(t, by, admin, "go on with the tournament")
        s = self.service
        async with s.changing(t) as t:
            if t.status != "paused":
                raise Refusal(f"{t.name} is not paused.")
            deadline = None if t.round_left is None else s.clock() + t.round_left
            async with s.write() as tx:
                await s.store.update(
                    tx, t.id, status="running", round_deadline=deadline, round_left=None
                )
            t = await s._reload(t.id)
            s._arm(t)
        ends = "" if deadline is None else f" Round {t.round} ends <t:{int(deadline)}:R>."
        s.announcer.say(t, f"▶ **{t.name}** goes on{_why(reason)}.{ends}")
        await s.advance(t.id)
        return "The tournament goes on."

    async def extend(
        self, t: Tournament, by: int, admin: bool, minutes: int, reason: str | None
    ) -> str:
        """More time for the current round: on its deadline, or (paused) on the time left."""
        ensure_organiser(t, by, admin, "extend a round")
        if not 1 <= minutes <= 240:
            raise Refusal("Extend a round by 1 to 240 minutes.")
        s = self.service
        async with s.changing(t) as t:
            if t.status == "paused":
                left = (t.round_left or 0.0) + minutes * 60
                async with s.write() as tx:
                    await s.store.update(tx, t.id, round_left=left)
                t = await s._reload(t.id)
                when = f"has {duration(left)} left when the tournament goes on"
            elif t.status == "running":
                base = max(t.round_deadline or s.clock(), s.clock())
                deadline = base + minutes * 60
                async with s.write() as tx:
                    await s.store.update(tx, t.id, round_deadline=deadline)
                t = await s._reload(t.id)
                s._arm(t)
                when = f"now ends <t:{int(deadline)}:R>"
            else:
                raise Refusal(f"{t.name} is not running.")
        s.announcer.say(t, f"⏳ Round {t.round} {when} (+{minutes} min){_why(reason)}.")
        s.announcer.updated(t)
        return f"Round {t.round} extended by {minutes} minutes."

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
        ensure_organiser(t, by, admin, "replace a player")
        s = self.service
        async with s.changing(t) as t:
            entry = t.entry_of(member_id)
            if entry is None:
                raise Refusal(f"<@{member_id}> is not playing in {t.name}.")
            if substitute is not None and t.signed_up(substitute.user_id):
                raise Refusal(f"{substitute.name} is already in {t.name}.")
            table = None
            for g in t.round_games():
                if g.status == "playing" and g.table_id and entry.id in g.entries:
                    table = s.tables.registry.find_by_id(g.table_id)
            if table is not None and substitute is not None:
                s.tables.registry.check_can_sit(table, substitute.user_id)
            members = tuple(m for m in entry.members if m.user_id != member_id)
            if substitute is not None:
                members += (substitute,)
            async with s.write() as tx:
                await s.store.remove_member(tx, t.id, member_id)
                if substitute is not None:
                    await s.store.add_member(tx, t.id, substitute, entry.id)
            t = await s._reload(t.id)
            if table is not None:
                seat = ArrangedSeat(
                    substitute.user_id if substitute else None,
                    substitute.name if substitute else "Computer",
                    None if substitute else table.handover,
                )
                await s.tables.arranged.replace_seat(table, member_id, seat)
        who = substitute.name if substitute is not None else "a computer player"
        mention = [substitute.user_id] if substitute is not None else []
        s.announcer.say(t, f"🔁 <@{member_id}> is replaced by {who}{_why(reason)}.", mention)
        s.announcer.updated(t)
        return f"Replaced by {who}."

    async def disqualify(
        self, t: Tournament, by: int, admin: bool, member_id: int, reason: str | None
    ) -> str:
        """The member's entry is out: its game in play is lost (ended now), it is paired no
        more (in a knock-out its opponent goes through)."""
        ensure_organiser(t, by, admin, "disqualify a team")
        s = self.service
        async with s.changing(t) as t:
            entry = t.entry_of(member_id)
            if entry is None or entry.status != "in":
                raise Refusal(f"<@{member_id}> is not playing in {t.name}.")
            async with s.write() as tx:
                await s.store.put_entry(tx, t.id, dataclasses.replace(entry, status="disqualified"))
            t = await s._reload(t.id)
            playing = [
                g
                for g in t.round_games()
                if g.status == "playing" and g.table_id and entry.id in g.entries
            ]
            for g in playing:
                assert g.table_id is not None
                table = s.tables.registry.find_by_id(g.table_id)
                if table is not None:
                    await s.tables.arranged.decide(table, f"{entry.name} was disqualified.")
                others = [e for e in g.entries if e != entry.id]
                if len(others) == 1:
                    async with s.write() as tx:
                        done = dataclasses.replace(g, status="done", winner=others[0], decided=True)
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
                                    now, status="done", winner=others[0], decided=True
                                )
                        await s.store.put_game(tx, t.id, done)
        s.announcer.say(t, f"🚫 {entry.name} is disqualified{_why(reason)}.")
        await s.advance(t.id)
        return f"{entry.name} is disqualified."

    async def cancel(self, t: Tournament, by: int, admin: bool, reason: str | None) -> str:
        ensure_organiser(t, by, admin, "cancel the tournament")
        await self.service.cancel(t, f"cancelled by <@{by}>{_why(reason)}")
        return f"{t.name} is cancelled."
