"""Issue 32's tournament holes on a real table service and a real database (SQLite and
PostgreSQL), without Discord: draws keyed on the stored secret, a duplicate round's seed held
while any game of it is still to be played, a game seated only by its own row, retries that
back off past a deadline, private threads' members, and a resume that marks the one
tournament that cannot be caught up."""

from __future__ import annotations

import random

import pytest

from bot.events import alarms
from bot.events.arrangement import round_key, thread_members
from bot.events.pairing import rounds
from bot.events.pairing.model import (
    Entry,
    GameSlot,
    Member,
    NewTournament,
    Tournament,
    TournamentSettings,
)
from bot.events.resumption import resume
from bot.events.signup import SignUp
from bot.store.db import Database
from bot.store.tables import TableRow, TableStore, seed_in_play
from tests.events.test_director import (
    GUILD,
    Bot,
    Clock,
    RefusingThreads,
    a_bot,
    a_tournament,
    table_count,
    until,
)


def singles(secret: str, n: int = 16, tid: int = 7) -> Tournament:
    """A draw tournament in sign-up: ``n`` members who came alone."""
    entries = {i: Entry(i, (Member(1000 + i, f"m{i}"),)) for i in range(1, n + 1)}
    return Tournament(
        id=tid,
        guild_id=GUILD,
        channel_id=1,
        organiser_id=1,
        name="Draw",
        status="signup",
        settings=TournamentSettings(preset="standard", team_mode="draw"),
        starts_at=0.0,
        secret=secret,
        entries=entries,
    )


def partners(t: Tournament) -> set[frozenset[int]]:
    _, drawn = rounds.line_up(t)
    return {frozenset(m.user_id for m in e.members) for e in drawn if e.status == "in"}


def test_the_draws_come_from_the_secret_and_nothing_public() -> None:
    a, b = "a" * 64, "b" * 64
    assert partners(singles(a)) == partners(singles(a)), "the same after a restart"
    assert partners(singles(a)) != partners(singles(b)), "another secret, another draw"
    assert partners(singles(a, tid=7)) == partners(singles(a, tid=8)), "not keyed on the id"
    # Not the draw of the old generator, seeded with the id shown on the sign-up message.
    t = singles(a)
    guess = list(t.entries.values())
    random.Random(f"tournament:{t.id}").shuffle(guess)
    guessed = {
        frozenset(m.user_id for e in pair for m in e.members)
        for pair in zip(guess[::2], guess[1::2], strict=True)
    }
    assert partners(t) != guessed
    # Equal ratings: the seeds' order is the secret's too, and the movement's.
    assert rounds.seed_rank(singles(a)) == rounds.seed_rank(singles(a))
    assert rounds.seed_rank(singles(a)) != rounds.seed_rank(singles(b))
    ids = list(range(1, 17))
    assert rounds.movement_order(singles(a), ids) != rounds.movement_order(singles(b), ids)


def test_a_private_threads_members_follow_its_table() -> None:
    t = singles("c" * 64, n=4)
    t.entries = {
        1: Entry(1, (Member(11, "a"), Member(12, "b"))),
        2: Entry(2, (Member(21, "c"), Member(22, "d"))),
        3: Entry(3, (Member(31, "e"), Member(32, "f"))),
    }
    t.games = [GameSlot(1, 1, 1, (1, 2), status="done", thread_id=500)]
    now = GameSlot(2, 1, 1, (1, 3), thread_id=500)
    t.games.append(now)
    add, remove = thread_members(t, now)
    assert sorted(add) == [1, 11, 12, 31, 32]  # the players and the organiser (member 1)
    assert remove == [21, 22]  # last round's players who do not play here
    # An organiser who is entered is in their own games' threads only.
    t.organiser_id = 21
    add, remove = thread_members(t, now)
    assert 21 not in add
    assert remove == [21, 22]


