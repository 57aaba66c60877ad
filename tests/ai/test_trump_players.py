"""Whist and Euchre computer players: every level plays whole games legally, deterministically
for a seed; Euchre calls, alone, discards and leads make sense on hands picked by hand."""

from __future__ import annotations

import random

import pytest

from bot.ai import get_player
from bot.ai.euchre import EuchreEasy, EuchreNormal
from bot.ai.trump_search import EuchreHard, WhistHard
from bot.ai.whist import TrickEasy, TrickNormal
from bot.engine import Call, Deal, Discard, Game, Phase, Play, Rules, Seat, card, seat_view
from tests.ai.conftest import play_game

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
PRESETS = [
    ("whist", {}),
    ("short-whist", {"whist_points": "one_per_hand"}),
    ("euchre", {}),
    ("euchre", {"stick_the_dealer": True, "deck": "euchre32"}),
    ("euchre", {"euchre_points": "per_trick", "deck": "euchre28"}),
]


@pytest.mark.parametrize(("preset", "overrides"), PRESETS)
@pytest.mark.parametrize("seed", [1, 2])
def test_every_level_plays_whole_games(
    preset: str, overrides: dict[str, object], seed: int
) -> None:
    rules = Rules.from_preset(preset, **overrides)
    players = [get_player("hard"), get_player("easy"), get_player("normal"), get_player("easy")]
    game = play_game(rules, players, seed, budget_s=0.002)
    assert game.over
    assert game.winner is not None


@pytest.mark.parametrize("preset", ["whist", "euchre"])
def test_a_decision_depends_only_on_the_view_and_the_seed(preset: str) -> None:
    game = Game(Rules.from_preset(preset), Seat.N)
    game.deal(random.Random(3))
    hard = get_player("hard")
    while game.phase is not Phase.PLAY:
        game.apply(get_player("normal").decide(seat_view(game, game.to_act), random.Random(0), 0))
    game.apply(game.legal_actions()[0])
    view = seat_view(game, game.to_act)
    first = hard.decide(view, random.Random(9), 0.01)
    assert all(hard.decide(view, random.Random(9), 0.01) == first for _ in range(3))


def test_each_game_has_its_own_players_at_every_level() -> None:
    player = get_player("normal")
    game = Game(Rules.from_preset("euchre"))
    game.deal(random.Random(1))
    view = seat_view(game, game.to_act)
    assert isinstance(player.decide(view, random.Random(1), 0.01), Call)
    assert {EuchreEasy.level, EuchreNormal.level, EuchreHard.level} == {"easy", "normal", "hard"}
    assert {TrickEasy.level, TrickNormal.level, WhistHard.level} == {"easy", "normal", "hard"}


# ---------------------------------------------------------------- Euchre calling, by hand
def euchre(hands: dict[Seat, str], up: str, dealer: Seat = N, **overrides: object) -> Game:
    game = Game(Rules.from_preset("euchre", **overrides), dealer)
    dealt = tuple(tuple(card(c) for c in hands[s].split()) for s in Seat)
    game.apply(Deal(dealt, card(up)))
    return game


STRONG_HEARTS = {
    N: "9C TC QC 9D TD",
    E: "JH JD AH AS KS",  # both bowers, the ace of trump, a side ace: order up
    S: "KC AC 9S TS QS",
    W: "QD KD AD JS JC",
}
WEAK = {
    N: "JH JD AH KH QH",
    E: "9C TC 9D TD 9S",  # nothing
    S: "KC AC AS TS QS",
    W: "QD KD AD JS JC",
}


@pytest.mark.parametrize("player", [EuchreNormal(), EuchreHard()], ids=["normal", "hard"])
def test_orders_up_a_strong_hand(player: EuchreNormal | EuchreHard) -> None:
    game = euchre(STRONG_HEARTS, up="9H")
    action = player.decide(seat_view(game, E), random.Random(1), 0.05)
    assert isinstance(action, Call)
    assert action.call == Call.ORDER


@pytest.mark.parametrize("player", [EuchreNormal(), EuchreHard()], ids=["normal", "hard"])
def test_passes_a_hand_of_nothing(player: EuchreNormal | EuchreHard) -> None:
    game = euchre(WEAK, up="TH")
    action = player.decide(seat_view(game, E), random.Random(1), 0.05)
    assert action == Call(E, Call.PASS)


def test_goes_alone_with_a_lay_down_hand() -> None:
    hands = {
        N: "9C TC QC 9D TD",
        E: "JH JD AH KH AS",  # right, left, ace, king of trump and a side ace
        S: "KC AC 9S TS QS",
        W: "QD KD AD JS JC",
    }
    game = euchre(hands, up="9H")
    action = EuchreNormal().decide(seat_view(game, E), random.Random(1), 0.01)
    assert action == Call(E, Call.ORDER, True)


def test_names_its_best_suit_in_round_two_and_never_the_turned_down_one() -> None:
    game = euchre({**STRONG_HEARTS, N: "9C TC QH 9D TD"}, up="QC")
    for seat in (E, S, W, N):
        game.apply(Call(seat, Call.PASS))
    action = EuchreNormal().decide(seat_view(game, E), random.Random(1), 0.01)
    assert action == Call(E, "H")


def test_a_stuck_dealer_names_a_suit() -> None:
    game = euchre(WEAK, up="TH", dealer=E, stick_the_dealer=True)
    for seat in (S, W, N, E, S, W, N):
        game.apply(Call(seat, Call.PASS))
    for player in (EuchreEasy(), EuchreNormal(), EuchreHard()):
        action = player.decide(seat_view(game, E), random.Random(1), 0.01)
        assert isinstance(action, Call)
        assert action.call in ("S", "D", "C")


def test_the_dealer_discards_a_side_card_to_make_a_void() -> None:
    hands = {
        N: "JH AH 9H KS QC",  # dealer: after taking the T♥, the lone Q♣ goes (not the K♠? both
        E: "9C TC 9D TD JC",  # singletons: the lower-ranked Q♣ is cheaper than the K♠)
        S: "KC AC 9S TS QS",
        W: "QD KD AD JS AS",
    }
    game = euchre(hands, up="TH")
    game.apply(Call(E, Call.ORDER))
    action = EuchreNormal().decide(seat_view(game, N), random.Random(1), 0.01)
    assert action == Discard(N, card("QC"))


def test_a_maker_holding_the_right_bower_leads_it() -> None:
    game = euchre(STRONG_HEARTS, up="9H")  # N deals, E leads
    game.apply(Call(E, Call.ORDER))
    game.apply(Discard(N, card("9C")))
    action = EuchreNormal().decide(seat_view(game, E), random.Random(1), 0.01)
    assert action == Play(E, card("JH"))


def test_last_to_play_trumps_an_opponents_ace_with_its_lowest_trump() -> None:
    game = euchre(STRONG_HEARTS, up="9H")
    game.apply(Call(E, Call.ORDER))
    game.apply(Discard(N, card("9C")))
    game.apply(Play(E, card("AS")))  # the master spade
    game.apply(Play(S, card("9S")))
    game.apply(Play(W, card("JS")))
    # N, last to play and out of spades, trumps E's ace as cheaply as it can.
    action = EuchreNormal().decide(seat_view(game, N), random.Random(1), 0.01)
    assert action == Play(N, card("9H"))
