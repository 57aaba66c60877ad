"""An organiser's evening through the fake Discord, as people do it: the sign-up message
counts down to the start and follows each **Join** / **Leave** live; members who come alone
are drawn into a partnership and an odd number of teams gets a computer team; the organiser
extends the round and disqualifies a team (each with a reason, posted); the night is played
to the podium and ``/stats`` counts the tournament won."""

from __future__ import annotations

import contextlib
import json
import re
import sqlite3
from pathlib import Path

from tests.e2e.driver import eventually
from tests.e2e.tournament_flows import Night, new_night, open_night, sign_up_pair
from tests.fakediscord import FakeDiscord, Message, User, run_bot

ENV = {"SPADES_TEST_SEED": "11", "SPADES_BOT_DELAY": "0", "LOG_LEVEL": "INFO"}


def signup_text(night: Night) -> str:
    return str(night.standings().embeds[0])


async def click(night: Night, user: User, verb: str) -> str:
    message = night.standings()
    custom_id = next(c.custom_id for c in message.all_components if c.custom_id.endswith(verb))
    return (await (await night.fake.click(user, message, custom_id)).answer()).text


def announcements(night: Night) -> list[tuple[Message, str]]:
    """(announcement, thread name) of every table seated so far."""
    return [
        (m, th.name)
        for th in night.fake.threads(night.channel)
        for m in night.fake.messages(th)
        if "your game is on" in m.text
    ]


async def test_sign_up_live_draws_a_computer_team_and_the_organisers_controls(
    tmp_path: Path,
) -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Spades Club")
        night = new_night(fake, guild, 11)
        p = night.players
        env = {**ENV, "DATABASE_PATH": str(tmp_path / "spades.db")}
        async with run_bot(fake, env=env):
            # Tournament games are rated as any game: computers finish these, so the server
            # rates games with computer players.
            r = await night.ask(night.organiser, "spades-admin", "ranking", rate_bot_games=True)
            assert r.ephemeral
            await open_night(
                night,
                name="Club night",
                rounds=2,
                target=100,
                turn_timer=0,
                odd="computer",
                round_minutes=30,
                start_in=60,
            )
            # The sign-up message counts down to the start (Discord's relative timestamp).
            assert re.search(r"<t:\d+:R>", signup_text(night)), signup_text(night)
            for a, b in zip(p[0:8:2], p[1:8:2], strict=True):
                await sign_up_pair(night, a, b)
            r = await night.ask(p[8], "tournament", "join")  # alone: drawn at the start
            assert "Partners are drawn at the start" in r.text, r.text
            assert "signed up" in await click(night, p[9], ":join")
            # p11 joins and leaves with the buttons: the message follows each change.
            assert "signed up" in await click(night, p[10], ":join")
            await eventually(lambda: "p11" in signup_text(night))
            assert "You left" in await click(night, p[10], ":leave")
            await eventually(lambda: "p11" not in signup_text(night))
            assert "Signed up (6)" in signup_text(night), signup_text(night)
            r = await night.ask(night.organiser, "tournament", "start")
            assert "has started" in r.text, r.text
            await eventually(
                lambda: (
                    any("1 partnership(s) drawn" in t for t in night.texts())
                    and any("a computer team makes it even" in t for t in night.texts())
                )
            )
            # 4 pairs + the drawn pair + a computer team: three tables.
            await eventually(lambda: len(announcements(night)) == 3, timeout=30)
            r = await night.ask(
                night.organiser, "tournament", "extend", minutes=10, reason="slow start"
            )
            assert "extended by 10 minutes" in r.text, r.text
            await eventually(
                lambda: any(
                    "Round 1 now ends" in t and "(+10 min) — slow start" in t for t in night.texts()
                )
            )
            r = await night.ask(
                night.organiser, "tournament", "disqualify", member=p[0], reason="left early"
            )
            assert "p01 & p02 is disqualified" in r.text, r.text
            await eventually(
                lambda: any("🚫 p01 & p02 is disqualified — left early" in t for t in night.texts())
            )
            # Their table ends there, saying why; they are not seated again.
            (ended,) = [
                th
                for th in fake.threads(night.channel)
                if any(f"<@{p[0].id}>" in m.text for m in fake.messages(th))
            ]
            await eventually(
                lambda: any("p01 & p02 was disqualified." in m.text for m in fake.messages(ended))
            )
            # Nobody plays at that table any more: its members do not leave it.
            night.left |= {(m.id, u.id) for m, _ in announcements(night) for u in p[:2]}
            night.left |= {(m.id, u.id) for m in fake.messages(ended) for u in p}
            await night.play_out(lambda: "final results" in night.title(), timeout=90)
            embed = night.standings().embeds[0]
            final = "\n".join(
                [str(embed.get("description", ""))]
                + [str(f["value"]) for f in embed.get("fields", [])]
            )
            (gold,) = [line[2:] for line in final.splitlines() if line.startswith("🥇 ")]
            assert "p01" not in gold, final
            # /stats: each member of the winning team won one tournament (a computer team
            # winning makes no member a winner); everyone else won none.
            won = []
            for user in p[:10]:
                stats = str((await night.ask(user, "stats")).embeds[0])
                assert "1 played" in stats, stats
                if "1 won" in stats:
                    won.append(user.name)
                    assert "best finish 1st" in stats, stats
                else:
                    assert "best finish 1st" not in stats, stats
            expected = [] if gold.startswith("Computers") else sorted(gold.split(" & "))
            assert sorted(won) == expected, (won, gold)
            # The results as JSON: the disqualified entry, the computer team, six games.
            podium = night.standings()
            json_id = next(
                c.custom_id for c in podium.all_components if c.custom_id.endswith(":json")
            )
            export = await (await fake.click(p[2], podium, json_id)).answer()
            assert export.ephemeral
            document = json.loads(export.attachments[0].data)
            assert document["format"] == "spades-tournament/1", document
            statuses = sorted(e["status"] for e in document["entries"])
            assert statuses == ["computer", "disqualified", "in", "in", "in", "in"], statuses
            assert len([g for g in document["games"] if len(g["entries"]) == 2]) == 5, document
    # Every game played out is rated (rated: the default); the disqualified team's is not.
    with contextlib.closing(sqlite3.connect(tmp_path / "spades.db")) as conn:
        games = list(conn.execute("SELECT abandoned, rated FROM league_games"))
    assert (1, 0) in games, games
    assert sorted(set(games)) == [(0, 1), (1, 0)], games
