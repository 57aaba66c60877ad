"""Records for the review tests."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

RECORDS = Path(__file__).resolve().parents[1] / "engine" / "records"


def record(name: str = "standard.json") -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((RECORDS / name).read_text(encoding="utf-8"))
    return doc


def with_players(doc: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    out["players"] = {
        "N": {"name": "alice", "bot": False},
        "E": {"name": "bob", "bot": False},
        "S": {"name": "carol", "bot": False},
        "W": {"name": "Computer (hard)", "bot": True},
    }
    return out
