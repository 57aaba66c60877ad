"""The shared trick-taking core: one game protocol for every game, turn order over the seats in
play (three or four, one of them possibly sitting out), and what seat views show of it."""

from __future__ import annotations

import random

import pytest

from bot.engine import SEATS, Game, Phase, Rules, Seat, SpadesGame, seat_view
from bot.engine.seats import PARTNERSHIPS, turn_order
from tests.engine.builders import game_in_play


def test_game_of_the_rules_is_the_game_the_rules_name() -> None:
    game = Game(Rules.from_preset("standard"))
    assert type(game) is SpadesGame
    assert isinstance(game, Game)
    assert game.title == "Spades"


def test_a_copy_is_the_same_game_and_independent() -> None:
    game = Game(Rules.from_preset("standard"))
    game.deal(random.Random(3))
    copy = game.clone()
    assert type(copy) is SpadesGame
    assert copy.legal_actions() == game.legal_actions()
    copy.apply(copy.legal_actions()[0])
    assert copy.to_act != game.to_act
    assert game.bid_log == ()


def test_four_seats_take_turns_clockwise() -> None:
    assert turn_order(SEATS) == (1, 2, 3, 0)


def test_three_seats_skip_west() -> None:
    assert turn_order((Seat.N, Seat.E, Seat.S)) == (1, 2, 0, -1)


@pytest.mark.parametrize(
    ("out", "expected"),
    [
        (Seat.N, (1, 2, 3, 1)),
        (Seat.E, (2, 2, 3, 0)),
        (Seat.S, (1, 3, 3, 0)),
        (Seat.W, (1, 2, 0, 0)),
    ],
)
def test_a_seat_sitting_out_is_skipped(out: Seat, expected: tuple[int, ...]) -> None:
    """Its own entry still points at the next player: the seat after a sitting-out dealer."""
    assert turn_order(SEATS, out) == expected


def test_partnerships_score_north_south_against_east_west() -> None:
    assert PARTNERSHIPS.side_names == ("NS", "EW")
    assert [PARTNERSHIPS.side_of(s) for s in SEATS] == [0, 1, 0, 1]
    assert PARTNERSHIPS.after(Seat.W) is Seat.N


def test_spades_deals_thirteen_tricks_of_four_cards() -> None:
    game = Game(Rules.from_preset("standard"))
    assert (game.hand_size, game.tricks_per_hand) == (13, 13)
    deal = game.deal(random.Random(1))
    assert [len(h) for h in deal.hands] == [13, 13, 13, 13]
    assert deal.turned is None


def test_seat_view_of_spades_shows_spades_trump_and_no_euchre_state() -> None:
    game = game_in_play("standard", {})
    game.apply(game.legal_actions()[0])
    view = seat_view(game, Seat.S)
    assert view.phase is Phase.PLAY
    assert view.trump == "S"
    assert view.seats == SEATS
    assert view.hand_tricks == 13
    assert view.sitting_out is None
    assert view.trumps is None, "no turned card, up-card, calls or maker in Spades"
    assert view.bidding is not None
    assert view.part is view.bidding
