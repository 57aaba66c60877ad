"""A tournament in the server's language and each member's, through the fake Discord: the
notices, the standings and the tables' threads are written in the server's language (German
here), and a refusal — a settings check, a status named in it — in the clicking member's
(Spanish here)."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.driver import eventually
from tests.e2e.tournament_flows import new_night, sign_up_pairs
from tests.fakediscord import FakeDiscord, run_bot

ENV = {"SPADES_TEST_SEED": "11", "SPADES_BOT_DELAY": "0", "LOG_LEVEL": "INFO"}


async def test_a_tournament_speaks_the_servers_language_and_refuses_in_the_members(
    tmp_path: Path,
) -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Spieleabend")
        guild.locale = "de"  # the server's preferred locale: its public messages are German
        night = new_night(fake, guild, 4)
        night.organiser.locale = "es-ES"  # the organiser reads Spanish
        env = {**ENV, "DATABASE_PATH": str(tmp_path / "spades.db")}
        async with run_bot(fake, env=env):
            # A settings check (bot/events/pairing/model.py) in the organiser's language, one line.
            r = await night.ask(
                night.organiser,
                "tournament",
                "new",
                name="Freitag",
                format="elimination",
                best_of=2,
            )
            assert r.ephemeral
            assert r.text.strip() == (
                "El número de partidas por enfrentamiento debe ser impar, de 1 a 7."
            ), r.text
            r = await night.ask(
                night.organiser,
                "tournament",
                "new",
                name="Freitag",
                rounds=2,
                target=1000,
                turn_timer=0,
                round_minutes=30,
            )
            assert "Freitag" in r.text, r.text
            await eventually(lambda: night.standings())
            # A status in a refusal is a word of the member's language, not "signup".
            r = await night.ask(night.organiser, "tournament", "pause")
            assert r.ephemeral
            assert "abierto a inscripciones" in r.text, r.text
            await sign_up_pairs(night)
            r = await night.ask(night.organiser, "tournament", "start")
            # Each table's thread is named in the server's language.
            await eventually(lambda: [th.name for th in fake.threads(night.channel)])
            names = [th.name for th in fake.threads(night.channel)]
            assert names == ["Freitag · Tisch 1"], names
            r = await night.ask(night.organiser, "tournament", "pause", reason="Pause")
            assert r.ephemeral
            # The pause notice says (in German) how long the round's stopped clock has left,
            # and the standings show it.
            await eventually(
                lambda: any("ist pausiert — Pause" in t for t in night.texts()), timeout=10
            )
            (notice,) = [t for t in night.texts() if "ist pausiert" in t]
            assert "Die Rundenuhr hält bei" in notice, notice
            assert "Min." in notice, notice
            await eventually(lambda: "Rundenuhr angehalten" in str(night.standings().embeds[0]))
            await night.ask(night.organiser, "tournament", "cancel", reason="Feierabend")
            await eventually(
                lambda: any(
                    "ist abgesagt: abgesagt von" in t and "Feierabend" in t for t in night.texts()
                ),
                timeout=10,
            )
            # The table still playing is ended with the reason, in German too.
            (thread,) = fake.threads(night.channel)
            await eventually(
                lambda: any("Das Turnier wurde abgesagt" in m.text for m in fake.messages(thread)),
                timeout=10,
            )
