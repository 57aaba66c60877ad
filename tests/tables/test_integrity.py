"""No silent failure, no race, no lone abandon of a shared game — the table service against a
real SQLite database, with failures injected by triggers (no mocks of our code)."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.engine import HandResult, Seat
from bot.errors import NotHost, Refusal, StaleButton, StoreFailed
from bot.store.db import Database
from bot.tables import ending
from bot.tables.randomness import TableRandomness
from bot.tables.service import TableService
from bot.tables.state import Table
from tests.tables.test_service import CHANNEL, GUILD, USERS, act_once, decide, started_table


class Notices:
    """The service's listener: what the channel would be told."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.finished: list[Table] = []
        self.event = asyncio.Event()

    def changed(self, table: Table) -> None:
        self.event.set()

    def hand_finished(self, table: Table, result: HandResult) -> None:
        pass

    def game_finished(self, table: Table) -> None:
        self.finished.append(table)
        self.event.set()

    def notice(self, table: Table, text: str) -> None:
        self.texts.append(text)
        self.event.set()

    async def wait(self, predicate: object, timeout: float = 30) -> None:  # noqa: ASYNC109
        assert callable(predicate)
        async with asyncio.timeout(timeout):
            while not predicate():
                self.event.clear()
                await self.event.wait()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "t.db"


@pytest.fixture
async def service(db_path: Path) -> AsyncIterator[tuple[TableService, Notices]]:
    async with Database.open(str(db_path)) as db:
        notices = Notices()
        svc = TableService(db, decide, listener=notices, test_seed=3, bot_delay=0)
        yield svc, notices
        await svc.close()


def inject(db_path: Path, sql: str) -> None:
    """Change the database from outside the bot, as an operator's tool (or a fault) would."""
    with sqlite3.connect(db_path) as conn:
        conn.executescript(sql)


FAIL_ACTIONS = """
CREATE TRIGGER fail_actions BEFORE INSERT ON actions
BEGIN SELECT RAISE(ABORT, 'injected failure'); END;
"""


# ---------------------------------------------------------------------- failed moves
async def test_a_constraint_error_on_a_move_is_a_failure_not_a_duplicate(
    service: tuple[TableService, Notices], db_path: Path
) -> None:
    svc, notices = service
    table = await started_table(svc)
    seq = table.seq
    inject(db_path, FAIL_ACTIONS)
    with pytest.raises(StoreFailed, match="could not save"):
        await act_once(svc, table, random.Random(1), iid=555)
    assert table.seq == seq, "nothing changed"
    assert any("could not save a move" in t for t in notices.texts), notices.texts
    inject(db_path, "DROP TRIGGER fail_actions;")
    await act_once(svc, table, random.Random(1), iid=555)  # the same click, now saved
    assert table.seq == seq + 1


