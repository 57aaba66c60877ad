"""The one SQL dialect the store's queries are written in, and its translation per backend.

Queries are written once, in the subset SQLite and PostgreSQL share, with SQLite's parameter
marks: ``?`` (the next parameter) or ``?N`` (parameter N, may repeat).  Two rules keep a query
portable:

* ``FOR UPDATE`` after a ``SELECT`` locks the rows read until the transaction ends (so two
  processes never both act on what they read).  SQLite has no row locks and needs none: its
  ``BEGIN IMMEDIATE`` already makes every write transaction exclusive, so the clause is dropped.
* Nothing else backend-specific: no ``group_concat``, ``lastrowid`` (use ``RETURNING``),
  ``REAL`` casts (use ``DOUBLE PRECISION``); qualify a column that an upsert's ``DO UPDATE``
  reads (``league_standings.games + 1``) because PostgreSQL finds the bare name ambiguous.

Times are stored as unix seconds (``DOUBLE PRECISION``): :func:`epoch` and :func:`utc` convert.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from functools import lru_cache

# A string literal, or a parameter mark outside of one.
_TOKEN = re.compile(r"'(?:[^']|'')*'|\?(\d*)")
_FOR_UPDATE = re.compile(r"\s+FOR\s+UPDATE\b", re.IGNORECASE)


@lru_cache(maxsize=1024)
def to_sqlite(sql: str) -> str:
    """The query as SQLite runs it."""
    return _FOR_UPDATE.sub("", sql)


@lru_cache(maxsize=1024)
def to_postgresql(sql: str) -> str:
    """The query with PostgreSQL's ``$N`` parameter marks."""
    counter = 0
    numbered = plain = False

    def mark(m: re.Match[str]) -> str:
        nonlocal counter, numbered, plain
        text = m.group(0)
        if text.startswith("'"):
            return text
        if m.group(1):
            numbered = True
            return f"${int(m.group(1))}"
        plain = True
        counter += 1
        return f"${counter}"

    out = _TOKEN.sub(mark, sql)
    if numbered and plain:
        raise ValueError("a query uses both ? and ?N parameter marks")
    return out


def in_marks(n: int) -> str:
    """``?, ?, …``: ``n`` bound parameters for an ``IN`` list."""
    return ", ".join("?" * n)


def epoch(when: datetime) -> float:
    """A time as the store keeps it: unix seconds."""
    return when.timestamp()


def utc(seconds: float) -> datetime:
    """A stored time back as an aware UTC datetime."""
    return datetime.fromtimestamp(seconds, UTC)
