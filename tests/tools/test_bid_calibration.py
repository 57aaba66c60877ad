"""The bid calibration replay (benchmarks/bid_calibration.py): it rebuilds each logged bid's
seat view and compares the search's estimates with the table's result."""

from __future__ import annotations

from bot.ai.search import bidding
from bot.ai.search.spades import SpadesHand
from bot.engine import Rules, Seat
from bot.engine.actions import NIL
from bot.engine.game import Phase
from tools.bid_calibration import bid_views, replay, report

DEAL = [
    "3C 3D KS 9D 8H QC 2D 2C 7D 5D 7H AC 2S",
    "7C QH 5C 6H TS 9C 4S KC JS 4H AS JD 2H",
    "QS QD KH TC JC 5H 8C TD 3H 4D JH AH 8D",
    "4C 3S AD 8S 6S 9H 6C 9S TH 5S 7S 6D KD",
]
# Table 0: hard north-south, north on nil (kept); table 1: hard east-west.
RECORD = {
    "deal": 0,
    "hands": [
        {"ns": "hard", "deal": DEAL, "bids": ["E 3", "S 2", "W 3", "N 0"], "tricks": [0, 4, 4, 5]},
        {"ns": "other", "deal": DEAL, "bids": ["E 3", "S 3", "W 3", "N 2"], "tricks": [1, 3, 2, 7]},
    ],
}
RULES = Rules.from_preset("standard")


def test_each_bid_is_replayed_from_the_view_it_was_made_from() -> None:
    seen = []
    for seat, value, view, bids in bid_views(RECORD["hands"][0], RULES):
        assert view.phase is Phase.BID
        assert view.seat == view.to_act == Seat(seat)
        assert view.hand is not None
        assert {c.code for c in view.hand} == set(DEAL[seat].split())
        # The bids made before this one are visible, the later ones are not.
        before = [s for s, _ in bids][: len(seen)]
        assert [view.bidding.bids[s] is not None for s in range(4)] == [
            s in before for s in range(4)
        ]
        seen.append((seat, value))
    assert seen == [(1, 3), (2, 2), (3, 3), (0, NIL)]


def test_replay_compares_the_search_with_the_table() -> None:
    rows = list(replay(RECORD, "hard", RULES, worlds=8))
    # hard's bids: S 2 and N nil at table 0, E 3 and W 3 at table 1.
    assert [(r.seat, r.bid) for r in rows] == [(2, 2), (0, NIL), (1, 3), (3, 3)]
    nil = rows[1]
    assert nil.nil_made
    assert nil.nil_kept is not None
    assert 0.0 <= nil.nil_kept <= 1.0
    assert not nil.first
    assert nil.partner_bid == 2
    assert rows[0].first
    assert rows[0].side_tricks == 4  # south 4 + north 0
    assert [r.side_tricks for r in rows[2:]] == [10, 10]  # east 3 + west 7
    assert [r.first for r in rows[2:]] == [True, False]
    # The table's value is the search's own utility of the real result.
    view = next(v for s, _, v, _ in bid_views(RECORD["hands"][0], RULES) if s == 0)
    assert nil.value_real == SpadesHand(view, bids=(NIL, 3, 2, 3)).value([0, 4, 4, 5], [0, 0])
    lines = report(rows)
    assert lines[0] == "bids replayed: 4 (nil 1, number with partner not nil 2)"
    assert any(line.startswith("nil kept: search") for line in lines)
    assert lines[-1].endswith(f"in use {bidding.NIL_CALIBRATION:g}")
