"""Tournament benchmark (issue 25), through the fake Discord against the real bot process.

1. **A Swiss night** (default 64 teams, 6 rounds, one bot process, SQLite): an organiser opens
   it with ``/tournament new``, 64 pairs sign up with ``/tournament join partner:``, ``/tournament
   start``; as each table opens its members leave their seats (``/spades leave``) so computer
   players play every game (``--night-pace``: their delay a move).  Reported per round: the
   director's pass that pairs and seats the round, from taking the tournament's lock to the
   last table seated (the bot logs it: ``… N tables paired and seated in X ms``; budget 1 s),
   and from outside, the time from the round's announcement to the last table's players being
   told their game is on.
2. **People's latency beside a tournament**: ``--people-tables`` tables of four people playing
   by button (benchmarks/load.py's players, ``--think`` s between their buttons showing and
   the click), once alone and once while a 32-team tournament plays 16 tables in the same
   server with computer players at the bot's pace (``--pace``, the bot's default 1 s a move)
   and a round deadline (``--round-minutes``) that decides all 16 and seats 16 new ones during
   the measurement.  Each phase is a fresh bot process and database; ``--repeats`` pairs of
   phases alternate their order.  Reported: each phase's answer latency (dispatch → the bot's
   answer, p50/p99/max, and p99 on the fake's Discord clock), the p99 ratio of each pair
   (budget 1.2), and its spread over the repeats.

    python benchmarks/tournament.py                         # both parts, the issue's sizes
    python benchmarks/tournament.py --skip-night --repeats 5 --duration 120
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import load
from benchmarks.load import (
    PROBE_CODE,
    instrument_without_pauses,
    play_table,
    set_up_table,
    world,
)
from benchmarks.load_figures import COMMITS, Stats, cpu_seconds, machine
from tests.e2e.driver import has, table_message
from tests.e2e.tournament_flows import Night, new_night, open_night, sign_up_pairs
from tests.fakediscord import BotProcess, Channel, FakeDiscord, Message, NoResponse, User, run_bot

SEATED = re.compile(r"tournament \d+ round (\d+): (\d+) tables paired and seated in (\d+) ms")
ROUND_SEATED = re.compile(r"Round (\d+) of \d+ is seated")
TOLD = re.compile(r"round (\d+), table \d+: .* your game is on")


def bot_env(tmp: str, pace: float, probe: Path | None = None) -> dict[str, str]:
    env = {
        "DATABASE_URL": f"sqlite:///{tmp}/bench.db",
        "LOG_LEVEL": "INFO",
        "SPADES_BOT_DELAY": str(pace),
    }
    if probe is not None:  # the bot records where its loop's time goes (benchmarks/probe/)
        paths = [str(PROBE_CODE), *filter(None, [os.environ.get("PYTHONPATH")])]
        env.update(PYTHONPATH=os.pathsep.join(paths), SPADES_PROBE_DIR=str(probe))
    return env


async def keep_leaving(night: Night, stop: asyncio.Event) -> None:
    """Members leave their seats as their tables open (computers take over), until ``stop``."""
    while not stop.is_set():
        await night.leave_seats()
        await asyncio.sleep(0.2)


def round_spans(night: Night) -> dict[int, tuple[float, int]]:
    """Round → (seconds from its announcement (round 1: the start's) to the last of its
    tables telling its players their game is on, as the fake Discord saw them; the most
    messages any of its threads had had in the 5 s before its table's announcement — Discord
    lets a channel take 5 in 5 s, and a thread serves its table number every round)."""
    announced: dict[int, float] = {}
    for m in night.messages():
        if "begins: round 1" in m.text:
            announced[1] = m.created_at
        found = ROUND_SEATED.search(m.text)
        if found:
            announced[int(found.group(1))] = m.created_at
    told: dict[int, float] = {}
    crowded: dict[int, int] = {}
    for thread in night.fake.threads(night.channel):
        posts = night.fake.messages(thread)
        for m in posts:
            found = TOLD.search(m.text)
            if found:
                r = int(found.group(1))
                told[r] = max(told.get(r, 0.0), m.created_at)
                before = sum(1 for x in posts if m.created_at - 5 <= x.created_at < m.created_at)
                crowded[r] = max(crowded.get(r, 0), before)
    return {r: (told[r] - announced[r], crowded.get(r, 0)) for r in sorted(announced) if r in told}


async def swiss_night(args: argparse.Namespace) -> None:
    teams, rounds = args.teams, args.rounds
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            guild = fake.add_guild("Night")
            night = new_night(fake, guild, teams * 2)
            env = bot_env(tmp, args.night_pace)
            async with run_bot(fake, env=env, timeout=90, max_lines=1_000_000) as proc:
                await open_night(
                    night,
                    name="Benchmark night",
                    preset="standard",
                    target=args.target,
                    rounds=rounds,
                    format="swiss",
                    turn_timer=0,
                    start_in=60,
                    round_minutes=args.night_round_minutes,
                )
                signing = time.monotonic()
                await sign_up_pairs(night)
                signed = time.monotonic() - signing
                # Sign-up makes the first round's threads ahead, at Discord's pace for new
                # threads; a real sign-up lasts minutes, so the start finds them made.
                await fake.wait_until(
                    lambda: len(fake.threads(night.channel)) >= teams // 2, timeout=300
                )
                threads_ready = time.monotonic() - signing
                began = time.monotonic()
                inter = await fake.slash(night.organiser, night.channel, "tournament", "start")
                r = await inter.answer(timeout=600)
                assert "has started" in r.text, r.text
                await night.play_out(
                    lambda: "final results" in night.title(), timeout=args.night_timeout
                )
                took = time.monotonic() - began
                output = proc.output
        passes = {
            int(m.group(1)): (int(m.group(2)), int(m.group(3))) for m in SEATED.finditer(output)
        }
        spans = round_spans(night)
    print(
        f"Swiss night: {teams} teams, {rounds} rounds, target {args.target}, computers "
        f"{args.night_pace} s a move; played in {took:.0f} s.  Sign-up ({teams} joins) took "
        f"{signed:.0f} s; round 1's {teams // 2} threads were made {threads_ready:.0f} s after "
        "the first join"
    )
    for r in sorted(passes):
        tables, ms = passes[r]
        outside = (
            f"{spans[r][0] * 1000:6.0f} ms (a thread's messages in the 5 s before: up to "
            f"{spans[r][1]})"
            if r in spans
            else "     -"
        )
        print(
            f"  round {r}: {tables} tables paired and seated in {ms:5d} ms (the bot's pass); "
            f"announced → last table's players told: {outside}"
        )
    worst = max((ms for _, ms in passes.values()), default=0)
    print(f"  worst pass: {worst} ms (budget 1000 ms)")


@dataclass
class TimedStats(Stats):
    """Also when each answer came (monotonic), to tell the answers around a round's turn."""

    at: list[float] = field(default_factory=list)

    def add(self, latency: float | None) -> None:
        super().add(latency)
        if latency is not None:
            self.at.append(time.monotonic())


@dataclass
class Phase:
    tournament: bool
    stats: TimedStats
    figures: dict[str, float] = field(default_factory=dict)
    turns: list[float] = field(default_factory=list)  # when rounds were seated (monotonic)

    @property
    def name(self) -> str:
        return "with the tournament" if self.tournament else "without"


async def start_tournament(fake: FakeDiscord, night: Night, args: argparse.Namespace) -> None:
    await open_night(
        night,
        name="Beside night",
        preset="standard",
        target=1000,  # no game ends before the round deadline: the deadline turns rounds
        rounds=12,
        format="swiss",
        turn_timer=0,
        start_in=60,
        round_minutes=args.round_minutes,
    )
    await sign_up_pairs(night)
    # As a sign-up of some minutes would, it leaves the bot time to make round 1's threads.
    await fake.wait_until(lambda: len(fake.threads(night.channel)) >= 16, timeout=120)
    inter = await fake.slash(night.organiser, night.channel, "tournament", "start")
    r = await inter.answer(timeout=120)
    assert "has started" in r.text, r.text
    if args.background == "people":
        await fake.wait_until(lambda: len(announcements(night)) >= 16, timeout=60)
        return
    loop = asyncio.get_running_loop()
    end = loop.time() + 60
    while len(night.left) < len(night.players):  # every member left: computers play all 16
        await night.leave_seats()
        if loop.time() > end:
            raise AssertionError(f"only {len(night.left)} seats left: {night.title()}")
        await asyncio.sleep(0.05)


def announcements(night: Night) -> list[tuple[Channel, Message]]:
    """Every "your game is on" of the tournament: (its thread, the message)."""
    return [
        (th, m)
        for th in night.fake.threads(night.channel)
        for m in night.fake.messages(th)
        if "your game is on" in m.text
    ]


async def play_tournament_tables(night: Night, stats: Stats, until: float, think: float) -> None:
    """The members play their tournament tables by button, as the people do theirs: each
    table announced gets its four players (benchmarks/load.py's), round after round."""
    fake = night.fake
    seen: set[int] = set()
    used: set[int] = set()  # table messages already played (a thread hosts every round)
    tasks: list[asyncio.Task[None]] = []

    async def play(thread: Channel, four: list[User], seed: int) -> None:
        def fresh() -> bool:
            with contextlib.suppress(AssertionError):
                m = table_message(fake, thread)
                return m.id not in used and has(m, "hand")
            return False

        await fake.wait_until(fresh, timeout=60)
        used.add(table_message(fake, thread).id)
        turns = Stats()
        with contextlib.suppress(NoResponse, TimeoutError):
            await play_table(fake, thread, four, stats, turns, until, think, seed)

    while time.monotonic() < until:
        for thread, m in announcements(night):
            if m.id in seen:
                continue
            seen.add(m.id)
            four = [u for u in night.players if f"<@{u.id}>" in m.text]
            tasks.append(asyncio.create_task(play(thread, four, m.id % 100_000)))
        await asyncio.sleep(0.1)
    await asyncio.gather(*tasks, return_exceptions=True)


async def play_casual_tables(
    fake: FakeDiscord, night: Night, stats: Stats, until: float, think: float
) -> None:
    """The same members at 16 casual tables (the load without a tournament)."""
    guild = night.channel.guild
    assert guild is not None
    four = [night.players[i : i + 4] for i in range(0, 64, 4)]
    channels = [guild.add_text_channel(f"casual-{i}") for i in range(16)]
    await asyncio.gather(*(set_up_table(fake, ch, f) for ch, f in zip(channels, four, strict=True)))
    await asyncio.gather(
        *(
            play_table(fake, ch, f, stats, Stats(), until, think, 5000 + i)
            for i, (ch, f) in enumerate(zip(channels, four, strict=True))
        ),
        return_exceptions=True,
    )


async def phase(args: argparse.Namespace, tournament: bool) -> Phase:
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord() as fake:
            channels, users = world(fake, args.people_tables)
            guild = channels[0].guild
            assert guild is not None
            night = new_night(fake, guild, 64)
            proc: BotProcess
            env = bot_env(tmp, args.pace, load.PROBE_DIR)
            async with run_bot(fake, env=env, timeout=90) as proc:
                sem = asyncio.Semaphore(8)

                async def setup(i: int) -> None:
                    async with sem:
                        await set_up_table(fake, channels[i], users[i])

                await asyncio.gather(*(setup(i) for i in range(len(channels))))
                stop = asyncio.Event()
                leaver = None
                if tournament:
                    await start_tournament(fake, night, args)
                    if args.background == "computers":
                        leaver = asyncio.create_task(keep_leaving(night, stop))
                round0 = _round(night) if tournament else 0
                others = TimedStats()  # the players of the 16 tables beside (people mode)
                warm_up = 10.0 if args.background == "people" else 0.0
                until = time.monotonic() + warm_up + args.duration
                if args.background == "people":
                    beside = (
                        play_tournament_tables(night, others, until, args.think)
                        if tournament
                        else play_casual_tables(fake, night, others, until, args.think)
                    )
                    leaver = asyncio.create_task(beside)
                    await asyncio.sleep(warm_up)  # the tables beside open their hands
                window = time.time()
                stats = TimedStats(started=time.monotonic())
                turns = Stats(started=stats.started)
                cpu0, driver0 = cpu_seconds(proc.pid), cpu_seconds(os.getpid())
                if load.DRIVER_PROBE is not None:  # what attribute.py needs of the run
                    load.DRIVER_PROBE.pids = {"bot": proc.pid, "driver": os.getpid()}
                    load.DRIVER_PROBE.add({"k": "run", "t": stats.started, "t1": until})
                load0 = os.getloadavg()[0]
                with instrument_without_pauses():
                    await asyncio.gather(
                        *(
                            play_table(fake, ch, four, stats, turns, until, args.think, 1000 + i)
                            for i, (ch, four) in enumerate(zip(channels, users, strict=True))
                        )
                    )
                stats.finished = time.monotonic()
                span = stats.finished - stats.started
                figures = {
                    "bot_cpu": (cpu_seconds(proc.pid) - cpu0) / span,
                    "driver_cpu": (cpu_seconds(os.getpid()) - driver0) / span,
                    "load0": load0,
                    "load1": os.getloadavg()[0],
                    "rounds_turned": (_round(night) - round0) if tournament else 0,
                }
                figures["others_p99_ms"] = others.summary().get("p99_ms", 0.0)
                figures["others_n"] = len(others.latencies)
                stop.set()
                if leaver is not None:
                    await leaver
            commits = COMMITS.search(proc.output)
            if commits:
                figures["commit_p99_ms"] = float(commits.group(3))
            figures["computer_moves"] = computer_moves(Path(tmp) / "bench.db", window, span)
            seated = [m.created_at for m in night.messages() if ROUND_SEATED.search(m.text)]
    turns = [t for t in seated if stats.started <= t <= stats.finished]
    return Phase(tournament, stats, figures, turns)


def computer_moves(db: Path, since: float, span: float) -> float:
    """Moves made at tournament tables in the measured window (the load beside the people)."""
    with contextlib.closing(sqlite3.connect(db)) as conn:
        (n,) = conn.execute(
            "SELECT count(*) FROM actions WHERE created_at BETWEEN ? AND ? AND table_id IN "
            "(SELECT table_id FROM tournament_games)",
            (since, since + span),
        ).fetchone()
    return float(n)


def _round(night: Night) -> int:
    found = re.search(r"round (\d+) of", night.title())
    return int(found.group(1)) if found else 0


def p99(xs: list[float]) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(0.99 * len(s)))] * 1000 if s else 0.0


