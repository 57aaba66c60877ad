"""Signing up for a tournament: creating it, joining (alone, or with a partner who accepts:
:mod:`bot.events.invitations`), leaving and checking in.  Each change is committed, then the
sign-up message is updated.  A member's joins and leaves of one tournament are limited
(:data:`bot.cooldowns.SIGNUP_BY_MEMBER`)."""

from __future__ import annotations

import dataclasses

from bot import cooldowns
from bot.cooldowns import Cooldowns, relative_time
from bot.errors import Refusal
from bot.events.arrangement import tournament_rules
from bot.events.pairing.model import (
    MAX_ENTRIES,
    NAME_MAX,
    Invitation,
    Member,
    NewTournament,
    Tournament,
    TournamentStatus,
)
from bot.events.service import TournamentService
from bot.i18n import _
from bot.names import clean_text, md_name
from bot.store.errors import UniqueViolation


class SignUp:
    def __init__(self, service: TournamentService, limits: Cooldowns | None = None) -> None:
        self.service = service
        self.limits = limits  # joins and leaves per member (bot.cooldowns); None: unlimited
        self.invitations = service.invitations
        self.store = service.store
        self.clock = service.clock
        self.changing = service.changing
        self.write = service.write
        self.reload = service.reload
        self.arm = service.alarms.arm

    # ------------------------------------------------------------------ sign-up
    async def create(self, new: NewTournament) -> Tournament:
        name = clean_text(new.name, NAME_MAX + 1)  # one line, no control or bidi characters
        if not 1 <= len(name) <= NAME_MAX:
            raise Refusal(_("A tournament's name is 1 to 60 characters."))
        tournament_rules(new.settings)  # a RulesError (the engine's reason) is answered as it is
        if new.starts_at < self.clock() - 60:
            raise Refusal(_("The start time is in the past."))
        try:
            async with self.write() as tx:
                secret = self.service.tables.randomness.secret(f"tournament:{name}")
                tid = await self.store.create(tx, dataclasses.replace(new, name=name), secret)
        except UniqueViolation:
            raise Refusal(
                _(
                    "A tournament named {name} is already running here.",
                    name=md_name(name, limit=NAME_MAX),
                )
            ) from None
        t = await self.reload(tid)
        self.arm(t)
        self.service.announcer.updated(t)
        return t

    def _changed(self, t: Tournament) -> None:
        self.service.signup_changed(t)
        self.service.announcer.updated(t)

    def _may_change(self, t: Tournament, user_id: int, now: float) -> None:
        """A member's joins and leaves of one tournament are limited (:mod:`bot.cooldowns`):
        refused, naming when to try again, once spent; counted by :meth:`_counted`."""
        if self.limits is not None:
            self.limits.check(*cooldowns.signup(t.id, user_id), now=now)

    def _counted(self, t: Tournament, user_id: int, now: float) -> None:
        if self.limits is not None:
            self.limits.take(*cooldowns.signup(t.id, user_id), now=now)

    async def join(
        self,
        t: Tournament,
        member: Member,
        partner: Member | None = None,
        *,
        now: float | None = None,
    ) -> str:
        """Sign ``member`` up alone, or ask ``partner`` (the pair is entered once they
        accept: :mod:`bot.events.invitations`)."""
        now = self.clock() if now is None else now
        async with self.changing(t) as t:
            if t.status != TournamentStatus.SIGNUP:
                raise Refusal(_("{name} has started: sign-up is closed.", name=t.md_name))
            if t.signed_up(member.user_id):
                raise Refusal(_("You are already signed up for {name}.", name=t.md_name))
            if len(t.entries) >= MAX_ENTRIES:
                raise Refusal(_("{name} is full ({n} entries).", name=t.md_name, n=MAX_ENTRIES))
            self.invitations.check_free(t, member, partner)
            if partner is not None:
                self._check_partner(t, member, partner)
                self.invitations.check_pending(member.user_id)
            self._may_change(t, member.user_id, now)
            if partner is not None:
                inv = await self.invitations.send(t, member, partner, now)
                t = await self.reload(t.id)
                self._counted(t, member.user_id, now)
                self.arm(t)  # its expiry
                return _(
                    "I asked {partner} to be your partner in {name}: you are signed up together "
                    "once they accept (they have until {when}).",
                    partner=md_name(partner.name),
                    name=t.md_name,
                    when=relative_time(inv.expires_at),
                )
            t = await self._sign_up(t, (member,))
            self._counted(t, member.user_id, now)
        self._changed(t)
        alone = t.settings.team_mode != "solo"
        signed = _("You are signed up for {name}.", name=t.md_name)
        return signed + (" " + _("Partners are drawn at the start.") if alone else "")

    @staticmethod
    def _check_partner(t: Tournament, member: Member, partner: Member) -> None:
        if t.settings.team_mode != "pairs":
            raise Refusal(
                _("Partners are drawn at random in this tournament.")
                if t.settings.team_mode == "draw"
                else _("Everyone plays alone in this tournament: no partner.")
            )
        if partner.user_id == member.user_id:
            raise Refusal(_("Your partner must be someone else."))
        if t.signed_up(partner.user_id):
            raise _in_a_team(t, partner)

    async def answer(
        self, t: Tournament, user_id: int, inviter_id: int, accept: bool, *, now: float
    ) -> str:
        """The invited partner's **Accept** or **Decline** (only theirs: anyone else is
        refused); an invitation whose time is up is withdrawn instead."""
        async with self.changing(t) as t:
            inv = t.invitations.get(inviter_id)
            if inv is None:
                raise Refusal(_("That invitation is no longer open."))
            if inv.partner.user_id != user_id:
                raise Refusal(
                    _(
                        "Only {partner} can answer this invitation.",
                        partner=f"<@{inv.partner.user_id}>",
                    )
                )
            if now >= inv.expires_at or t.status != TournamentStatus.SIGNUP:
                await self.invitations.end(t, inv, "expired")
                t = await self.reload(t.id)
                self.arm(t)
                raise Refusal(
                    _("This invitation expired {when}.", when=relative_time(inv.expires_at))
                )
            inviter = md_name(inv.inviter.name)
            if not accept:
                await self.invitations.end(t, inv, "declined")
                t = await self.reload(t.id)
                self.arm(t)
                return _(
                    "You declined {inviter}'s invitation to {name}.",
                    inviter=inviter,
                    name=t.md_name,
                )
            if len(t.entries) >= MAX_ENTRIES:
                raise Refusal(_("{name} is full ({n} entries).", name=t.md_name, n=MAX_ENTRIES))
            t = await self._sign_up(t, (inv.inviter, inv.partner), invitation=inv)
            self.invitations.announce(t, inv, "accepted")
            self.arm(t)
        self._changed(t)
        return _("You and {inviter} are signed up for {name}.", inviter=inviter, name=t.md_name)

    async def _sign_up(
        self, t: Tournament, joining: tuple[Member, ...], invitation: Invitation | None = None
    ) -> Tournament:
        """Store a new entry of ``joining`` (the caller holds the tournament's lock), with the
        ``invitation`` that asked for it removed in the same transaction.  Another process
        signing someone up at the same instant may take the same entry number (the insert is
        refused: tried again) or the same member (refused with a reason)."""
        for _attempt in range(3):
            try:
                async with self.write() as tx:
                    if invitation is not None and not await self.store.delete_invitation(
                        tx, t.id, invitation.inviter.user_id
                    ):
                        raise Refusal(_("That invitation is no longer open."))
                    entry = await self.store.new_entry(tx, t.id, joining)
                    for m in joining:
                        await self.store.add_member(tx, t.id, m, entry.id)
                return await self.reload(t.id)
            except UniqueViolation:
                t = await self.reload(t.id)
                for m in joining:
                    if not t.signed_up(m.user_id):
                        continue
                    if m is joining[0] and invitation is None:
                        raise Refusal(
                            _("You are already signed up for {name}.", name=t.md_name)
                        ) from None
                    raise _in_a_team(t, m) from None
        raise Refusal(_("I could not save that, so nothing changed. Please try again."))

    async def leave(self, t: Tournament, user_id: int, *, now: float | None = None) -> str:
        """Withdraw before the start (an invitation one sent is withdrawn: nobody is
        signed up)."""
        now = self.clock() if now is None else now
        async with self.changing(t) as t:
            inv = t.invitations.get(user_id)
            if inv is not None:
                self._may_change(t, user_id, now)
                await self.invitations.end(t, inv, "withdrawn")
                t = await self.reload(t.id)
                self._counted(t, user_id, now)
                self.arm(t)
                return _(
                    "You withdrew your invitation to {partner}: you are not signed up for {name}.",
                    partner=md_name(inv.partner.name),
                    name=t.md_name,
                )
            entry = t.entry_of(user_id)
            if entry is None:
                raise Refusal(_("You are not signed up for {name}.", name=t.md_name))
            if t.status != TournamentStatus.SIGNUP:
                raise Refusal(
                    _(
                        "{name} has started: ask the organiser to replace you "
                        "(`/tournament replace`).",
                        name=t.md_name,
                    )
                )
            self._may_change(t, user_id, now)
            async with self.write() as tx:
                await self.store.remove_member(tx, t.id, user_id)
                rest = [m for m in entry.members if m.user_id != user_id]
                if rest:
                    await self.store.put_entry(tx, t.id, dataclasses.replace(entry, members=()))
                else:
                    await self.store.delete_entry(tx, t.id, entry.id)
            t = await self.reload(t.id)
            self._counted(t, user_id, now)
        self._changed(t)
        return _("You left {name}.", name=t.md_name)

    async def check_in(self, t: Tournament, user_id: int) -> str:
        async with self.changing(t) as t:
            entry = t.entry_of(user_id)
            if entry is None:
                raise Refusal(_("You are not signed up for {name}.", name=t.md_name))
            if t.status != TournamentStatus.SIGNUP or not t.settings.checkin_minutes:
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
        return _("Checked in for {name}: good luck!", name=t.md_name)


def _in_a_team(t: Tournament, m: Member) -> Refusal:
    """``m`` is signed up already (their team named)."""
    other = t.entry_of(m.user_id)
    return Refusal(
        _(
            "{partner} is already in another team ({other}).",
            partner=md_name(m.name),
            other=other.md_name if other is not None else "—",
        )
    )
