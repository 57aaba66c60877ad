"""Face-down cards tell nothing (rules.md §3, commands.md "Private is ephemeral"): while a
seat may still bid blind, the bids it is offered for looking first, and the refusal of one
that depends on its cards, are the same whatever it holds."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from bot.engine import NIL, Bid, Game, Look, Rules, Seat
from bot.engine.errors import MustLookFirst
from tests.engine.builders import deal_action, deck_codes, new_york_second_hand

DEALS = 40


def random_deal(game: Game, rng: random.Random) -> None:
    codes = deck_codes(game.rules.deck)
    rng.shuffle(codes)
    n = len(codes) // 4
    game.apply(deal_action({s: codes[i * n : (i + 1) * n] for i, s in enumerate("NESW")}))


def first_hand(preset: str, **overrides: object) -> Callable[[random.Random], Game]:
    def make(rng: random.Random) -> Game:
        game = Game(Rules.from_preset(preset, blind_nil_min_deficit=0, **overrides), Seat.N)
        random_deal(game, rng)
        return game

    return make


SETUPS: dict[str, Callable[[random.Random], Game]] = {
    "standard": first_hand("standard"),
    "whiz": first_hand("whiz"),
    "suicide": first_hand("suicide"),
    "solo whiz": first_hand("whiz", partnerships=False),
    "joker": first_hand("joker"),
}


@pytest.mark.parametrize("setup", SETUPS)
def test_the_bids_offered_before_looking_do_not_depend_on_the_cards(setup: str) -> None:
    rng = random.Random(setup)
    offered, refusals = set(), set()
    for _ in range(DEALS):
        game = SETUPS[setup](rng)
        seat = game.to_act
        assert seat is not None
        assert game.hand_hidden(seat), "the first bidder has not looked"
        bids = game.unseen_bids(seat)
        offered.add(bids)
        looked = game.clone()
        looked.apply(Look(seat))
        after = looked.legal_actions(seat)
        assert set(bids) <= set(after), "every bid offered is legal once the seat looks"
        for value in (NIL, *range(1, game.tricks_per_hand + 1)):
            try:
                game.check_unseen_bid(Bid(seat, value))
            except MustLookFirst as e:
                refusals.add((value, e.reason))
                assert Bid(seat, value) not in bids
            else:
                assert (Bid(seat, value) in after) == (Bid(seat, value) in bids), (
                    "a bid let through before looking is legal or illegal whatever the cards"
                )
    assert len(offered) == 1, offered
    assert len({reason for _, reason in refusals}) <= 1, refusals


def test_whiz_offers_only_nil_before_looking_and_refuses_every_number_alike() -> None:
    rng = random.Random(3)
    for _ in range(DEALS):
        game = SETUPS["whiz"](rng)
        seat = game.to_act
        assert seat is not None
        assert game.unseen_bids(seat) == (Bid(seat, NIL),)
        for value in range(1, 14):
            with pytest.raises(MustLookFirst) as refusal:
                game.check_unseen_bid(Bid(seat, value))
            assert refusal.value.reason == (
                "In Whiz your bid depends on your spades, and your cards are still face "
                "down: look at them first (or bid blind nil)"
            )
        game.check_unseen_bid(Bid(seat, NIL))  # nil is open whatever the cards
        game.apply(Look(seat))
        assert game.unseen_bids(seat) == ()  # looked: the cards are seen
        game.check_unseen_bid(Bid(seat, 13))  # nothing to hide any more


def test_new_york_offers_the_team_bids_to_a_blind_proposer() -> None:
    game = new_york_second_hand({"N": 1, "E": 6, "S": 0, "W": 6})  # NS 110 behind
    assert game.to_act == Seat.S
    assert game.hand_hidden(Seat.S)
    assert game.unseen_bids(Seat.S) == tuple(Bid(Seat.S, v) for v in range(4, 11))
    for value in range(4, 11):
        game.check_unseen_bid(Bid(Seat.S, value))
    assert game.unseen_bids(Seat.N) == (), "not on turn: nothing to offer"


def test_a_seat_that_sees_its_cards_has_nothing_unseen() -> None:
    game = Game(Rules.from_preset("whiz"), Seat.N)  # blind nil needs 100 behind
    random_deal(game, random.Random(1))
    assert game.to_act == Seat.E
    assert not game.hand_hidden(Seat.E)
    assert game.unseen_bids(Seat.E) == ()
    for value in range(1, 14):
        game.check_unseen_bid(Bid(Seat.E, value))  # the ordinary refusal names what it sees
