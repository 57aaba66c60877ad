"""The floor of the load benchmark (benchmarks/load.py): the same clicks against a bare
discord.py bot (``tests/fakediscord/barebot.py``), and the two runs side by side.

The bare bot runs in its ``hand`` mode: every player of every table has a private message
shaped like a hand (an embed, thirteen card buttons and Refresh) and presses one of its card
buttons; the bot answers each click the way the real bot answers a card, with
``edit_message`` (an embed and the buttons), but with one fixed message and no work of its
own.  As with the real bot, the players of a table take turns and a table has one click in
flight at a time (``think`` seconds × U(0.5, 1.5) after the answer; 0: at once, saturation).
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from pathlib import Path

from benchmarks.load_figures import Stats, cpu_seconds
from tests.fakediscord import FakeDiscord, Message, run_bot


async def run_bare(
    tables: int,
    duration: float,
    think: float,
    *,
    check_api: bool = True,
    py_spy: Path | None = None,
    live: str = "",
) -> tuple[Stats, dict[str, float]]:
    """The bare bot's latencies, and its CPU (and the driver's) over the measured window;
    ``py_spy``: sampled with py-spy into that file meanwhile."""
    # Imported here: load.py imports this module.
    from benchmarks.load import instrument_without_pauses, spy, world

    async with FakeDiscord(check_api=check_api) as fake:
        channels, users = world(fake, tables)
        async with run_bot(
            fake,
            module="tests.fakediscord.barebot",
            env={"BAREBOT_ACK": "hand", "BAREBOT_LIVE": live},
            timeout=60,
        ) as proc:
            hands: list[list[Message]] = []
            sem = asyncio.Semaphore(16)

            async def open_hands(i: int) -> list[Message]:
                out = []
                async with sem:
                    for user in users[i]:
                        r = await (await fake.slash(user, channels[i], "ping")).response(timeout=30)
                        assert r.message is not None, r
                        assert r.ephemeral, r
                        out.append(r.message)
                return out

            hands = list(await asyncio.gather(*(open_hands(i) for i in range(tables))))
            cards = [c.custom_id for c in hands[0][0].all_components if c.custom_id]
            cards = [c for c in cards if c.startswith("bare:card:")]
            stats = Stats(started=time.monotonic())
            until = stats.started + duration
            cpu0, driver0 = cpu_seconds(proc.pid), cpu_seconds(os.getpid())
            sampler = spy.record(proc.pid, duration, py_spy) if py_spy is not None else None

            async def clicker(i: int) -> None:
                rng = random.Random(i)
                k = 0
                while time.monotonic() < until:
                    await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                    inter = await fake.click(users[i][k % 4], hands[i][k % 4], rng.choice(cards))
                    try:
                        await inter.response(timeout=30)
                    except TimeoutError:
                        stats.late += 1
                        continue
                    stats.add(inter.latency)
                    if inter.discord_latency is not None:
                        stats.on_discord_clock.append(inter.discord_latency)
                    k += 1

            with instrument_without_pauses():
                await asyncio.gather(*(clicker(i) for i in range(tables)))
            stats.finished = time.monotonic()
            if sampler is not None:
                sampler.wait()
            span = max(1e-9, stats.finished - stats.started)
            cpu = cpu_seconds(proc.pid) - cpu0
            figures = {
                "bot_cpu_ms_per_interaction": cpu * 1000 / max(1, len(stats.latencies)),
                "bot_cpu_share": cpu / span,
                "driver_cpu_share": (cpu_seconds(os.getpid()) - driver0) / span,
            }
            return stats, figures


def side_by_side(
    ours: dict[str, float],
    bare: dict[str, float],
    our_figures: dict[str, float],
    bare_figures: dict[str, float],
) -> None:
    """The two runs' throughput, latency and CPU, and the ratios spades / bare."""

    def ratio(a: float | None, b: float | None) -> str:
        return f"{a / b:.2f}" if a and b else "-"

    rows = [
        ("interactions/s", ours.get("per_second"), bare.get("per_second")),
        ("ack p50 ms", ours.get("p50_ms"), bare.get("p50_ms")),
        ("ack p99 ms", ours.get("p99_ms"), bare.get("p99_ms")),
        (
            "bot CPU ms/interaction",
            our_figures.get("bot_cpu_ms_per_interaction"),
            bare_figures.get("bot_cpu_ms_per_interaction"),
        ),
        (
            "bot CPU, share of a core",
            our_figures.get("bot_cpu_share"),
            bare_figures.get("bot_cpu_share"),
        ),
        (
            "driver CPU, share of a core",
            our_figures.get("driver_cpu_share"),
            bare_figures.get("driver_cpu_share"),
        ),
    ]
    print(f"\n{'same run':>28} {'spades':>10} {'bare':>10} {'spades/bare':>12}")
    for name, a, b in rows:
        print(f"{name:>28} {a or 0:10.2f} {b or 0:10.2f} {ratio(a, b):>12}")
    print(
        "targets at saturation: throughput ratio ≥ 0.9 "
        f"({ratio(ours.get('per_second'), bare.get('per_second'))}), "
        f"p99 ratio ≤ 1.2 ({ratio(ours.get('p99_ms'), bare.get('p99_ms'))})"
    )


def ceilings(
    ours: dict[str, float],
    our_figures: dict[str, float],
    bare: dict[str, float],
    bare_figures: dict[str, float],
    floors: list[tuple[str, dict[str, float], dict[str, float]]],
) -> None:
    """``--floors``: the bare bot with the live edit every click costs a bot with live hands
    (through discord.py's webhook adapter, and raw), each as a ratio to the bare bot: no bot
    that makes that request can do better than its floor's ratio."""
    print(
        f"\n{'same run':>28} {'/s':>8} {'p99 ms':>8} {'CPU ms':>8} {'thr/bare':>9} {'p99/bare':>9}"
    )
    cpu = "bot_cpu_ms_per_interaction"
    rows = [("bare", bare, bare_figures)] + [(f"bare+live {n}", s, f) for n, s, f in floors]
    rows.append(("spades", ours, our_figures))
    for name, s, f in rows:
        thr = (s.get("per_second") or 0) / max(1e-9, bare.get("per_second") or 0)
        p99 = (s.get("p99_ms") or 0) / max(1e-9, bare.get("p99_ms") or 0)
        print(
            f"{name:>28} {s.get('per_second') or 0:8.1f} {s.get('p99_ms') or 0:8.1f} "
            f"{f.get(cpu) or 0:8.3f} {thr:9.2f} {p99:9.2f}"
        )
