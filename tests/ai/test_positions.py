"""Known positions: nil cover, not overtaking partner's ace, taking a game-winning set."""

from __future__ import annotations

import random

import pytest

from bot.ai import get_player
from bot.ai.bidding import estimate_tricks, nil_checklist
from bot.ai.players import Player
from bot.engine import NIL, Play, Seat, card
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
