"""Names members type, in every tournament surface, through the fake Discord: a tournament
named with markdown, a spoiler, a masked link and a right-to-left override, and members
named like markdown or spreadsheet formulas, read exactly as typed and do nothing else — no
bold, spoiler, link or reversed line in the sign-up title, the list of entries, the cancel
notice, the thread names or the podium — and the results CSV keeps a formula-like name as
text (a leading ``'``, as OWASP recommends)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from tests.e2e.driver import eventually
from tests.e2e.tournament_flows import new_night, open_night
from tests.fakediscord import FakeDiscord, run_bot

ENV = {"SPADES_TEST_SEED": "11", "SPADES_BOT_DELAY": "0", "LOG_LEVEL": "INFO"}
HOSTILE = "Aces **High** ||night|| [x](https://evil) \u202e"
ESCAPED = "Aces \\*\\*High\\*\\* \\|\\|night\\|\\| \\[x\\](https://evil)"
FORMULAS = ('=HYPERLINK("https://evil","x")', "@SUM(1+1)", "+1", "-2")


async def test_a_hostile_tournament_name_is_shown_escaped_in_its_title_and_cancel_notice(
    tmp_path: Path,
) -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Spades Club")
        night = new_night(fake, guild, 2)
        guild.member(night.players[0]).nick = "[free nitro](https://evil)"
        async with run_bot(fake, env={**ENV, "DATABASE_PATH": str(tmp_path / "spades.db")}):
            await open_night(night, name=HOSTILE, rounds=1, target=100, start_in=600)
            assert night.title() == f"🏆 {ESCAPED} — sign-up", night.title()
            r = await night.ask(night.players[0], "tournament", "join")
            assert r.text.startswith(f"You are signed up for {ESCAPED}."), r.text
            await eventually(lambda: "nitro" in str(night.standings().embeds[0]["fields"]))
            entries = night.standings().embeds[0]["fields"][1]["value"]
            assert entries.startswith("1. \\[free nitro\\](https://evil)"), entries
            r = await night.ask(night.organiser, "tournament", "cancel", reason="a test")
            assert r.text == f"{ESCAPED} is cancelled.", r.text
            await eventually(lambda: any("is cancelled:" in t for t in night.texts()))
            [notice] = [t for t in night.texts() if "is cancelled:" in t]
            assert notice.startswith(f"🛑 **{ESCAPED}** is cancelled: cancelled by <@"), notice
            await eventually(lambda: "cancelled" in night.title())
            assert night.title() == f"🏆 {ESCAPED} — cancelled", night.title()
        shown = "\n".join(m.text for m in fake.messages(night.channel))
        assert "\u202e" not in shown, "no right-to-left override reached a message"
        for thread in fake.threads(night.channel):  # plain text: cleaned, not escaped
            assert thread.name.startswith("Aces **High** ||night|| [x](https://evil) · Table")


async def test_the_results_csv_keeps_formula_names_as_text(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Spades Club")
        night = new_night(fake, guild, 4)
        for user, nick in zip(night.players, FORMULAS, strict=True):
            guild.member(user).nick = nick
        async with run_bot(fake, env={**ENV, "DATABASE_PATH": str(tmp_path / "spades.db")}):
            await open_night(night, name="Formula night", rounds=1, target=100, turn_timer=0)
            for user in night.players:  # alone: partnerships are drawn at the start
                r = await night.ask(user, "tournament", "join")
                assert "You are signed up" in r.text, r.text
            r = await night.ask(night.organiser, "tournament", "start")
            assert "has started" in r.text, r.text
            await night.play_out(lambda: "final results" in night.title())
            final = night.standings()
            csv_id = next(c.custom_id for c in final.all_components if c.custom_id.endswith(":csv"))
            export = await (await fake.click(night.players[0], final, csv_id)).answer()
            [document] = export.attachments
        rows = list(csv.DictReader(io.StringIO(document.data.decode())))
        assert len(rows) == 2, rows
        drawn = []
        for row in rows:  # every name starts like a formula: each is kept as text
            assert row["name"].startswith("'"), row
            drawn += row["name"][1:].split(" & ")
        assert sorted(drawn) == sorted(FORMULAS), drawn
        assert all(row["place"] in ("1", "2") for row in rows), rows
