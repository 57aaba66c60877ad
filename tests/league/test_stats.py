"""Per-hand statistics counted from a crafted record."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine.actions import BLIND_NIL, NIL, SEATS, Bid, Deal, Look, Play, Seat
from bot.engine.cards import CARDS
from bot.engine.errors import RecordError
from bot.engine.game import Game
from bot.engine.record import export_record
from bot.engine.rules import Rules
from bot.league.stats import HandTotals, summarize_record

# N holds every spade, E every heart, S every diamond, W every club: North takes all 13 tricks.
SUIT_OF_SEAT = {Seat.N: "S", Seat.E: "H", Seat.S: "D", Seat.W: "C"}


def _deal() -> Deal:
    hands = tuple(tuple(c for c in CARDS[:52] if c.suit == SUIT_OF_SEAT[s]) for s in SEATS)
    return Deal((hands[0], hands[1], hands[2], hands[3]))


def _play_hand(game: Game, bids: dict[Seat, int]) -> None:
    game.apply(_deal())
    while game.phase == "bid":
        seat = game.to_act
        assert seat is not None
        if bids[seat] != BLIND_NIL and game.blind_open(seat):
            game.apply(Look(seat))
        game.apply(Bid(seat, bids[seat]))
    while game.phase == "play":
        plays = [a for a in game.legal_actions() if isinstance(a, Play)]
        game.apply(min(plays, key=lambda a: a.card.index))


def crafted_record() -> dict[str, Any]:
    """Hand 1 (dealer N): E nil, S nil, W 1, N 13.  North takes every trick: NS make 13 and
    S's nil, E's nil is made and W is set.  Hand 2 (dealer E; EW are 140 behind): S 1,
    W blind nil, N 12, E 1: NS make 13 with no bag, W's blind nil is made, E is set."""
    game = Game(Rules.from_preset("standard"), Seat.N)
    _play_hand(game, {Seat.E: NIL, Seat.S: NIL, Seat.W: 1, Seat.N: 13})
    _play_hand(game, {Seat.S: 1, Seat.W: BLIND_NIL, Seat.N: 12, Seat.E: 1})
    assert len(game.results) == 2
    return export_record(game)


def test_counts_contracts_nils_blind_nils_and_sets_per_seat() -> None:
    summary = summarize_record(crafted_record())
    n, e, s, w = summary.seats
    assert summary.hands == 2
    assert summary.scores == (130 + 100 + 130, 100 - 10 + 200 - 10)
    assert summary.winner is None
    assert not summary.over
    assert n == HandTotals(
        hands=2,
        contract_hands=2,
        contracts_made=2,
        bid_hands=2,
        bid_sum=25,
        bid_tricks=26,
        tricks=26,
    )
    assert s == HandTotals(
        hands=2, contract_hands=1, contracts_made=1, bid_hands=1, bid_sum=1, nil_bids=1, nil_made=1
    )
    assert e == HandTotals(
        hands=2, contract_hands=1, bid_hands=1, bid_sum=1, nil_bids=1, nil_made=1, sets=2
    )
    assert w == HandTotals(
        hands=2,
        contract_hands=1,
        bid_hands=1,
        bid_sum=1,
        blind_nil_bids=1,
        blind_nil_made=1,
        sets=2,
    )


def test_overtricks_count_as_bags_for_both_partners() -> None:
    game = Game(Rules.from_preset("standard"), Seat.N)
    _play_hand(game, {Seat.E: 1, Seat.S: 1, Seat.W: 1, Seat.N: 3})
    n, e, s, w = summarize_record(export_record(game)).seats
    assert n.bags == s.bags == 9  # NS bid 4 and took 13
    assert e.sets == w.sets == 1
    assert e.bags == 0


def test_a_hand_cut_short_is_not_counted() -> None:
    doc = crafted_record()
    doc["hands"][1]["plays"] = doc["hands"][1]["plays"][:10]
    summary = summarize_record(doc)
    assert summary.hands == 1
    assert summary.seats[0].hands == 1


def test_an_illegal_record_is_refused() -> None:
    doc = crafted_record()
    doc["hands"][0]["plays"][0], doc["hands"][0]["plays"][1] = (
        doc["hands"][0]["plays"][1],
        doc["hands"][0]["plays"][0],
    )
    with pytest.raises(RecordError):
        summarize_record(doc)
