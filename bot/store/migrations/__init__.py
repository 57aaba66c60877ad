"""Numbered schema migrations, one folder per backend.

``sqlite/NNN_name.sql`` and ``postgresql/NNN_name.sql`` exist in pairs: the same numbers and
names in both folders (a test checks), each written in its backend's own DDL, both producing
tables with the same names, columns and constraints, so that the store's one set of queries
(``bot/store/sql.py``) returns the same rows from either.  A migration is applied once, in one
transaction together with the bump of the database's schema version.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

BACKENDS = ("sqlite", "postgresql")
_NAME = re.compile(r"^(\d{3})_[a-z0-9_]+\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


def migrations(backend: str) -> list[Migration]:
    """Every migration shipped for ``backend``, in order; raises on a gap or a duplicate."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}")
    out = []
    for entry in resources.files(__name__).joinpath(backend).iterdir():
        m = _NAME.match(entry.name)
        if m:
            out.append(Migration(int(m.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    out.sort(key=lambda mig: mig.version)
    for i, mig in enumerate(out, start=1):
        if mig.version != i:
            raise RuntimeError(
                f"migration {backend}/{mig.name} is out of sequence (expected {i:03d})"
            )
    return out


def latest(backend: str) -> int:
    """The schema version this version of the bot migrates to."""
    found = migrations(backend)
    return found[-1].version if found else 0


def newer_schema(where: str, current: int, newest: int) -> str:
    """The one line refusing a database migrated by a newer version of the bot."""
    return (
        f"the database {where} was migrated by a newer version of spades-bot (schema "
        f"{current}; this version knows up to {newest}): run that version or a newer one, "
        "or restore a backup; a database is never downgraded"
    )
