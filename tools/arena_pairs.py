"""Where an arena match's points go, and two versions of a player paired deal by deal.

    python -m tools.arena_pairs BASE.jsonl [NEW.jsonl ...]

The files are arena journals (``python -m tools.arena --results FILE``).  For ``BASE`` alone:

* A − B per deal on the deals with a nil bid at either table and on the others, raw and with
  bags charged (a nil swings 200 points, so the two kinds of deal tell different stories);
* the **same cards** compared: each team hand of side A against side B's hand of the same
  cards at the other table, grouped by how much higher A's contract was — how often each was
  set, the tricks each took, the points between them.

With ``NEW`` files (another version of side A against the same B on the same seed, best with
``--clock virtual``, which repeats a match to the card): for each, NEW's A − B minus BASE's on
the deals both hold, with 95 % intervals, on all deals and split as above.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tools.arena_report import mean_ci

Deal = dict[str, Any]


def load(path: str) -> dict[int, Deal]:
    """The duplicate deals of a journal by number (a line cut short by a kill is skipped)."""
    out: dict[int, Deal] = {}
    for line in Path(path).read_text(encoding="utf-8").splitlines()[1:]:
        try:
            d = json.loads(line)
        except ValueError:
            continue
        if d.get("kind") == "deal":
            out.setdefault(d["number"], d)
    return out


def has_nil(d: Deal) -> bool:
    return any(x["nils"] or x["blind_nils"] for x in d["lines"])


@dataclass
class Row:
    """A group of deals: its size, the mean of a difference raw and with bags charged."""

    name: str
    n: int
    raw: tuple[float, tuple[float, float]]
    eff: tuple[float, tuple[float, float]]


def split(deals: Sequence[Deal], others: Sequence[Deal] = ()) -> list[tuple[str, list[int]]]:
    """Indexes of all deals, of those with a nil (in ``deals`` or the paired ``others``), and
    of the rest."""
    idx = list(range(len(deals)))
    nil = [i for i in idx if has_nil(deals[i]) or (others and has_nil(others[i]))]
    nils = set(nil)
    return [("all deals", idx), ("a nil bid", nil), ("no nil", [i for i in idx if i not in nils])]


def rows(
    raw: Sequence[float], eff: Sequence[float], groups: Iterable[tuple[str, list[int]]]
) -> list[Row]:
    out = []
    for name, idx in groups:
        if idx:
            out.append(
                Row(name, len(idx), mean_ci([raw[i] for i in idx]), mean_ci([eff[i] for i in idx]))
            )
    return out


def where(base: dict[int, Deal]) -> list[Row]:
    """A − B per deal, split by nils."""
    deals = [base[n] for n in sorted(base)]
    return rows([d["diff"] for d in deals], [d["diff_eff"] for d in deals], split(deals))


def paired(base: dict[int, Deal], new: dict[int, Deal]) -> list[Row]:
    """NEW's A − B minus BASE's, deal by deal on the deals both hold, split by nils."""
    common = sorted(set(base) & set(new))
    b = [base[n] for n in common]
    w = [new[n] for n in common]
    raw = [x["diff"] - y["diff"] for x, y in zip(w, b, strict=True)]
    eff = [x["diff_eff"] - y["diff_eff"] for x, y in zip(w, b, strict=True)]
    return rows(raw, eff, split(b, w))


@dataclass
class SameCards:
    """Team hands where A's contract exceeded B's on the same cards by ``gap`` (clamped)."""

    gap: int
    n: int = 0
    points: float = 0.0  # A's points minus B's, summed
    eff: float = 0.0
    set_a: int = 0
    set_b: int = 0
    tricks_a: int = 0
    tricks_b: int = 0


def same_cards(base: dict[int, Deal], lo: int = -2, hi: int = 3) -> list[SameCards]:
    """Each team hand without a nil on either side's cards, A's against B's on the same cards
    (at table 0 A sits North–South, at table 1 East–West: lines 0 and 2, 3 and 1)."""
    groups: dict[int, SameCards] = {}
    for d in base.values():
        if has_nil(d):
            continue
        ls = d["lines"]
        for a, b in ((ls[0], ls[2]), (ls[3], ls[1])):
            if a["contract"] is None or b["contract"] is None:
                continue
            gap = max(lo, min(hi, a["contract"] - b["contract"]))
            g = groups.setdefault(gap, SameCards(gap))
            g.n += 1
            g.points += a["points"] - b["points"]
            g.eff += a["effective"] - b["effective"]
            g.set_a += a["was_set"]
            g.set_b += b["was_set"]
            g.tricks_a += a["tricks"]
            g.tricks_b += b["tricks"]
    return [groups[k] for k in sorted(groups)]


def _ci(m: tuple[float, tuple[float, float]]) -> str:
    return f"{m[0]:+7.2f} ({m[1][0]:+.2f} .. {m[1][1]:+.2f})"


def format_rows(title: str, rs: Sequence[Row]) -> str:
    lines = [title]
    for r in rs:
        lines.append(f"  {r.name:10s} {r.n:5d} deals  {_ci(r.raw)}   bags charged {_ci(r.eff)}")
    return "\n".join(lines)


def format_same_cards(gs: Sequence[SameCards]) -> str:
    lines = [
        "the same cards, no nil: A's contract minus B's | hands | A - B points (bags charged)"
        " | set A / B | tricks A / B"
    ]
    for g in gs:
        lines.append(
            f"  {g.gap:+d}  {g.n:5d}  {g.points / g.n:+7.1f} ({g.eff / g.n:+6.1f})"
            f"  {g.set_a / g.n:6.1%} / {g.set_b / g.n:6.1%}"
            f"  {g.tricks_a / g.n:5.2f} / {g.tricks_b / g.n:5.2f}"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("base", help="an arena journal (--results FILE)")
    ap.add_argument("new", nargs="*", help="journals of other versions of side A, same deals")
    args = ap.parse_args(argv)
    base = load(args.base)
    if not base:
        print(f"arena_pairs: {args.base} holds no duplicate deal", file=sys.stderr)
        return 2
    print(format_rows(f"{args.base}: A - B per deal", where(base)))
    print(format_same_cards(same_cards(base)))
    for path in args.new:
        new = load(path)
        n = len(set(base) & set(new))
        print(format_rows(f"{path} - {args.base}, paired on {n} deals", paired(base, new)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
