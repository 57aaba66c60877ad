"""Signing up for a tournament: creating it, joining (alone or with a partner), leaving and
checking in.  Each change is committed, then the sign-up message is updated."""

from __future__ import annotations

import dataclasses

from bot.errors import Refusal
from bot.events.arrangement import tournament_rules
from bot.events.model import MAX_ENTRIES, Member, Settings, Tournament
from bot.events.service import TournamentService
from bot.i18n import _
from bot.store.errors import UniqueViolation


class SignUp:
    def __init__(self, service: TournamentService) -> None:
        self.service = service
        self.store = service.store
        self.clock = service.clock
        self.changing = service.changing
        self.write = service.write
        self.reload = service.reload
        self.arm = service.alarms.arm

    # ------------------------------------------------------------------ sign-up
    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        name: str,
        settings: Settings,
        starts_at: float,
    ) -> Tournament:
        name = " ".join(name.split())
        if not 1 <= len(name) <= 60:
            raise Refusal(_("A tournament's name is 1 to 60 characters."))
        tournament_rules(settings)  # a RulesError (the engine's reason) is answered as it is
        if starts_at < self.clock() - 60:
            raise Refusal(_("The start time is in the past."))
        try:
            async with self.write() as tx:
                tid = await self.store.create(
                    tx,
                    guild_id=guild_id,
                    channel_id=channel_id,
                    organiser_id=organiser_id,
                    name=name,
                    settings=settings,
                    starts_at=starts_at,
                    secret=self.service.tables.randomness.secret(f"tournament:{name}"),
                )
        except UniqueViolation:
            raise Refusal(
                _("A tournament named {name} is already running here.", name=repr(name))
            ) from None
        t = await self.reload(tid)
        self.arm(t)
        self.service.announcer.updated(t)
        return t

    def _changed(self, t: Tournament) -> None:
        self.service.signup_changed(t)
        self.service.announcer.updated(t)

    async def join(self, t: Tournament, member: Member, partner: Member | None = None) -> str:
        async with self.changing(t) as t:
            if t.status != "signup":
                raise Refusal(_("{name} has started: sign-up is closed.", name=t.name))
            if t.signed_up(member.user_id):
                raise Refusal(_("You are already signed up for {name}.", name=t.name))
            if len(t.entries) >= MAX_ENTRIES:
                raise Refusal(_("{name} is full ({n} entries).", name=t.name, n=MAX_ENTRIES))
            joining = [member]
            if partner is not None:
                if t.settings.team_mode != "pairs":
                    raise Refusal(
                        _("Partners are drawn at random in this tournament.")
                        if t.settings.team_mode == "draw"
                        else _("Everyone plays alone in this tournament: no partner.")
                    )
                if partner.user_id == member.user_id:
                    raise Refusal(_("Your partner must be someone else."))
                other = t.entry_of(partner.user_id)
                if other is not None:
                    raise Refusal(
                        _(
                            "{partner} is already in another team ({other}).",
                            partner=partner.name,
                            other=other.name,
                        )
                    )
                joining.append(partner)
            t = await self._sign_up(t, tuple(joining))
        self._changed(t)
        if partner is not None:
            return _(
                "You and {partner} are signed up for {name}.", partner=partner.name, name=t.name
            )
        alone = t.settings.team_mode != "solo"
        signed = _("You are signed up for {name}.", name=t.name)
        return signed + (" " + _("Partners are drawn at the start.") if alone else "")

    async def _sign_up(self, t: Tournament, joining: tuple[Member, ...]) -> Tournament:
        """Store a new entry of ``joining`` (the caller holds the tournament's lock).  Another
        process signing someone up at the same instant may take the same entry number (the
        insert is refused: tried again) or the same member (refused with a reason)."""
        for _attempt in range(3):
            try:
                async with self.write() as tx:
                    entry = await self.store.new_entry(tx, t.id, joining)
                    for m in joining:
                        await self.store.add_member(tx, t.id, m, entry.id)
                return await self.reload(t.id)
            except UniqueViolation:
                t = await self.reload(t.id)
                if t.signed_up(joining[0].user_id):
                    raise Refusal(_("You are already signed up for {name}.", name=t.name)) from None
                if any(t.signed_up(m.user_id) for m in joining[1:]):
                    other = t.entry_of(joining[1].user_id)
                    raise Refusal(
                        _(
                            "{partner} is already in another team ({other}).",
                            partner=joining[1].name,
                            other=other.name if other is not None else "—",
                        )
                    ) from None
        raise Refusal(_("I could not save that, so nothing changed. Please try again."))

    async def leave(self, t: Tournament, user_id: int) -> str:
        async with self.changing(t) as t:
            entry = t.entry_of(user_id)
            if entry is None:
                raise Refusal(_("You are not signed up for {name}.", name=t.name))
            if t.status != "signup":
                raise Refusal(
                    _(
                        "{name} has started: ask the organiser to replace you "
                        "(`/tournament replace`).",
                        name=t.name,
                    )
                )
            async with self.write() as tx:
                await self.store.remove_member(tx, t.id, user_id)
                rest = [m for m in entry.members if m.user_id != user_id]
                if rest:
                    await self.store.put_entry(tx, t.id, dataclasses.replace(entry, members=()))
                else:
                    await self.store.delete_entry(tx, t.id, entry.id)
            t = await self.reload(t.id)
        self._changed(t)
        return _("You left {name}.", name=t.name)

    async def check_in(self, t: Tournament, user_id: int) -> str:
        async with self.changing(t) as t:
            entry = t.entry_of(user_id)
            if entry is None:
                raise Refusal(_("You are not signed up for {name}.", name=t.name))
            if t.status != "signup" or not t.settings.checkin_minutes:
                raise Refusal(_("There is no check-in now."))
            opens = t.starts_at - t.settings.checkin_minutes * 60
            if self.clock() < opens:
                raise Refusal(_("Check-in opens {when}.", when=f"<t:{int(opens)}:R>"))
            if entry.checked_in:
                return _("You are already checked in.")
            async with self.write() as tx:
                await self.store.put_entry(tx, t.id, dataclasses.replace(entry, checked_in=True))
            t = await self.reload(t.id)
        self._changed(t)
        return _("Checked in for {name}: good luck!", name=t.name)
