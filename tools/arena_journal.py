"""A match's journal (``--results FILE``): every finished task kept as one JSON line, so that
a long match that is stopped — a restarted machine, the end of a working session — resumes
where it stopped, and its figures cover every task played, in this run or an earlier one.

The first line names the match: the sides, the rules, the seed, the budgets and a
fingerprint of the code that plays (every ``.py`` file of ``bot/ai``, ``bot/engine`` and
``tools``, the package of each ``py:`` side and the commit of each ``git:`` side).  A journal
is resumed only by the same match played by the same code; anything else is refused with one
line (:class:`JournalMismatch`), so that figures of two versions of a player are never mixed.
A line cut short by a kill is ignored: that task is played again.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from bot.engine.rules import Rules
from tools.arena_report import TaskResult, TeamLine
from tools.revisions import resolve

_ROOT = Path(__file__).resolve().parents[1]  # the repository
_PLAYING_CODE = (_ROOT / "bot" / "ai", _ROOT / "bot" / "engine", _ROOT / "tools")


class JournalMismatch(Exception):
    """The journal belongs to another match or to other code."""


def code_fingerprint(sides: tuple[str, ...]) -> str:
    """A hash of the source of everything that plays: ``bot/ai``, ``bot/engine``, ``tools``,
    the package of each ``py:MODULE:CLASS`` side and the commit of each ``git:REV:LEVEL`` side
    (a ``cmd:`` program is named by its command)."""
    roots = list(_PLAYING_CODE)
    digest = hashlib.sha256()
    for spec in sides:
        if spec.startswith("git:"):
            _, rev, level = spec.split(":")
            digest.update(f"git:{resolve(rev)}:{level}".encode())
        elif spec.startswith("py:"):
            found = importlib.util.find_spec(spec.split(":")[1])
            if found is not None and found.origin:
                roots.append(Path(found.origin).parent)
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            digest.update(path.relative_to(root.parent).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def match_header(
    side_a: str,
    side_b: str,
    rules: Rules,
    seed: int,
    budgets: dict[str, float],
    clock: str = "cpu",
) -> dict[str, Any]:
    """What names a match in its journal's first line (the clock only when not the CPU's, so
    that the journals written before the virtual clock still resume)."""
    header: dict[str, Any] = {
        "match": [side_a, side_b],
        "rules": repr(rules),
        "seed": seed,
        "budgets": sorted([k, v] for k, v in budgets.items()),
        "code": code_fingerprint((side_a, side_b)),
    }
    if clock != "cpu":
        header["clock"] = clock
    return header


def result_from_json(d: dict[str, Any]) -> TaskResult:
    d = dict(d)
    d["lines"] = [TeamLine(**x) for x in d["lines"]]
    d["game_lines"] = [TeamLine(**x) for x in d["game_lines"]]
    return TaskResult(**d)


class Journal:
    """The results file of one match: read on opening, a line appended per finished task."""

    def __init__(self, path: str, header: dict[str, Any]) -> None:
        self.path = Path(path)
        self.results: list[TaskResult] = []
        if self.path.exists() and self.path.stat().st_size:
            self._load(header)
        else:
            self.path.write_text(json.dumps(header) + "\n", encoding="utf-8")

    def _load(self, header: dict[str, Any]) -> None:
        text = self.path.read_text(encoding="utf-8")
        lines = text.splitlines()
        try:
            found = json.loads(lines[0])
        except ValueError:
            raise JournalMismatch(f"{self.path}: not an arena journal") from None
        if found != header:
            diff = sorted(k for k in header if found.get(k) != header[k])
            raise JournalMismatch(
                f"{self.path} is the journal of another match or other code "
                f"(differs in: {', '.join(diff) or 'its fields'}); use a new file"
            )
        seen: set[tuple[str, int]] = set()
        for line in lines[1:]:
            try:
                r = result_from_json(json.loads(line))
            except (ValueError, TypeError, KeyError):
                continue  # a line cut short when the run was killed: the task is played again
            if (r.kind, r.number) not in seen:
                seen.add((r.kind, r.number))
                self.results.append(r)
        if not text.endswith("\n"):
            with self.path.open("a", encoding="utf-8") as f:
                f.write("\n")  # the cut line stays ignored; the next result starts afresh

    def add(self, r: TaskResult) -> None:
        with self.path.open("a", encoding="utf-8") as f:
            f.write(json.dumps(asdict(r)) + "\n")
