"""Stopping a match: Ctrl-C or ``kill`` says one line, leaves no traceback, keeps the finished
deals, and the same command resumes (the real command line, in a subprocess)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _kept(path: Path) -> set[int]:
    """The deal numbers the journal holds (a line cut by the stop is ignored)."""
    out = set()
    if not path.exists():
        return out
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        try:
            r = json.loads(line)
        except ValueError:
            continue
        if r.get("kind") == "deal":
            out.add(r["number"])
    return out


def _ctrl_c_stops() -> None:
    # As in a terminal: a shell running the tests in the background ignores Ctrl-C for its
    # children, and a program keeps that (the arena respects it), so the child resets it.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _command(journal: Path, deals: int, jobs: int) -> list[str]:
    """The match's command line (the same one resumes it)."""
    match = ["--ns", "normal", "--ew", "easy", "--deals", str(deals), "--jobs", str(jobs)]
    return [sys.executable, "-m", "tools.arena", *match, "--quiet", "--results", str(journal)]


def _start(journal: Path, deals: int, jobs: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        _command(journal, deals, jobs),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_ctrl_c_stops,
    )


def _wait_for_deals(journal: Path, proc: subprocess.Popen[str], n: int) -> None:
    deadline = time.monotonic() + 120
    while len(_kept(journal)) < n:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "no deal finished"
        time.sleep(0.05)


@pytest.mark.parametrize(
    ("how", "jobs"),
    [("ctrl-c", 2), ("kill", 2), ("ctrl-c", 1)],
)
def test_a_stopped_match_says_one_line_and_resumes(tmp_path: Path, how: str, jobs: int) -> None:
    journal = tmp_path / "match.jsonl"
    proc = _start(journal, 100_000, jobs)
    _wait_for_deals(journal, proc, 3)
    if how == "ctrl-c":  # the terminal sends SIGINT to the whole process group
        os.killpg(proc.pid, signal.SIGINT)
    else:  # `kill PID`: the parent only
        proc.send_signal(signal.SIGTERM)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert "Traceback" not in err
    assert (
        err.strip()
        .splitlines()[-1]
        .startswith(f"arena: stopped; the finished tasks are kept in {journal}")
    )
    kept = _kept(journal)
    assert kept
    # The same command resumes: asked for one deal past the last kept, it plays the rest.
    deals = max(kept) + 2
    again = subprocess.run(
        _command(journal, deals, 1),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert f"duplicate deals: {deals} " in again.stdout
    assert _kept(journal) == set(range(deals))
