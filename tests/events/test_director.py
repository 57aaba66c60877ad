"""The tournament director on a real table service and a real database (SQLite and
PostgreSQL), without Discord: seating once, resuming after a restart, deadlines, sign-up
races.  The members never act (no turn timer), so tables stay unfinished until decided."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import pytest

from bot.ai.worker import decide_view
from bot.engine import Action, SeatView
from bot.errors import Refusal
from bot.events import alarms
from bot.events.announcer import QuietAnnouncer
from bot.events.controls import OrganiserControls
from bot.events.pairing.model import Member, NewTournament, Tournament, TournamentSettings
from bot.events.resumption import resume
from bot.events.service import TournamentService
from bot.events.signup import SignUp
from bot.store.db import Database
from bot.tables.service import TableService

GUILD, CHANNEL, ORGANISER = 7, 70, 1


async def decide(view: SeatView, level: str, seed: int, think: float) -> Action:
    return decide_view(view, level, seed)


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Bot:
    """One bot process's services on a database."""

    tables: TableService
    director: TournamentService

    async def close(self) -> None:
        await self.director.close()
        await self.tables.close()


def a_bot(db: Database, clock: Clock, discord: QuietAnnouncer | None = None) -> Bot:
    tables = TableService(db, decide, test_seed=5, bot_delay=0)
    return Bot(tables, TournamentService(db, tables, discord, clock=clock))


async def a_tournament(bot: Bot, clock: Clock, teams: int, **settings: object) -> Tournament:
    s = TournamentSettings(preset="standard", turn_timer=0, **settings)  # type: ignore[arg-type]
    signup = SignUp(bot.director)
    t = await signup.create(
        NewTournament(
            guild_id=GUILD,
            channel_id=CHANNEL,
            organiser_id=ORGANISER,
            name="Test night",
            settings=s,
            starts_at=clock.now + 3600,
        )
    )
    for i in range(teams):
        a, b = Member(100 + 2 * i, f"a{i}"), Member(101 + 2 * i, f"b{i}")
        await signup.join(t, a, b)  # b is asked, and accepts
        await signup.answer(t, b.user_id, a.user_id, True, now=clock.now)
    return bot.director.get(t.id)


async def table_count(db: Database) -> int:
    return int(await db.fetchval("SELECT count(*) FROM tables"))


async def test_a_restart_resumes_the_round_without_seating_any_table_twice(db: Database) -> None:
    clock = Clock()
    first = a_bot(db, clock)
    t = await a_tournament(first, clock, 4, rounds=2)
    await first.director.start(t)
    assert await table_count(db) == 2
    seated = {g.table_id for g in first.director.get(t.id).round_games()}
    assert None not in seated
    await first.close()
    # A second process on the same database (the first was killed): restore, then resume.
    second = a_bot(db, clock)
    await second.tables.restore()
    resumed = await resume(second.director)
    assert [x.id for x in resumed] == [t.id]
    assert await table_count(db) == 2, "no table seated twice"
    assert {g.table_id for g in second.director.get(t.id).round_games()} == seated
    assert all(second.tables.registry.find_by_id(tid).arranged for tid in seated if tid)  # type: ignore[union-attr]
    await second.close()


async def test_a_game_already_claimed_is_not_seated_again(db: Database) -> None:
    clock = Clock()
    bot = a_bot(db, clock)
    t = await a_tournament(bot, clock, 2, rounds=1)
    await bot.director.start(t)
    t = bot.director.get(t.id)
    (game,) = t.round_games()
    before = await table_count(db)
    # Seating the same game again (as a second process would) opens nothing.
    await bot.director.seating.seat(t, game)
    assert await table_count(db) == before
    await bot.close()


async def test_the_round_deadline_decides_unfinished_tables_by_score_and_seats_the_next(
    db: Database,
) -> None:
    clock = Clock()
    bot = a_bot(db, clock)
    t = await a_tournament(bot, clock, 4, rounds=2, round_minutes=30)
    await bot.director.start(t)
    t = bot.director.get(t.id)
    assert t.round == 1
    assert t.round_deadline == clock.now + 1800
    clock.now += 1799
    await bot.director.tick(t.id)
    assert bot.director.get(t.id).round == 1, "not before the deadline"
    clock.now += 2
    await bot.director.tick(t.id)
    t = bot.director.get(t.id)
    done = t.round_games(1)
    assert all(g.status == "done" and g.decided for g in done)
    assert all(g.scores == (0, 0) and g.winner is None for g in done), "0–0: a draw each"
    assert t.round == 2
    assert all(g.status == "playing" for g in t.round_games(2))
    rows = await db.fetch("SELECT status FROM tables ORDER BY created_at")
    assert [r[0] for r in rows].count("abandoned") == 2
    await bot.close()


