"""A duplicate round shows nothing of another table until it is over (issue 32), through the
real bot and the fake Discord: every table of the round deals the same boards, so an entrant
(or a substitute) must see no card, bid, trick, hand result, score or hand number of another
table of the round on any path — its thread, its table message and score sheets, ``/spades
watch`` and its autocomplete, the standings, ``/tournament results``, ``/history`` — while
it plays.  Members not entered watch only if the organiser allows it, then the number of
tricks behind the organiser chose."""

from __future__ import annotations

import contextlib
import json
import re
import sqlite3
from pathlib import Path

import pytest

from tests.e2e.driver import eventually, plain
from tests.e2e.tournament_flows import new_night, start_duplicate
from tests.fakediscord import Channel, FakeDiscord, User, run_bot
from tests.fakediscord.driver import CommandNotAvailable

ENV = {"SPADES_TEST_SEED": "11", "SPADES_BOT_DELAY": "0", "LOG_LEVEL": "INFO"}
ROUND_ON = "its round is still being played"


def db_rows(tmp_path: Path, sql: str, args: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    with contextlib.closing(sqlite3.connect(tmp_path / "spades.db")) as conn:
        return list(conn.execute(sql, args))


def seen_by(fake: FakeDiscord, user: User) -> str:
    """Everything ``user`` could have read: every version of every message in a channel or
    thread they can see and of their own ephemeral answers — text, embeds, components and
    attachments."""
    parts: list[str] = []
    for m in fake.visible_messages(user):
        for state in m.versions:
            parts += [state.text, json.dumps(state.embeds)]  # text: content, embeds, labels
            parts += [
                f"{a.filename} {a.data.decode('utf-8', 'replace')}" for a in state.attachments
            ]
    return "\n".join(parts)


def table_in(tmp_path: Path, thread: Channel) -> str:
    [(table_id,)] = db_rows(tmp_path, "SELECT id FROM tables WHERE channel_id = ?", (thread.id,))
    assert isinstance(table_id, str)
    return table_id


async def test_an_entrant_sees_nothing_of_another_table_of_the_round_while_it_plays(
    tmp_path: Path,
) -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Spades Club")
        night = new_night(fake, guild, 8)
        stranger = fake.add_user("stranger")
        guild.add_member(stranger)
        env = {**ENV, "DATABASE_PATH": str(tmp_path / "spades.db")}
        async with run_bot(fake, env=env):
            first, second = await start_duplicate(night, "Duplicate")
            entrant = night.players_in(second)[0]
            first_id = table_in(tmp_path, first)
            # The tables play in private threads: their players and the organiser only.
            assert {u.id for u in night.players_in(first)} | {night.organiser.id} <= (
                first.thread_members
            )
            assert entrant.id not in first.thread_members
            # Every path to table 1 while it plays: its thread (Discord does not even list a
            # private thread to someone not in it), /spades watch with its id, the
            # autocomplete.
            with pytest.raises(CommandNotAvailable):
                await fake.slash(entrant, first, "spades", "watch")
            with pytest.raises(CommandNotAvailable):
                await fake.slash(entrant, first, "spades", "join")
            r = await night.ask(entrant, "spades", "watch", table=first_id)
            assert r.ephemeral
            assert "You are entered in Duplicate" in r.text, r.text
            offered = await fake.autocomplete(
                entrant, night.channel, "spades", "watch", focused="table"
            )
            assert offered == [], offered
            # A member not entered: the organiser left spectators off (a duplicate's default).
            r = await night.ask(stranger, "spades", "watch", table=first_id)
            assert "closed this tournament's tables to spectators" in r.text, r.text
            # Table 1 plays its board out (its members leave: computers finish it) while
            # table 2 has not begun.
            await night.leave_table(first)
            await eventually(lambda: "Game over" in seen_by(fake, night.organiser), timeout=60)
            done = db_rows(
                tmp_path, "SELECT scores FROM tournament_games WHERE table_id = ?", (first_id,)
            )
            [(scores,)] = done
            assert isinstance(scores, str)
            ns, ew = json.loads(scores)
            # The standings and /tournament results say table 1 is finished, not how.
            await eventually(lambda: "finished (results" in str(night.standings().embeds[0]))
            standings = str(night.standings().embeds[0])
            assert f"{ns}–{ew}" not in standings, standings
            assert not re.search(r"— [1-9]\d* MP", standings), standings
            looked_up = await night.ask(entrant, "tournament", "results")
            assert f"{ns}–{ew}" not in str(looked_up.embeds[0])
            # /history of a member of table 1: the game, not its score or result.
            someone = night.players_in(first)[0]
            history = await night.ask(entrant, "history", member=someone)
            board = str(history.embeds[0])
            assert ROUND_ON in board, board
            assert f"{ns}–{ew}" not in board, board
            assert f"{ew}–{ns}" not in board, board
            # Nothing the entrant could read anywhere names table 1 or shows its sheets.
            seen = seen_by(fake, entrant)
            assert first_id not in seen
            assert "— scores" not in seen  # no hand's score sheet: table 2 has played none
            assert "Game over" not in seen
            # Once table 2 is over, so is the round: everything may be shown.
            await night.leave_table(second)
            await night.play_out(lambda: "final results" in night.title(), timeout=60)
            history = await night.ask(entrant, "history", member=someone)
            assert ROUND_ON not in str(history.embeds[0])


def trick_cards(tmp_path: Path, table_id: str) -> list[set[str]]:
    """Each completed trick's cards as shown (``A♠``), in order, from the stored actions."""
    from bot.engine import card

    rows = db_rows(
        tmp_path, "SELECT action FROM actions WHERE table_id = ? ORDER BY seq", (table_id,)
    )
    plays = [json.loads(str(a))["c"] for (a,) in rows if json.loads(str(a))["k"] == "play"]
    return [{str(card(c)) for c in plays[i : i + 4]} for i in range(0, len(plays) - 3, 4)]


async def test_spectators_watch_only_when_allowed_and_the_chosen_tricks_behind(
    tmp_path: Path,
) -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Spades Club")
        night = new_night(fake, guild, 8)
        stranger = fake.add_user("stranger")
        guild.add_member(stranger)
        env = {**ENV, "SPADES_BOT_DELAY": "0.2", "DATABASE_PATH": str(tmp_path / "spades.db")}
        async with run_bot(fake, env=env):
            first, second = await start_duplicate(
                night, "Broadcast", spectators=True, spectator_delay=2
            )
            assert "spectators 2 tricks behind" in str(night.standings().embeds[0])
            first_id = table_in(tmp_path, first)
            # Entrants never watch, whatever the organiser allows spectators.
            entrant = night.players_in(second)[0]
            r = await night.ask(entrant, "spades", "watch", table=first_id)
            assert "You are entered in Broadcast" in r.text, r.text
            # A member not entered may: the table is listed (without its hand number) and
            # the view waits until the table has played two tricks.
            offered = await fake.autocomplete(
                stranger, night.channel, "spades", "watch", focused="table"
            )
            assert {c["value"] for c in offered} == {first_id, table_in(tmp_path, second)}
            assert all("2 tricks behind" in c["name"] for c in offered), offered
            watched = await night.ask(stranger, "spades", "watch", table=first_id)
            assert watched.ephemeral
            assert "begins once the table has played them" in watched.text, watched.text
            view = watched.message
            assert view is not None
            await night.leave_table(first)
            await eventually(lambda: "This game is over" in view.text, timeout=60)
        tricks = trick_cards(tmp_path, first_id)
        assert len(tricks) == 13
        shown = []
        for state in view.versions:
            for embed in state.embeds:
                for f in embed.get("fields", []):
                    if f["name"] == "Last trick":
                        shown.append(set(re.findall(r"(?:10|[2-9JQKA])[♠♥♦♣]", plain(f["value"]))))
        assert shown, "the view followed the game"
        # It never showed either of the game's last two tricks: it stayed two behind.
        assert all(s in tricks[:11] for s in shown), shown
