"""A change is made in memory only once its COMMIT succeeded — on a real SQLite and a real
PostgreSQL whose COMMIT is made to fail (a deferred constraint that only COMMIT checks, as a
full disk or a lost connection would fail it).  A failed final card, abandon or last leave
leaves the table as it was: open, playable, its channel and players not blocked; once the
database works again the same click ends it."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass

import asyncpg
import pytest

from bot.ai.worker import decide_view
from bot.engine import Action, Bid, Look, Play, Seat, seat_view
from bot.errors import StoreFailed
from bot.store.db import Database
from bot.tables.service import TableService
from bot.tables.state import Table
from tests.tables.test_integrity import Notices
from tests.tables.test_service import CHANNEL, GUILD, USERS, decide

SQLITE_TRIPWIRE = """
CREATE TABLE tripwire_parent (id INTEGER PRIMARY KEY);
CREATE TABLE tripwire (ref INTEGER REFERENCES tripwire_parent (id)
                       DEFERRABLE INITIALLY DEFERRED);
CREATE TRIGGER tripwire AFTER UPDATE OF status ON tables
WHEN NEW.status IN ('finished', 'abandoned')
BEGIN INSERT INTO tripwire (ref) VALUES (1); END;
"""
POSTGRES_TRIPWIRE = """
CREATE FUNCTION tripwire() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'injected failure at COMMIT'; END $$;
CREATE CONSTRAINT TRIGGER tripwire AFTER UPDATE ON tables
DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
WHEN (NEW.status IN ('finished', 'abandoned')) EXECUTE FUNCTION tripwire();
"""


@dataclass
class Bench:
    svc: TableService
    notices: Notices
    url: str

    async def sql(self, script: str) -> None:
        """Change the database from outside the bot, as an operator (or a fault) would."""
        if self.url.startswith("sqlite:///"):
            with sqlite3.connect(self.url.removeprefix("sqlite:///")) as conn:
                conn.executescript(script)
            return
        conn = await asyncpg.connect(self.url)
        try:
            await conn.execute(script)
        finally:
            await conn.close()

    async def break_commits(self) -> None:
        """From now on, a transaction that ends a table fails at its COMMIT (its statements
        all succeed: the deferred check runs only when it commits)."""
        sqlite = self.url.startswith("sqlite:")
        await self.sql(SQLITE_TRIPWIRE if sqlite else POSTGRES_TRIPWIRE)

    async def mend(self) -> None:
        sqlite = self.url.startswith("sqlite:")
        await self.sql("DROP TRIGGER tripwire;" if sqlite else "DROP TRIGGER tripwire ON tables;")

    async def stored_status(self, table: Table) -> str:
        status = await self.svc.db.fetchval("SELECT status FROM tables WHERE id = ?", (table.id,))
        return str(status)


@pytest.fixture
async def bench(database_url: str) -> AsyncIterator[Bench]:
    async with Database.open(database_url) as db:
        notices = Notices()
        svc = TableService(db, decide, listener=notices, test_seed=3, bot_delay=0)
        yield Bench(svc, notices, database_url)
        await svc.close()


async def whist_to_one(svc: TableService, humans: int = 4) -> Table:
    """A Whist game to 1 point (it ends with its first hand): alice hosts North, the next
    ``humans - 1`` users sit East, South, West, computers fill the other seats."""
    table = await svc.lobby.open_table(
        guild_id=GUILD,
        channel_id=CHANNEL,
        host_id=USERS[0],
        host_name="alice",
        preset="whist",
        target=1,
    )
    names = ("bob", "carol", "dave")
    for uid, name, seat in zip(USERS[1:humans], names, (Seat.E, Seat.S, Seat.W), strict=False):
        await svc.lobby.join(table, uid, name, seat)
    for _ in range(4 - humans):
        await svc.lobby.add_bot(table, USERS[0], None, "normal")
    await svc.lobby.start(table, USERS[0])
    return table


def next_move(table: Table, rng: random.Random) -> tuple[int, Action, bool]:
    """The member on turn, the move they make, and whether it ends the game."""
    game, seat = table.game, table.to_act
    assert game is not None
    assert seat is not None
    uid = table.seats[seat].user_id
    assert uid is not None
    assert not table.seats[seat].is_computer
    action = decide_view(seat_view(game, seat), "normal", rng.randrange(1 << 30))
    after = game.clone()
    after.apply(action)
    return uid, action, after.over


async def make(svc: TableService, table: Table, uid: int, action: Action) -> None:
    if isinstance(action, Play):
        await svc.moves.play(table, uid, action.card)
    elif isinstance(action, Look):
        await svc.moves.look(table, uid)
    else:
        assert isinstance(action, Bid)
        await svc.moves.bid(table, uid, action.value, action.blind)


async def to_the_final_move(svc: TableService, table: Table) -> tuple[int, Action]:
    rng = random.Random(11)
    while True:
        uid, action, final = next_move(table, rng)
        if final:
            return uid, action
        await make(svc, table, uid, action)


async def assert_unchanged(bench: Bench, table: Table, seq: int, status: str) -> None:
    """The table is as it was before the failed commit: open, found by its id, its channel
    and its players, and the database says the same."""
    svc = bench.svc
    assert table.status == status
    assert table.open
    assert table.seq == seq
    assert table.ended_at is None
    assert table.end_reason is None
    assert svc.registry.get(table.id) is table
    assert svc.registry.in_channel(CHANNEL) is table
    for uid in table.humans():
        assert svc.registry.of_user(GUILD, uid) is table
    assert await bench.stored_status(table) == status
    assert bench.notices.finished == []


# ---------------------------------------------------------------------- the final card
async def test_a_failed_commit_of_the_final_card_leaves_the_game_playable(bench: Bench) -> None:
    svc = bench.svc
    table = await whist_to_one(svc)
    uid, final = await to_the_final_move(svc, table)
    seq = table.seq
    await bench.break_commits()
    with pytest.raises(StoreFailed, match="could not save"):
        await make(svc, table, uid, final)
    await assert_unchanged(bench, table, seq, "playing")
    assert table.game is not None
    assert not table.game.over
    assert any("could not save a move" in t for t in bench.notices.texts)
    # The disk has room again: the same card ends the game.
    await bench.mend()
    await make(svc, table, uid, final)
    assert table.status == "finished"
    assert await bench.stored_status(table) == "finished"
    assert bench.notices.finished == [table]


async def test_a_computers_final_card_that_fails_is_tried_again_until_it_ends_the_game(
    bench: Bench, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.tables import turns

    monkeypatch.setattr(turns, "QUICK_RETRIES_S", (0.01, 0.01))
    monkeypatch.setattr(turns, "SLOW_RETRY_S", 0.05)
    svc, notices = bench.svc, bench.notices
    await bench.break_commits()
    table = await whist_to_one(svc, humans=1)
    rng = random.Random(3)

    def trying() -> bool:
        return any("keep trying" in t for t in notices.texts)

    while not trying():
        if table.to_act is Seat.N:
            uid, action, final = next_move(table, rng)
            assert not final, "this deal's final card is a computer's (seeded)"
            await make(svc, table, uid, action)
        else:
            await notices.wait(lambda: table.to_act is Seat.N or trying())
    assert table.seats[table.to_act or Seat.N].is_computer
    await assert_unchanged(bench, table, table.seq, "playing")
    await bench.mend()
    await notices.wait(lambda: not table.open)
    assert table.status == "finished"
    assert await bench.stored_status(table) == "finished"


# ---------------------------------------------------------------------- ending early
async def test_a_failed_abandon_leaves_the_table_open(bench: Bench) -> None:
    svc = bench.svc
    table = await whist_to_one(svc, humans=1)
    await bench.notices.wait(lambda: table.to_act is Seat.N)  # the table stands still now
    seq = table.seq
    await bench.break_commits()
    with pytest.raises(StoreFailed, match="could not save"):
        await svc.endings.abandon(table, USERS[0], False, "alice")
    await assert_unchanged(bench, table, seq, "playing")
    await bench.mend()
    assert await svc.endings.abandon(table, USERS[0], False, "alice") == "The table is closed."
    assert table.status == "abandoned"
    assert await bench.stored_status(table) == "abandoned"
    assert bench.notices.finished == [table]


async def test_a_failed_end_by_agreement_keeps_the_request_for_the_last_answer(
    bench: Bench,
) -> None:
    svc = bench.svc
    table = await whist_to_one(svc)
    seq = table.seq
    await svc.endings.abandon(table, USERS[0], False, "alice")
    for uid in USERS[1:3]:
        await svc.endings.vote(table, uid, True)
    await bench.break_commits()
    with pytest.raises(StoreFailed, match="could not save"):
        await svc.endings.vote(table, USERS[3], True)
    await assert_unchanged(bench, table, seq, "playing")
    assert table.abandon_vote is not None, "the request stands: nothing changed"
    await bench.mend()
    assert "Everyone agreed" in await svc.endings.vote(table, USERS[3], True)
    assert table.status == "abandoned"
    assert await bench.stored_status(table) == "abandoned"


# ---------------------------------------------------------------------- the last leave
async def test_a_failed_last_leave_during_the_game_leaves_the_table_as_it_was(
    bench: Bench,
) -> None:
    svc = bench.svc
    table = await whist_to_one(svc, humans=1)
    await bench.notices.wait(lambda: table.to_act is Seat.N)  # the table stands still now
    seq, host = table.seq, table.host_id
    await bench.break_commits()
    with pytest.raises(StoreFailed, match="could not save"):
        await svc.lobby.leave(table, USERS[0])
    await assert_unchanged(bench, table, seq, "playing")
    assert not table.seats[Seat.N].left
    assert not table.seats[Seat.N].is_computer
    assert table.host_id == host
    await bench.mend()
    assert "the table is closed" in await svc.lobby.leave(table, USERS[0])
    assert table.status == "abandoned"
    assert await bench.stored_status(table) == "abandoned"


async def test_a_failed_last_leave_of_the_lobby_leaves_the_table_as_it_was(
    bench: Bench,
) -> None:
    svc = bench.svc
    table = await svc.lobby.open_table(
        guild_id=GUILD, channel_id=CHANNEL, host_id=USERS[0], host_name="alice", preset="whist"
    )
    await bench.break_commits()
    with pytest.raises(StoreFailed, match="could not save"):
        await svc.lobby.leave(table, USERS[0])
    await assert_unchanged(bench, table, table.seq, "lobby")
    assert table.seats[Seat.N].user_id == USERS[0]
    await bench.mend()
    assert await svc.lobby.leave(table, USERS[0]) == "You left; the table is closed."
    assert table.status == "abandoned"
    assert await bench.stored_status(table) == "abandoned"
