"""A round deadline through the fake Discord, as a night runs: the standings show each table's
score as it stands, and when the round's time is up every unfinished table is decided by the
score (an equal score is a draw in Swiss) and the next round is seated.  The shortest round
deadline is a minute, so this test takes one."""

from __future__ import annotations

import contextlib
import json
import re
import sqlite3
from pathlib import Path

from tests.e2e.driver import eventually
from tests.e2e.tournament_flows import new_night, open_night, sign_up_pairs
from tests.fakediscord import FakeDiscord, run_bot

# Computers at half a second a move: a hand takes about half a minute, so a game to 1,000
# is far from over when the one-minute round ends.
ENV = {"SPADES_TEST_SEED": "11", "SPADES_BOT_DELAY": "0.5", "LOG_LEVEL": "INFO"}
LIVE = re.compile(r"T(\d): (.*?) — playing, (-?\d+)–(-?\d+)")


def rows(db: Path, sql: str) -> list[tuple[object, ...]]:
    with contextlib.closing(sqlite3.connect(db)) as conn:
        return list(conn.execute(sql))


async def test_the_round_deadline_decides_unfinished_tables_by_the_score(tmp_path: Path) -> None:
    db = tmp_path / "spades.db"
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Spades Club")
        night = new_night(fake, guild, 8)
        async with run_bot(fake, env={**ENV, "DATABASE_PATH": str(db)}):
            await open_night(
                night, name="Timed", rounds=2, target=1000, turn_timer=0, round_minutes=1
            )
            await sign_up_pairs(night)
            r = await night.ask(night.organiser, "tournament", "start")
            assert "has started" in r.text, r.text
            # One table's members leave (computers play it on); the other's never act.
            p01 = night.players[0]
            await eventually(
                lambda: any(
                    f"<@{p01.id}>" in m.text and "your game is on" in m.text
                    for th in fake.threads(night.channel)
                    for m in fake.messages(th)
                ),
                timeout=30,
            )
            (played,) = [
                th
                for th in fake.threads(night.channel)
                if any(f"<@{p01.id}>" in m.text for m in fake.messages(th))
            ]
            (announced,) = [m for m in fake.messages(played) if "your game is on" in m.text]
            for user in night.players:
                if f"<@{user.id}>" in announced.text:
                    r = await (await fake.slash(user, played, "spades", "leave")).answer()
                    assert "computer player" in r.text, r.text

            def live_scores() -> list[tuple[str, str, str]]:
                text = str(night.standings().embeds[0])
                return [(m[0], m[2], m[3]) for m in LIVE.findall(text)]

            # The standings show the played table's score once a hand ended there.
            await eventually(
                lambda: any((a, b) != ("0", "0") for _, a, b in live_scores()), timeout=60
            )
            await eventually(lambda: "round 2 of 2" in night.title(), timeout=90)
            thread_texts = [m.text for m in fake.messages(played)]
            assert any("The round's time is up: decided by the score." in t for t in thread_texts)
            r = await night.ask(night.organiser, "tournament", "cancel", reason="home time")
            assert "cancelled" in r.text, r.text
    games = rows(
        db,
        "SELECT entries, status, decided, scores, winner FROM tournament_games WHERE round = 1",
    )
    assert len(games) == 2
    by_score = []
    for entries, status, decided, scores, winner in games:
        assert (status, decided) == ("done", 1), (status, decided)
        e, s = json.loads(str(entries)), json.loads(str(scores))
        best = max(s)
        expected = e[s.index(best)] if s.count(best) == 1 else None
        assert winner == expected, (e, s, winner)
        by_score.append(tuple(s))
    assert (0, 0) in by_score, "the table nobody played is a 0–0 draw"
    assert any(s != (0, 0) for s in by_score), "the played table was decided by its score"
    statuses = rows(db, "SELECT status FROM tables ORDER BY created_at")
    assert [s for (s,) in statuses[:2]] == ["abandoned", "abandoned"], "decided: unrated"
