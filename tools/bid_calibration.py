"""How well the hard bidder's search foresees what its bids bring: replays the bids of an arena
``--detail`` log and compares the search's estimates with what happened at the table.

    python -m tools.bid_calibration runs/x.jsonl [--player hard] [--worlds 120] [--deals N]

For every bid of ``--player`` (the side it sat on at each table) the bid's seat view is rebuilt
from the logged deal and the bids before it, and :func:`bot.ai.search.bidding.estimate_bids`
is run again with a fixed number of worlds.  Printed, per group of bids:

* **nil kept**: the share of the search's nil play-outs in which the nil was kept, against the
  share of the real nils made;
* **side tricks** of a side's last number bidder (partner not on nil): the search's mean of the
  side's tricks at the bid, against the tricks the side took;
* **value**: the search's mean utility of the bid made (nil without its calibration charge)
  minus the utility of the real result on the same scale, for nils and for number bids.  The
  nil charge (``NIL_CALIBRATION``) that the measurement supports is the nil's excess over the
  number bids' (a search that over-rates the hand as a whole shifts both).

The real results depend on the other players' bids and card play: the figures calibrate the
search against *that* opponent.  Run it on logs against each opponent that matters.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from bot.ai.search import bidding
from bot.ai.search.spades import SpadesHand
from bot.engine.actions import NIL, Bid, Deal
from bot.engine.cards import parse_card
from bot.engine.game import Game
from bot.engine.rules import Rules
from bot.engine.seats import Seat
from bot.engine.views import SeatView, seat_view

SEAT_LETTERS = "NESW"


@dataclass
class Replayed:
    """One bid of the player, the search's estimates for it and what happened."""

    deal: int
    seat: int
    bid: int
    first: bool  # bid before its partner
    partner_bid: int
    nil_kept: float | None  # the search's share of nil play-outs kept
    nil_made: bool  # the real nil (if this bid is one) took no trick
    side_tricks_sim: float  # the search's mean tricks of the side at this bid
    side_tricks: int  # taken at the table
    value_sim: float  # the search's mean utility of the bid, nil without its charge
    value_real: float  # the utility of the real result


def bids_of(hand: dict[str, Any]) -> list[tuple[int, int]]:
    """The logged bids in bidding order, as (seat, value)."""
    out = []
    for text in hand["bids"]:
        seat, value = text.split()
        out.append((SEAT_LETTERS.index(seat), int(value)))
    return out


def bid_views(
    hand: dict[str, Any], rules: Rules
) -> Iterator[tuple[int, int, SeatView, list[tuple[int, int]]]]:
    """Every bid of a logged hand with the seat view it was made from: (seat, value, view,
    all bids of the hand)."""
    bids = bids_of(hand)
    dealer = Seat((bids[0][0] - 1) % 4)
    game = Game(rules, dealer)
    cards = tuple(tuple(parse_card(c) for c in h.split()) for h in hand["deal"])
    game.apply(Deal(cards))
    for seat, value in bids:
        yield seat, value, seat_view(game, Seat(seat)), bids
        game.apply(Bid(Seat(seat), value))


def replay(record: dict[str, Any], player: str, rules: Rules, worlds: int) -> Iterator[Replayed]:
    """The player's bids of one logged duplicate deal, re-estimated."""
    for hand in record["hands"]:
        side = 0 if hand["ns"] == player else 1
        tricks = hand["tricks"]
        for seat, value, view, bids in bid_views(hand, rules):
            if seat & 1 != side:
                continue
            order = [s for s, _ in bids]
            final = dict(bids)
            rng = random.Random(record["deal"] * 4 + seat)
            est = bidding.estimate_bids(view, rng, 3600.0, time.process_time, worlds)
            charge = bidding.NIL_CALIBRATION if value == NIL else 0.0
            real_bids = tuple(final[s] for s in range(4))
            yield Replayed(
                record["deal"],
                seat,
                value,
                order.index(seat) < order.index(seat ^ 2),
                final[seat ^ 2],
                est.nil_kept,
                value == NIL and tricks[seat] == 0,
                est.tricks[value],
                tricks[seat] + tricks[seat ^ 2],
                est.means[value] + charge,
                SpadesHand(view, bids=real_bids).value(tricks, [0, 0]),
            )


def mean_se(xs: list[float]) -> tuple[float, float]:
    """The mean and its standard error."""
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, 0.0
    return m, math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n)


def mean_ci(xs: list[float]) -> str:
    if not xs:
        return "-"
    m, se = mean_se(xs)
    return f"{m:+.2f} (95 % CI {m - 1.96 * se:+.2f} … {m + 1.96 * se:+.2f})"


def report(rows: list[Replayed]) -> list[str]:
    """The figures of the module text, one line each."""
    nils = [r for r in rows if r.bid == NIL]
    numbers = [r for r in rows if r.bid > 0 and r.partner_bid != NIL]
    last = [r for r in numbers if not r.first]
    out = [
        f"bids replayed: {len(rows)} (nil {len(nils)}, number with partner not nil {len(numbers)})"
    ]
    if nils:
        kept = sum(r.nil_kept or 0.0 for r in nils) / len(nils)
        made = sum(r.nil_made for r in nils) / len(nils)
        out.append(f"nil kept: search {kept:.3f}, table {made:.3f} (n = {len(nils)})")
    if last:
        sim = sum(r.side_tricks_sim for r in last) / len(last)
        real = sum(r.side_tricks for r in last) / len(last)
        out.append(
            f"side tricks of the last number bidder: search {sim:.2f}, table {real:.2f}, "
            f"table - search {mean_ci([r.side_tricks - r.side_tricks_sim for r in last])} "
            f"(n = {len(last)})"
        )
    nil_bias = [r.value_sim - r.value_real for r in nils]
    num_bias = [r.value_sim - r.value_real for r in numbers]
    out.append(f"value, search - table, nil bids (no charge): {mean_ci(nil_bias)}")
    out.append(f"value, search - table, number bids: {mean_ci(num_bias)}")
    if nil_bias and num_bias:
        (mn, sn), (mb, sb) = mean_se(nil_bias), mean_se(num_bias)
        excess, se = mn - mb, math.hypot(sn, sb)
        out.append(
            f"nil charge the log supports: {excess:+.1f} (95 % CI {excess - 1.96 * se:+.1f} … "
            f"{excess + 1.96 * se:+.1f}); in use {bidding.NIL_CALIBRATION:g}"
        )
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("log", help="an arena --detail log (JSON lines)")
    ap.add_argument("--player", default="hard", help="the player spec whose bids to replay")
    ap.add_argument("--worlds", type=int, default=120, help="worlds per estimate")
    ap.add_argument("--deals", type=int, default=0, help="replay only the first N deals")
    ap.add_argument("--preset", default="standard")
    args = ap.parse_args(argv)
    rules = Rules.from_preset(args.preset)
    rows: list[Replayed] = []
    with open(args.log, encoding="utf-8") as f:
        for k, line in enumerate(f):
            if args.deals and k >= args.deals:
                break
            rows.extend(replay(json.loads(line), args.player, rules, args.worlds))
    for line in report(rows):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
