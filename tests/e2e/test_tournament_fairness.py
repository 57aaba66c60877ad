"""Tournament holes of issue 32 through the real bot and the fake Discord: only the organiser
seats people at a tournament's table; draws keyed on the tournament's stored secret; a
duplicate round's seed kept while a game of it is still to be seated; a restart mid-hand
keeping a tournament table's terms; a tournament row that no longer loads at start-up; the
place count in ``/history``."""

from __future__ import annotations

import contextlib
import json
import random
import sqlite3
from pathlib import Path

from bot.events.pairing import rounds
from bot.events.pairing.model import Entry, Member, Tournament, TournamentSettings
from tests.e2e.driver import eventually
from tests.e2e.test_duplicate_privacy import db_rows, table_in
from tests.e2e.tournament_flows import (
    Night,
    new_night,
    open_night,
    sign_up_pairs,
    start_duplicate,
)
from tests.fakediscord import Channel, FakeDiscord, Message, run_bot

ENV = {"SPADES_TEST_SEED": "11", "SPADES_BOT_DELAY": "0", "LOG_LEVEL": "INFO"}


def db_write(tmp_path: Path, sql: str, args: tuple[object, ...] = ()) -> None:
    with contextlib.closing(sqlite3.connect(tmp_path / "spades.db")) as conn:
        conn.execute(sql, args)
        conn.commit()


def table_message(fake: FakeDiscord, thread: Channel) -> Message:
    return next(m for m in fake.messages(thread) if "My hand" in m.text)


