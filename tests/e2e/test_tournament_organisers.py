"""Who runs tournaments, through the fake Discord: Manage Server, or a role the server's
admins name with ``/spades-admin tournaments``; everyone else gets one ephemeral line."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.driver import eventually
from tests.e2e.tournament_flows import Night, new_night, sign_up_pair
from tests.fakediscord import FakeDiscord, User, run_bot

ENV = {"SPADES_TEST_SEED": "11", "SPADES_BOT_DELAY": "0", "LOG_LEVEL": "INFO"}


async def refused(night: Night, user: User, *path: str, says: str, **options: object) -> None:
    r = await night.ask(user, *path, **options)
    assert r.ephemeral, r.text
    assert says in r.text, r.text
    assert "\n" not in r.text.strip(), r.text


async def test_a_role_the_admins_name_may_open_and_run_tournaments(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Spades Club")
        night = new_night(fake, guild, 4)
        admin = night.organiser  # Manage Server
        role = guild.add_role("Tournament crew")
        opener, helper, member = (fake.add_user(n) for n in ("opener", "helper", "member"))
        guild.add_member(opener, roles=[role])
        guild.add_member(helper, roles=[role])
        guild.add_member(member)
        env = {**ENV, "DATABASE_PATH": str(tmp_path / "spades.db")}
        async with run_bot(fake, env=env):
            # No role named yet: only Manage Server opens one, and the refusal says how.
            await refused(
                night, opener, "tournament", "new", name="Crew night", says="/spades-admin"
            )
            r = await night.ask(admin, "spades-admin", "tournaments", organiser_role=role)
            assert r.ephemeral
            assert f"<@&{role.id}>" in str(r.embeds[0]), r.embeds
            r = await night.ask(
                opener, "tournament", "new", name="Crew night", rounds=1, turn_timer=0
            )
            assert "open for sign-up" in r.text, r.text
            await eventually(lambda: night.standings())
            await refused(
                night,
                member,
                "tournament",
                "new",
                name="Rogue night",
                says=f"Manage Server or the <@&{role.id}> role",
            )
            for a, b in zip(night.players[::2], night.players[1::2], strict=True):
                await sign_up_pair(night, a, b)
            # A member without the role runs no round command; one with it runs any.
            await refused(night, member, "tournament", "start", says="Only the organiser")
            r = await night.ask(helper, "tournament", "start", reason="all here")
            assert "has started" in r.text, r.text
            await refused(night, member, "tournament", "pause", says="organiser role")
            r = await night.ask(helper, "tournament", "pause", reason="a break")
            assert "Paused" in r.text, r.text
            # The admins take the role back: the helper no longer may; the opener still does.
            r = await night.ask(admin, "spades-admin", "tournaments", clear=True)
            assert f"<@&{role.id}>" not in str(r.embeds[0]), r.embeds
            await refused(night, helper, "tournament", "pause", says="Only the organiser")
            r = await night.ask(opener, "tournament", "pause")
            assert "goes on" in r.text, r.text
            await refused(
                night, opener, "tournament", "new", name="Second night", says="Manage Server"
            )
            # The notices are channel posts, sent after the answers (and paced within Discord's
            # global limit): wait for them rather than read the channel at once.
            await eventually(
                lambda: any("Started early by" in t and "all here" in t for t in night.texts())
            )
            await eventually(lambda: any("is paused — a break" in t for t in night.texts()))
