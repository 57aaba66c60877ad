"""The arena's figures: what one task (a duplicate deal, a pair of full games) yields, and the
summary of a match with 95 % confidence intervals.

Three figures of merit, side A minus side B, each with its interval over the duplicate units:

* **points per deal** — every deal played twice with the partnerships swapped, each time as a
  one-hand game from 0-0.  Such a hand scores a bag as +1 point;
* **bags charged** — the same hands with each bag charged its share of the next penalty
  (``bag_penalty / bag_limit`` points), what a bag costs in a real game in the long run;
* **full games** — pairs of whole games to the target on one deal stream with the sides
  swapped, real bag penalties included: points per hand (each pair's point difference over
  its hands) and the share of games won.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass
class TeamLine:
    """One team's figures for one hand."""

    side: int  # 0 = side A (--ns), 1 = side B (--ew)
    points: int
    tricks: int  # every trick the team took
    effective: float  # points less the bags' share of the next penalty (bag_penalty / limit)
    contract: int | None
    counted: int
    made: bool
    was_set: bool
    bags: int
    nils: int
    nils_made: int
    blind_nils: int
    blind_nils_made: int


@dataclass
class TaskResult:
    kind: str
    number: int
    lines: list[TeamLine] = field(default_factory=list)
    diff: float = 0.0  # duplicate: side A minus side B, points per deal
    diff_eff: float = 0.0  # the same with bags charged their share of the penalty
    wins: list[int] = field(default_factory=list)  # games: winning side per game (-1: none)
    times: dict[str, list[float]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    # needless partner overtakes by side (deals only): by the real hands, and known to be so
    overtakes: list[int] = field(default_factory=lambda: [0, 0])
    overtakes_known: list[int] = field(default_factory=lambda: [0, 0])
    # full games: every hand of both games of the pair, and how many hands they took
    game_lines: list[TeamLine] = field(default_factory=list)
    game_hands: int = 0
    # deals, for --detail: each table's hand, and each needless overtake described
    hands: list[dict[str, Any]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)


# --------------------------------------------------------------------------- statistics
def mean_ci(xs: Sequence[float]) -> tuple[float, tuple[float, float]]:
    """The mean and its 95 % confidence interval (mean ± 1.96 standard errors)."""
    n = len(xs)
    mean = sum(xs) / n if n else 0.0
    var = sum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n) if n > 1 else math.inf
    return mean, (mean - half, mean + half)


def percentile(xs: Sequence[float], q: float) -> float:
    if not xs:
        return math.nan
    s = sorted(xs)
    k = min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))
    return s[k]


def merge_times(into: dict[str, list[float]], more: dict[str, list[float]]) -> None:
    for k, v in more.items():
        into.setdefault(k, []).extend(v)


def _r(x: float) -> float:
    return round(x, 3)


def _pair(x: tuple[float, float]) -> list[float]:
    return [round(x[0], 2), round(x[1], 2)]


# --------------------------------------------------------------------------- summary
@dataclass
class Summary:
    side_a: str
    side_b: str
    deals: int
    diff_mean: float
    diff_ci: tuple[float, float]
    eff_mean: float
    eff_ci: tuple[float, float]
    sides: list[dict[str, Any]]
    games: int
    game_wins: tuple[int, int]
    times_ms: dict[str, dict[str, float]]
    problems: int
    # full games (pairs): A - B points per hand, A's share of the games won (a draw counts half)
    game_pairs: int = 0
    game_diff_mean: float = 0.0
    game_diff_ci: tuple[float, float] = (0.0, 0.0)
    win_rate: float = 0.0
    win_ci: tuple[float, float] = (0.0, 0.0)
    game_sides: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "side_a": self.side_a,
            "side_b": self.side_b,
            "deals": self.deals,
            "points_per_deal_diff": round(self.diff_mean, 2),
            "ci95": _pair(self.diff_ci),
            "bags_charged_diff": round(self.eff_mean, 2),
            "bags_charged_ci95": _pair(self.eff_ci),
            "sides": self.sides,
            "games": self.games,
            "game_wins": list(self.game_wins),
            "game_pairs": self.game_pairs,
            "full_game_points_per_hand_diff": round(self.game_diff_mean, 2),
            "full_game_ci95": _pair(self.game_diff_ci),
            "full_game_win_rate": round(self.win_rate, 4),
            "full_game_win_rate_ci95": [round(self.win_ci[0], 4), round(self.win_ci[1], 4)],
            "full_game_sides": self.game_sides,
            "decision_ms": self.times_ms,
            "external_problems": self.problems,
        }


def _side_figures(label: str, lines: list[TeamLine]) -> dict[str, Any]:
    with_c = [ln for ln in lines if ln.contract is not None]
    nils = sum(ln.nils for ln in lines)
    blind = sum(ln.blind_nils for ln in lines)
    n = max(1, len(lines))
    return {
        "side": label,
        "team_hands": len(lines),
        "points_per_hand": _r(sum(ln.points for ln in lines) / n),
        "tricks_per_hand": _r(sum(ln.tricks for ln in lines) / n),
        "contracts_made": _r(sum(ln.made for ln in with_c) / max(1, len(with_c))),
        "set_rate": _r(sum(ln.was_set for ln in with_c) / max(1, len(with_c))),
        "bid_error": _r(
            sum(abs(ln.counted - (ln.contract or 0)) for ln in with_c) / max(1, len(with_c))
        ),
        "bags_per_hand": _r(sum(ln.bags for ln in lines) / n),
        "nil_attempts": nils,
        "nil_success": _r(sum(ln.nils_made for ln in lines) / nils) if nils else None,
        "blind_nil_attempts": blind,
        "blind_nil_success": (
            _r(sum(ln.blind_nils_made for ln in lines) / blind) if blind else None
        ),
    }


