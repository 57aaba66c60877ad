"""The analysis of a recorded game: the hard player's opinion of every decision, computed in
worker processes in small chunks, bounded in CPU, and stored as compact JSON.

Budget: each decision gets the hard player's search over :data:`DECISION_WORLDS` worlds (a
number of worlds, not a time, so an opinion is the same on any machine), a whole game at most
:data:`GAME_BUDGET_S` CPU seconds (``REVIEW_CPU_BUDGET``); decisions left when a game's budget
is spent stay without an opinion (docs/benchmarks.md has what a 10-hand game costs).  Opinions
are seeded by the game and the decision, so the same record always gets the same analysis.
"""

from __future__ import annotations

import bz2
import json
import random
import time
import zlib
from dataclasses import dataclass
from typing import Any, Final

from bot.engine import Action, Bid, Play, bid_record
from bot.review.decisions import decision_views
from bot.review.opinion import CARD_WORLDS, evaluate

ANALYSIS_VERSION: Final = 3  # bump when the hard player or the method changes
DECISION_WORLDS: Final = CARD_WORLDS
GAME_BUDGET_S: Final = 60.0
CHUNK: Final = 8  # decisions per worker task (well under a second): live games never wait long


@dataclass(frozen=True, slots=True)
class Opinion:
    """The hard player's opinion of decision ``decision`` (its index in the game)."""

    decision: int
    preferred: str  # a card code ("4H") or a bid ("4", "nil")
    points: float  # expected points a deal the choice made costs against ``preferred``
    tricks: float | None  # expected tricks for the team it costs (cards only)
    samples: int

    def to_json(self) -> list[Any]:
        tricks = None if self.tricks is None else round(self.tricks, 3)
        return [self.decision, self.preferred, round(self.points, 2), tricks, self.samples]

    @classmethod
    def from_json(cls, raw: list[Any]) -> Opinion:
        return cls(int(raw[0]), str(raw[1]), float(raw[2]), raw[3], int(raw[4]))


@dataclass(frozen=True, slots=True)
class ChunkResult:
    opinions: tuple[Opinion, ...]
    examined: tuple[int, ...]  # every decision of the chunk looked at (forced ones too)
    cpu_s: float


@dataclass(frozen=True, slots=True)
class Analysis:
    """A game's analysis as stored: opinions by decision index."""

    version: int
    opinions: dict[int, Opinion]
    examined: int  # decisions looked at
    total: int  # decisions in the game
    cpu_s: float

    @property
    def complete(self) -> bool:
        return self.examined >= self.total

    def encode(self) -> bytes:
        doc = {
            "version": self.version,
            "examined": self.examined,
            "total": self.total,
            "cpu_s": round(self.cpu_s, 3),
            "opinions": [o.to_json() for o in self.opinions.values()],
        }
        return bz2.compress(json.dumps(doc, separators=(",", ":")).encode(), 9)

    @classmethod
    def decode(cls, data: bytes) -> Analysis:
        raw = bz2.decompress(data) if data[:3] == b"BZh" else zlib.decompress(data)
        doc = json.loads(raw)
        opinions = {int(o[0]): Opinion.from_json(o) for o in doc["opinions"]}
        return cls(
            int(doc["version"]), opinions, int(doc["examined"]), int(doc["total"]), doc["cpu_s"]
        )


def action_text(action: Action) -> str:
    if isinstance(action, Play):
        return action.card.code
    if isinstance(action, Bid):
        return str(bid_record(action.value))
    return type(action).__name__


def decision_seed(game_key: str, index: int) -> int:
    """A seed per game and decision (stable across processes: no ``hash()``)."""
    return zlib.crc32(f"{game_key}:{index}".encode())


def analyse_chunk(
    doc: dict[str, Any], indices: list[int], game_key: str, worlds: int = DECISION_WORLDS
) -> ChunkResult:
    """The hard player's opinions of the decisions ``indices`` of the game ``doc`` (runs in a
    worker process; pure apart from the clock it reports)."""
    start = time.process_time()
    opinions = []
    examined = []
    for d, view in decision_views(doc, set(indices)):
        examined.append(d.index)
        rng = random.Random(decision_seed(game_key, d.index))
        ev = evaluate(view, d.action, rng, worlds)
        if ev is None:
            continue
        points, tricks = ev.loss(d.action)
        opinions.append(Opinion(d.index, action_text(ev.preferred), points, tricks, ev.samples))
    return ChunkResult(tuple(opinions), tuple(examined), time.process_time() - start)
