"""Tournament benchmark, on one process (the table service and the director on SQLite, no
Discord; computer players decide in-process).

1. **A 64-team Swiss night of 6 rounds**: every member leaves their seat as their table opens,
   so computer players play every game.  Reported: for each round, the time from the last
   table of the previous round ending to every table of the next being seated (pairing,
   storing and seating 32 tables), and for round 1 the time of the start.
2. **Latency of people at other tables**: ``--people`` tables where one person plays (against three
   computers) while 16 other tables play with computers — once as 16 casual tables, once as the
   16 tables of a 32-team tournament round — with the same computer pace.  Reported: the time
   each of the people's actions takes through the table service (p50/p99/max), and the
   tournament's p99 over the casual one's.

    python benchmarks/tournament.py                     # both parts
    python benchmarks/tournament.py --teams 64 --rounds 6 --latency-s 30
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.ai.worker import decide_view
from bot.engine import Action, Bid, Look, Play, SeatView, seat_view
from bot.events.model import GameSlot, Member, Settings, Tournament
from bot.events.service import QuietAnnouncer, TournamentService
from bot.events.signup import SignUp
from bot.store.db import Database
from bot.tables.service import TableService
from bot.tables.state import Table

GUILD = 1


async def decide(view: SeatView, level: str, seed: int, think: float) -> Action:
    # Off the event loop, as the bot's worker pool decides (bot/ai/worker.py).
    if think:
        await asyncio.sleep(think)
    return await asyncio.to_thread(decide_view, view, level, seed)


class Leavers(QuietAnnouncer):
    """Every member leaves their seat as soon as their table is seated."""

    def __init__(self) -> None:
        self.tables: TableService | None = None
        self.pending: set[asyncio.Task[None]] = set()

    def seated(self, t: Tournament, g: GameSlot, table: Table) -> None:
        assert self.tables is not None
        tables = self.tables

        async def leave_all() -> None:
            for uid in list(table.humans()):
                await tables.lobby.leave(table, uid)

        task = asyncio.get_running_loop().create_task(leave_all())
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)


class TimedDirector(TournamentService):
    """Times each pass that pairs and seats a new round (from taking the tournament's lock)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.round_s: dict[int, float] = {}

    async def _advance_locked(self, tid: int) -> None:
        before = self.open[tid].round if tid in self.open else None
        started = time.perf_counter()
        await super()._advance_locked(tid)
        after = self.open[tid].round if tid in self.open else None
        if before is not None and after is not None and after > before:
            self.round_s[after] = time.perf_counter() - started


async def swiss_night(db: Database, teams: int, rounds: int, target: int) -> dict[int, float]:
    announcer = Leavers()
    tables = TableService(db, decide, bot_delay=0)
    director = TimedDirector(db, tables, announcer)
    announcer.tables = tables
    settings = Settings(preset="standard", target=target, rounds=rounds, turn_timer=0)
    signup = SignUp(director)
    t = await signup.create(
        guild_id=GUILD,
        channel_id=10,
        organiser_id=1,
        name="Benchmark night",
        settings=settings,
        starts_at=time.time() + 3600,
    )
    for i in range(teams):
        await signup.join(t, Member(1000 + 2 * i, f"a{i}"), Member(1001 + 2 * i, f"b{i}"))
    started = time.perf_counter()
    await director.start(director.get(t.id))
    director.round_s[1] = time.perf_counter() - started
    while t.id in director.open:  # noqa: ASYNC110 (the director has no "finished" event)
        await asyncio.sleep(0.2)
    final = await director.store.load(db, t.id)
    assert final is not None
    assert final.status == "finished", final.status
    await director.close()
    await tables.close()
    return director.round_s


async def person_plays(tables: TableService, table: Table, uid: int, out: list[float]) -> None:
    """A person at ``table``: acts whenever it is their turn, timing each action."""
    rng = random.Random(uid)
    while table.open:
        game = table.game
        seat = table.seat_of(uid)
        if game is None or seat is None or table.to_act != seat:
            await asyncio.sleep(0.05)
            continue
        action = decide_view(seat_view(game, seat), "normal", rng.randrange(1 << 30))
        started = time.perf_counter()
        if isinstance(action, Play):
            await tables.moves.play(table, uid, action.card)
        elif isinstance(action, Look):
            await tables.moves.look(table, uid)
        elif isinstance(action, Bid):
            await tables.moves.bid(table, uid, action.value, action.blind)
        else:
            await asyncio.sleep(0.05)
            continue
        out.append(time.perf_counter() - started)
        await asyncio.sleep(0.2)  # a quick person


async def open_casual(tables: TableService, channel: int, uid: int, keep: bool) -> Table:
    table = await tables.lobby.open_table(
        guild_id=GUILD,
        channel_id=channel,
        host_id=uid,
        host_name=f"u{uid}",
        preset="standard",
        target=1000,
    )
    for _ in range(3):
        await tables.lobby.add_bot(table, uid, None, "normal")
    await tables.lobby.start(table, uid)
    if not keep:
        await tables.lobby.leave(table, uid)
    return table


async def latency(
    db: Database, tournament: bool, seconds: float, pace: float, people: int
) -> list[float]:
    announcer = Leavers()
    tables = TableService(db, decide, bot_delay=pace)
    director = TournamentService(db, tables, announcer)
    announcer.tables = tables
    base = 100_000 if tournament else 200_000
    if tournament:
        signup = SignUp(director)
        t = await signup.create(
            guild_id=GUILD,
            channel_id=base,
            organiser_id=1,
            name=f"Latency {base}",
            settings=Settings(preset="standard", target=1000, rounds=1, turn_timer=0),
            starts_at=time.time() + 3600,
        )
        for i in range(32):
            await signup.join(t, Member(base + 2 * i, "a"), Member(base + 2 * i + 1, "b"))
        await director.start(director.get(t.id))
    else:
        for i in range(16):
            await open_casual(tables, base + 1000 + i, base + i, keep=False)
    out: list[float] = []
    players = []
    for i in range(people):
        uid = base + 500 + i
        table = await open_casual(tables, base + 2000 + i, uid, keep=True)
        players.append(asyncio.create_task(person_plays(tables, table, uid, out)))
    await asyncio.sleep(seconds)
    for p in players:
        p.cancel()
    await director.close()
    await tables.close()
    return out


def pct(xs: Sequence[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(len(s) * q))]


def describe(xs: Sequence[float]) -> str:
    return (
        f"n={len(xs)} p50 {statistics.median(xs) * 1000:.1f} ms, "
        f"p99 {pct(xs, 0.99) * 1000:.1f} ms, max {max(xs) * 1000:.1f} ms"
    )


async def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--teams", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--target", type=int, default=100)
    ap.add_argument("--latency-s", type=float, default=30.0)
    ap.add_argument("--pace", type=float, default=0.3, help="computer players' delay (s)")
    ap.add_argument("--people", type=int, default=8, help="people playing at other tables")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        async with Database.open(str(Path(tmp) / "night.db")) as db:
            round_s = await swiss_night(db, args.teams, args.rounds, args.target)
        print(f"Swiss night: {args.teams} teams, {args.rounds} rounds, target {args.target}")
        for r, s in sorted(round_s.items()):
            print(f"  round {r}: paired and seated {args.teams // 2} tables in {s * 1000:.0f} ms")
        print(f"  worst round: {max(round_s.values()) * 1000:.0f} ms (budget 1000 ms)")
        results = {}
        for tournament in (False, True):
            async with Database.open(str(Path(tmp) / f"lat{int(tournament)}.db")) as db:
                results[tournament] = await latency(
                    db, tournament, args.latency_s, args.pace, args.people
                )
            label = "16 tournament tables" if tournament else "16 casual tables"
            print(f"People's actions beside {label}: {describe(results[tournament])}")
        ratio = pct(results[True], 0.99) / pct(results[False], 0.99)
        print(f"p99 ratio (tournament / casual): {ratio:.2f} (budget 1.20)")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