def around_turns(p: Phase, before: float = 3.0, after: float = 6.0) -> str:
    """The answers that came in the seconds around a round's turn (its tables decided at the
    deadline, the next round paired and seated, its members leaving their seats), and the
    rest: whether the tail is the director's work or the tables' steady load."""
    near = [
        x
        for x, t in zip(p.stats.latencies, p.stats.at, strict=True)
        if any(turn - before <= t <= turn + after for turn in p.turns)
    ]
    rest = [
        x
        for x, t in zip(p.stats.latencies, p.stats.at, strict=True)
        if not any(turn - before <= t <= turn + after for turn in p.turns)
    ]
    return (
        f"{'':>22}around the {len(p.turns)} round turns (−{before:.0f} s … +{after:.0f} s): "
        f"n={len(near)}, p99 {p99(near):.1f} ms, max {max(near, default=0) * 1000:.1f} ms; "
        f"the rest: n={len(rest)}, p99 {p99(rest):.1f} ms"
    )


def line(p: Phase) -> str:
    s = p.stats.summary()
    f = p.figures
    turned = (
        f"; tournament: {f['computer_moves']:.0f} moves, rounds turned {f['rounds_turned']:.0f}"
        if p.tournament
        else ""
    )
    if f.get("others_n"):
        turned += f"; the 16 tables beside: n={f['others_n']:.0f}, p99 {f['others_p99_ms']:.1f} ms"
    return (
        f"{p.name:>20}: n={s.get('count', 0):.0f}, p50 {s.get('p50_ms', 0):5.1f} ms, "
        f"p99 {s.get('p99_ms', 0):6.1f} ms, max {s.get('max_ms', 0):6.1f} ms; Discord clock "
        f"p99 {s.get('clock_p99_ms', 0):6.1f} ms; over 3 s {s.get('over_3s', 0) + p.stats.late:.0f}"
        f"; CPU bot {f['bot_cpu'] * 100:3.0f}%, driver {f['driver_cpu'] * 100:3.0f}%; load "
        f"{f['load0']:.1f}→{f['load1']:.1f}; commits p99 {f.get('commit_p99_ms', 0):.1f} ms"
        f"{turned}"
    )


