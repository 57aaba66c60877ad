"""Load benchmark: N concurrent tables of four fake users playing by button on live hands,
through the fake Discord, against the real bot process; then the same click pattern against a
bare discord.py bot that only acknowledges (the floor), in the same run.

    python benchmarks/load.py --tables 200 --duration 60 --think 1.0      # one run, both bots
    python benchmarks/load.py --tables 200 --duration 60 --think 0        # saturation, both
    python benchmarks/load.py --database sqlite,postgresql --processes 1,2 --skip-bare

Each player presses **My hand** once; from then on every player acts only on the buttons of
their own hand message as the bot leaves it: the player on turn presses a card (or picks a
bid), which the bot answers by updating that message, and the next player's message is edited
by the bot (live, through the interaction webhook) to show their buttons.  ``--think`` is the
pause (seconds) between the buttons showing and the click, like a (fast) person.  Reported:
interactions per second and the time from the fake dispatching INTERACTION_CREATE to receiving
the bot's answer (p50/p95/p99/max; on the wall clock, and beside it on the fake's Discord
clock, which leaves out the time the fake's own loop stood still); the time from a play to
the next player's hand showing their buttons (p50/p95/p99/max); live edits per second and
the most per interaction token in any 2 s and per table in any 1 s, and 429s; answers over
3 s; the bot's resident memory per active table; the bare bot's latencies and the ratio; and,
for every hand that ended, the time from the click on its last card to the hand summary (with
its deal picture) appearing in the channel (p50/p95/max, share within 2 s).

``--think 0`` is saturation: no pause at all, each table clicks again as soon as its next
player's buttons show, so 4 × ``--tables`` players keep the bot as busy as it can be (one click
in flight per table).  The bare bot (benchmarks/load_bare.py) then gets the same clicks the
same way, and the two are printed side by side: interactions a second, ack p50/p99, each bot's
CPU per interaction, and their ratios.  Without ``--check-api`` a saturation run's fake does
not check the bot's requests against Discord's API description (the tests do): the instrument
shares the cores with the bot and must not become the bottleneck.  The driver's event loop is
uvloop when it is installed (``--loop asyncio`` to compare); each run prints the driver's CPU.

``--py-spy FILE`` samples the bot's process with py-spy over the measured window (raw
collapsed stacks; ``python benchmarks/probe/spy.py FILE`` charges them to the parts of a click).

``--probe DIR`` records where the bot's and the driver's loops spent their time
(benchmarks/probe/; ``python benchmarks/probe/attribute.py DIR`` reads it).

``--metrics both`` runs the same load with metrics on (``METRICS_PORT`` set, the endpoint scraped
every ``--scrape-every`` seconds, as Prometheus would) and off, ``--pairs`` times in alternating
order, each run a fresh bot and database, and prints each pair's ratios (benchmarks/
load_compare.py).

``--database`` (``sqlite``, ``postgresql`` or both) and ``--processes`` (1 and/or 2) run the same
load once per combination, in one run: with 2 processes the bot is a cluster (``SHARD_COUNT=2``,
one shard per process, ``CLUSTER_COUNT=2``) with ``--tables`` tables per process on one
PostgreSQL, which the benchmark starts from the machine's binaries with production durability
(fsync, ``synchronous_commit`` on).  SQLite runs with 1 process only (one file, one writer).
For each it prints ack p50/p99 (dispatch → answer, as above) and commit p50/p99 (the bot's own
``COMMIT`` round trips, from its shutdown log line), and their ratios to the first combination.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import random
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.load_bare import ceilings, run_bare, side_by_side
from benchmarks.load_figures import (
    COMMITS,
    Stats,
    collector_pauses,
    cpu_seconds,
    machine,
    rss,
    show,
    show_run,
    summary_latencies,
    webhook_rates,
)
from tests.e2e.driver import Driver, Seated, eventually, has, table_message
from tests.fakediscord import Channel, FakeDiscord, Message, NoResponse, User, run_bot

PROBE_CODE = Path(__file__).resolve().parent / "probe"  # benchmarks/probe/
sys.path.insert(0, str(PROBE_CODE))
import spy  # noqa: E402  (benchmarks/probe/spy.py: py-spy over the measured window)

PROBE_DIR: Path | None = None  # --probe: where the bot and the driver write their probes
DRIVER_PROBE: Any = None  # the driver's own probe (benchmarks/probe/loop_probe.py)


def world(
    fake: FakeDiscord, tables: int, shards: int = 1
) -> tuple[list[Channel], list[list[User]]]:
    """``tables`` channels of four members in each of ``shards`` guilds (one per shard)."""
    channels, users = [], []
    for shard in range(shards):
        guild = fake.add_guild(f"Load {shard}", shard=(shard, shards) if shards > 1 else None)
        for i in range(tables):
            channels.append(guild.add_text_channel(f"table-{i}"))
            four = [fake.add_user(f"p{shard}-{i}-{j}") for j in range(4)]
            for u in four:
                guild.add_member(u)
            users.append(four)
    return channels, users


async def set_up_table(fake: FakeDiscord, ch: Channel, four: list[User]) -> None:
    inter = await fake.slash(four[0], ch, "spades", "new", preset="standard", target=1000)
    await inter.response(timeout=30)
    for _ in range(200):
        with contextlib.suppress(AssertionError):
            table_message(fake, ch)
            break
        await asyncio.sleep(0.05)
    for user, seat in zip(four[1:], ("E", "S", "W"), strict=True):
        r = await (await fake.slash(user, ch, "spades", "join", seat=seat)).response(timeout=30)
        assert "You sit" in r.text, r.text
    r = await (await fake.slash(four[0], ch, "spades", "start")).response(timeout=30)
    assert "deals first" in r.text, r.text


Hands = tuple[Driver, dict[int, Message]]  # a table's players and their hand messages


async def open_hands(
    fake: FakeDiscord, ch: Channel, four: list[User], stats: Stats, seed: int
) -> Hands:
    """Each player of the table presses **My hand** once."""
    driver = Driver(fake, ch, [Seated(u) for u in four], rng=random.Random(seed))
    await eventually(lambda: has(table_message(fake, ch), "hand"), 60)  # table message catches up
    hands: dict[int, Message] = {}
    for p in driver.players:
        while p.user.id not in hands:
            try:
                r = await driver.open_hand(p)
            except (NoResponse, TimeoutError):
                stats.late += 1  # a late answer: press My hand again
                continue
            assert r.message is not None
            hands[p.user.id] = r.message
    return driver, hands


async def play_table(
    fake: FakeDiscord,
    ch: Channel,
    four: list[User],
    stats: Stats,
    turns: Stats,
    until: float,
    think: float,
    seed: int,
    opened: Hands | None = None,
) -> None:
    """Each player presses **My hand** once (unless ``opened`` already); from then on every
    player acts only on the buttons of their own hand message as the bot leaves it (answers
    and live edits)."""
    driver, hands = opened or await open_hands(fake, ch, four, stats, seed)
    while time.monotonic() < until:
        try:
            actor, _ = await next_actor(fake, driver, hands, wait_s=30, after=0.0)
        except GameOver:
            return  # counted where the last play was
        except NoResponse:
            stats.errors += 1
            return
        await asyncio.sleep(think * random.uniform(0.5, 1.5))
        if not driver.can_act(hands[actor.user.id]):
            continue  # a late answer (or edit) has just moved the message on: look again
        inter = await driver.choose_and_click(actor, hands[actor.user.id])
        try:
            await inter.response(timeout=30)
        except (NoResponse, TimeoutError):
            stats.late += 1  # answered after Discord's 3 s deadline (or never)
            continue
        stats.add(inter.latency)
        if inter.discord_latency is not None:
            stats.on_discord_clock.append(inter.discord_latency)
        if DRIVER_PROBE is not None and inter.callback is not None:
            DRIVER_PROBE.add(
                {
                    "k": "ack",
                    "id": inter.id,
                    "t": inter.dispatched_at,
                    "t1": inter.callback.received_at,
                    "what": str(inter.data.get("custom_id", ""))[:40],
                }
            )
        if ":play:" in str(inter.data.get("custom_id", "")):
            stats.plays.setdefault(ch.id, []).append(inter.dispatched_at)
        try:
            _, shown_at = await next_actor(
                fake, driver, hands, wait_s=30, after=inter.dispatched_at
            )
        except GameOver:
            turns.ended += 1  # the play ended the game: no turn comes (the table stops)
            return
        except NoResponse:
            turns.errors += 1
            continue
        turns.add(shown_at - inter.dispatched_at)


async def next_actor(
    fake: FakeDiscord, driver: Driver, hands: dict[int, Message], wait_s: float, after: float
) -> tuple[Seated, float]:
    """The player whose hand message offers an action in a state it took at ``after`` or
    later (waiting for the bot to answer or edit), and when their message started to show it.
    :class:`GameOver` when a hand message says the game is over instead (the driver plays
    random legal moves: a double blind nil or the mercy rule can end a game within a few
    hands)."""

    def offers(m: Message) -> bool:
        return m.state.at >= after and (driver.can_act(m) or game_over(m))

    async def offered(p: Seated) -> Seated:
        await fake.wait_for_edit(hands[p.user.id], offers, timeout=wait_s)
        return p

    waits = [asyncio.ensure_future(offered(p)) for p in driver.players]
    try:
        done, _ = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for w in waits:
            w.cancel()
    actor = next(iter(done)).result()
    if game_over(hands[actor.user.id]):
        raise GameOver
    return actor, hands[actor.user.id].state.at


class GameOver(Exception):
    """The table's game ended: no player will be offered an action again."""


