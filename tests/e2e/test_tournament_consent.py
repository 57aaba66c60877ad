"""Signing up with a partner through the fake Discord: the partner named in ``/tournament join
partner:`` is asked in the tournament channel (mentioned, **Accept** / **Decline**, a time
limit) and entered only if they accept — nobody else's click counts, and the buttons still
work after a restart; declined or unanswered, the pair is withdrawn and the inviter told.  A
member's joins and leaves, and the invitations they have waiting, are limited, and a refusal
says when to try again.

The invitation's time and the limits are read on Discord's clock (each interaction's creation
time), so the tests move that clock ahead (``fake.snowflakes.advance``) rather than wait."""

from __future__ import annotations

import re
from pathlib import Path

from tests.e2e.driver import eventually
from tests.e2e.test_tournaments import bot_env, db_rows
from tests.e2e.tournament_flows import (
    Night,
    answer_invitation,
    invitation_to,
    new_night,
    open_night,
)
from tests.fakediscord import FakeDiscord, Message, User, run_bot

WHEN = re.compile(r"<t:(\d+):R>")


def signed_up(night: Night) -> str:
    return str(night.standings().embeds[0])


def notices_to(night: Night, user: User) -> list[Message]:
    """The channel's messages that begin by mentioning ``user`` (a notice for them)."""
    return [m for m in night.messages() if m.text.startswith(f"<@{user.id}>:")]


async def test_a_partner_is_entered_only_once_they_accept_and_only_they_can_answer(
    tmp_path: Path,
) -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Spades Club")
        night = new_night(fake, guild, 4)
        p1, p2, p3, _ = night.players
        async with run_bot(fake, env=bot_env(tmp_path)):
            await open_night(night, name="Consent", rounds=1, target=100, start_in=60)
            asked_at = fake.snowflakes.now()
            r = await night.ask(p1, "tournament", "join", partner=p2)
            assert r.ephemeral
            assert "I asked p02 to be your partner in Consent" in r.text, r.text
            assert "once they accept" in r.text
            await eventually(lambda: invitation_to(night, p2))
            asked = invitation_to(night, p2)
            assert asked.text.startswith(f"🤝 <@{p2.id}>: <@{p1.id}> asks you to be their partner")
            assert asked.pinged == {p2.id}, "the partner alone is pinged"
            deadline = int(WHEN.findall(asked.text)[-1])
            assert 9 * 60 < deadline - asked_at <= 10 * 60 + 2, "ten minutes to answer"
            assert {c.label for c in asked.all_components} == {"Accept", "Decline"}
            assert "Signed up (0)" in signed_up(night), "nobody is entered before the answer"
            assert db_rows(tmp_path, "SELECT count(*) FROM tournament_members") == [(0,)]
            # Only the partner answers: the inviter's and a bystander's clicks are refused.
            for other in (p1, p3):
                for verb in ("accept", "decline"):
                    refused = await answer_invitation(night, p2, verb, by=other)
                    assert refused.ephemeral
                    assert refused.text == f"Only <@{p2.id}> can answer this invitation."
            assert asked.all_components, "still open"
            assert db_rows(tmp_path, "SELECT count(*) FROM tournament_members") == [(0,)]
        # The bot restarts: the invitation and its buttons are still there.
        async with run_bot(fake, env=bot_env(tmp_path), wait_for="commands"):
            r = await answer_invitation(night, p2)
            assert r.text == "You and p01 are signed up for Consent.", r.text
            await eventually(lambda: not asked.all_components)
            assert asked.text.startswith(f"✅ <@{p2.id}> accepted: <@{p1.id}> and <@{p2.id}>")
            await eventually(lambda: "p01 & p02" in signed_up(night))
            assert "Signed up (1)" in signed_up(night)
    members = db_rows(tmp_path, "SELECT user_id, entry FROM tournament_members ORDER BY user_id")
    assert members == [(p1.id, 1), (p2.id, 1)]
    assert db_rows(tmp_path, "SELECT count(*) FROM tournament_invitations") == [(0,)]