async def test_two_joins_at_once_take_one_seat(db: Database) -> None:
    clock = Clock()
    one, two = a_bot(db, clock), a_bot(db, clock)
    t = await a_tournament(one, clock, 0)
    await resume(two.director)
    member = Member(555, "racer")
    results = await asyncio.gather(
        SignUp(one.director).join(one.director.get(t.id), member),
        SignUp(two.director).join(two.director.get(t.id), member),
        SignUp(one.director).join(one.director.get(t.id), member),
        return_exceptions=True,
    )
    refused = [r for r in results if isinstance(r, Refusal)]
    assert len(refused) == 2, results
    assert all("already signed up" in r.reason for r in refused)
    count = await db.fetchval(
        "SELECT count(*) FROM tournament_members WHERE tournament_id = ?", (t.id,)
    )
    assert count == 1
    await one.close()
    await two.close()


async def test_refusals_change_nothing(db: Database) -> None:
    clock = Clock()
    bot = a_bot(db, clock)
    t = await a_tournament(bot, clock, 2, rounds=1)
    signup = SignUp(bot.director)
    with pytest.raises(Refusal, match="already signed up"):
        await signup.join(t, Member(100, "a0"))
    with pytest.raises(Refusal, match="already in another team"):
        await signup.join(t, Member(900, "x"), Member(101, "b0"))
    with pytest.raises(Refusal, match="already running"):
        await signup.create(
            NewTournament(
                guild_id=GUILD,
                channel_id=CHANNEL,
                organiser_id=ORGANISER,
                name="  test   NIGHT ",
                settings=TournamentSettings(preset="standard"),
                starts_at=clock.now + 60,
            )
        )
    with pytest.raises(Refusal, match="Only the organiser"):
        await OrganiserControls(bot.director).pause(t, 12345, False, None)
    assert await db.fetchval("SELECT count(*) FROM tournament_members") == 4
    await bot.director.start(bot.director.get(t.id))
    with pytest.raises(Refusal, match="has started"):
        await signup.join(bot.director.get(t.id), Member(901, "late"))
    assert await db.fetchval("SELECT count(*) FROM tournaments") == 1
    assert await db.fetchval("SELECT count(*) FROM tournament_members") == 4
    await bot.close()


async def until(condition: object, what: str) -> None:
    """Wait (on the real clock, up to 20 s) for the director's own alarm to act."""
    for _ in range(400):
        if condition():  # type: ignore[operator]
            return
        await asyncio.sleep(0.05)
    raise AssertionError(what)


async def test_a_pause_keeps_the_time_left_of_the_round_across_a_restart(db: Database) -> None:
    clock = Clock()
    first = a_bot(db, clock)
    t = await a_tournament(first, clock, 4, rounds=2, round_minutes=30)
    await first.director.start(t)
    clock.now += 600  # ten minutes into a thirty-minute round
    controls = OrganiserControls(first.director)
    await controls.pause(first.director.get(t.id), ORGANISER, False, "a fire drill")
    paused = first.director.get(t.id)
    assert (paused.status, paused.round_deadline, paused.round_left) == ("paused", None, 1200)
    clock.now += 7200  # paused for two hours: the round's clock stands still
    await first.director.tick(t.id)
    assert first.director.get(t.id).round == 1
    await first.close()
    second = a_bot(db, clock)  # the bot restarts while the tournament is paused
    await second.tables.restore()
    await resume(second.director)
    resumed = second.director.get(t.id)
    assert (resumed.status, resumed.round_left) == ("paused", 1200)
    await OrganiserControls(second.director).go_on(resumed, ORGANISER, False, None)
    going = second.director.get(t.id)
    assert going.status == "running"
    assert going.round_deadline == clock.now + 1200, "the time left, not a fresh 30 minutes"
    assert going.round_left is None
    clock.now += 1199
    await second.director.tick(t.id)
    assert second.director.get(t.id).round == 1
    clock.now += 2
    await second.director.tick(t.id)
    assert second.director.get(t.id).round == 2
    await second.close()