def game_over(m: Message) -> bool:
    return "The game is over" in m.text


@contextlib.contextmanager
def instrument_without_pauses() -> Iterator[None]:
    """No garbage collection in this process (the fake Discord and its users: the instrument)
    while it measures: its full collections grew to 200–380 ms over a run and, landing between
    a bot's answer and its reading, were counted as the bot's latency.  The driver makes almost
    no cyclic garbage (its full passes freed nothing), so it can go without for a run."""
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()


class Extra(Protocol):
    """More load beside the players' (benchmarks/watch_load.py: spectators): started once
    every table is playing, measured over the same window."""

    async def ready(self, fake: FakeDiscord, channels: list[Channel]) -> None: ...

    def figures(
        self, fake: FakeDiscord, channels: list[Channel], started: float, finished: float
    ) -> dict[str, float]: ...


async def run_spades(
    tables: int,
    duration: float,
    think: float,
    database_url: str | None = None,
    processes: int = 1,
    *,
    extra: Extra | None = None,
    check_api: bool = True,
    env: dict[str, str] | None = None,
    py_spy: Path | None = None,
) -> tuple[Stats, Stats, dict[str, float]]:
    """``tables`` tables per process; ``database_url`` None: a fresh SQLite file;
    ``check_api`` False: the fake does not check requests against Discord's API description
    (a lighter instrument); ``env``: more settings for the bot; ``py_spy``: the bot sampled with
    py-spy into that file over the measured window."""
    with tempfile.TemporaryDirectory() as tmp:
        async with (
            FakeDiscord(recommended_shards=processes, check_api=check_api) as fake,
            contextlib.AsyncExitStack() as stack,
        ):
            channels, users = world(fake, tables, processes)
            settings = {
                "DATABASE_URL": database_url or f"sqlite:///{tmp}/load.db",
                "LOG_LEVEL": "INFO",
                "SPADES_BOT_DELAY": "0",
                "SHARD_COUNT": str(processes),
                "CLUSTER_COUNT": str(processes),
                **(env or {}),
            }
            if PROBE_DIR is not None:
                here = str(PROBE_CODE)
                settings["PYTHONPATH"] = os.pathsep.join(
                    [here, *filter(None, [os.environ.get("PYTHONPATH")])]
                )
                settings["SPADES_PROBE_DIR"] = str(PROBE_DIR)
            procs = []
            for shard in range(processes):
                procs.append(
                    await stack.enter_async_context(
                        run_bot(
                            fake,
                            env={**settings, "SHARD_IDS": str(shard)},
                            timeout=60,
                            wait_for="sync" if shard == 0 else "commands",
                        )
                    )
                )
            tables *= processes
            await asyncio.sleep(2.5)
            base = sum(rss(p.pid) for p in procs)
            sem = asyncio.Semaphore(16)

            async def setup(i: int) -> None:
                async with sem:
                    await set_up_table(fake, channels[i], users[i])

            t0 = time.monotonic()
            await asyncio.gather(*(setup(i) for i in range(tables)))
            setup_s = time.monotonic() - t0
            # Every player's hand is open before the measured window (as the bare bot's are).
            opening = Stats()

            async def opened(i: int) -> Hands:
                async with sem:
                    return await open_hands(fake, channels[i], users[i], opening, i)

            hands = await asyncio.gather(*(opened(i) for i in range(tables)))
            if extra is not None:
                await extra.ready(fake, channels)
            stats = Stats(started=time.monotonic())
            turns = Stats(started=stats.started)
            cpu0 = sum(cpu_seconds(p.pid) for p in procs)
            driver0 = cpu_seconds(os.getpid())
            until = stats.started + duration
            if DRIVER_PROBE is not None:
                DRIVER_PROBE.pids = {"bot": procs[0].pid, "driver": os.getpid()}
                DRIVER_PROBE.add({"k": "run", "t": stats.started, "t1": until})
            sampler = spy.record(procs[0].pid, duration, py_spy) if py_spy is not None else None
            with instrument_without_pauses():
                await asyncio.gather(
                    *(
                        play_table(
                            fake, channels[i], users[i], stats, turns, until, think, i, hands[i]
                        )
                        for i in range(tables)
                    )
                )
            stats.finished = turns.finished = time.monotonic()
            if sampler is not None:
                sampler.wait()
            live = webhook_rates(fake, stats.started, stats.finished)
            cpu = sum(cpu_seconds(p.pid) for p in procs) - cpu0
            driver_cpu = cpu_seconds(os.getpid()) - driver0
            loaded = sum(rss(p.pid) for p in procs)
            edits = max(fake.max_writes_per(ch, 1.0) for ch in channels)
            memory = {
                "rss_base_mb": base / 2**20,
                "rss_loaded_mb": loaded / 2**20,
                "kb_per_table": (loaded - base) / tables / 1024,
                "setup_s": setup_s,
                "max_writes_per_channel_per_s": edits,
                "bot_cpu_ms_per_interaction": cpu * 1000 / max(1, len(stats.latencies)),
                "bot_cpu_share": cpu / max(1e-9, stats.finished - stats.started),
                "live_edits": live["edits"],
                "live_edits_per_s": live["per_second"],
                "max_live_edits_per_token_2s": live["max_per_token_2s"],
                "max_live_edits_per_table_1s": live["max_per_table_1s"],
                "rate_limited_429": fake.ratelimiter.hits_429,
                # The fake Discord and the clicking users: they share the cores with the bots.
                "driver_cpu_share": driver_cpu / max(1e-9, stats.finished - stats.started),
            }
            if extra is not None:
                memory.update(extra.figures(fake, channels, stats.started, stats.finished))
            summaries = summary_latencies(fake, channels, stats)
            memory.update({f"summary_{k}": v for k, v in summaries.items()})
        commits = [m for p in procs for m in COMMITS.finditer(p.output)]
        if commits:  # the bots log their commit latency when they stop
            n = sum(int(m.group(1)) for m in commits)
            memory["commits"] = n
            # With 2 processes: the larger of their percentiles (each is a sample of its own).
            memory["commit_p50_ms"] = max(float(m.group(2)) for m in commits)
            memory["commit_p99_ms"] = max(float(m.group(3)) for m in commits)
        # With 2 processes: the one with the longest full pass.
        pauses = [collector_pauses(p.output) for p in procs]
        memory.update(max(pauses, key=lambda f: f.get("gc_full_longest_ms", -1.0)))
        return stats, turns, memory


