"""Blind nil and Look (rules.md §3): who may bid blind nil (the deficit, double blind nil,
the presets that turn it off) and how looking at the cards gives it up."""

from __future__ import annotations

import pytest

from bot.engine import (
    BLIND_NIL,
    NIL,
    SEATS,
    Bid,
    Game,
    IllegalAction,
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
)
from tests.engine.builders import (
    bid_looking_first,
    deal_next,
    house_trailing,
    play_hand,
    trailing_ns,
)
from tests.engine.snapshot import refused


def test_blind_nil_is_refused_unless_the_team_trails_by_the_minimum_deficit() -> None:
    game = Game(Rules.from_preset("standard"))
    deal_next(game)
    assert not any(game.blind_open(s) for s in SEATS)
    assert game.legal_actions() == [Bid(Seat.E, NIL), *(Bid(Seat.E, v) for v in range(1, 14))]
    refused(game, Bid(Seat.E, BLIND_NIL), BlindNilNotAllowed,
            "Blind nil needs your team at least 100 points behind")  # fmt: skip
    refused(game, Look(Seat.E), IllegalAction, "You can already see your cards")


@pytest.mark.parametrize(("minimum", "open_"), [(100, True), (140, True), (150, False)])
def test_blind_nil_deficit_is_opponents_score_minus_own_at_least_the_minimum(
    minimum: int, open_: bool
) -> None:
    game = trailing_ns("standard", blind_nil_min_deficit=minimum)  # NS trail by 140
    assert game.to_act == Seat.S
    assert game.blind_open(Seat.S) is open_
    assert game.blind_open(Seat.N) is open_
    assert not game.blind_open(Seat.E)
    assert (Bid(Seat.S, BLIND_NIL) in game.legal_actions()) is open_


def test_an_eligible_player_is_offered_blind_nil_or_look_before_any_card() -> None:
    game = trailing_ns("standard")
    assert game.legal_actions() == [Bid(Seat.S, BLIND_NIL), Look(Seat.S)]
    assert game.hand_hidden(Seat.S)
    refused(game, Bid(Seat.S, 4), MustLookFirst, "Look at your cards first (or bid blind nil)")
    refused(game, Bid(Seat.S, NIL), MustLookFirst, "Look at your cards first (or bid blind nil)")


def test_looking_at_the_cards_gives_up_blind_nil_for_the_hand() -> None:
    game = trailing_ns("standard")
    game.apply(Look(Seat.S))
    assert not game.hand_hidden(Seat.S)
    assert not game.blind_open(Seat.S)
    assert Bid(Seat.S, BLIND_NIL) not in game.legal_actions()
    assert Bid(Seat.S, 4) in game.legal_actions()
    refused(game, Bid(Seat.S, BLIND_NIL), BlindNilNotAllowed,
            "You have looked at your cards, so you cannot bid blind nil")  # fmt: skip
    refused(game, Look(Seat.S), IllegalAction, "You can already see your cards")


def test_a_player_may_look_before_their_turn_to_bid() -> None:
    game = trailing_ns("standard")
    assert game.legal_actions(Seat.N) == [Look(Seat.N)]
    game.apply(Look(Seat.N))
    assert not game.blind_open(Seat.N)
    assert game.legal_actions(Seat.N) == []
    assert game.to_act == Seat.S


def test_a_blind_nil_bidder_sees_the_cards_only_when_bidding_ends() -> None:
    game = trailing_ns("standard")
    game.apply(Bid(Seat.S, BLIND_NIL))
    assert game.hand_hidden(Seat.S)
    refused(game, Look(Seat.S), IllegalAction,
            "You bid blind nil: your cards show when bidding ends")  # fmt: skip
    bid_looking_first(game, Seat.W, Seat.N, Seat.E)
    assert game.phase is Phase.PLAY
    assert not game.hand_hidden(Seat.S)


def test_partner_of_a_blind_nil_bidder_may_not_bid_blind_nil_without_double_blind_nil() -> None:
    game = trailing_ns("standard")
    game.apply(Bid(Seat.S, BLIND_NIL))
    game.apply(Bid(Seat.W, 3))
    assert not game.blind_open(Seat.N)
    assert not game.hand_hidden(Seat.N)
    refused(game, Bid(Seat.N, BLIND_NIL), BlindNilNotAllowed,
            "Your partner bid blind nil; double blind nil is not allowed here")  # fmt: skip
    game.apply(Bid(Seat.N, NIL))  # a plain nil beside a blind nil is fine


def test_second_blind_nil_in_a_team_needs_the_double_blind_nil_deficit() -> None:
    game = house_trailing(1)  # 150 behind: blind nil yes (100), double blind nil no (201)
    assert game.dealer == Seat.E
    game.apply(Bid(Seat.S, BLIND_NIL))
    game.apply(Bid(Seat.W, 3))
    assert not game.blind_open(Seat.N)
    refused(game, Bid(Seat.N, BLIND_NIL), BlindNilNotAllowed,
            "Double blind nil needs your team 201 points behind")  # fmt: skip


def test_double_blind_nil_is_open_at_the_double_blind_nil_deficit() -> None:
    game = house_trailing(2)  # 300 behind
    assert game.deficit(Team.NS) == 300
    game.apply(Bid(Seat.W, 3))
    game.apply(Bid(Seat.N, BLIND_NIL))
    assert game.blind_open(Seat.S)
    game.apply(Bid(Seat.E, 3))
    game.apply(Bid(Seat.S, BLIND_NIL))
    assert game.phase is Phase.PLAY  # a double blind nil team does not pass


def test_blind_nil_does_not_depend_on_nil() -> None:
    game = trailing_ns("standard", nil=False)
    game.apply(Bid(Seat.S, BLIND_NIL))
    game.apply(Bid(Seat.W, 3))
    refused(game, Bid(Seat.N, NIL), IllegalBid, "Nil is not allowed at this table")


def test_blind_nil_is_refused_where_it_is_off() -> None:
    game = Game(Rules.from_preset("no-set"))
    play_hand(game, {"N": 1, "E": 7, "S": 1, "W": 6}, {"E": 7, "W": 6, "N": 0, "S": 0})
    deal_next(game)
    assert game.deficit(Team.NS) >= 100
    assert not game.blind_open(Seat.S)
    refused(game, Bid(Seat.S, BLIND_NIL), BlindNilNotAllowed,
            "Blind nil is not allowed at this table")  # fmt: skip


@pytest.mark.parametrize("preset", ["guide", "tennessee"])
def test_zero_minimum_deficit_means_blind_nil_even_when_leading(preset: str) -> None:
    game = Game(Rules.from_preset(preset))
    play_hand(game, {"N": 4, "E": 3, "S": 4, "W": 2}, {"N": 4, "E": 3, "S": 4, "W": 2})
    assert game.deficit(Team.NS) < 0  # NS lead
    deal_next(game)
    assert all(game.blind_open(s) for s in SEATS)
    game.apply(Bid(Seat.S, BLIND_NIL))
    assert game.blind_open(Seat.N) is (preset == "guide")  # guide: double blind nil at d = 0