async def latency(args: argparse.Namespace) -> None:
    who = (
        "played by its members by button (without it: the same members at 16 casual tables)"
        if args.background == "people"
        else f"played by computers, {args.pace} s a move (without it: nothing)"
    )
    print(
        f"People beside a tournament: {args.people_tables} tables of 4 people (think "
        f"{args.think} s), {args.duration:.0f} s a phase; the tournament: 16 tables {who}, "
        f"round deadline {args.round_minutes} min"
    )
    ratios: list[tuple[float, float]] = []
    pooled: dict[bool, list[float]] = {False: [], True: []}
    cost: list[float] = []  # the tournament's bot CPU per computer move, each pair
    for i in range(args.repeats):
        order = (False, True) if i % 2 == 0 else (True, False)
        if args.only is not None:
            order = (args.only == "with",)
        done = {t: await phase(args, t) for t in order}
        for t in order:
            print(f"  run {i + 1} {line(done[t])}")
            if t:
                print(around_turns(done[t]))
            pooled[t] += done[t].stats.latencies
        if args.only is not None:
            continue
        with_, without = done[True].stats.summary(), done[False].stats.summary()
        wall = with_["p99_ms"] / without["p99_ms"]
        clock = with_["clock_p99_ms"] / without["clock_p99_ms"]
        ratios.append((wall, clock))
        extra = done[True].figures["bot_cpu"] - done[False].figures["bot_cpu"]
        moves = done[True].figures["computer_moves"] / args.duration
        cost.append(extra / moves * 1000 if moves else 0.0)
        print(
            f"  run {i + 1}: p99 ratio with/without {wall:.2f} (Discord clock {clock:.2f}); "
            f"the tournament's bot CPU: +{extra * 100:.1f}% of a core, {cost[-1]:.1f} ms a move"
        )
    if not ratios:
        return
    walls, clocks = [r[0] for r in ratios], [r[1] for r in ratios]
    print(
        f"p99 ratio over {len(ratios)} runs: median {statistics.median(walls):.2f}, "
        f"{min(walls):.2f}–{max(walls):.2f} (Discord clock: median "
        f"{statistics.median(clocks):.2f}, {min(clocks):.2f}–{max(clocks):.2f}); budget 1.20"
    )
    both = p99(pooled[True]) / p99(pooled[False])
    print(
        f"pooled over the runs: without n={len(pooled[False])}, p99 {p99(pooled[False]):.1f} ms;"
        f" with n={len(pooled[True])}, p99 {p99(pooled[True]):.1f} ms; ratio {both:.2f}; the "
        f"tournament's bot CPU a computer move: median {statistics.median(cost):.1f} ms"
    )


