"""Partner invitations in the director, on a real database (SQLite and PostgreSQL), without
Discord: an unanswered invitation expires on the tournament's own alarm (its inviter told),
a restart keeps it, and the start closes the ones still waiting."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence

import pytest

from bot.errors import Refusal
from bot.events.announcer import QuietAnnouncer
from bot.events.invitations import ANSWER_S
from bot.events.pairing.model import Invitation, Member, Tournament
from bot.events.resumption import resume
from bot.events.signup import SignUp
from bot.store.db import Database
from tests.events.test_director import Clock, a_bot, a_tournament, until


class Told(QuietAnnouncer):
    """Keeps what the director said in the channel, and how each invitation ended."""

    def __init__(self) -> None:
        self.said: list[tuple[str, tuple[int, ...]]] = []
        self.closed: list[tuple[int, str]] = []  # (inviter, text)

    def say(self, t: Tournament, text: str, mention: Sequence[int] = ()) -> None:
        self.said.append((str(text), tuple(mention)))

    def invitation_closed(self, t: Tournament, inv: Invitation, text: str) -> None:
        self.closed.append((inv.inviter.user_id, str(text)))


@pytest.fixture
async def db(database_url: str) -> AsyncIterator[Database]:
    async with Database.open(database_url) as db:
        yield db


A, B = Member(800, "asker"), Member(801, "asked")


async def pending(db: Database) -> int:
    return int(await db.fetchval("SELECT count(*) FROM tournament_invitations"))


async def test_an_unanswered_invitation_expires_on_the_alarm_and_its_inviter_is_told(
    db: Database,
) -> None:
    clock, told = Clock(), Told()
    bot = a_bot(db, clock, told)
    t = await a_tournament(bot, clock, 0)
    answer = await SignUp(bot.director).join(t, A, B)
    assert "once they accept" in answer, answer
    assert await pending(db) == 1
    assert await db.fetchval("SELECT count(*) FROM tournament_members") == 0, "nobody entered"
    clock.now += ANSWER_S  # ten minutes later (the start is an hour away)
    bot.director.alarms.arm(bot.director.get(t.id))  # rings at the invitation's expiry: now
    await until(
        lambda: told.closed and not bot.director.get(t.id).invitations, "the invitation expired"
    )
    assert told.closed == [(A.user_id, told.closed[0][1])]
    assert "expired unanswered" in told.closed[0][1]
    [(notice, mention)] = told.said
    assert notice.startswith(f"<@{A.user_id}>: <@{B.user_id}> did not answer"), notice
    assert "not signed up" in notice
    assert mention == (A.user_id,), "the inviter is pinged"
    assert await pending(db) == 0
    with pytest.raises(Refusal, match="no longer open"):
        await SignUp(bot.director).answer(t, B.user_id, A.user_id, True, now=clock.now)
    assert await db.fetchval("SELECT count(*) FROM tournament_members") == 0
    await bot.close()


async def test_an_invitation_survives_a_restart_and_is_accepted_after_it(db: Database) -> None:
    clock = Clock()
    first = a_bot(db, clock)
    t = await a_tournament(first, clock, 0)
    await SignUp(first.director).join(t, A, B)
    await first.close()
    second = a_bot(db, clock)
    await second.tables.restore()
    await resume(second.director)
    resumed = second.director.get(t.id)
    assert resumed.invitations[A.user_id].partner == B
    assert resumed.invitations[A.user_id].expires_at == clock.now + ANSWER_S
    signup = SignUp(second.director)
    with pytest.raises(Refusal, match="Only <@801> can answer"):
        await signup.answer(resumed, A.user_id, A.user_id, True, now=clock.now)
    answer = await signup.answer(resumed, B.user_id, A.user_id, True, now=clock.now)
    assert answer == "You and asker are signed up for Test night.", answer
    entered = second.director.get(t.id)
    assert [m.user_id for e in entered.entries.values() for m in e.members] == [800, 801]
    assert await pending(db) == 0
    await second.close()


async def test_the_start_closes_the_invitations_still_waiting(db: Database) -> None:
    clock, told = Clock(), Told()
    bot = a_bot(db, clock, told)
    t = await a_tournament(bot, clock, 2, rounds=1)
    await SignUp(bot.director).join(bot.director.get(t.id), A, B)
    await bot.director.start(bot.director.get(t.id))
    assert await pending(db) == 0
    [closed] = [text for inviter, text in told.closed if inviter == A.user_id]
    assert "closed before <@801> answered" in closed, closed
    notices = [text for text, mention in told.said if mention == (A.user_id,)]
    assert len(notices) == 1
    assert "so you are not playing" in notices[0], notices
    await bot.close()


async def test_an_invitation_lasts_until_the_start_if_that_is_sooner(db: Database) -> None:
    clock = Clock()
    bot = a_bot(db, clock)
    t = await a_tournament(bot, clock, 0)  # starts in an hour
    signup = SignUp(bot.director)
    await signup.join(t, A, B, now=t.starts_at - 300)  # five minutes before the start
    assert bot.director.get(t.id).invitations[A.user_id].expires_at == t.starts_at
    await signup.leave(t, A.user_id)
    with pytest.raises(Refusal, match="too soon for your partner to answer"):
        await signup.join(t, A, B, now=t.starts_at - 30)
    assert await pending(db) == 0
    await bot.close()
