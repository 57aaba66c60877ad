"""Play (rules.md §6): following suit, breaking spades, who wins a trick, and the plays refused
with their reasons."""

from __future__ import annotations

from bot.engine import (
    SEATS,
    Bid,
    Deal,
    Game,
    Look,
    Play,
    Rules,
    Seat,
    card,
)
from bot.engine.errors import (
    CardNotInHand,
    GameOver,
    MustFollowSuit,
    NotYourTurn,
    SpadesNotBroken,
)
from tests.engine.builders import (
    deck_codes,
    finish_trick,
    game_in_play,
    play,
    play_hand,
)
from tests.engine.snapshot import refused


def test_must_follow_suit_when_able() -> None:
    game = game_in_play("standard", {"E": ["5H"], "S": ["9H", "AS", "AD"]})
    play(game, "5H")
    assert {a.card.code for a in game.legal_actions() if isinstance(a, Play)} <= {
        c for c in deck_codes("standard") if c[1] == "H"
    }
    refused(game, Play(Seat.S, card("AS")), MustFollowSuit, "You must follow ♥")
    refused(game, Play(Seat.S, card("AD")), MustFollowSuit, "You must follow ♥")
    play(game, "9H")


def test_any_card_may_be_played_when_void_in_the_suit_led() -> None:
    game = game_in_play("standard", {"E": ["5H"], "S": ["AS", "AD"]}, void={"S": "H"})
    play(game, "5H")
    assert {a.card for a in game.legal_actions()} == set(game.hand(Seat.S))  # type: ignore[union-attr]
    play(game, "AD")  # a discard


def test_spades_cannot_be_led_before_they_are_broken() -> None:
    game = game_in_play("standard", {"E": ["AS", "5H"]})
    assert Play(Seat.E, card("AS")) not in game.legal_actions()
    refused(game, Play(Seat.E, card("AS")), SpadesNotBroken, "Spades are not broken yet")
    assert not game.spades_broken


def test_a_leader_holding_only_spades_may_lead_one_and_that_breaks_spades() -> None:
    spades = [r + "S" for r in "23456789TJQKA"]
    game = game_in_play("standard", {"E": spades})
    assert len(game.legal_actions()) == 13
    play(game, "2S")
    assert game.spades_broken


def test_a_spade_played_on_another_suit_breaks_spades_and_then_spades_may_be_led() -> None:
    fixed = {"E": ["5H"], "S": ["2S", "3S", "4D"], "N": ["AH"]}
    game = game_in_play("standard", fixed, void={"S": "H"})
    play(game, "5H", "2S")
    assert game.spades_broken
    finish_trick(game)
    assert game.completed_tricks[0].winner == Seat.S  # the 2♠ trumps the A♥
    assert Play(Seat.S, card("3S")) in game.legal_actions()
    play(game, "3S")


def test_a_discard_does_not_break_spades() -> None:
    game = game_in_play("standard", {"E": ["5H"], "S": ["2D"]}, void={"S": "H"})
    play(game, "5H", "2D")
    assert not game.spades_broken


def test_the_highest_trump_wins_else_the_highest_card_of_the_suit_led() -> None:
    game = game_in_play("standard", {"E": ["5H"], "S": ["AD"], "W": ["6H"], "N": ["4H"]},
                        void={"S": "H"})  # fmt: skip
    play(game, "5H", "AD", "6H", "4H")  # the A♦ is off-suit
    trick = game.completed_tricks[0]
    assert trick.winner == Seat.W
    assert game.to_act == Seat.W  # the winner leads next
    assert game.tricks_won == (0, 0, 0, 1)


def test_playing_out_of_turn_is_refused() -> None:
    game = game_in_play("standard", {"E": ["5H"], "S": ["9H"]})
    refused(game, Play(Seat.S, card("9H")), NotYourTurn, "It is East's turn to play")
    play(game, "5H", "9H")
    refused(game, Play(Seat.E, card("AS")), NotYourTurn, "It is West's turn to play")


def test_a_card_not_in_hand_is_refused() -> None:
    game = game_in_play("standard", {"S": ["AS"]})
    refused(game, Play(Seat.E, card("AS")), CardNotInHand, "You don't hold A♠")
    refused(game, Play(Seat.E, card("BJ")), CardNotInHand, "You don't hold Big🃏")


def test_a_finished_game_refuses_everything() -> None:
    game = Game(Rules.from_preset("new-york"))
    play_hand(game, None, {"N": 4, "E": 3, "S": 3, "W": 3})
    play_hand(game, {"NS": 10, "EW": 4}, {"N": 7, "S": 6})
    assert game.over
    assert game.to_act is None
    assert all(game.legal_actions(s) == [] for s in SEATS)
    refused(game, Deal(((),) * 4), GameOver, "The game is over")
    refused(game, Bid(Seat.E, 4), GameOver, "The game is over")
    refused(game, Play(Seat.E, card("AS")), GameOver, "The game is over")
    refused(game, Look(Seat.E), GameOver, "The game is over")