async def test_going_on_after_a_pause_arms_the_rounds_deadline(db: Database) -> None:
    clock = Clock()
    bot = a_bot(db, clock)
    t = await a_tournament(bot, clock, 4, rounds=2, round_minutes=1)
    await bot.director.start(t)
    clock.now += 59.8  # 0.2 s of the round left
    controls = OrganiserControls(bot.director)
    await controls.pause(bot.director.get(t.id), ORGANISER, False, None)
    await controls.go_on(bot.director.get(t.id), ORGANISER, False, None)
    clock.now += 1  # the deadline is past once the alarm (0.2 s away) wakes
    await until(lambda: bot.director.get(t.id).round == 2, "the deadline never fired")
    assert all(g.decided for g in bot.director.get(t.id).round_games(1))
    await bot.close()


async def test_a_deadline_that_passed_while_the_bot_was_down_decides_the_round_on_resume(
    db: Database,
) -> None:
    clock = Clock()
    first = a_bot(db, clock)
    t = await a_tournament(first, clock, 4, rounds=2, round_minutes=30)
    await first.director.start(t)
    await first.close()
    clock.now += 3600  # down for an hour: the round's deadline passed meanwhile
    second = a_bot(db, clock)
    await second.tables.restore()
    await resume(second.director)
    await until(lambda: second.director.get(t.id).round == 2, "the deadline was not watched")
    assert all(g.decided for g in second.director.get(t.id).round_games(1))
    await second.close()


class RefusingThreads(QuietAnnouncer):
    """Discord refuses to make threads while ``refusing``."""

    def __init__(self) -> None:
        self.refusing = True

    async def make_thread(self, t: Tournament, title: str) -> int:
        if self.refusing:
            raise OSError("Discord said no")
        return await super().make_thread(t, title)