def start_probe(where: Path) -> None:
    """``--probe``: the driver records its own loop, and the bots will record theirs."""
    global PROBE_DIR, DRIVER_PROBE
    sys.path.insert(0, str(PROBE_CODE))
    import loop_probe

    PROBE_DIR = where.resolve()
    DRIVER_PROBE = loop_probe.install(PROBE_DIR, "driver")


async def main() -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--tables", type=int, default=200, help="tables (per bot process)")
    ap.add_argument("--duration", type=float, default=60.0)
    ap.add_argument("--think", type=float, default=1.0)
    ap.add_argument("--skip-bare", action="store_true")
    ap.add_argument("--database", default="sqlite", help="sqlite, postgresql or sqlite,postgresql")
    ap.add_argument("--processes", default="1", help="1, 2 or 1,2 (2: PostgreSQL only)")
    ap.add_argument(
        "--metrics",
        choices=("off", "both"),
        default="off",
        help="both: the same load with METRICS_PORT set (and scraped) and without, in "
        "alternating pairs of runs (benchmarks/load_compare.py)",
    )
    ap.add_argument("--pairs", type=int, default=3, help="--metrics both: pairs of runs")
    ap.add_argument("--scrape-every", type=float, default=5.0, help="seconds between scrapes")
    ap.add_argument(
        "--probe",
        type=Path,
        help="write where the bot's and the driver's loops spend their time to this directory "
        "(benchmarks/probe/; read it with benchmarks/probe/attribute.py)",
    )
    ap.add_argument(
        "--py-spy",
        type=Path,
        help="sample the bot with py-spy into this file (the bare bot: FILE with .bare.raw)",
    )
    ap.add_argument(
        "--check-api",
        action=argparse.BooleanOptionalAction,
        help="check the bot's requests against Discord's API description (default: yes, "
        "but not at saturation, --think 0)",
    )
    ap.add_argument(
        "--floors",
        action="store_true",
        help="also run the bare bot making the one request more a click costs a bot with live "
        "hands (BAREBOT_LIVE=webhook, then raw): the ceilings of any such bot, same run",
    )
    ap.add_argument("--loop", choices=("uvloop", "asyncio"), help="(read in __main__)")
    args = ap.parse_args()
    check_api = args.check_api if args.check_api is not None else args.think > 0
    if args.probe is not None:
        start_probe(args.probe)
    print(f"machine: {machine()}")
    print(f"tables: {args.tables}, duration: {args.duration:.0f} s, think: {args.think} s")
    print(f"load average at the start: {os.getloadavg()[0]:.2f}")
    if args.metrics == "both":
        from benchmarks.load_compare import compare_metrics

        await compare_metrics(args)
        return 0
    if args.database != "sqlite" or args.processes != "1":
        from benchmarks.load_compare import compare

        await compare(args)
        return 0
    print(f"driver's event loop: {type(asyncio.get_running_loop()).__module__}")
    stats, turns, memory = await run_spades(
        args.tables, args.duration, args.think, check_api=check_api, py_spy=args.py_spy
    )
    print(f"load average after the spades run: {os.getloadavg()[0]:.2f}")
    ours = stats.summary()
    show_run(ours, turns.summary(), memory)
    if not args.skip_bare:
        bare_spy = args.py_spy.with_suffix(".bare.raw") if args.py_spy is not None else None
        bare_stats, bare_figures = await run_bare(
            args.tables, args.duration, args.think, check_api=check_api, py_spy=bare_spy
        )
        bare = bare_stats.summary()
        show("bare", bare)
        print(f"load average after the bare run: {os.getloadavg()[0]:.2f}")
        side_by_side(ours, bare, memory, bare_figures)
        if args.floors:
            floors = []
            for live in ("webhook", "raw"):
                floor_stats, floor_figures = await run_bare(
                    args.tables, args.duration, args.think, check_api=check_api, live=live
                )
                floor = floor_stats.summary()
                show(f"bare+{live}", floor)
                floors.append((live, floor, floor_figures))
            ceilings(ours, memory, bare, bare_figures, floors)
    return 0


def event_loop() -> Any:
    """The driver's event loop factory: uvloop's when installed (a lighter instrument), unless
    ``--loop asyncio``."""
    if "--loop=asyncio" in sys.argv or " ".join(sys.argv).find("--loop asyncio") >= 0:
        return None
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


if __name__ == "__main__":
    with asyncio.Runner(loop_factory=event_loop()) as runner:
        sys.exit(runner.run(main()))
