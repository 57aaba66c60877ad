"""A probe of where an event loop's time goes, for the load benchmark (``load.py --probe DIR``).

Switched on per process: the bot through ``sitecustomize`` (this directory on its
``PYTHONPATH`` and ``SPADES_PROBE_DIR`` set), the driver (the fake Discord and its users) by
calling :func:`install` itself.  Each process appends JSON lines to ``DIR/<role>-<pid>.jsonl``:

- ``lag``: a timer due every 10 ms and how late it ran (the loop's lag, > 5 ms only);
- ``step``: every loop step (one callback or task step) that took > 20 ms of wall time, with
  the thread CPU it used (wall ≫ CPU: the step waited — for the interpreter lock, or the
  process was not running) and what it ran (the task's coroutine chain when it stopped);
- ``stack``: while a step has run > 40 ms, the main thread's stack every 10 ms, and whether a
  deal-picture thread was drawing at that moment;
- ``pic``: moments (10 ms ticks) a deal-picture thread was drawing;
- ``gc``: the collector's passes (start, duration, generation);
- ``recv`` / ``cb`` (bot only): when an INTERACTION_CREATE was parsed off the gateway, and when
  the interaction callback's HTTP request started and returned (interaction id);
- ``cpu`` (driver only): /proc/stat every 0.5 s — steal, idle and busy jiffies of the machine,
  and the CPU seconds of the bot and the driver — to tell the machine's share.

Times are ``time.monotonic()``: one clock for every process of the machine, so the bot's and
the driver's records line up.  ``attribute.py`` reads them.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

STEP_S = 0.020  # steps slower than this are recorded
STACK_AFTER_S = 0.040  # a step running this long gets its stack sampled
TICK_S = 0.010
LAG_S = 0.005
WAITS_S = 0.020  # how often the bot's interaction handlers in flight are looked at
# The coroutines discord.py runs an interaction's handler in (buttons, slash commands).
HANDLERS = frozenset(
    {"ViewStore.schedule_dynamic_item_call", "CommandTree._call", "View._scheduled_task"}
)


class Probe:
    def __init__(self, out: Path, role: str) -> None:
        self.out = out / f"{role}-{os.getpid()}.jsonl"
        self.role = role
        self.records: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.main_ident = threading.get_ident()
        self.step_started = 0.0  # 0: the main thread is not inside a loop step
        self.step_id = 0
        self.beating = False
        self.pids: dict[str, int] = {}
        self.waits = role == "bot"
        self.last_waits = 0.0
        self.handlers: dict[int, float] = {}

    def add(self, rec: dict[str, Any]) -> None:
        with self.lock:
            self.records.append(rec)

    def flush(self) -> None:
        with self.lock:
            recs, self.records = self.records, []
        if recs:
            with self.out.open("a") as f:
                for r in recs:
                    f.write(json.dumps(r) + "\n")

    # ----- the loop ------------------------------------------------------------------------
    def patch_handles(self) -> None:
        probe = self
        original = asyncio.events.Handle._run

        def _run(self: asyncio.events.Handle) -> None:
            if not probe.beating:
                probe.beating = True
                probe.beat(self._loop)
            t0 = time.monotonic()
            c0 = time.thread_time()
            probe.step_id += 1
            probe.step_started = t0
            try:
                original(self)
            finally:
                probe.step_started = 0.0
                wall = time.monotonic() - t0
                if wall > STEP_S:
                    probe.add(
                        {
                            "k": "step",
                            "t": t0,
                            "wall": wall,
                            "cpu": time.thread_time() - c0,
                            "id": probe.step_id,
                            "what": describe(self),
                        }
                    )

        asyncio.events.Handle._run = _run  # type: ignore[method-assign]

    def beat(self, loop: asyncio.AbstractEventLoop, last: tuple[float, ...] = ()) -> None:
        """A timer every 10 ms; when it runs late, how the main thread spent the time since
        the previous one: running, waiting for a CPU (the kernel's run queue), or neither
        (waiting for the interpreter lock, or idle in select)."""
        due = time.monotonic() + TICK_S
        last = last or (time.monotonic(), *schedstat())

        def tick() -> None:
            now = time.monotonic()
            late = now - due
            ran, queued = schedstat()
            if late > LAG_S:
                self.add(
                    {
                        "k": "lag",
                        "t": due,
                        "late": late,
                        "span": now - last[0],
                        "ran": ran - last[1],
                        "queued": queued - last[2],
                    }
                )
            last_now = (now, ran, queued)
            if self.waits and now - self.last_waits >= WAITS_S:
                self.last_waits = now
                self.sample_waits(now)
            self.beat(loop, last_now)

        loop.call_at(loop.time() + TICK_S, tick)

    def sample_waits(self, now: float) -> None:
        """Where each interaction handler in flight for > 60 ms is suspended (its await
        chain, innermost last, with line numbers)."""
        seen = self.handlers
        alive = set()
        for task in asyncio.all_tasks():
            coro = task.get_coro()
            code = getattr(coro, "cr_code", None)
            if code is None or code.co_qualname not in HANDLERS:
                continue
            key = id(task)
            alive.add(key)
            first = seen.setdefault(key, now)
            if now - first < 0.06:
                continue
            chain = []
            c: Any = coro
            while c is not None and len(chain) < 30:
                frame = getattr(c, "cr_frame", None) or getattr(c, "gi_frame", None)
                cc = getattr(c, "cr_code", None) or getattr(c, "gi_code", None)
                if cc is None:
                    chain.append(type(c).__name__)
                    break
                line = frame.f_lineno if frame is not None else 0
                chain.append(f"{short_file(cc.co_filename)}:{cc.co_qualname}:{line}")
                c = getattr(c, "cr_await", None) or getattr(c, "gi_yieldfrom", None)
            if c is not None and not chain[-1].endswith("Future"):
                chain.append(type(c).__name__)
            self.add({"k": "wait", "t": now, "age": now - first, "task": key, "chain": chain})
        for key in list(seen):
            if key not in alive:
                del seen[key]

    # ----- the sampler thread --------------------------------------------------------------
    def start_sampler(self) -> None:
        threading.Thread(target=self.sample, name="probe-sampler", daemon=True).start()

    def sample(self) -> None:
        last_flush = time.monotonic()
        last_cpu = 0.0
        stat0 = read_stat()
        while True:
            time.sleep(TICK_S)
            now = time.monotonic()
            frames = sys._current_frames()
            drawing = any(
                t.name.startswith("spades-pictures") and busy(frames.get(t.ident or 0))
                for t in threading.enumerate()
            )
            if drawing:
                self.add({"k": "pic", "t": now})
            started = self.step_started
            if started and now - started > STACK_AFTER_S:
                frame = frames.get(self.main_ident)
                self.add(
                    {
                        "k": "stack",
                        "t": now,
                        "id": self.step_id,
                        "in_step": now - started,
                        "drawing": drawing,
                        "stack": stack_of(frame),
                    }
                )
            if self.pids and now - last_cpu >= 0.5:
                last_cpu = now
                stat = read_stat()
                self.add(
                    {
                        "k": "cpu",
                        "t": now,
                        "d": [b - a for a, b in zip(stat0, stat, strict=True)],
                        "procs": {r: proc_cpu(p) for r, p in self.pids.items()},
                    }
                )
                stat0 = stat
            if now - last_flush > 2.0:
                last_flush = now
                self.flush()

    # ----- discord.py hooks (bot) ------------------------------------------------------------
    def patch_discord(self) -> None:
        import discord.state
        import discord.webhook.async_ as webhooks

        probe = self
        parse = discord.state.ConnectionState.parse_interaction_create

        def parse_interaction_create(self: Any, data: Any) -> None:
            probe.add({"k": "recv", "t": time.monotonic(), "id": int(data["id"])})
            parse(self, data)

        discord.state.ConnectionState.parse_interaction_create = parse_interaction_create  # type: ignore[method-assign]
        request = webhooks.AsyncWebhookAdapter.request

        async def request_(self: Any, route: Any, *args: Any, **kwargs: Any) -> Any:
            if not route.path.endswith("/callback"):
                return await request(self, route, *args, **kwargs)
            t0 = time.monotonic()
            try:
                return await request(self, route, *args, **kwargs)
            finally:
                probe.add({"k": "cb", "t": t0, "t1": time.monotonic(), "id": int(route.webhook_id)})

        webhooks.AsyncWebhookAdapter.request = request_  # type: ignore[method-assign]

    def watch_gc(self) -> None:
        started = [0.0]

        def cb(phase: str, info: dict[str, Any]) -> None:
            if phase == "start":
                started[0] = time.monotonic()
            else:
                t = started[0]
                self.add(
                    {"k": "gc", "t": t, "wall": time.monotonic() - t, "gen": info["generation"]}
                )

        gc.callbacks.append(cb)


def describe(handle: asyncio.events.Handle) -> str:
    cb = handle._callback
    task = getattr(cb, "__self__", None)
    if isinstance(task, asyncio.Task):
        coro = task.get_coro()
        chain = []
        while coro is not None and len(chain) < 12:
            code = getattr(coro, "cr_code", None) or getattr(coro, "gi_code", None)
            if code is None:
                chain.append(type(coro).__name__)
                break
            chain.append(code.co_qualname)
            coro = getattr(coro, "cr_await", None) or getattr(coro, "gi_yieldfrom", None)
        return "task " + " > ".join(chain)
    return "cb " + getattr(cb, "__qualname__", repr(cb))[:120]


def short_file(name: str) -> str:
    for cut in ("site-packages/", "/wt/tail/", "/lib/python3.11/"):
        if cut in name:
            return name.split(cut, 1)[1]
    return name


def stack_of(frame: Any) -> list[str]:
    out = []
    while frame is not None and len(out) < 40:
        code = frame.f_code
        out.append(f"{short_file(code.co_filename)}:{code.co_qualname}:{frame.f_lineno}")
        frame = frame.f_back
    return out


def busy(frame: Any) -> bool:
    """A pool thread is drawing unless it is waiting for work (in threading/queue)."""
    if frame is None:
        return False
    name = frame.f_code.co_filename
    return not name.endswith(("threading.py", "queue.py"))


def schedstat() -> tuple[float, float]:
    """The calling thread's time on a CPU and waiting in the run queue so far (seconds)."""
    with open("/proc/thread-self/schedstat") as f:
        ran, queued, _ = f.read().split()
    return int(ran) / 1e9, int(queued) / 1e9


def read_stat() -> list[int]:
    """user nice system idle iowait irq softirq steal, in jiffies, of the whole machine."""
    with open("/proc/stat") as f:
        fields = f.readline().split()[1:9]
    return [int(x) for x in fields]


def proc_cpu(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/stat") as f:
            parts = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")


def install(out: Path, role: str, discord_hooks: bool = False) -> Probe:
    out.mkdir(parents=True, exist_ok=True)
    probe = Probe(out, role)
    probe.patch_handles()
    probe.watch_gc()
    if discord_hooks:
        probe.patch_discord()
    probe.start_sampler()
    import atexit

    atexit.register(probe.flush)
    return probe
