"""Known positions: nil cover, not overtaking or ruffing a partner's ace, a game-winning set."""

from __future__ import annotations

import random

import pytest

from bot.ai import get_player
from bot.ai.hard import HardPlayer
from bot.ai.players import Player
from bot.ai.rule_bidding import estimate_tricks, nil_checklist
from bot.ai.search.spades_play import card_choice
from bot.engine import NIL, Game, Play, Rules, Seat, card, seat_view
from bot.engine.actions import Bid, Deal
from bot.engine.cards import mask_of
from tests.ai.conftest import fast_hard
from tests.ai.helpers import _cards, position

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def _players() -> list[Player]:
    return [get_player("normal"), fast_hard(), get_player("hard")]


def _decide(player: Player, view: object) -> str:
    from bot.engine import SeatView

    assert isinstance(view, SeatView)
    a = player.decide(view, random.Random(1), 0.03)
    assert isinstance(a, Play)
    return a.card.code


@pytest.mark.parametrize("player", _players(), ids=["normal", "hard-fast", "hard"])
def test_covers_partner_nil(player: Player) -> None:
    # S bid nil; E led 9H, S had to play QH, W played 3H: N must overtake with the king.
    view = position(
        me=N,
        hand="KH 2H 5C 7D",
        current=[(E, "9H"), (S, "QH"), (W, "3H")],
        others={E: "8C 9C TC", S: "4C 6C 8D", W: "JC QC KC"},
        bids={N: 5, E: 3, S: NIL, W: 3},
        tricks_won=(4, 3, 0, 2),
    )
    assert _decide(player, view) == "KH"


@pytest.mark.parametrize("player", _players(), ids=["normal", "hard-fast", "hard"])
def test_does_not_overtake_partners_ace(player: Player) -> None:
    # W led 4H, partner N took it with the ace, E followed: S keeps the king.
    view = position(
        me=S,
        hand="KH 3H 9C 5D",
        current=[(W, "4H"), (N, "AH"), (E, "6H")],
        others={W: "8C TC 2D", N: "JC QC KC", E: "7C 6C 8D"},
        bids={N: 4, E: 3, S: 4, W: 2},
        tricks_won=(2, 3, 2, 2),
    )
    assert _decide(player, view) == "3H"


@pytest.mark.parametrize("player", _players(), ids=["normal", "hard-fast", "hard"])
def test_takes_the_set_that_wins_the_game(player: Player) -> None:
    # NS bid 4 and have 5, EW bid 8 and have 6: if N wins this trick EW are set and NS reach
    # 503 against 380; ducking lets EW make 8 and win with 540.
    view = position(
        me=N,
        hand="AD 3C",
        current=[(E, "5D"), (S, "2H"), (W, "8D")],
        others={E: "4C", S: "9H", W: "TC"},
        bids={N: 2, E: 4, S: 2, W: 4},
        tricks_won=(3, 3, 2, 3),
        scores=(460, 460),
    )
    assert _decide(player, view) == "AD"


def test_nil_checklist() -> None:
    weak = mask_of(_cards("2S 3S 2H 4H 6H 8H 3D 5D 7D 9D 2C 4C 6C"))
    assert nil_checklist("standard", weak)
    strong = mask_of(_cards("AS KS 2H 4H 6H 8H 3D 5D 7D 9D 2C 4C AC"))
    assert not nil_checklist("standard", strong)
    assert estimate_tricks("standard", strong) > estimate_tricks("standard", weak)
    assert card("AS").code == "AS"


@pytest.mark.parametrize("player", _players(), ids=["normal", "hard-fast", "hard"])
def test_does_not_spend_an_ace_on_partners_king(player: Player) -> None:
    # N led KH, E followed: only a ruff by W could beat the king, and a ruff beats the ace too.
    # Spending the ace gains nothing in this trick (only the lead, or shedding a winner).
    view = position(
        me=S,
        hand="AH 2H 9C 5D 6D",
        current=[(N, "KH"), (E, "4H")],
        others={W: "8C TC 2D 3S 4S", N: "JC QC KC 7S", E: "7C 6C 8D 3H"},
        bids={N: 4, E: 3, S: 4, W: 2},
        tricks_won=(2, 3, 2, 1),
    )
    assert _decide(player, view) == "2H"


