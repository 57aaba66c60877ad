"""Bidding (rules.md §3): the order of bids, the bids allowed, and what is refused while
bidding and after it."""

from __future__ import annotations

import pytest

from bot.engine import (
    NIL,
    Bid,
    Game,
    PassCards,
    Phase,
    Play,
    Rules,
    Seat,
)
from bot.engine.errors import (
    IllegalBid,
    NotYourTurn,
    WrongPhase,
)
from tests.engine.builders import (
    deal_next,
    game_in_play,
)
from tests.engine.snapshot import refused


def test_bids_go_clockwise_from_the_left_of_the_dealer_once_each() -> None:
    game = Game(Rules.from_preset("standard"), Seat.N)
    deal_next(game)
    refused(game, Bid(Seat.S, 3), NotYourTurn, "It is East's turn to bid")
    game.apply(Bid(Seat.E, 3))
    refused(game, Bid(Seat.E, 4), NotYourTurn, "It is South's turn to bid")
    for seat in (Seat.S, Seat.W, Seat.N):
        assert game.to_act == seat
        game.apply(Bid(seat, 3))
    assert game.bids == (3, 3, 3, 3)
    assert [b.seat for b in game.bid_log] == [Seat.E, Seat.S, Seat.W, Seat.N]
    assert game.phase is Phase.PLAY


@pytest.mark.parametrize("value", [0, 1, 7, 13])
def test_a_bid_of_1_to_13_or_nil_is_accepted(value: int) -> None:
    game = Game(Rules.from_preset("standard"))
    deal_next(game)
    game.apply(Bid(Seat.E, value))
    assert game.bids[Seat.E] == value


@pytest.mark.parametrize("value", [14, 20, -2])
def test_a_bid_outside_1_to_13_is_refused(value: int) -> None:
    game = Game(Rules.from_preset("standard"))
    deal_next(game)
    refused(game, Bid(Seat.E, value), IllegalBid, "A bid is 1 to 13 tricks, or nil")


def test_nil_is_refused_where_nil_is_off() -> None:
    game = Game(Rules.from_preset("standard", nil=False))
    deal_next(game)
    assert Bid(Seat.E, NIL) not in game.legal_actions()
    refused(game, Bid(Seat.E, NIL), IllegalBid, "Nil is not allowed at this table")
    refused(game, Bid(Seat.E, 14), IllegalBid, "A bid is 1 to 13 tricks")


def test_only_new_york_bids_are_blind() -> None:
    game = Game(Rules.from_preset("standard"))
    deal_next(game)
    refused(game, Bid(Seat.E, 4, True), IllegalBid,
            "Only New York bids are blind; bid blind nil instead")  # fmt: skip


def test_no_card_is_played_or_passed_while_bidding() -> None:
    game = Game(Rules.from_preset("house"))
    deal_next(game)
    refused(game, Play(Seat.E, game.hand(Seat.E)[0]), WrongPhase, "Bidding is not over yet")
    refused(game, PassCards(Seat.E, game.hand(Seat.E)[:2]), WrongPhase, "Bidding is not over yet")


def test_no_bid_once_bidding_is_over() -> None:
    game = game_in_play("standard", {})
    refused(game, Bid(Seat.E, 3), WrongPhase, "Bidding is over")
