"""games.md G2 three players (cutthroat-3): the 51-card deal, a hand of 17 tricks, records
with three seats."""

from __future__ import annotations

import random

import pytest

from bot.engine import NIL, Bid, Game, IllegalAction, Look, Phase, Rules
from bot.engine.errors import RecordError
from bot.engine.record import export_record, replay
from tests.engine.builders import RANKS, play
from tests.engine.variant_deals import E, N, S, deal, suit


def test_cutthroat_3_deals_51_cards_17_each() -> None:
    game = Game(Rules.from_preset("cutthroat-3"), N)
    game.deal(random.Random(7))
    hands = game.deal_cards
    assert [len(h) for h in hands] == [17, 17, 17]
    codes = {c.code for h in hands for c in h}
    assert len(codes) == 51
    assert "2C" not in codes
    assert game.seating.seats == (N, E, S)
    assert game.to_act == E  # left of the dealer N
    game.apply(Look(E)) if game.blind_open(E) else None
    assert Bid(E, 17) in game.legal_actions()
    with pytest.raises(IllegalAction, match="A bid is 1 to 17 tricks"):
        game.apply(Bid(E, 18))


THREE_DEAL = {
    "N": [*suit("S"), "2H", "3H", "4H", "5H"],
    "E": [*suit("H", RANKS[4:]), *suit("D", RANKS[:8])],
    "S": [*suit("D", RANKS[8:]), *suit("C", RANKS[1:])],
}


def test_cutthroat_3_hand_of_17_tricks() -> None:
    # N deals; E leads.  T1-4: E leads AH, KH, QH, JH; S discards clubs, N must follow 2H-5H:
    # E wins 4.  T5: E leads TH, S discards, N (no hearts) ruffs 2S and wins.  T6-17: N leads
    # AS..3S, E and S discard: N wins 12.  N 13 tricks, E 4, S 0: 17 tricks, 51 cards.
    game = Game(Rules.from_preset("cutthroat-3"), N)
    game.apply(deal(THREE_DEAL, "NES"))
    make_three_bids(game, {"E": 4, "S": "nil", "N": 13})
    clubs = iter(suit("C", RANKS[1:]))
    for heart, low in zip("AKQJ", "2345", strict=True):
        play(game, heart + "H", next(clubs), low + "H")
    play(game, "TH", next(clubs), "2S")
    e_rest = iter([*suit("H", "6789")[::-1], *suit("D", RANKS[:8])])
    s_rest = iter([*clubs, *suit("D", RANKS[8:])])
    for r in "AKQJT9876543":
        play(game, r + "S", next(e_rest), next(s_rest))
    res = game.results[-1]
    assert res.tricks[:3] == (13, 4, 0)
    assert len(res.plays) == 51
    # N: 13 bid, 13 taken -> 130.  E: 4 of 4 -> 40.  S: nil made -> +100.
    assert [t.points for t in res.teams] == [130, 40, 100]
    line = next(iter(replay(export_record(game))))
    assert line["tricks"] == {"N": 13, "E": 4, "S": 0}
    assert set(line["players"]) == {"N", "E", "S"}


def make_three_bids(game: Game, bids: dict[str, int | str]) -> None:
    while game.phase is Phase.BID:
        seat = game.to_act
        assert seat is not None
        spec = bids[seat.name]
        value = NIL if spec == "nil" else int(spec)
        if game.blind_open(seat):
            game.apply(Look(seat))
        game.apply(Bid(seat, value))


def test_three_player_records_refuse_a_fourth_seat() -> None:
    game = Game(Rules.from_preset("cutthroat-3"), N)
    game.apply(deal(THREE_DEAL, "NES"))
    doc = export_record(game)
    doc["hands"][0]["deal"]["W"] = []
    with pytest.raises(RecordError, match="N, E, S"):
        list(replay(doc))
    doc = export_record(game)
    doc["first_dealer"] = "W"
    with pytest.raises(RecordError, match="first_dealer"):
        list(replay(doc))
