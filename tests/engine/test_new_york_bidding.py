# The state changes between asserts on the same property; mypy would pin it to the first value.
# mypy: disable-error-code="comparison-overlap"
"""New York partnership bidding (rules.md §10): the bid-less first hand, proposal and answer,
team bids of 4 to 10, blind bids 100 behind, blind Boston."""

from __future__ import annotations

import pytest

from bot.engine import (
    SEATS,
    Bid,
    Game,
    Look,
    Phase,
    Rules,
    Seat,
    Team,
)
from bot.engine.errors import (
    BlindNilNotAllowed,
    IllegalBid,
    MustLookFirst,
    NotYourTurn,
    WrongPhase,
)
from tests.engine.builders import (
    deal_next,
    new_york_second_hand,
    play_hand,
)
from tests.engine.snapshot import refused


def test_new_york_first_hand_is_played_without_bidding() -> None:
    game = Game(Rules.from_preset("new-york"))
    deal_next(game)
    assert game.phase is Phase.PLAY
    assert game.to_act == Seat.E
    refused(game, Bid(Seat.E, 5), WrongPhase, "Bidding is over")
    refused(game, Bid(Seat.E, 5, True), WrongPhase, "Bidding is over")
    assert not any(game.blind_open(s) for s in SEATS)


def test_new_york_team_bid_is_the_partners_answer_to_the_proposal() -> None:
    game = new_york_second_hand({"N": 3, "E": 3, "S": 4, "W": 3})
    assert game.dealer == Seat.E
    assert game.to_act == Seat.S  # left of the dealer proposes for NS
    game.apply(Bid(Seat.S, 5))
    assert game.proposal(Team.NS) == (5, False)
    assert game.team_bids == (None, None)
    assert game.to_act == Seat.N  # the partner answers
    refused(game, Bid(Seat.W, 5), NotYourTurn, "It is North's turn to bid")
    game.apply(Bid(Seat.N, 7))  # changes the proposal: 7 is the team's bid
    assert game.team_bids[Team.NS] == Bid(Seat.N, 7)
    assert game.to_act == Seat.W
    game.apply(Bid(Seat.W, 4))
    game.apply(Bid(Seat.E, 4))  # confirms
    assert game.team_bids[Team.EW] == Bid(Seat.E, 4)
    assert game.phase is Phase.PLAY
    assert game.to_act == Seat.S


def test_new_york_answer_is_what_scores() -> None:
    game = Game(Rules.from_preset("new-york"))
    play_hand(game, None, {"N": 3, "E": 3, "S": 4, "W": 3})
    result = play_hand(game, {"NS": 7, "EW": 5}, {"N": 4, "E": 3, "S": 3, "W": 3})
    assert result.teams[Team.NS].points == 10 * 7
    assert result.teams[Team.EW].points == 10 * 5


@pytest.mark.parametrize("value", [0, 3, 11, 13])
def test_new_york_team_bid_is_4_to_10(value: int) -> None:
    game = new_york_second_hand({"N": 3, "E": 3, "S": 4, "W": 3})
    refused(game, Bid(Seat.S, value), IllegalBid, "A team bid is 4 to 10 tricks")


def test_new_york_blind_bid_needs_the_team_100_behind() -> None:
    game = new_york_second_hand({"N": 1, "E": 6, "S": 0, "W": 6})  # NS 10, EW 120
    assert game.deficit(Team.NS) == 110
    assert [game.blind_open(s) for s in SEATS] == [True, False, True, False]
    assert game.legal_actions() == [*(Bid(Seat.S, v, True) for v in range(4, 11)), Look(Seat.S)]
    assert game.hand_hidden(Seat.S)
    refused(game, Bid(Seat.S, 6), MustLookFirst,
            "Look at your cards before making a bid that is not blind")  # fmt: skip
    game.apply(Bid(Seat.S, 6, True))
    assert game.proposal(Team.NS) == (6, True)
    assert game.hand_hidden(Seat.S)  # the proposer has still not seen the cards
    game.apply(Bid(Seat.N, 6, True))
    assert game.team_bids[Team.NS] == Bid(Seat.N, 6, True)
    refused(game, Bid(Seat.W, 5, True), BlindNilNotAllowed,
            "A blind bid needs your team 100 points behind")  # fmt: skip


def test_new_york_blind_bid_is_refused_at_less_than_100_behind() -> None:
    game = new_york_second_hand({"N": 2, "E": 5, "S": 0, "W": 6})  # NS 20, EW 110
    assert game.deficit(Team.NS) == 90
    assert not game.blind_open(Seat.S)
    refused(game, Bid(Seat.S, 6, True), BlindNilNotAllowed,
            "A blind bid needs your team 100 points behind")  # fmt: skip


def test_new_york_blind_bid_is_lost_once_either_partner_looks() -> None:
    game = new_york_second_hand({"N": 1, "E": 6, "S": 0, "W": 6})
    game.apply(Look(Seat.N))
    assert not game.blind_open(Seat.S)
    refused(game, Bid(Seat.S, 6, True), BlindNilNotAllowed,
            "A blind bid is made before either partner looks at their cards")  # fmt: skip
    game.apply(Bid(Seat.S, 6))


def test_new_york_blind_boston_scores_400_and_wins() -> None:
    game = Game(Rules.from_preset("new-york"))
    play_hand(game, None, {"N": 1, "E": 6, "S": 0, "W": 6})
    result = play_hand(game, {"NS": (10, True), "EW": 4}, {"N": 7, "S": 6})
    assert result.teams[Team.NS].points == 2 * 200
    assert game.winner == Team.NS
    assert game.phase is Phase.OVER
