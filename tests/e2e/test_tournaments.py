"""Tournaments through the fake Discord, as people run them: sign-up, rounds seated in
threads, standings, the podium."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import sqlite3
from pathlib import Path

import pytest
from PIL import Image

from tests.e2e.driver import eventually
from tests.e2e.tournament_flows import new_night, open_night, sign_up_pair, sign_up_pairs
from tests.fakediscord import FakeDiscord, User, run_bot

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
            # The league knows: /stats, /history and /tournament results.
            p01 = night.players[0]
            stats = await night.ask(p01, "stats")
            assert "1 played" in str(stats.embeds[0]), stats.embeds
            history = await night.ask(p01, "history")
            assert "Friday Swiss" in str(history.embeds[0]), history.embeds
            looked_up = await night.ask(p01, "tournament", "results", name="friday swiss")
            assert "final results" in str(looked_up.embeds[0])
            csv_id = next(c.custom_id for c in final.all_components if c.custom_id.endswith(":csv"))
            export = await (await fake.click(p01, final, csv_id)).answer()
            assert export.ephemeral
            assert export.attachments, export.text
        # 4 tables × 3 rounds, each once, in 4 threads: a table number's thread (made during
        # sign-up) takes that table of every round.
        assert len(fake.threads(night.channel)) == 4
        assert len(db_rows(tmp_path, "SELECT DISTINCT table_id FROM tournament_games")) == 12


def bot_env(tmp_path: Path) -> dict[str, str]:
    return {**ENV, "DATABASE_PATH": str(tmp_path / "spades.db")}


def db_rows(tmp_path: Path, sql: str) -> list[tuple[object, ...]]:
    with contextlib.closing(sqlite3.connect(tmp_path / "spades.db")) as conn:
        return list(conn.execute(sql))


async def test_a_sixteen_team_knockout_is_played_to_the_podium(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Spades Club")
        night = new_night(fake, guild, 32)
        async with run_bot(fake, env=bot_env(tmp_path)) as proc:
            await open_night(
                night,
                name="Friday Knockout",
                format="elimination",
                target=100,
                turn_timer=0,
                start_in=60,
            )
            await sign_up_pairs(night)
            await eventually(lambda: "Signed up (16)" in str(night.standings().embeds[0]))
            r = await night.ask(night.organiser, "tournament", "start", reason="all here")
            assert "has started" in r.text, r.text
            await night.play_out(lambda: "final results" in night.title(), timeout=90)
            assert proc.running
        final = night.standings()
        [bracket] = final.attachments
        assert bracket.filename == "bracket.png"
        assert final.embeds[0]["image"]["url"] == "attachment://bracket.png"
        assert Image.open(io.BytesIO(bracket.data)).format == "PNG"
        assert final.edit_times, "the bracket was updated as matches ended"
        podium = str(final.embeds[0])
        assert podium.count("🥇") == 1
        assert podium.count("🥈") == 1
        assert podium.count("🥉") == 2, "both semi-final losers share third"
    # 8 + 4 + 2 + 1 tables, each seated once, in the 8 threads of the first round's tables.
    assert len(fake.threads(night.channel)) == 8
    games = db_rows(tmp_path, "SELECT round, table_id, status FROM tournament_games")
    assert sorted(r for r, _, _ in games) == [1] * 8 + [2] * 4 + [3] * 2 + [4]
    assert len({t for _, t, _ in games}) == 15
    assert {s for _, _, s in games} == {"done"}


async def test_a_duplicate_round_deals_the_same_boards_at_every_table_and_scores_matchpoints(
    tmp_path: Path,
) -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Spades Club")
        night = new_night(fake, guild, 16)
        async with run_bot(fake, env=bot_env(tmp_path)):
            await open_night(
                night, name="Duplicate", format="duplicate", rounds=1, boards=2, turn_timer=0
            )
            await sign_up_pairs(night)
            await night.ask(night.organiser, "tournament", "start")
            await night.play_out(lambda: "final results" in night.title())
        final = night.standings()
    games = db_rows(tmp_path, "SELECT entries, table_id, boards FROM tournament_games")
    assert len(games) == 4
    deals = []
    for _, table_id, _ in games:
        rows = db_rows(
            tmp_path,
            f"SELECT action FROM actions WHERE table_id = '{table_id}' ORDER BY seq",
        )
        deals.append([a for (a,) in rows if '"k":"deal"' in str(a)])
        first_dealer = db_rows(tmp_path, f"SELECT first_dealer FROM tables WHERE id = '{table_id}'")
        assert first_dealer == db_rows(
            tmp_path,
            f"SELECT first_dealer FROM tables WHERE id = '{games[0][1]}'",
        )
    assert all(len(d) == 2 for d in deals), "two boards each"
    assert all(d == deals[0] for d in deals), "every table played the same deals"
    # Matchpoints, computed here the long way: per board and direction, 2 for every other
    # partnership that scored less, 1 for every one that scored the same.
    results = [(json.loads(e), json.loads(b)) for e, _, b in games]
    expected: dict[int, int] = {}
    for board in range(2):
        for side in range(2):
            for entries, boards in results:
                mine = boards[board][side]
                expected[entries[side]] = expected.get(entries[side], 0) + sum(
                    2 if mine > other[board][side] else 1 if mine == other[board][side] else 0
                    for other_entries, other in results
                    if other_entries != entries
                )
    text = str(final.embeds[0])
    best = max(expected.values())
    assert sum(expected.values()) == 2 * 2 * (4 * 3)  # 2 boards × 2 directions × 4·3 pairs
    winners = [e for e, mp in expected.items() if mp == best]
    names = {i + 1: f"p{2 * i + 1:02d} & p{2 * i + 2:02d}" for i in range(8)}
    assert f"🥇 {names[min(winners)]}" in text


async def test_a_kill_9_mid_round_resumes_without_seating_any_table_twice(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Spades Club")
        night = new_night(fake, guild, 8)
        async with run_bot(fake, env=bot_env(tmp_path)) as proc:
            await open_night(night, name="Crashy", rounds=2, target=100, turn_timer=0)
            await sign_up_pairs(night)
            await night.ask(night.organiser, "tournament", "start")
            # Mid-round: both tables seated and announced (an announcement under way when the
            # process dies is lost; the tables themselves are not).
            await fake.wait_until(
                lambda: (
                    sum(
                        any("your game is on" in m.text for m in fake.messages(th))
                        for th in fake.threads(night.channel)
                    )
                    == 2
                ),
                timeout=20,
            )
            proc.kill9()
            await proc.wait()
        await fake.wait_until(lambda: fake.open_connections == 0, timeout=30)
        assert len(db_rows(tmp_path, "SELECT id FROM tables")) == 2
        async with run_bot(fake, env=bot_env(tmp_path), wait_for="commands"):
            await night.play_out(lambda: "final results" in night.title())
        assert len(fake.threads(night.channel)) == 2, "round 2 played in round 1's threads"
    tables = db_rows(tmp_path, "SELECT table_id FROM tournament_games")
    assert len(tables) == 4
    assert len(set(tables)) == 4
    assert len(db_rows(tmp_path, "SELECT id FROM tables")) == 4, "no table seated twice"


async def test_a_no_show_is_replaced_by_a_computer_and_another_by_a_substitute(
    tmp_path: Path,
) -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Spades Club")
        night = new_night(fake, guild, 4)
        sub = fake.add_user("sub")
        guild.add_member(sub)
        async with run_bot(fake, env=bot_env(tmp_path)):
            await open_night(night, name="Short", rounds=1, target=100, turn_timer=0)
            await sign_up_pairs(night)
            await night.ask(night.organiser, "tournament", "start")
            await fake.wait_until(lambda: len(fake.threads(night.channel)) == 1, timeout=20)
            (thread,) = fake.threads(night.channel)
            await fake.wait_until(
                lambda: any("your game is on" in m.text for m in fake.messages(thread))
            )
            (announced,) = [m for m in fake.messages(thread) if "your game is on" in m.text]
            p01, p03 = night.players[0], night.players[2]
            r = await night.ask(
                night.organiser, "tournament", "replace", member=p01, reason="no-show"
            )
            assert "computer" in r.text, r.text
            r = await night.ask(
                night.organiser, "tournament", "replace", member=p03, substitute=sub
            )
            assert "sub" in r.text, r.text
            await eventually(
                lambda: any(
                    "is replaced by a computer player — no-show" in t for t in night.texts()
                )
            )
            # The substitute plays p03's seat: leaving hands it to a computer.
            r = await (await fake.slash(sub, thread, "spades", "leave")).answer()
            assert "computer player" in r.text, r.text
            r = await (await fake.slash(p01, thread, "spades", "leave")).answer()
            assert "not seated" in r.text.lower(), r.text
            night.left |= {(announced.id, p01.id), (announced.id, p03.id)}
            await night.play_out(lambda: "final results" in night.title())
        members = db_rows(tmp_path, "SELECT user_id FROM tournament_members")
        assert {u for (u,) in members} == {sub.id, night.players[1].id, night.players[3].id}


async def test_refusals_are_one_ephemeral_line_and_change_nothing(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Spades Club")
        night = new_night(fake, guild, 6)
        stranger = fake.add_user("stranger")  # not a member of the server
        async with run_bot(fake, env=bot_env(tmp_path)):
            await open_night(night, name="Strict", rounds=1, target=100, turn_timer=0)
            p = night.players
            await sign_up_pair(night, p[0], p[1])

            async def refused(user: User, *path: str, says: str, **options: object) -> None:
                r = await night.ask(user, *path, **options)
                assert r.ephemeral, r.text
                assert says in r.text, r.text
                assert "\n" not in r.text.strip(), r.text

            await refused(p[0], "tournament", "join", says="already signed up")
            await refused(p[2], "tournament", "join", partner=p[1], says="already in another team")
            await refused(
                p[2], "tournament", "join", partner=stranger, says="member of this server"
            )
            await refused(p[3], "tournament", "pause", says="Only the organiser")
            await refused(
                night.organiser, "tournament", "new", name="strict", says="already running"
            )
            signup = night.standings()
            # Two Join clicks at once by one member: one seat.
            join = next(c.custom_id for c in signup.all_components if c.custom_id.endswith(":join"))
            clicks = [await fake.click(p[4], signup, join) for _ in range(2)]
            answers = await asyncio.gather(*(c.answer() for c in clicks))
            texts = sorted(a.text for a in answers)
            assert sum("You are signed up" in t for t in texts) == 1, texts
            assert sum("already signed up" in t for t in texts) == 1, texts
            await sign_up_pair(night, p[2], p[3])
            await night.ask(night.organiser, "tournament", "start")
            await refused(p[5], "tournament", "join", says="sign-up is closed")
        rows = db_rows(tmp_path, "SELECT count(*) FROM tournament_members")
        assert rows == [(5,)]
        assert db_rows(tmp_path, "SELECT count(*) FROM tournaments") == [(1,)]


@pytest.mark.parametrize(("preset", "tables"), [("solo", 2), ("euchre", 2), ("cutthroat-3", 2)])
async def test_other_games_and_solo_presets_run_a_round(
    tmp_path: Path, preset: str, tables: int
) -> None:
    players = 6 if preset == "cutthroat-3" else 8
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Spades Club")
        night = new_night(fake, guild, players)
        async with run_bot(fake, env=bot_env(tmp_path)):
            await open_night(night, name="Mixed", preset=preset, rounds=1, turn_timer=0)
            if preset in ("solo", "cutthroat-3"):
                for p in night.players:
                    r = await night.ask(p, "tournament", "join")
                    assert "signed up" in r.text, r.text
            else:
                await sign_up_pairs(night)
            await night.ask(night.organiser, "tournament", "start")
            await night.play_out(lambda: "final results" in night.title())
        assert len(fake.threads(night.channel)) == tables
    seats = db_rows(tmp_path, "SELECT count(*) FROM seats WHERE user_id IS NOT NULL")
    assert seats == [(players,)], "every member had a seat of their own"


async def test_entries_that_do_not_check_in_are_dropped_with_a_notice(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Spades Club")
        night = new_night(fake, guild, 6)
        async with run_bot(fake, env=bot_env(tmp_path)):
            await open_night(
                night, name="Check", rounds=1, target=100, turn_timer=0, checkin_minutes=120
            )
            await sign_up_pairs(night)
            signup = night.standings()
            checkin = next(
                c.custom_id for c in signup.all_components if c.custom_id.endswith(":checkin")
            )
            for p in (night.players[0], night.players[3]):  # teams 1 and 2; team 3 never does
                r = await (await fake.click(p, signup, checkin)).answer()
                assert "Checked in" in r.text, r.text
            await night.ask(night.organiser, "tournament", "start")
            await eventually(
                lambda: any(
                    "Did not check in, so not playing: p05 & p06" in t for t in night.texts()
                )
            )
            await night.play_out(lambda: "final results" in night.title())
        assert len(fake.threads(night.channel)) == 1
        assert "p05" not in str(night.standings().embeds[0].get("fields", [])[1])