async def test_only_the_organiser_seats_people_at_a_tournament_table(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Spades Club")
        night = new_night(fake, guild, 6)
        stranger = fake.add_user("stranger")
        guild.add_member(stranger)
        env = {**ENV, "DATABASE_PATH": str(tmp_path / "spades.db")}
        async with run_bot(fake, env=env):
            await open_night(night, name="Odd", rounds=1, target=100, turn_timer=0, odd="computer")
            await sign_up_pairs(night)
            await night.ask(night.organiser, "tournament", "start")
            await eventually(lambda: len(night.seated()) == 2, timeout=30)
            # The table where a computer team plays: seats nobody's.
            (thread,) = [th for th in night.seated() if len(night.players_in(th)) == 2]
            message = table_message(fake, thread)
            assert "Take a computer's seat" not in message.text, message.text
            r = await (await fake.slash(stranger, thread, "spades", "join")).answer()
            assert "only its organiser seats players here" in r.text, r.text
            table_id = table_in(tmp_path, thread)
            seats = db_rows(tmp_path, "SELECT user_id FROM seats WHERE table_id = ?", (table_id,))
            assert stranger.id not in {u for (u,) in seats}
            # A member who left comes back to the seat recorded under their own id.
            member = night.players_in(thread)[0]
            r = await (await fake.slash(member, thread, "spades", "leave")).answer()
            assert "computer player" in r.text, r.text
            r = await (await fake.slash(stranger, thread, "spades", "join")).answer()
            assert "only its organiser seats players here" in r.text, r.text
            r = await (await fake.slash(member, thread, "spades", "join")).answer()
            assert "You sit" in r.text, r.text


async def test_partners_are_drawn_from_the_stored_secret_not_the_public_id(
    tmp_path: Path,
) -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Spades Club")
        night = new_night(fake, guild, 12)
        env = {**ENV, "DATABASE_PATH": str(tmp_path / "spades.db")}
        async with run_bot(fake, env=env) as proc:
            await open_night(night, name="Draw", team_mode="draw", rounds=1, target=100)
            for p in night.players:
                r = await night.ask(p, "tournament", "join")
                assert "signed up" in r.text, r.text
            proc.kill9()  # a restart during sign-up changes nothing of the draw to come
            await proc.wait()
        [(tid, secret)] = db_rows(tmp_path, "SELECT id, secret FROM tournaments")
        assert isinstance(tid, int)
        assert isinstance(secret, str)
        rows = db_rows(
            tmp_path,
            "SELECT entry, user_id, name FROM tournament_members ORDER BY joined_at, user_id",
        )
        signed = Tournament(
            id=tid,
            guild_id=guild.id,
            channel_id=night.channel.id,
            organiser_id=night.organiser.id,
            name="Draw",
            status="signup",
            settings=TournamentSettings(preset="standard", team_mode="draw"),
            starts_at=0.0,
            secret=secret,
            entries={
                int(str(e)): Entry(int(str(e)), (Member(int(str(u)), str(n)),)) for e, u, n in rows
            },
        )
        _, drawn = rounds.line_up(signed)
        expected = {frozenset(m.user_id for m in e.members) for e in drawn if e.status == "in"}
        async with run_bot(fake, env=env, wait_for="commands"):
            r = await night.ask(night.organiser, "tournament", "start")
            assert "has started" in r.text, r.text
        pairs = db_rows(
            tmp_path,
            "SELECT entry, user_id FROM tournament_members WHERE tournament_id = ?",
            (tid,),
        )
        teams: dict[int, set[int]] = {}
        for e, u in pairs:
            teams.setdefault(int(str(e)), set()).add(int(str(u)))
        played = {frozenset(t) for t in teams.values()}
        assert played == expected
        # Not the draw anyone could make from the tournament's id (shown on its message).
        public = list(signed.entries.values())
        random.Random(f"tournament:{tid}").shuffle(public)
        guessed = {
            frozenset(m.user_id for e in (a, b) for m in e.members)
            for a, b in zip(public[::2], public[1::2], strict=True)
        }
        assert played != guessed


async def test_a_round_with_a_game_not_yet_seated_keeps_its_seed(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Spades Club")
        night = new_night(fake, guild, 8)
        env = {**ENV, "DATABASE_PATH": str(tmp_path / "spades.db")}
        async with run_bot(fake, env=env):
            await open_night(
                night, name="Gap", format="duplicate", rounds=1, boards=1, turn_timer=0
            )
            await sign_up_pairs(night)
            await eventually(lambda: len(fake.threads(night.channel)) == 2, timeout=30)
            # Table 2's thread is deleted and no other can be made: its game waits.
            (two,) = [th for th in fake.threads(night.channel) if th.name.endswith("2")]
            guild.delete_channel(two)
            night.channel.deny_bot("create_public_threads", "create_private_threads")
            await night.ask(night.organiser, "tournament", "start")
            await eventually(lambda: len(night.seated()) == 1, timeout=30)
            (first,) = night.seated()
            first_id = table_in(tmp_path, first)
            await night.leave_table(first)
            await eventually(
                lambda: any("Game over" in m.text for m in fake.messages(first)), timeout=60
            )
            over = next(m for m in fake.messages(first) if "Game over" in m.text)
            [(seed,)] = db_rows(tmp_path, "SELECT seed FROM tables WHERE id = ?", (first_id,))
            assert isinstance(seed, str)
            assert seed not in over.text
            assert "revealed when the round's last table ends" in over.text, over.text
            r = await night.ask(night.players[0], "spades", "verify", game=first_id)
            assert seed not in r.text, r.text
            assert db_rows(tmp_path, "SELECT seed FROM seed_holds") == [(seed,)]
            pending = db_rows(tmp_path, "SELECT status FROM tournament_games WHERE slot = 2")
            assert pending == [("pending",)]


async def test_a_restart_mid_hand_keeps_a_duplicate_tables_board_limit_and_privacy(
    tmp_path: Path,
) -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Spades Club")
        night = new_night(fake, guild, 8)
        env = {**ENV, "DATABASE_PATH": str(tmp_path / "spades.db")}
        async with run_bot(fake, env=env) as proc:
            first, _second = await start_duplicate(night, "Restart")
            # Paused, the tables in play finish; then the bot dies mid-hand.
            r = await night.ask(night.organiser, "tournament", "pause")
            assert "Paused" in r.text, r.text
            proc.kill9()
            await proc.wait()
        await fake.wait_until(lambda: fake.open_connections == 0, timeout=30)
        first_id = table_in(tmp_path, first)
        async with run_bot(fake, env=env, wait_for="commands"):
            await night.leave_table(first)
            await eventually(
                lambda: any("Game over" in m.text for m in fake.messages(first)), timeout=60
            )
            sheets = [m for m in fake.messages(first) if "— scores" in m.text]
        # One board, as the tournament set it; its summary without the deal picture (the
        # other table still plays that board); the result recorded for the tournament.
        assert len(sheets) == 1, [m.text for m in sheets]
        assert not sheets[0].attachments
        [(status, boards)] = db_rows(
            tmp_path, "SELECT status, boards FROM tournament_games WHERE table_id = ?", (first_id,)
        )
        assert status == "done"
        assert isinstance(boards, str)
        assert len(json.loads(boards)) == 1


async def test_a_tournament_that_no_longer_loads_does_not_stop_the_bot(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Spades Club")
        night = new_night(fake, guild, 4)
        second = guild.add_text_channel("second-night")
        other = Night(fake, guild, second, night.organiser, night.players)
        env = {**ENV, "DATABASE_PATH": str(tmp_path / "spades.db")}
        async with run_bot(fake, env=env):
            await open_night(night, name="Broken", rounds=1, target=100, start_in=60)
            await open_night(other, name="Fine", rounds=1, target=100, start_in=60)
        settings = json.dumps({"preset": "standard", "rounds": 99})  # no longer valid
        db_write(tmp_path, "UPDATE tournaments SET settings = ? WHERE name = 'Broken'", (settings,))
        async with run_bot(fake, env=env, wait_for="commands") as proc:
            await eventually(lambda: any("could not be loaded" in t for t in night.texts()))
            r = await other.ask(night.players[0], "tournament", "join", name="Fine")
            assert "signed up" in r.text, r.text
            r = await night.ask(night.players[1], "tournament", "join", name="Broken")
            assert "could not be loaded at my last start" in r.text, r.text
            assert proc.running
        [(fault,)] = db_rows(tmp_path, "SELECT fault FROM tournaments WHERE name = 'Broken'")
        assert isinstance(fault, str)
        assert "Rounds must be between" in fault
        # Marked once: a second start tells the channel nothing new.
        notices = len([t for t in night.texts() if "could not be loaded" in t])
        async with run_bot(fake, env=env, wait_for="commands"):
            r = await other.ask(night.players[1], "tournament", "join", name="Fine")
            assert "signed up" in r.text, r.text
        assert len([t for t in night.texts() if "could not be loaded" in t]) == notices


async def test_history_counts_only_the_entries_that_played(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Spades Club")
        night = new_night(fake, guild, 10)
        env = {**ENV, "DATABASE_PATH": str(tmp_path / "spades.db")}
        async with run_bot(fake, env=env):
            await open_night(
                night,
                name="Knock",
                format="elimination",
                target=100,
                turn_timer=0,
                checkin_minutes=120,
                start_in=60,
            )
            await sign_up_pairs(night)
            signup = night.standings()
            checkin = next(
                c.custom_id for c in signup.all_components if c.custom_id.endswith(":checkin")
            )
            for p in night.players[:8:2]:  # four teams check in; the fifth does not
                r = await (await fake.click(p, signup, checkin)).answer()
                assert "Checked in" in r.text, r.text
            await night.ask(night.organiser, "tournament", "start")
            await night.play_out(lambda: "final results" in night.title(), timeout=90)
            history = await night.ask(night.players[0], "history")
        board = str(history.embeds[0])
        assert " of 4" in board, board
        assert " of 5" not in board