async def test_a_computers_failed_move_is_retried_announced_and_then_made(
    service: tuple[TableService, Notices], db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.tables import turns

    monkeypatch.setattr(turns, "QUICK_RETRIES_S", (0.01, 0.01))
    monkeypatch.setattr(turns, "SLOW_RETRY_S", 0.05)
    svc, notices = service
    table = await svc.lobby.open_table(
        guild_id=GUILD, channel_id=CHANNEL, host_id=USERS[0], host_name="alice", preset="standard"
    )
    inject(
        db_path,
        FAIL_ACTIONS.replace(
            "BEFORE INSERT ON actions", "BEFORE INSERT ON actions WHEN NEW.seq > 1"
        ),
    )
    for _ in range(3):
        await svc.lobby.add_bot(table, USERS[0], None, "normal")
    await svc.lobby.start(table, USERS[0])
    seq = table.seq
    await notices.wait(lambda: any("keep trying" in t for t in notices.texts))
    assert table.seq == seq
    inject(db_path, "DROP TRIGGER fail_actions;")
    await notices.wait(lambda: table.seq > seq)


async def test_a_league_that_cannot_record_does_not_stop_the_game_from_ending(
    db_path: Path,
) -> None:
    async def broken_league(conn: object, table: Table, game: object) -> None:
        await conn.execute("INSERT INTO meta (key, value) VALUES ('league', 'x')")  # type: ignore[attr-defined]
        raise RuntimeError("the league is broken")

    notices = Notices()
    async with Database.open(str(db_path)) as db:
        svc = TableService(
            db, decide, listener=notices, on_game_stored=broken_league, test_seed=3, bot_delay=0
        )
        try:
            table = await started_table(svc)
            rng = random.Random(5)
            while table.open:
                await act_once(svc, table, rng)
        finally:
            await svc.close()
    assert table.status == "finished"
    assert table.league_error == "the league is broken"
    assert any("could not record it in the league" in t for t in notices.texts)
    with sqlite3.connect(db_path) as conn:
        (status,) = conn.execute("SELECT status FROM tables WHERE id = ?", (table.id,)).fetchone()
        assert status == "finished"
        assert conn.execute("SELECT * FROM meta WHERE key = 'league'").fetchall() == [], (
            "the league's part was rolled back alone"
        )


# ---------------------------------------------------------------------- races
async def test_simultaneous_opens_in_one_channel_make_one_table(
    service: tuple[TableService, Notices],
) -> None:
    svc, _ = service
    results = await asyncio.gather(
        *(
            svc.lobby.open_table(
                guild_id=GUILD,
                channel_id=CHANNEL,
                host_id=uid,
                host_name=f"u{uid}",
                preset="standard",
            )
            for uid in USERS
        ),
        return_exceptions=True,
    )
    opened = [r for r in results if isinstance(r, Table)]
    refused = [r for r in results if isinstance(r, Refusal)]
    assert len(opened) == 1
    assert len(refused) == 3
    assert all("already has a table" in r.reason for r in refused)


async def test_one_member_joining_two_tables_at_once_gets_one_seat(
    service: tuple[TableService, Notices],
) -> None:
    svc, _ = service
    a = await svc.lobby.open_table(
        guild_id=GUILD, channel_id=1, host_id=USERS[0], host_name="a", preset="standard"
    )
    b = await svc.lobby.open_table(
        guild_id=GUILD, channel_id=2, host_id=USERS[1], host_name="b", preset="standard"
    )
    results = await asyncio.gather(
        svc.lobby.join(a, USERS[2], "carol"),
        svc.lobby.join(b, USERS[2], "carol"),
        return_exceptions=True,
    )
    assert sum(isinstance(r, Seat) for r in results) == 1
    assert sum(isinstance(r, Refusal) for r in results) == 1
    assert [t.seat_of(USERS[2]) is not None for t in (a, b)].count(True) == 1


# ---------------------------------------------------------------------- ending early
async def test_the_host_alone_cannot_end_a_game_others_play_in(
    service: tuple[TableService, Notices],
) -> None:
    svc, notices = service
    table = await started_table(svc)
    text = await svc.endings.abandon(table, USERS[0], False, "alice")
    assert "only if they all agree" in text
    assert table.open
    assert table.abandon_vote is not None
    with pytest.raises(Refusal, match="already asked"):
        await svc.endings.abandon(table, USERS[0], False, "alice")
    assert "Still waiting for" in await svc.endings.vote(table, USERS[1], True)
    assert table.open
    assert "keep playing" in await svc.endings.vote(table, USERS[2], False)
    assert table.open, "one refusal keeps the game going"
    assert table.abandon_vote is None
    assert any("wants to keep playing" in t for t in notices.texts)
    with pytest.raises(StaleButton):
        await svc.endings.vote(table, USERS[3], True)


async def test_with_everyones_agreement_the_game_ends_unrated(
    service: tuple[TableService, Notices], db_path: Path
) -> None:
    svc, _ = service
    table = await started_table(svc)
    await svc.endings.abandon(table, USERS[0], False, "alice")
    with pytest.raises(Refusal, match="Only the other people"):
        await svc.endings.vote(table, USERS[0], True)
    for uid in USERS[1:]:
        await svc.endings.vote(table, uid, True)
    assert table.status == "abandoned"
    assert table.end_reason is not None
    assert "by agreement of alice, bob, carol, dave" in table.end_reason


async def test_an_unanswered_request_expires_and_the_game_goes_on(
    service: tuple[TableService, Notices], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ending, "VOTE_S", 0.05)
    svc, notices = service
    table = await started_table(svc)
    await svc.endings.abandon(table, USERS[0], False, "alice")
    await notices.wait(lambda: any("did not agree in time" in t for t in notices.texts))
    assert table.open
    assert table.abandon_vote is None


async def test_a_moderator_ends_any_table_alone_and_is_named(
    service: tuple[TableService, Notices],
) -> None:
    svc, _ = service
    table = await started_table(svc)
    with pytest.raises(NotHost):
        await svc.endings.abandon(table, USERS[1], False, "bob")
    await svc.endings.abandon(table, 999, True, "mod")
    assert table.status == "abandoned"
    assert table.end_reason == "This table was closed by mod (Manage Server); the game is unrated."


async def test_the_host_ends_a_game_with_only_computers_alone(
    service: tuple[TableService, Notices],
) -> None:
    svc, _ = service
    table = await svc.lobby.open_table(
        guild_id=GUILD, channel_id=CHANNEL, host_id=USERS[0], host_name="alice", preset="standard"
    )
    for _ in range(3):
        await svc.lobby.add_bot(table, USERS[0], None, "normal")
    await svc.lobby.start(table, USERS[0])
    assert await svc.endings.abandon(table, USERS[0], False, "alice") == "The table is closed."
    assert not table.open


# ---------------------------------------------------------------------- seeded runs
def test_seeded_table_ids_do_not_depend_on_the_clock() -> None:
    r1, r2 = TableRandomness(7), TableRandomness(7)
    assert [r1.table_id() for _ in range(5)] == [r2.table_id() for _ in range(5)]
    assert TableRandomness(8).table_id() != TableRandomness(7).table_id()


async def test_a_restarted_seeded_bot_skips_ids_already_taken(db_path: Path) -> None:
    ids = []
    for _ in range(2):
        async with Database.open(str(db_path)) as db:
            svc = TableService(db, decide, test_seed=7, bot_delay=0)
            await svc.restore()
            table = await svc.lobby.open_table(
                guild_id=GUILD,
                channel_id=len(ids) + 1,
                host_id=USERS[len(ids)],
                host_name="x",
                preset="standard",
            )
            ids.append(table.id)
            await svc.close()
    assert ids[0] != ids[1]
    seeded = TableRandomness(7)
    assert ids == [seeded.table_id(), seeded.table_id()], "the next id of the same sequence"


async def test_a_member_who_leaves_is_charged_by_the_league_and_can_come_back(
    service: tuple[TableService, Notices], db_path: Path
) -> None:
    from bot.league_link import finished_game

    svc, _ = service
    table = await started_table(svc)
    text = await svc.lobby.leave(table, USERS[1])
    assert "counts as a loss for you" in text
    seat = table.seat_of(USERS[1])
    assert seat is Seat.E
    assert table.seats[seat].left
    assert table.seats[seat].is_computer
    assert svc.registry.find_of_user(GUILD, USERS[1]) is None, "free to sit elsewhere"
    with pytest.raises(Refusal, match="You left this game"):
        await svc.moves.look(table, USERS[1])
    assert table.game is not None
    league_view = finished_game(table, table.game)
    assert league_view is not None
    assert [p.forfeit for p in league_view.seats] == [False, True, False, False]
    # The flag survives a restart, and the member can take the seat back.
    async with Database.open(str(db_path)) as db:
        again = TableService(db, decide, test_seed=3, bot_delay=0)
        (restored,) = await again.restore()
        assert restored.seats[Seat.E].left
        assert again.registry.find_of_user(GUILD, USERS[1]) is None
        await again.close()
    assert await svc.lobby.join(table, USERS[1], "bob") is Seat.E
    assert not table.seats[Seat.E].left