async def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--teams", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--target", type=int, default=100, help="the night's games' target")
    ap.add_argument("--night-pace", type=float, default=0.0, help="night: computers' delay (s)")
    ap.add_argument("--night-round-minutes", type=int, default=0, help="night: round deadline")
    ap.add_argument("--night-timeout", type=float, default=3600.0)
    ap.add_argument("--skip-night", action="store_true")
    ap.add_argument("--skip-latency", action="store_true")
    ap.add_argument("--people-tables", type=int, default=16)
    ap.add_argument("--think", type=float, default=1.0)
    ap.add_argument("--pace", type=float, default=1.0, help="tournament computers' delay (s)")
    ap.add_argument("--round-minutes", type=int, default=1)
    ap.add_argument(
        "--background",
        choices=("people", "computers"),
        default="people",
        help="people: the tournament's 64 members play its tables by button, and without a "
        "tournament the same members play 16 casual tables (the same load); computers: "
        "computers play the tournament's tables (--pace), and without it there are none",
    )
    ap.add_argument("--duration", type=float, default=120.0, help="seconds measured a phase")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--only", choices=("with", "without"), help="one phase (with --probe)")
    ap.add_argument(
        "--probe",
        type=Path,
        help="record where the bot's and the driver's loops spend their time to this directory "
        "(benchmarks/probe/; read it with benchmarks/probe/attribute.py); with --only",
    )
    args = ap.parse_args()
    if args.probe is not None:
        load.start_probe(args.probe)
    print(f"machine: {machine()}; load average {os.getloadavg()[0]:.2f}")
    if not args.skip_night:
        await swiss_night(args)
    if not args.skip_latency:
        await latency(args)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