async def test_a_duplicate_rounds_seed_is_held_until_every_game_is_over(db: Database) -> None:
    clock = Clock()
    discord = RefusingThreads()  # no table can be seated yet
    bot = a_bot(db, clock, discord)
    t = await a_tournament(bot, clock, 4, format="duplicate", rounds=2, boards=1)
    await bot.director.start(t)
    t = bot.director.get(t.id)
    seed = round_key(t, 1)
    assert await table_count(db) == 0
    assert await seed_in_play(db, seed), "held though no table of the round is open"
    discord.refusing = False
    await bot.director.advance(t.id)
    assert await table_count(db) == 2
    for g in bot.director.get(t.id).round_games():
        table = bot.tables.registry.find_by_id(g.table_id or "")
        assert table is not None
        await bot.tables.arranged.decide(table, "test")
    await until(lambda: bot.director.get(t.id).round == 2, "the round did not end")
    assert not await seed_in_play(db, seed), "released once every game was over"
    assert await seed_in_play(db, round_key(bot.director.get(t.id), 2))
    await bot.close()


async def test_a_game_is_seated_only_by_its_own_row_not_a_table_in_its_thread(
    db: Database,
) -> None:
    clock = Clock()
    bot = a_bot(db, clock)
    t = await a_tournament(bot, clock, 2, rounds=1)
    await until(lambda: bool(bot.director.get(t.id).threads), "no thread was made ahead")
    thread = bot.director.get(t.id).threads[1]
    # Another process's table is open in table 1's thread (this process does not know it).
    async with db.transaction() as tx:
        await TableStore.insert_table(
            tx, TableRow("zzzzzzzz", GUILD, thread, 9, "lobby", {"preset": "standard"}, 0)
        )
    await bot.director.start(bot.director.get(t.id))
    (game,) = bot.director.get(t.id).round_games()
    assert game.table_id is not None, "seated, in a thread of its own"
    assert game.table_id != "zzzzzzzz"
    assert game.thread_id != thread
    assert bot.director.get(t.id).threads[1] == game.thread_id, "kept for table 1"
    await bot.close()


async def test_past_its_deadline_a_game_that_cannot_be_seated_is_retried_with_a_back_off(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(alarms, "RETRY_S", 100.0)  # rings only when the test says so
    monkeypatch.setattr(alarms, "MAX_RETRY_S", 10_000.0)
    clock = Clock()
    discord = RefusingThreads()
    bot = a_bot(db, clock, discord)
    t = await a_tournament(bot, clock, 2, rounds=1, round_minutes=30)
    await bot.director.start(t)
    bot.director.alarms.disarm(t.id)  # the test rings it (the clock jumps)
    clock.now += 3600  # the deadline passed; the game is still not seated
    waits = []
    for _ in range(3):
        await bot.director.tick(t.id)
        waits.append(bot.director.alarms.due[t.id] - clock.now)
    # Not at once (the deadline has passed): after the back-off, longer each time.
    assert waits == [200.0, 400.0, 800.0], waits
    await bot.close()


async def test_one_tournament_that_cannot_catch_up_is_marked_and_the_others_resume(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock()
    first = a_bot(db, clock)
    bad = await a_tournament(first, clock, 2, rounds=1)
    await first.director.start(bad)
    good = await SignUp(first.director).create(
        NewTournament(
            guild_id=GUILD,
            channel_id=71,
            organiser_id=1,
            name="Another night",
            settings=TournamentSettings(preset="standard"),
            starts_at=clock.now + 3600,
        )
    )
    await first.close()
    real = rounds.round_over

    def broken(t: Tournament) -> bool:
        if t.id == bad.id:
            raise KeyError(99)
        return real(t)

    monkeypatch.setattr(rounds, "round_over", broken)
    second: Bot = a_bot(db, clock)
    await second.tables.restore()
    loaded = await resume(second.director)
    assert {x.id for x in loaded} == {bad.id, good.id}
    assert second.director.get(bad.id).fault is not None
    assert second.director.get(good.id).fault is None
    stored = await db.fetchval("SELECT fault FROM tournaments WHERE id = ?", (bad.id,))
    assert "KeyError" in str(stored)
    assert second.director.get(good.id).status == "signup"
    await second.close()
