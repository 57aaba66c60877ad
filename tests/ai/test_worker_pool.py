"""The hard players' process pool: rebuilt after a worker dies (the decision that was running
falls back to the normal player), and sized by the CPUs the process may use."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.ai.cpus import cgroup_cpu_limit, usable_cpus
from bot.ai.process_pool import RebuildingProcessPool
from bot.ai.worker import CRASHES_UNHEALTHY, AIPool, decide_view
from bot.engine import SeatView
from tests.ai.test_worker import _view_in_play

ROOT = Path(__file__).resolve().parents[2]


async def _worker_pid(pool: AIPool) -> int:
    loop = asyncio.get_running_loop()
    return await loop.run_in_executor(pool.executor_for("hard"), os.getpid)


async def test_a_killed_worker_falls_back_to_normal_and_the_pool_is_rebuilt(
    caplog: pytest.LogCaptureFixture,
) -> None:
    view = _view_in_play()
    assert isinstance(view, SeatView)
    pool = AIPool(processes=1, thinking_delay_s=0)
    try:
        first = await _worker_pid(pool)
        # A long search is under way (submitted to the pool) when its worker is killed.
        search = asyncio.ensure_future(pool.decide(view, "hard", seed=5, budget_s=120))
        for _ in range(5):
            await asyncio.sleep(0)
        with caplog.at_level(logging.WARNING):
            os.kill(first, signal.SIGKILL)
            action = await asyncio.wait_for(search, 60)
        assert action == decide_view(view, "normal", 5, pool.budgets["normal"])
        assert pool.fallbacks == 1
        assert any("worker process died" in r.getMessage() for r in caplog.records)

        # The next hard decision runs on new workers: not a fallback, and the hard player's.
        hard = await asyncio.wait_for(pool.decide(view, "hard", seed=1, budget_s=0.05), 60)
        assert hard == decide_view(view, "hard", 1, 0.05)
        assert pool.fallbacks == 1
        assert pool.rebuilds == 1
        second = await _worker_pid(pool)
        assert second != first
        # A worker killed while idle: the next call finds the pool broken and rebuilds it.
        os.kill(second, signal.SIGKILL)
        await asyncio.to_thread(_reap, second)
        hard = await asyncio.wait_for(pool.decide(view, "hard", seed=2, budget_s=0.05), 60)
        assert hard == decide_view(view, "hard", 2, 0.05)
        assert await _worker_pid(pool) not in (first, second)
    finally:
        pool.close()


async def _decide_while_killed(pool: AIPool, view: SeatView, seed: int) -> object:
    """A hard decision whose worker is killed once the search is submitted."""
    pid = await _worker_pid(pool)
    search = asyncio.ensure_future(pool.decide(view, "hard", seed=seed, budget_s=120))
    for _ in range(5):
        await asyncio.sleep(0)
    os.kill(pid, signal.SIGKILL)
    return await asyncio.wait_for(search, 60)


async def test_a_pool_whose_workers_keep_dying_is_reported_not_working() -> None:
    view = _view_in_play()
    assert isinstance(view, SeatView)
    pool = AIPool(processes=1, thinking_delay_s=0)
    try:
        for seed in range(CRASHES_UNHEALTHY):
            assert pool.working, "a crash now and then is survived"
            assert await _decide_while_killed(pool, view, seed) in view.legal
        assert not pool.working  # the health check fails: the container is restarted
        assert pool.fallbacks == CRASHES_UNHEALTHY
        await asyncio.wait_for(pool.decide(view, "hard", seed=1, budget_s=0.05), 60)
        assert pool.working
    finally:
        pool.close()


def _reap(pid: int) -> None:
    """Wait until the killed worker is gone (the pool's own thread reaps it)."""
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii") as f:
                if f.read().split(") ", 1)[1].startswith("Z"):
                    return
        except (ProcessLookupError, FileNotFoundError):  # reaped since the kill(0)
            return
        os.sched_yield()


def _die_once(marker: str) -> int:
    """Kill the worker the first time (as the out-of-memory killer would)."""
    if not os.path.exists(marker):
        Path(marker).touch()
        os.kill(os.getpid(), signal.SIGKILL)
    return os.getpid()


def test_the_rebuilding_pool_fails_only_the_calls_of_the_dead_worker(tmp_path: Path) -> None:
    import multiprocessing
    from concurrent.futures.process import BrokenProcessPool

    pool = RebuildingProcessPool(1, multiprocessing.get_context("spawn"))
    try:
        marker = str(tmp_path / "died")
        with pytest.raises(BrokenProcessPool):
            pool.submit(_die_once, marker).result(timeout=60)
        assert pool.submit(_die_once, marker).result(timeout=60) > 0
        assert pool.rebuilds == 1
    finally:
        pool.shutdown()
    with pytest.raises(RuntimeError):
        pool.submit(os.getpid)


def test_the_pool_has_one_worker_per_cpu_the_process_may_use() -> None:
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        pytest.skip("needs a machine with two CPUs to restrict the process to one")
    script = (
        "import os\n"
        f"os.sched_setaffinity(0, {{{cpus[0]}}})\n"
        "from bot.ai.worker import AIPool\n"
        "pool = AIPool()\n"
        "print(pool.process_count)\n"
        "pool.close()\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "1"
    assert usable_cpus() <= len(cpus)


def _cgroup(tmp_path: Path, lines: str, files: dict[str, str]) -> tuple[Path, Path]:
    root = tmp_path / "cgroup"
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    root.mkdir(exist_ok=True)
    proc = tmp_path / "proc_cgroup"
    proc.write_text(lines)
    return root, proc


def test_cgroup_v2_cpu_max_is_the_smallest_along_the_path(tmp_path: Path) -> None:
    root, proc = _cgroup(
        tmp_path,
        "0::/kubepods/pod1\n",
        {
            "cpu.max": "max 100000\n",
            "kubepods/cpu.max": "400000 100000\n",
            "kubepods/pod1/cpu.max": "150000 100000\n",
        },
    )
    assert cgroup_cpu_limit(root, proc) == 1.5
    assert usable_cpus(root, proc) == 1  # rounds down: a worker runs a whole search at speed


def test_cgroup_v2_in_a_container_reads_the_mount(tmp_path: Path) -> None:
    # Inside a container the path is the host's, and the container's cgroup is the mount.
    root, proc = _cgroup(tmp_path, "0::/../docker-abc.scope\n", {"cpu.max": "50000 100000\n"})
    assert cgroup_cpu_limit(root, proc) == 0.5
    assert usable_cpus(root, proc) == 1  # never fewer than one


def test_cgroup_v1_quota_and_no_limit(tmp_path: Path) -> None:
    files = {"cpu,cpuacct/docker/x/cpu.cfs_quota_us": "200000\n"}
    files["cpu,cpuacct/docker/x/cpu.cfs_period_us"] = "100000\n"
    root, proc = _cgroup(tmp_path, "4:cpu,cpuacct:/docker/x\n3:memory:/docker/x\n", files)
    assert cgroup_cpu_limit(root, proc) == 2.0
    unlimited = {"cpu/cpu.cfs_quota_us": "-1\n", "cpu/cpu.cfs_period_us": "100000\n"}
    root, proc = _cgroup(tmp_path / "b", "2:cpu:/\n0::/\n", unlimited)
    assert cgroup_cpu_limit(root, proc) is None
    assert cgroup_cpu_limit(tmp_path / "none", tmp_path / "missing") is None