def summarize(a: str, b: str, results: list[TaskResult]) -> Summary:
    deals = [r for r in results if r.kind == "deal"]
    pairs = [r for r in results if r.kind == "game"]
    n = len(deals)
    mean, ci = mean_ci([r.diff for r in deals])
    eff_mean, eff_ci = mean_ci([r.diff_eff for r in deals])
    sides = []
    game_sides = []
    for side, label in ((0, a), (1, b)):
        fig = _side_figures(label, [ln for r in deals for ln in r.lines if ln.side == side])
        fig["partner_overtakes_per_deal"] = _r(sum(r.overtakes[side] for r in deals) / max(1, n))
        fig["known_partner_overtakes_per_deal"] = _r(
            sum(r.overtakes_known[side] for r in deals) / max(1, n)
        )
        sides.append(fig)
        if pairs:
            game_sides.append(
                _side_figures(label, [ln for r in pairs for ln in r.game_lines if ln.side == side])
            )
    # Full games: per pair, A's points minus B's over both games, per hand played.
    per_hand = []
    shares = []
    for r in pairs:
        diff = sum(ln.points if ln.side == 0 else -ln.points for ln in r.game_lines)
        per_hand.append(diff / max(1, r.game_hands))
        shares.append(sum(1.0 if w == 0 else 0.5 if w == -1 else 0.0 for w in r.wins) / len(r.wins))
    game_mean, game_ci = mean_ci(per_hand) if pairs else (0.0, (0.0, 0.0))
    win_rate, win_ci = mean_ci(shares) if pairs else (0.0, (0.0, 0.0))
    win_ci = (max(0.0, win_ci[0]), min(1.0, win_ci[1]))  # a share stays within 0..1
    wins = [w for r in results for w in r.wins]
    times: dict[str, list[float]] = {}
    for r in results:
        merge_times(times, r.times)
    times_ms = {
        k: {
            "decisions": len(v),
            "p50": _r(1000 * percentile(v, 0.5)),
            "p95": _r(1000 * percentile(v, 0.95)),
            "max": _r(1000 * max(v)),
        }
        for k, v in sorted(times.items())
    }
    return Summary(
        a,
        b,
        n,
        mean,
        ci,
        eff_mean,
        eff_ci,
        sides,
        len(wins),
        (wins.count(0), wins.count(1)),
        times_ms,
        sum(len(r.problems) for r in results),
        len(pairs),
        game_mean,
        game_ci,
        win_rate,
        win_ci,
        game_sides,
    )


_HEAD = (
    "",
    "pts/hand",
    "tricks",
    "made",
    "set",
    "bid err",
    "bags/hand",
    "nil",
    "nil ok",
    "blind nil",
)


def _side_row(side: dict[str, Any]) -> str:
    ok = "-" if side["nil_success"] is None else f"{side['nil_success']:.0%}"
    bn = f"{side['blind_nil_attempts']}"
    if side["blind_nil_success"] is not None:
        bn += f" {side['blind_nil_success']:.0%}"
    return (
        f"{side['side'][:22]:<22}{side['points_per_hand']:>9.1f}"
        f"{side['tricks_per_hand']:>7.2f}"
        f"{side['contracts_made']:>7.1%}{side['set_rate']:>7.1%}{side['bid_error']:>9.2f}"
        f"{side['bags_per_hand']:>10.2f}{side['nil_attempts']:>6}{ok:>8}{bn:>10}"
    )


def format_summary(s: Summary) -> str:
    out = []
    if s.deals:
        out += [
            f"duplicate deals: {s.deals}   {s.side_a} (A) vs {s.side_b} (B)",
            f"points per deal, A - B: {s.diff_mean:+.2f}  "
            f"(95% CI {s.diff_ci[0]:+.2f} .. {s.diff_ci[1]:+.2f})",
            f"  bags charged their share of the penalty: {s.eff_mean:+.2f}  "
            f"(95% CI {s.eff_ci[0]:+.2f} .. {s.eff_ci[1]:+.2f})",
        ]
        head = "{:<22}{:>9}{:>7}{:>7}{:>7}{:>9}{:>10}{:>6}{:>8}{:>10}".format(*_HEAD)
        out.append(head + "{:>12}{:>7}".format("overtk/deal", "known"))
        for side in s.sides:
            out.append(
                _side_row(side) + f"{side['partner_overtakes_per_deal']:>12.3f}"
                f"{side['known_partner_overtakes_per_deal']:>7.3f}"
            )
    if s.game_pairs:
        out += [
            f"full games: {s.game_pairs} pairs ({s.games} games)   "
            f"A won {s.game_wins[0]}, B won {s.game_wins[1]}",
            f"  points per hand, A - B: {s.game_diff_mean:+.2f}  "
            f"(95% CI {s.game_diff_ci[0]:+.2f} .. {s.game_diff_ci[1]:+.2f})",
            f"  A's share of the games: {s.win_rate:.1%}  "
            f"(95% CI {s.win_ci[0]:.1%} .. {s.win_ci[1]:.1%})",
            "{:<22}{:>9}{:>7}{:>7}{:>7}{:>9}{:>10}{:>6}{:>8}{:>10}".format(*_HEAD),
        ]
        out += [_side_row(side) for side in s.game_sides]
    out.append("decision time (ms):")
    for k, t in s.times_ms.items():
        out.append(
            f"  {k[:30]:<30} n={t['decisions']:<8} p50 {t['p50']:.2f}  p95 {t['p95']:.2f}  "
            f"max {t['max']:.2f}"
        )
    if s.problems:
        out.append(f"external player problems: {s.problems} (each replaced by a normal move)")
    return "\n".join(out)
