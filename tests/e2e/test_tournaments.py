"""Tournaments through the fake Discord, as people run them: sign-up, rounds seated in
threads, standings, the podium."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.driver import eventually
from tests.e2e.tournament_flows import new_night, open_night, sign_up_pairs
from tests.fakediscord import FakeDiscord, run_bot

ENV = {"SPADES_TEST_SEED": "11", "SPADES_BOT_DELAY": "0", "LOG_LEVEL": "INFO"}


async def test_a_swiss_night_of_eight_teams_and_three_rounds_reaches_the_podium(
    tmp_path: Path,
) -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Spades Club")
        night = new_night(fake, guild, 16)
        env = {**ENV, "DATABASE_PATH": str(tmp_path / "spades.db")}
        async with run_bot(fake, env=env) as proc:
            await open_night(
                night,
                name="Friday Swiss",
                preset="standard",
                target=100,
                rounds=3,
                format="swiss",
                turn_timer=0,
                start_in=60,
            )
            await sign_up_pairs(night)
            await eventually(lambda: "Signed up (8)" in str(night.standings().embeds[0]))
            r = await night.ask(night.organiser, "tournament", "start")
            assert "has started" in r.text, r.text
            await night.play_out(lambda: "final results" in night.title())
            assert proc.running
        final = night.standings()
        text = str(final.embeds[0])
        assert "🥇" in text
        assert len(fake.threads(night.channel)) == 12  # 4 tables × 3 rounds, each once
