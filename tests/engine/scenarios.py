"""The games behind the frozen records in ``tests/engine/records/``.

Each record demonstrates rows of rules.md §9 (see ``test_worked_examples.py`` for what every
hand must score).  The JSON files were generated from these scenarios with
``python -m tests.engine.scenarios`` and then checked by hand against §9; a test keeps the files
and the scenarios in step.  Bids are by seat (New York: by team, ``(bid, True)`` = blind);
tricks are per seat.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.engine import Game, Rules, Seat
from bot.engine.record import export_record
from tests.engine.builders import BidSpec, play_hand

RECORDS_DIR = Path(__file__).parent / "records"


@dataclass(frozen=True)
class HandSpec:
    bids: dict[str, BidSpec] | None
    tricks: dict[str, int] | None = None
    winners: str | None = None  # e.g. "NESW..." (13 letters), instead of tricks
    seconds: dict[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Scenario:
    rules: dict[str, Any]
    hands: list[HandSpec]
    first_dealer: str = "N"


def H(bids: dict[str, BidSpec] | None, **tricks: int) -> HandSpec:
    return HandSpec(bids, {s: tricks.get(s, 0) for s in "NESW"})


SCENARIOS: dict[str, Scenario] = {
    "standard": Scenario(
        {"preset": "standard"},
        [
            H({"N": 3, "E": 3, "S": 4, "W": 3}, N=3, E=3, S=4, W=3),  # 3 + 4, takes 7
            H({"N": 2, "E": 3, "S": 3, "W": 3}, N=3, E=4, S=3, W=3),  # bid 5, takes 6
            H({"N": 1, "E": 2, "S": 1, "W": 2}, N=5, E=2, S=4, W=2),  # 7 bags: count 8
            H({"N": 2, "E": 3, "S": 2, "W": 4}, N=3, E=3, S=3, W=4),  # bid 4, takes 6: 8 -> 10
            H({"N": 2, "E": 5, "S": 3, "W": 5}, N=2, E=5, S=2, W=4),  # bid 5, takes 4
            H({"N": 2, "E": 6, "S": 3, "W": 6}, N=1, E=6, S=0, W=6),  # bid 5, takes 1
            H({"N": "nil", "E": 4, "S": 4, "W": 4}, N=0, E=5, S=4, W=4),  # nil + 4
            H({"N": "nil", "E": 4, "S": 3, "W": 4}, N=1, E=5, S=3, W=4),  # nil takes 1
            H({"N": 4, "E": 4, "S": "blind_nil", "W": 4}, N=4, E=5, S=0, W=4),  # blind nil
            H({"N": 2, "E": 4, "S": 3, "W": 4}, N=2, E=4, S=3, W=4),  # EW reach 500
        ],
    ),
    "house": Scenario(
        {"preset": "house"},
        [
            H({"N": "nil", "E": 5, "S": 3, "W": 5}, N=0, E=5, S=3, W=5),
            H({"N": "nil", "E": 5, "S": 3, "W": 6}, N=0, E=5, S=2, W=6),
            H({"N": "nil", "E": 4, "S": 3, "W": 5}, N=1, E=4, S=3, W=5),
            # NS trail by 170: S bids blind nil, passes two cards to N, N passes two back.
            H({"N": 4, "E": 4, "S": "blind_nil", "W": 4}, N=4, E=5, S=0, W=4),
        ],
    ),
    "house-double-blind-nil": Scenario(
        {"preset": "house"},
        [
            H({"N": 1, "E": 7, "S": 1, "W": 6}, E=7, W=6),
            H({"N": 1, "E": 7, "S": 1, "W": 6}, E=7, W=6),
            # NS trail by 300 >= 201: double blind nil, no passing.
            H({"N": "blind_nil", "E": 7, "S": "blind_nil", "W": 6}, N=1, E=5, S=1, W=6),
            H({"N": "blind_nil", "E": 7, "S": "blind_nil", "W": 6}, N=1, E=6, S=0, W=6),
            H({"N": "blind_nil", "E": 7, "S": "blind_nil", "W": 6}, E=7, W=6),
        ],
    ),
    "no-set": Scenario(
        {"preset": "no-set"},
        [
            H({"N": 2, "E": 4, "S": 3, "W": 4}, N=2, E=4, S=3, W=4),
            H({"N": 2, "E": 3, "S": 3, "W": 3}, N=4, E=3, S=3, W=3),
            H({"N": 2, "E": 5, "S": 3, "W": 4}, N=2, E=5, S=2, W=4),
            H({"N": "nil", "E": 4, "S": 4, "W": 4}, N=2, E=4, S=3, W=4),
        ],
    ),
    "short": Scenario(
        {"preset": "short"},
        [
            H({"N": "nil", "E": 6, "S": 1, "W": 6}, N=0, E=6, S=1, W=6),
            H({"N": 2, "E": 6, "S": 2, "W": 6}, N=1, E=6, S=0, W=6),
            H({"N": 3, "E": 5, "S": "blind_nil", "W": 5}, N=3, E=5, S=0, W=5),
        ],
    ),
    "tennessee": Scenario(
        {"preset": "tennessee"},
        [
            H({"N": "blind_nil", "E": 5, "S": 3, "W": 5}, N=0, E=5, S=3, W=5),  # at 0-0
            H({"N": 1, "E": 3, "S": 1, "W": 2}, N=4, E=3, S=4, W=2),  # 6 bags
            H({"N": 1, "E": 3, "S": 1, "W": 2}, N=4, E=3, S=4, W=2),  # 12 bags
            H({"N": "blind_nil", "E": 5, "S": 2, "W": 5}, N=0, E=5, S=2, W=6),  # while leading
        ],
    ),
    "guide-double-nil": Scenario(
        {"preset": "guide"},
        [
            H({"N": "nil", "E": 6, "S": "nil", "W": 7}, E=6, W=7),
            H({"N": "nil", "E": 6, "S": "nil", "W": 6}, N=1, E=6, W=6),
        ],
    ),
    "guide-double-blind-nil-made": Scenario(
        {"preset": "guide", "target": 1000},  # +800 is below the target: the event decides
        [H({"N": "blind_nil", "E": 6, "S": "blind_nil", "W": 7}, E=6, W=7)],
    ),
    "guide-double-blind-nil-failed": Scenario(
        {"preset": "guide"},
        [
            H({"N": 7, "E": 1, "S": 6, "W": 1}, N=7, S=6),
            H({"N": "blind_nil", "E": 1, "S": "blind_nil", "W": 1}, N=1, E=6, W=6),
        ],
    ),
    "new-york": Scenario(
        {"preset": "new-york"},
        [
            H(None, N=4, E=3, S=4, W=2),  # first hand: NS take 8
            H({"NS": 6, "EW": 4}, N=4, E=3, S=4, W=2),
            H({"NS": 6, "EW": 4}, N=5, E=2, S=4, W=2),
            H({"NS": 10, "EW": 4}, N=6, E=1, S=5, W=1),
            H({"NS": 6, "EW": 8}, N=3, E=4, S=2, W=4),
            H({"NS": 10, "EW": 4}, N=5, E=2, S=4, W=2),  # NS set twice in a row
        ],
    ),
    "new-york-blind": Scenario(
        {"preset": "new-york"},
        [
            H(None, N=1, E=6, S=0, W=6),
            H({"NS": (6, True), "EW": 5}, N=3, E=4, S=3, W=3),
            H({"NS": 4, "EW": 10}, N=1, E=6, S=1, W=5),
            H({"NS": 4, "EW": 9}, N=2, E=5, S=2, W=4),
            H({"NS": (6, True), "EW": 6}, N=3, E=4, S=2, W=4),
        ],
    ),
    "new-york-boston": Scenario(
        {"preset": "new-york"},
        [H(None, N=4, E=3, S=3, W=3), H({"NS": 10, "EW": 4}, N=7, S=6)],
    ),
    "joker": Scenario(
        {"preset": "joker"},
        [
            # Trick 12 holds K♠ A♠ LJ BJ: E plays BJ and wins it, N plays LJ.
            HandSpec(
                {"N": 4, "E": 3, "S": 3, "W": 3},
                winners="NESWNESWNWSEN",
                seconds={11: "N"},
            )
        ],
    ),
    "jjdd": Scenario(
        {"preset": "jjdd"},
        [H({"N": 3, "E": 3, "S": 4, "W": 3}, N=3, E=3, S=4, W=3)],
    ),
}


def build_record(name: str) -> dict[str, Any]:
    """Play the scenario through the engine and export the record."""
    sc = SCENARIOS[name]
    game = Game(Rules.from_record(sc.rules), Seat[sc.first_dealer])
    for hand in sc.hands:
        play_hand(game, hand.bids, hand.tricks, winners=hand.winners, seconds=hand.seconds)
    return export_record(game)


def dumps(doc: dict[str, Any]) -> str:
    """JSON with one line per dealt hand, bid list, pass list and play list."""
    lines = ["{"]
    for key in ("format", "rules", "first_dealer"):
        lines.append(f"  {json.dumps(key)}: {json.dumps(doc[key])},")
    lines.append('  "hands": [')
    for i, hand in enumerate(doc["hands"]):
        lines.append("    {")
        lines.append('      "deal": {')
        deal = [f"        {json.dumps(s)}: {json.dumps(cs)}" for s, cs in hand["deal"].items()]
        lines.append(",\n".join(deal))
        lines.append("      },")
        keys = [k for k in ("bids", "passes", "plays") if k in hand]
        rest = [f"      {json.dumps(k)}: {json.dumps(hand[k])}" for k in keys]
        lines.append(",\n".join(rest))
        lines.append("    }" + ("," if i < len(doc["hands"]) - 1 else ""))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> None:
    for name in sys.argv[1:] or SCENARIOS:
        (RECORDS_DIR / f"{name}.json").write_text(dumps(build_record(name)), encoding="utf-8")


if __name__ == "__main__":
    main()
