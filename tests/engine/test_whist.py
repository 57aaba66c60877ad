"""Whist's play (games.md G3, G7): the dealer's turned-up card names trump and stays public
until played, no bidding, the dealer's left leads, trump may be led any time, highest trump
wins, else the highest card of the suit led."""

from __future__ import annotations

import random

import pytest

from bot.engine import Bid, Deal, Game, Phase, Play, Rules, Seat, card, seat_view
from bot.engine.errors import IllegalAction, InvalidDeal
from tests.engine.trump_games import RANKS, SUITS

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def by_suit_deal() -> dict[Seat, list[str]]:
    """N all ♠, E all ♥, S all ♦, W all ♣."""
    return {seat: [r + suit for r in RANKS] for seat, suit in zip(Seat, SUITS, strict=True)}


def mixed_deal() -> dict[Seat, list[str]]:
    """Each seat: ranks 2-4 (N), 5-7 (E), 8-T (S), J-K (W) of every suit; aces to N."""
    cut = {N: "234", E: "567", S: "89T", W: "JQK"}
    hands = {seat: [r + s for s in SUITS for r in ranks] for seat, ranks in cut.items()}
    hands[N].append("AS")
    hands[E].append("AH")
    hands[S].append("AD")
    hands[W].append("AC")
    return hands


def whist(hands: dict[Seat, list[str]], turned: str, dealer: Seat = N) -> Game:
    game = Game(Rules.from_preset("whist"), dealer)
    game.apply(Deal(tuple(tuple(card(c) for c in hands[s]) for s in Seat), card(turned)))
    return game


def test_the_turned_card_names_trump_and_the_dealers_left_leads() -> None:
    game = whist(mixed_deal(), "3H")
    assert game.phase is Phase.PLAY, "no bidding"
    assert game.trump == "H"
    assert game.trump_card == card("3H")
    assert game.to_act is E


def test_everyone_sees_the_trump_card() -> None:
    game = whist(mixed_deal(), "3H")
    for seat in (None, N, E, S, W):
        view = seat_view(game, seat)
        assert view.trumps.trump_card == card("3H")
        assert view.trump == "H"


def test_the_trump_card_is_one_of_the_dealers() -> None:
    hands = mixed_deal()
    game = Game(Rules.from_preset("whist"), N)
    dealt = tuple(tuple(card(c) for c in hands[s]) for s in Seat)
    with pytest.raises(InvalidDeal, match="one of the dealer's cards"):
        game.apply(Deal(dealt, card("5H")))  # East's
    with pytest.raises(InvalidDeal, match="one of the dealer's cards"):
        game.apply(Deal(dealt))
    game.apply(Deal(dealt, card("AS")))  # any card of the dealer's (G7)
    assert game.trump == "S"


def test_a_random_deal_turns_up_the_dealers_last_card() -> None:
    game = Game(Rules.from_preset("whist"), Seat.W)
    deal = game.deal(random.Random(11))
    assert deal.turned == deal.hands[W][-1]
    assert game.trump == deal.turned.suit


def test_whist_has_no_bids() -> None:
    game = whist(mixed_deal(), "3H")
    with pytest.raises(IllegalAction, match="There is no bid in Whist"):
        game.apply(Bid(E, 7))


def test_trump_may_be_led_at_any_time() -> None:
    game = whist(mixed_deal(), "3H")
    assert Play(E, card("5H")) in game.legal_actions()
    game.apply(Play(E, card("5H")))
    assert game.spades_broken  # (a trump has been played)


def test_highest_trump_wins_else_highest_of_the_suit_led() -> None:
    game = whist(by_suit_deal(), "2S")  # spades trump; N holds every spade
    game.apply(Play(E, card("AH")))  # hearts led; nobody else has a heart
    game.apply(Play(S, card("AD")))
    game.apply(Play(W, card("AC")))
    game.apply(Play(N, card("2S")))  # the lowest trump takes it
    assert game.completed_tricks[-1].winner is N
    game.apply(Play(N, card("3S")))
    game.apply(Play(E, card("KH")))
    game.apply(Play(S, card("KD")))
    game.apply(Play(W, card("KC")))
    assert game.completed_tricks[-1].winner is N


def test_follow_suit_when_able() -> None:
    game = whist(mixed_deal(), "3H")
    game.apply(Play(E, card("5C")))
    assert {a.card.suit for a in game.legal_actions() if isinstance(a, Play)} == {"C"}
    with pytest.raises(IllegalAction, match="You must follow ♣"):
        game.apply(Play(S, card("8H")))


def test_the_side_with_seven_tricks_scores_the_odd_tricks_and_the_deal_moves_on() -> None:
    game = whist(by_suit_deal(), "2S")  # N's spades win every trick: NS take 13
    while game.phase is Phase.PLAY:
        game.apply(game.legal_actions()[-1])
    (result,) = game.results
    assert result.trump == "S"
    assert result.trump_card == card("2S")
    assert result.tricks[N] + result.tricks[S] == 13
    assert [t.points for t in result.teams] == [13 - 6, 0]
    assert game.scores == [7, 0]
    assert game.over, "7 is the target of the whist preset"
    assert game.winner is not None
    assert game.winner.name == "NS"
