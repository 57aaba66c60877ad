"""Getting a finished game ready to store: the CPU part of recording, done off the write lock.

:func:`prepare_game` replays the record through the engine (it must re-score to the game's
scores and winner under the game's rules) — or, when the game comes with the engine's
``results``, walks those instead — counts each seat's hand statistics, and compresses the
record.  It is pure and thread-safe: run it with ``asyncio.to_thread`` before opening the
transaction, and hand the result to :meth:`bot.store.league_recorder.GameRecorder.record_game`.
"""

from __future__ import annotations

import bz2
import json
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from bot.engine.errors import RecordError, RulesError
from bot.engine.rules import Rules
from bot.league.errors import InvalidGame
from bot.league.models import SEAT_NAMES, FinishedGame
from bot.league.stats import GameSummary, seat_totals, summarize_record


@dataclass(frozen=True, slots=True)
class PreparedGame:
    finished: FinishedGame
    summary: GameSummary
    record_blob: bytes  # RECORD_ENCODING; players filled in from the seats if absent
    rules_json: str


RECORD_ENCODING: Final = "bz2-json"


def encode_record(doc: Mapping[str, Any]) -> bytes:
    """A record as stored (:data:`RECORD_ENCODING`): compact JSON, bzip2-compressed.

    bzip2 suits records (long runs of two-character card codes): smaller than zlib for under a
    millisecond of work (the sizes: docs/benchmarks.md, *League*).
    """
    text = json.dumps(doc, separators=(",", ":"), ensure_ascii=False)
    return bz2.compress(text.encode("utf-8"), 9)


def decode_record(data: bytes, encoding: str = RECORD_ENCODING) -> dict[str, Any]:
    """The record stored as ``data`` in ``encoding`` (``bz2-json`` or ``zlib-json``)."""
    if encoding == "bz2-json":
        raw = bz2.decompress(data)
    elif encoding == "zlib-json":
        raw = zlib.decompress(data)
    else:
        raise ValueError(f"unknown record encoding {encoding!r}")
    doc: dict[str, Any] = json.loads(raw.decode("utf-8"))
    return doc


def _summarize_results(finished: FinishedGame) -> GameSummary:
    results = finished.results or ()
    hands = finished.record.get("hands")
    if not isinstance(hands, list) or len(hands) not in (len(results), len(results) + 1):
        raise InvalidGame("the record does not hold the game's hands")
    last = results[-1].teams if results else None
    sides = len(finished.side_names)
    return GameSummary(
        hands=len(results),
        scores=tuple(t.score for t in last) if last else (0,) * sides,
        winner=finished.winner,
        over=not finished.abandoned,
        seats=seat_totals(results, finished.rules),
    )


def prepare_game(finished: FinishedGame) -> PreparedGame:
    """Check and summarise ``finished``; raises :class:`InvalidGame` with the reason."""
    try:
        rules = Rules.from_record(finished.record.get("rules", {"preset": "standard"}))
    except RulesError as e:
        raise InvalidGame(f"the record's rules are invalid: {e.reason}") from None
    if rules != finished.rules:
        raise InvalidGame("the record's rules are not the game's rules")
    if finished.results is not None:
        summary = _summarize_results(finished)
    else:
        try:
            summary = summarize_record(finished.record)
        except RecordError as e:
            raise InvalidGame(f"the record does not replay: {e.reason}") from None
    if summary.scores != tuple(finished.scores):
        raise InvalidGame(
            f"the record scores {summary.scores}, the game says {tuple(finished.scores)}"
        )
    if not finished.abandoned and summary.winner != finished.winner:
        raise InvalidGame(f"the record's winner is {summary.winner}, not {finished.winner}")
    doc = dict(finished.record)
    if not doc.get("players"):
        doc["players"] = {
            SEAT_NAMES[i]: {"name": s.display_name, "bot": s.is_bot}
            for i, s in enumerate(finished.seats)
        }
    return PreparedGame(
        finished,
        summary,
        encode_record(doc),
        json.dumps(finished.rules.to_record(), separators=(",", ":")),
    )
