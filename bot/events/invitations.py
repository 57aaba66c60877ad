"""Partner invitations: ``/tournament join partner:@X`` enters the pair only once X accepts.

An invitation is stored (a restart keeps it, and its expiry: :data:`ANSWER_S`, or the start if
that is sooner) and posted in the tournament's channel, mentioning X, with **Accept** and
**Decline**, which only X may press.  Until X answers neither member is signed up, and neither
may be asked by or ask anyone else in that tournament.  It ends one way, and its message then
says which and loses its buttons:

* **accepted** — the pair is entered in the transaction that removes the invitation
  (:meth:`bot.events.signup.SignUp.answer`);
* **declined**, or **expired** unanswered — withdrawn, and the inviter is told, mentioned, that
  they are not signed up;
* **withdrawn** by the inviter (``/tournament leave``);
* **closed** by the start (the inviter is told) or the cancel of the tournament.

The methods expect the caller to hold the tournament's lock
(:meth:`bot.events.service.TournamentService.changing`) and reload the tournament after them.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable
from typing import Final, Literal

from bot.cooldowns import relative_time
from bot.errors import Refusal
from bot.events.announcer import Announcer
from bot.events.pairing.model import Invitation, Member, Tournament
from bot.i18n import Text, _, later
from bot.names import md_name
from bot.store.db import Tx
from bot.store.errors import UniqueViolation
from bot.store.tournaments import TournamentStore

ANSWER_S: Final = 600.0  # a partner's time to answer (the start, if sooner)
MIN_ANSWER_S: Final = 60.0  # the start nearer than this: no invitation (sign up alone)
MAX_PENDING: Final = 2  # invitations one member may have waiting at once, all tournaments

Outcome = Literal["accepted", "declined", "expired", "withdrawn", "closed"]


def mention(member: Member) -> str:
    return f"<@{member.user_id}>"


def asking_text(t: Tournament, inv: Invitation) -> Text:
    """The public message that asks the partner (in the server's language when posted)."""
    return later(
        "🤝 {partner}: {inviter} asks you to be their partner in **{name}**. Only you can "
        "answer, by {when}; until then neither of you is signed up.",
        partner=mention(inv.partner),
        inviter=mention(inv.inviter),
        name=t.md_name,
        when=relative_time(inv.expires_at),
    )


def ended_text(t: Tournament, inv: Invitation, outcome: Outcome) -> Text:
    """What the invitation's message says once it ended."""
    names = {"partner": mention(inv.partner), "inviter": mention(inv.inviter), "name": t.md_name}
    if outcome == "accepted":
        return later(
            "✅ {partner} accepted: {inviter} and {partner} are signed up for **{name}**.", **names
        )
    if outcome == "declined":
        return later("✖ {partner} declined {inviter}'s invitation to **{name}**.", **names)
    if outcome == "expired":
        return later(
            "⌛ {inviter}'s invitation to {partner} for **{name}** expired unanswered.", **names
        )
    if outcome == "withdrawn":
        return later("↩ {inviter} withdrew their invitation to {partner} for **{name}**.", **names)
    return later(
        "🔒 Sign-up for **{name}** closed before {partner} answered {inviter}'s invitation.",
        **names,
    )


def inviter_notice(t: Tournament, inv: Invitation, outcome: Outcome) -> Text | None:
    """The notice that tells (mentions) the inviter their pair was not entered."""
    names = {"partner": mention(inv.partner), "inviter": mention(inv.inviter), "name": t.md_name}
    if outcome == "declined":
        return later(
            "{inviter}: {partner} declined your invitation to **{name}**, so you are not signed "
            "up. `/tournament join` signs you up alone or with another partner.",
            **names,
        )
    if outcome == "expired":
        return later(
            "{inviter}: {partner} did not answer your invitation to **{name}** in time, so you "
            "are not signed up. `/tournament join` signs you up alone or with another partner.",
            **names,
        )
    if outcome == "closed":
        return later(
            "{inviter}: sign-up for **{name}** closed before {partner} answered your "
            "invitation, so you are not playing.",
            **names,
        )
    return None


class Invitations:
    def __init__(
        self,
        store: TournamentStore,
        write: Callable[[], contextlib.AbstractAsyncContextManager[Tx]],
        announcer: Announcer,
        open_tournaments: Callable[[], list[Tournament]],
    ) -> None:
        self.store = store
        self.write = write
        self.announcer = announcer
        self.open_tournaments = open_tournaments  # every tournament this process runs

    def check_free(self, t: Tournament, member: Member, partner: Member | None) -> None:
        """Refuse a member, or a partner they name, who is in an invitation of ``t`` already."""
        inv = t.invitation_of(member.user_id)
        if inv is not None and inv.inviter.user_id == member.user_id:
            raise Refusal(
                _(
                    "You asked {partner} to be your partner in {name}: wait for their answer, "
                    "or withdraw it with `/tournament leave`.",
                    partner=md_name(inv.partner.name),
                    name=t.md_name,
                )
            )
        if inv is not None:
            raise Refusal(
                _(
                    "{inviter} asked you to be their partner in {name}: accept or decline "
                    "that first (the buttons on the invitation).",
                    inviter=md_name(inv.inviter.name),
                    name=t.md_name,
                )
            )
        if partner is not None and t.invitation_of(partner.user_id) is not None:
            raise Refusal(
                _(
                    "{partner} already has an invitation waiting in {name}: they must answer "
                    "it first.",
                    partner=md_name(partner.name),
                    name=t.md_name,
                )
            )

    def check_pending(self, user_id: int) -> None:
        """At most :data:`MAX_PENDING` invitations of one member wait at once (over every
        tournament): refused until the first of them ends."""
        mine = [
            inv
            for t in self.open_tournaments()
            for inv in t.invitations.values()
            if inv.inviter.user_id == user_id
        ]
        if len(mine) >= MAX_PENDING:
            first = min(inv.expires_at for inv in mine)
            raise Refusal(
                _(
                    "You have {n} invitations waiting for an answer. Try again {when}.",
                    n=len(mine),
                    when=relative_time(first),
                )
            )

    async def send(self, t: Tournament, inviter: Member, partner: Member, now: float) -> Invitation:
        """Store the invitation and post it; refused (nothing kept) when the start is too near
        or the message could not be posted."""
        expires = min(now + ANSWER_S, t.starts_at)
        if expires - now < MIN_ANSWER_S:
            raise Refusal(
                _(
                    "{name} starts {when}: too soon for your partner to answer. Sign up alone "
                    "(partners are drawn at the start).",
                    name=t.md_name,
                    when=relative_time(t.starts_at),
                )
            )
        inv = Invitation(inviter, partner, now, expires)
        try:
            async with self.write() as tx:
                await self.store.add_invitation(tx, t.id, inv)
        except UniqueViolation:  # another process asked either of them at this instant
            raise Refusal(
                _(
                    "{partner} already has an invitation waiting in {name}: they must answer "
                    "it first.",
                    partner=md_name(partner.name),
                    name=t.md_name,
                )
            ) from None
        message = await self.announcer.ask_partner(t, inv, asking_text(t, inv))
        async with self.write() as tx:
            if message is None:
                await self.store.delete_invitation(tx, t.id, inviter.user_id)
            else:
                await self.store.set_invitation_message(tx, t.id, inviter.user_id, message)
        if message is None:
            raise Refusal(
                _(
                    "I could not post your invitation in <#{channel}>, so nothing changed.",
                    channel=t.channel_id,
                )
            )
        return dataclasses.replace(inv, message_id=message)

    async def end(self, t: Tournament, inv: Invitation, outcome: Outcome) -> bool:
        """Withdraw ``inv`` (declined, expired, withdrawn) and say so; ``False`` when it had
        ended already."""
        async with self.write() as tx:
            gone = await self.store.delete_invitation(tx, t.id, inv.inviter.user_id)
        if gone:
            self.announce(t, inv, outcome)
        return gone

    async def expire_due(self, t: Tournament, now: float) -> bool:
        """Withdraw every invitation of ``t`` whose time is up; whether there was one."""
        due = [inv for inv in t.invitations.values() if inv.expires_at <= now]
        for inv in due:
            await self.end(t, inv, "expired")
        return bool(due)

    async def close_all(self, tx: Tx, t: Tournament) -> list[Invitation]:
        """Sign-up closes (in the caller's transaction): every invitation goes.  The caller
        announces them (:meth:`announce`, ``closed``) once that is committed."""
        await self.store.delete_invitations(tx, t.id)
        return list(t.invitations.values())

    def announce(self, t: Tournament, inv: Invitation, outcome: Outcome) -> None:
        """The invitation's message says how it ended; the inviter is told when their pair
        was not entered."""
        self.announcer.invitation_closed(t, inv, ended_text(t, inv, outcome))
        notice = inviter_notice(t, inv, outcome)
        if notice is not None:
            self.announcer.say(t, notice, [inv.inviter.user_id])
