"""The dealer and the deal (rules.md §2): who deals first, who bids and leads first, the
dealer's rotation, and what a deal must be."""

from __future__ import annotations

import itertools
import random

import pytest

from bot.engine import (
    SEATS,
    Bid,
    Deal,
    Game,
    Phase,
    Play,
    Rules,
    Seat,
    card,
)
from bot.engine.dealer import draw_first_dealer
from bot.engine.errors import (
    InvalidDeal,
    WrongPhase,
)
from tests.engine.builders import (
    deal_next,
    deck_codes,
    make_bids,
    play_hand,
)
from tests.engine.snapshot import refused


@pytest.mark.parametrize("dealer", list(Seat))
def test_seat_left_of_the_dealer_bids_first_and_leads_the_first_trick(dealer: Seat) -> None:
    game = Game(Rules.from_preset("standard"), dealer)
    assert game.dealer == dealer
    deal_next(game)
    assert game.to_act == dealer.left
    make_bids(game, dict.fromkeys("NESW", 3))
    assert game.phase is Phase.PLAY
    assert game.to_act == dealer.left


def test_dealer_rotates_clockwise_every_hand() -> None:
    game = Game(Rules.from_preset("standard"), Seat.S)
    for _ in range(5):
        play_hand(game, dict.fromkeys("NESW", 3), {"N": 3, "E": 3, "S": 4, "W": 3})
    assert [r.dealer for r in game.results] == [Seat.S, Seat.W, Seat.N, Seat.E, Seat.S]
    assert game.dealer == Seat.W
    assert game.first_dealer == Seat.S


def test_draw_for_first_dealer_gives_the_deal_to_the_highest_card_and_ties_redraw() -> None:
    saw_a_tie = False
    for seed in range(300):
        rounds, dealer = draw_first_dealer(random.Random(seed))
        assert list(rounds[0]) == list(SEATS)
        for draw in rounds:
            assert len(set(draw.values())) == len(draw)  # distinct cards within a round
        for prev, nxt in itertools.pairwise(rounds):
            top = max(c.rank for c in prev.values())
            assert list(nxt) == [s for s, c in prev.items() if c.rank == top]
            assert len(nxt) >= 2
            saw_a_tie = True
        last = rounds[-1]
        top = max(c.rank for c in last.values())
        assert [s for s, c in last.items() if c.rank == top] == [dealer]
    assert saw_a_tie


def test_draw_for_first_dealer_is_reproducible_with_a_seeded_rng() -> None:
    assert draw_first_dealer(random.Random(7)) == draw_first_dealer(random.Random(7))


def test_a_deal_gives_each_seat_13_cards_of_the_tables_deck() -> None:
    game = Game(Rules.from_preset("standard"))
    codes = deck_codes("standard")
    hands = [tuple(card(c) for c in codes[i::4]) for i in range(4)]
    refused(game, Deal((hands[0][:12], hands[1], hands[2], hands[3])), InvalidDeal,
            "Each seat is dealt 13 cards")  # fmt: skip
    twice = (hands[0][:12] + hands[1][:1], hands[1], hands[2], hands[3])
    refused(game, Deal(twice), InvalidDeal, "A card is dealt twice")
    joker = Game(Rules.from_preset("joker"))
    refused(joker, Deal((hands[0], hands[1], hands[2], hands[3])), InvalidDeal,
            "The deal is not the jokers deck")  # fmt: skip
    game.apply(Deal((hands[0], hands[1], hands[2], hands[3])))
    assert game.phase is Phase.BID
    refused(game, Deal((hands[0], hands[1], hands[2], hands[3])), WrongPhase,
            "The cards have been dealt")  # fmt: skip


def test_a_seeded_shuffle_deals_the_same_cards() -> None:
    a, b = Game(Rules.from_preset("jjdd")), Game(Rules.from_preset("jjdd"))
    assert a.deal(random.Random(3)) == b.deal(random.Random(3))
    assert sorted(c.code for s in SEATS for c in a.hand(s)) == sorted(deck_codes("jjdd"))


def test_nothing_but_a_deal_is_accepted_before_the_deal() -> None:
    game = Game(Rules.from_preset("standard"))
    assert game.legal_actions() == []
    assert game.to_act is None
    refused(game, Bid(Seat.E, 3), WrongPhase, "The cards have not been dealt yet")
    refused(game, Play(Seat.E, card("AS")), WrongPhase, "The cards have not been dealt yet")
