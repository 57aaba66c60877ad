"""How many CPUs this process may use: its affinity, capped by a container's CPU limit.

``os.cpu_count()`` counts the machine's cores; a process pinned to some of them
(``taskset``, ``docker run --cpuset-cpus``) or limited by a CPU quota (``docker run --cpus``,
Kubernetes ``limits.cpu``) may use fewer, and one search per core beyond that only slows every
search down (each hard decision searches to a wall-clock budget, so it plays worse).

* affinity: ``os.sched_getaffinity(0)`` (where the platform has it);
* cgroup v2: ``cpu.max`` (``"150000 100000"`` = 1.5 CPUs, ``"max 100000"`` = no limit) of the
  process's cgroup and of each parent up to the mount;
* cgroup v1: ``cpu.cfs_quota_us`` / ``cpu.cfs_period_us`` (a quota of ``-1`` = no limit).

A fractional quota rounds down (1.5 CPUs → 1 worker; never fewer than 1): a worker must be able
to run a whole search at full speed.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")
PROC_CGROUP = Path("/proc/self/cgroup")


def usable_cpus(root: Path = CGROUP_ROOT, proc_cgroup: Path = PROC_CGROUP) -> int:
    """The CPUs this process may keep busy at once (at least 1)."""
    if hasattr(os, "sched_getaffinity"):
        count = len(os.sched_getaffinity(0))
    else:  # pragma: no cover - not Linux
        count = os.cpu_count() or 1
    limit = cgroup_cpu_limit(root, proc_cgroup)
    if limit is not None:
        count = min(count, max(1, math.floor(limit)))
    return max(1, count)


def cgroup_cpu_limit(root: Path = CGROUP_ROOT, proc_cgroup: Path = PROC_CGROUP) -> float | None:
    """The CPU quota of this process's cgroup in CPUs (the smallest along its path up to the
    mount), or ``None`` when there is none or it cannot be read."""
    try:
        lines = proc_cgroup.read_text(encoding="utf-8").splitlines()
    except OSError:
        lines = []
    limits: list[float] = []
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, path = parts
        if controllers == "":  # cgroup v2: "0::/path"
            for folder in _folders(root, path):
                limits.extend(_v2_limit(folder))
        elif "cpu" in controllers.split(","):  # cgroup v1: "4:cpu,cpuacct:/path"
            for mount in (root / controllers, root / "cpu", root / "cpu,cpuacct"):
                if mount.is_dir():
                    for folder in _folders(mount, path):
                        limits.extend(_v1_limit(folder))
                    break
    return min(limits) if limits else None


def _folders(mount: Path, path: str) -> Iterator[Path]:
    """The cgroup's folder and its parents up to the mount.  In a container the mount is the
    container's own cgroup, and the path (seen from the host's namespace) may not exist under
    it: then the mount itself is the container's cgroup."""
    parts = [p for p in path.strip().split("/") if p and p != ".."]
    seen = False
    for depth in range(len(parts), -1, -1):
        folder = mount.joinpath(*parts[:depth])
        if folder.is_dir():
            seen = True
            yield folder
    if not seen:
        yield mount


def _v2_limit(folder: Path) -> Iterator[float]:
    try:
        quota, period = (folder / "cpu.max").read_text(encoding="utf-8").split()[:2]
        if quota != "max" and int(period) > 0:
            yield int(quota) / int(period)
    except (OSError, ValueError):
        return


def _v1_limit(folder: Path) -> Iterator[float]:
    try:
        quota = int((folder / "cpu.cfs_quota_us").read_text(encoding="utf-8"))
        period = int((folder / "cpu.cfs_period_us").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    if quota > 0 and period > 0:
        yield quota / period