async def test_a_table_that_could_not_be_seated_is_tried_again(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(alarms, "RETRY_S", 0.1)
    clock = Clock()
    discord = RefusingThreads()
    bot = a_bot(db, clock, discord)
    t = await a_tournament(bot, clock, 4, rounds=1)  # no round deadline: only the retry wakes
    await bot.director.start(t)
    assert all(g.table_id is None for g in bot.director.get(t.id).round_games())
    assert await table_count(db) == 0
    discord.refusing = False
    clock.now += 1
    await until(
        lambda: all(g.table_id for g in bot.director.get(t.id).round_games()),
        "the tables Discord refused threads for were never tried again",
    )
    assert await table_count(db) == 2
    await bot.close()


class CountingThreads(QuietAnnouncer):
    """Makes threads, counting them; a thread in ``gone`` was deleted on Discord."""

    def __init__(self) -> None:
        self.made: list[str] = []
        self.gone: set[int] = set()

    async def make_thread(self, t: Tournament, title: str) -> int:
        self.made.append(title)
        return await super().make_thread(t, title)

    async def thread_usable(self, t: Tournament, thread_id: int) -> bool:
        return thread_id not in self.gone


async def test_threads_are_made_during_sign_up_and_each_takes_its_table_every_round(
    db: Database,
) -> None:
    clock = Clock()
    discord = CountingThreads()
    first = a_bot(db, clock, discord)
    t = await a_tournament(first, clock, 7, rounds=3, round_minutes=30)  # 3 tables and a bye
    await until(lambda: len(discord.made) == 3, "the threads were not made during sign-up")
    assert sorted(discord.made) == [f"Test night · Table {k}" for k in (1, 2, 3)]
    await first.director.start(first.director.get(t.id))
    assert len(discord.made) == 3, "the start made no thread"
    one = first.director.get(t.id)
    threads = dict(one.threads)
    assert {g.slot: g.thread_id for g in one.round_games() if g.table_id} == threads
    await first.close()
    second = a_bot(db, clock, discord)  # a restart keeps which thread is which table's
    await second.tables.restore()
    await resume(second.director)
    clock.now += 1801
    await second.director.tick(t.id)
    two = second.director.get(t.id)
    assert two.round == 2
    assert {g.slot: g.thread_id for g in two.round_games() if g.table_id} == threads
    assert len(discord.made) == 3, "round 2 played in round 1's threads"
    # A thread deleted on Discord is replaced (and kept) for its table number.
    discord.gone.add(threads[2])
    clock.now += 1801
    await second.director.tick(t.id)
    three = second.director.get(t.id)
    assert three.round == 3
    assert discord.made[3:] == ["Test night · Table 2"]
    replaced = {g.slot: g.thread_id for g in three.round_games() if g.table_id}
    assert replaced[2] not in threads.values()
    assert {replaced[1], replaced[3]} == {threads[1], threads[3]}
    assert second.director.get(t.id).threads[2] == replaced[2]
    await second.close()


async def test_on_a_cluster_only_the_process_serving_the_servers_shard_runs_it(
    db: Database,
) -> None:
    """Each process resumes with its shards' guild filter (bot/app.py: ``plan.serves``): a
    process serving other servers loads nothing of this one, seats nothing and its clock
    does nothing; the process serving it takes it up."""
    clock = Clock()
    first = a_bot(db, clock)
    t = await a_tournament(first, clock, 4, rounds=2, round_minutes=10)
    await first.director.start(t)
    seated = {g.table_id for g in first.director.get(t.id).round_games()}
    await first.close()
    clock.now += 3600  # the round's deadline passed while nobody ran it
    other = a_bot(db, clock)
    assert await resume(other.director, lambda guild: guild != GUILD) == []
    assert other.director.open == {}
    await other.director.tick(t.id)
    stored = await other.director.store.load(db, t.id)
    assert stored is not None
    assert (stored.round, {g.table_id for g in stored.round_games()}) == (1, seated)
    await other.close()
    owner = a_bot(db, clock)
    await owner.tables.restore()
    resumed = await resume(owner.director, lambda guild: guild == GUILD)
    assert [x.id for x in resumed] == [t.id]
    await owner.director.tick(t.id)  # what its alarm does: the deadline passed
    assert owner.director.get(t.id).round == 2
    await owner.close()


async def test_a_sign_up_race_gives_each_member_one_seat(db: Database) -> None:
    """Different members joining at once, through two processes, each get their own seat;
    two members claiming the same partner at once: one team is made, the other is refused."""
    clock = Clock()
    one, two = a_bot(db, clock), a_bot(db, clock)
    t = await a_tournament(one, clock, 0)
    await resume(two.director)
    alone = [Member(600 + i, f"solo{i}") for i in range(6)]
    results = await asyncio.gather(
        *(
            SignUp(bot.director).join(bot.director.get(t.id), m)
            for bot, m in zip([one, two] * 3, alone, strict=True)
        ),
        return_exceptions=True,
    )
    assert all(isinstance(r, str) and "signed up" in r for r in results), results
    a, b, wanted = Member(700, "a"), Member(701, "b"), Member(702, "wanted")
    results = await asyncio.gather(
        SignUp(one.director).join(one.director.get(t.id), a, wanted),
        SignUp(two.director).join(two.director.get(t.id), b, wanted),
        return_exceptions=True,
    )
    made = [r for r in results if isinstance(r, str)]
    refused = [r for r in results if isinstance(r, Refusal)]
    assert (len(made), len(refused)) == (1, 1), results
    assert "already has an invitation waiting" in refused[0].reason, refused
    winner, asker = (a, one) if isinstance(results[0], str) else (b, two)
    accepted = await SignUp(asker.director).answer(
        asker.director.get(t.id), wanted.user_id, winner.user_id, True, now=clock.now
    )
    assert "signed up" in accepted, accepted
    rows = await db.fetch(
        "SELECT user_id, entry FROM tournament_members WHERE tournament_id = ?", (t.id,)
    )
    members = {int(r[0]): int(r[1]) for r in rows}
    assert set(members) == {m.user_id for m in alone} | {wanted.user_id, winner.user_id}
    assert members[wanted.user_id] == members[winner.user_id], "the team is the two of them"
    assert len(set(members.values())) == 7, "six alone, one team of two"
    await one.close()
    await two.close()
