"""Memory a table costs (issue 34 item 2), on the real table service and a real SQLite file.

1. **At 1,000 tables**: the process's resident memory (RSS, after a full collection) is read
   after each step, and each step's growth divided by what it added: ``--tables`` tables of four
   people with a game dealt; a live hand for every player (the handle a hand message keeps:
   a webhook, as discord.py makes one per interaction); a spectator at every table; then
   ``--tournaments`` tournaments of 16 teams signed up (not started: a started one's tables are
   tables).  The Discord side (discord.py's caches, bounded by ``max_messages``) is not here.
2. **Soak**: ``--games`` complete games (four people, ``--target`` points, every move through the
   service as a click makes it, each player's hand live), ``--concurrent`` tables at a time in a
   fixed pool of channels and people; RSS after the first ``--games // 10`` and at the end (goal:
   within 10 %), so that no structure grows with finished games.

    python benchmarks/memory.py                       # both parts, the issue's sizes
    python benchmarks/memory.py --skip-soak --tables 1000
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import resource
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import discord

from bot.ai.worker import decide_view
from bot.engine import Action, Bid, Look, Play, Seat, SeatView, seat_view
from bot.events.pairing.model import Member, TournamentSettings
from bot.events.service import TournamentService
from bot.events.signup import SignUp
from bot.store.db import Database
from bot.tables.live import Edit, live_key
from bot.tables.service import TableService
from bot.tables.spectators import watch_key
from bot.tables.state import Table, TableStatus
from bot.ui.hand.live_editor import HandMessage

GUILD = 1
PAGE = os.sysconf("SC_PAGE_SIZE")


def rss() -> int:
    """Resident bytes now, after a full collection."""
    gc.collect()
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE


async def never(view: SeatView, level: str, seed: int, think: float) -> Action:
    raise AssertionError("only people play here")


class QuietEditor:
    """Hand and spectator edits that go nowhere (shown at once)."""

    async def edit(self, *args: Any) -> Edit:
        return Edit.SHOWN


def a_handle(session: aiohttp.ClientSession, n: int) -> HandMessage:
    token = f"aW50ZXJhY3Rpb246{n:020d}OnRva2VuLXRoYXQtbG9va3MtbGlrZS1kaXNjb3Jkcw"
    return HandMessage(discord.Webhook.partial(1_000_000 + n, token, session=session), n)


async def seat_four(
    service: TableService, channel: int, users: list[int], target: int | None = None
) -> Table:
    table = await service.lobby.open_table(
        guild_id=GUILD, channel_id=channel, host_id=users[0], host_name=f"u{users[0]}",
        preset="standard", target=target,
    )  # fmt: skip
    for uid, seat in zip(users[1:], (Seat.E, Seat.S, Seat.W), strict=True):
        await service.lobby.join(table, uid, f"u{uid}", seat)
    return table


def show_hands(service: TableService, table: Table, session: aiohttp.ClientSession) -> None:
    for seat, occupant in table.seats.items():
        assert occupant.user_id is not None
        with service.live.answering(table, occupant.user_id) as answer:
            answer.shown(a_handle(session, occupant.user_id), live_key(table, seat))


async def per_thing(args: argparse.Namespace, db: Database, session: aiohttp.ClientSession) -> None:
    service = TableService(db, never, test_seed=3, bot_delay=0)
    director = TournamentService(db, service, None)
    base = rss()
    tables = []
    t0 = time.monotonic()
    for i in range(args.tables):
        table = await seat_four(service, 10_000 + i, [100_000 + 4 * i + k for k in range(4)])
        await service.lobby.start(table, table.host_id)
        tables.append(table)
    opened = rss()
    print(f"{args.tables} tables dealt in {time.monotonic() - t0:.1f} s")
    for table in tables:
        show_hands(service, table, session)
    await asyncio.sleep(0.1)  # the live hands' first checks run
    live = rss()
    for i, table in enumerate(tables):
        with service.spectators.answering(table, 900_000 + i) as watching:
            watching.shown(a_handle(session, 900_000 + i), watch_key(table), None)
    await asyncio.sleep(0.1)
    watched = rss()
    signup = SignUp(director)
    for n in range(args.tournaments):
        t = await signup.create(
            guild_id=GUILD, channel_id=50_000 + n, organiser_id=1, name=f"Night {n}",
            settings=TournamentSettings(preset="standard", turn_timer=0),
            starts_at=time.time() + 3600,
        )  # fmt: skip
        for k in range(16):
            a = Member(2_000_000 + 100 * n + 2 * k, "a")
            b = Member(a.user_id + 1, "b")
            await signup.join(t, a, b)
            await signup.answer(t, b.user_id, a.user_id, True, now=time.time())
    tournaments = rss()
    print(f"RSS base {base / 2**20:.1f} MiB, at the end {tournaments / 2**20:.1f} MiB")
    rows = [
        ("open table (4 people, a game dealt)", opened - base, args.tables),
        ("live hand (a player's hand message followed)", live - opened, 4 * args.tables),
        ("spectator (one a table)", watched - live, args.tables),
        ("tournament (16 teams signed up)", tournaments - watched, args.tournaments),
    ]
    for name, grew, count in rows:
        print(f"  {name:48s} {grew / count / 1024:7.1f} KiB each ({count} of them)")
    await director.close()
    await service.close()


async def act(service: TableService, table: Table, rng: random.Random) -> None:
    """The next move of the table's game, as its player's click makes it (the easy player's
    choice)."""
    seat = table.to_act
    assert table.game is not None
    assert seat is not None
    uid = table.seats[seat].user_id
    assert uid is not None
    a = decide_view(seat_view(table.game, seat), "easy", rng.randrange(1 << 30))
    if isinstance(a, Play):
        await service.moves.play(table, uid, a.card)
    elif isinstance(a, Look):
        await service.moves.look(table, uid)
    else:
        assert isinstance(a, Bid)
        await service.moves.bid(table, uid, a.value, a.blind)


async def play_out(service: TableService, table: Table, rng: random.Random) -> None:
    while table.status == TableStatus.PLAYING:
        await act(service, table, rng)
        await asyncio.sleep(0)  # each move a click of its own: the loop comes round between


async def soak(args: argparse.Namespace, db: Database, session: aiohttp.ClientSession) -> None:
    service = TableService(db, never, test_seed=11, bot_delay=0)
    service.live.editor = QuietEditor()
    finished = 0
    readings: dict[int, int] = {}
    first = max(1, args.games // 10)
    lock = asyncio.Lock()

    async def lane(k: int, claim: Callable[[], Awaitable[bool]]) -> None:
        nonlocal finished
        rng = random.Random(k)
        users = [300_000 + 4 * k + j for j in range(4)]
        while await claim():
            table = await seat_four(service, 20_000 + k, users, args.target)
            await service.lobby.start(table, users[0])
            show_hands(service, table, session)
            await play_out(service, table, rng)
            finished += 1
            if finished in (first, args.games):
                readings[finished] = rss()
                print(f"  {finished:5d} games finished: RSS {readings[finished] / 2**20:.1f} MiB")

    started = 0

    async def claim() -> bool:
        nonlocal started
        async with lock:
            if started >= args.games:
                return False
            started += 1
            return True

    t0 = time.monotonic()
    await asyncio.gather(*(lane(k, claim) for k in range(args.concurrent)))
    took = time.monotonic() - t0
    await asyncio.sleep(0.1)
    end = rss()
    ratio = end / readings[first]
    print(
        f"soak: {args.games} games in {took:.0f} s; RSS after {first}: "
        f"{readings[first] / 2**20:.1f} MiB, at the end: {end / 2**20:.1f} MiB "
        f"(×{ratio:.3f}; goal within 10 %: {'holds' if ratio <= 1.10 else 'MISSED'}); "
        f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.1f} MiB"
    )
    await service.close()


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--tournaments", type=int, default=100)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--concurrent", type=int, default=8)
    parser.add_argument("--target", type=int, default=150, help="points a soak game is played to")
    parser.add_argument("--skip-tables", action="store_true")
    parser.add_argument("--skip-soak", action="store_true")
    args = parser.parse_args()
    print(f"load average at the start: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        async with aiohttp.ClientSession() as session:
            if not args.skip_tables:
                async with Database.open(str(Path(tmp) / "tables.db")) as db:
                    await per_thing(args, db, session)
            if not args.skip_soak:
                async with Database.open(str(Path(tmp) / "soak.db")) as db:
                    await soak(args, db, session)
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