def _dealt(dealer: Seat, hands: list[str], bids: list[int], plays: str) -> Game:
    """A real game: the deal, the bids from the dealer's left, then ``plays`` in turn."""
    game = Game(Rules.from_preset("standard"), dealer)
    game.apply(Deal(tuple(_cards(h) for h in hands)))  # type: ignore[arg-type]
    for b in bids:
        assert game.to_act is not None
        game.apply(Bid(game.to_act, b))
    for code in plays.split():
        assert game.to_act is not None
        game.apply(Play(game.to_act, card(code)))
    return game


DEAL_18 = [
    "AS 6S QH 3S 2C 9S 7C 6C 6H AC 5D JH KC",
    "3C QD 4S 4H JC KH 7H 8C KD 9C 7S 2S JS",
    "5H 5S 9D AH QC 8S AD 2D TD JD 9H 4D 8H",
    "3D QS TC 7D 6D 4C KS TH 5C 2H TS 3H 8D",
]
DEAL_18_PLAYS = "2H JH KH 8H 4H AH 3H QH AD 3D 5D QD 2D 6D AS KD KC 3C QC 4C AC 8C"


def test_does_not_ruff_partners_ace_without_evidence() -> None:
    # Trick 6 of an arena deal (seed 1, deal 18): N cashed the ace of clubs, E followed; S is
    # void in clubs and W may or may not be.  Ruffing spends a trump for the lead (the search
    # without the rule ruffed): S discards.
    game = _dealt(S, DEAL_18, [2, 3, 2, 2], DEAL_18_PLAYS)
    view = seat_view(game, S)
    for seed in (4, 5, 6):  # seeds on which the search without that rule ruffed
        player = HardPlayer(clock=lambda: 0.0, max_worlds=60)
        a = player.decide(view, random.Random(seed), 0.1)
        assert isinstance(a, Play)
        assert a.card.suit != "S", (seed, a.card.code)


def test_a_partners_card_likely_beaten_may_be_protected_and_a_safe_one_not() -> None:
    # Trick 2 of an arena deal (seed 1, deal 7): N led the 6 of diamonds, E followed low, S is
    # void; W may well hold a higher diamond.  The ruff is a safety play there: a candidate.
    game = _dealt(
        W,
        [
            "KH 5C 7D 4C TD AD 9D 6D QD 3C 2C 2H 5S",
            "9H 5H 3D 2D JS KC 6H 6C 5D JC 8S JD QS",
            "7H 9S 9C TH TC KD 4H QH 8C 6S JH 8H AH",
            "7S QC TS 8D AS 7C 4S 3H 3S 2S AC 4D KS",
        ],
        [1, 1, 2, 7],
        "AD 2D KD 4D 6D 3D",
    )
    choice = card_choice(seat_view(game, S), random.Random(1))
    assert len(choice.cands) > 1
    assert any(choice.play(c).card.suit == "S" for c in choice.cands)
    # Over the partner's ace of clubs, W (last to play, wanting tricks) followed with the 4♣
    # under N's K♣ a trick before: W keeps clubs, and no world of the inference has it beat
    # the ace.  The ruffs only grab the lead: no candidates at all.
    game = _dealt(S, DEAL_18, [2, 3, 2, 2], DEAL_18_PLAYS)
    choice = card_choice(seat_view(game, S), random.Random(1))
    assert {choice.play(c).card.code for c in choice.runs} >= {"5S", "8S"}
    assert not {choice.play(c).card.code for c in choice.cands} & {"5S", "8S"}