async def test_a_declined_or_unanswered_invitation_enters_nobody_and_tells_the_inviter(
    tmp_path: Path,
) -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Spades Club")
        night = new_night(fake, guild, 9)
        p = night.players
        async with run_bot(fake, env=bot_env(tmp_path)):
            await open_night(night, name="No thanks", rounds=1, target=100, start_in=600)
            # Declined: the pair is withdrawn, the inviter pinged.
            await night.ask(p[0], "tournament", "join", partner=p[1])
            r = await answer_invitation(night, p[1], "decline")
            assert r.text == "You declined p01's invitation to No thanks.", r.text
            await eventually(lambda: notices_to(night, p[0]))
            [notice] = notices_to(night, p[0])
            assert f"<@{p[1].id}> declined your invitation" in notice.text
            assert "so you are not signed up" in notice.text
            assert notice.pinged == {p[0].id}
            await eventually(lambda: any(m.text.startswith("✖") for m in night.messages()))
            declined = next(m for m in night.messages() if m.text.startswith("✖"))
            assert not declined.all_components
            # Not answered in ten minutes (on Discord's clock): a late Accept is refused, the
            # pair withdrawn, the inviter told.
            await night.ask(p[2], "tournament", "join", partner=p[3])
            await eventually(lambda: invitation_to(night, p[3]))
            asked = invitation_to(night, p[3])
            fake.snowflakes.advance(11 * 60)
            late = await answer_invitation(night, p[3])
            assert late.text.startswith("This invitation expired <t:"), late.text
            await eventually(lambda: notices_to(night, p[2]))
            [notice] = notices_to(night, p[2])
            assert f"<@{p[3].id}> did not answer your invitation" in notice.text, notice.text
            await eventually(lambda: "expired unanswered" in asked.text)
            assert not asked.all_components
            # The inviter withdraws (`/tournament leave`): the invitation is closed.
            await night.ask(p[4], "tournament", "join", partner=p[5])
            await eventually(lambda: invitation_to(night, p[5]))
            withdrawn = invitation_to(night, p[5])
            r = await night.ask(p[4], "tournament", "leave")
            assert (
                r.text
                == "You withdrew your invitation to p06: you are not signed up for No thanks."
            )
            await eventually(lambda: not withdrawn.all_components)
            assert "withdrew their invitation" in withdrawn.text
            # Someone with an invitation waiting is neither asked again nor asks, nor joins.
            await night.ask(p[6], "tournament", "join", partner=p[7])
            r = await night.ask(p[8], "tournament", "join", partner=p[7])
            assert (
                r.text
                == "p08 already has an invitation waiting in No thanks: they must answer it first."
            )
            r = await night.ask(p[7], "tournament", "join")
            assert r.text.startswith("p07 asked you to be their partner in No thanks"), r.text
            r = await night.ask(p[6], "tournament", "join", partner=p[8])
            assert r.text.startswith("You asked p08 to be your partner in No thanks"), r.text
            assert "Signed up (0)" in signed_up(night)
    assert db_rows(tmp_path, "SELECT count(*) FROM tournament_members") == [(0,)]
    assert db_rows(tmp_path, "SELECT inviter_id FROM tournament_invitations") == [(p[6].id,)]


async def test_joins_leaves_and_waiting_invitations_are_limited_and_say_when(
    tmp_path: Path,
) -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Spades Club")
        night = new_night(fake, guild, 4)
        p1, p2, p3, p4 = night.players
        async with run_bot(fake, env=bot_env(tmp_path)):
            await open_night(night, name="Dither", rounds=1, target=100, start_in=600)
            with fake.snowflakes.held():  # all within one hour on Discord's clock
                began = fake.snowflakes.now()
                for verb in ("join", "leave", "join", "leave", "join"):
                    r = await night.ask(p1, "tournament", verb)
                    assert "You left" in r.text or "You are signed up" in r.text, r.text
                r = await night.ask(p1, "tournament", "leave")
            assert r.text.startswith(
                "You have joined or left this tournament five times in the last hour. Try again <t:"
            ), r.text
            assert int(WHEN.findall(r.text)[-1]) >= began + 3600
            await eventually(lambda: "p01" in signed_up(night))  # the refusal changed nothing
            fake.snowflakes.advance(3601)
            r = await night.ask(p1, "tournament", "leave")
            assert r.text == "You left Dither.", r.text
            # Two invitations waiting (in two tournaments): a third waits for one to end.
            for name in ("Second", "Third"):
                r = await night.ask(night.organiser, "tournament", "new", name=name, start_in=600)
                assert "open for sign-up" in r.text, r.text
            r = await night.ask(p2, "tournament", "join", partner=p3, name="Dither")
            assert "once they accept" in r.text, r.text
            r = await night.ask(p2, "tournament", "join", partner=p3, name="Second")
            assert "once they accept" in r.text, r.text
            first = int(WHEN.findall(invitation_to(night, p3).text)[-1])
            r = await night.ask(p2, "tournament", "join", partner=p4, name="Third")
            assert r.text.startswith("You have 2 invitations waiting for an answer. Try again "), (
                r.text
            )
            assert abs(int(WHEN.findall(r.text)[-1]) - first) <= 2, "when the first one ends"
    assert db_rows(tmp_path, "SELECT count(*) FROM tournament_invitations") == [(2,)]
