"""What the engine tells the commands (``/bid``'s choices, the **Claim** button): the bids or
calls a seat may make now, in the order offered, and whether a seat may claim a renege now —
refused with the reason a claim itself would be refused with."""

from __future__ import annotations

import pytest

from bot.engine import (
    BLIND_NIL,
    NIL,
    Bid,
    Call,
    Game,
    IllegalAction,
    Look,
    Rules,
    Seat,
    bid_choices,
    check_claimant,
    claim_targets,
)
from bot.engine.actions import Claim
from bot.engine.errors import WrongPhase
from tests.engine.builders import play, trailing_ns
from tests.engine.test_euchre import euchre
from tests.engine.test_renege_claims import renege_game
from tests.engine.test_whist import mixed_deal, whist
from tests.engine.variant_deals import RENEGE_DEAL, E, N, S, W, deal


def test_face_down_the_blind_bid_then_looking_then_the_bids_open_whatever_the_cards() -> None:
    game = trailing_ns("standard")  # NS trail by 140: blind nil is open to N and S
    seat = game.to_act
    assert seat is not None
    assert game.blind_open(seat)
    choices = bid_choices(game, seat)
    assert choices[:2] == (Bid(seat, BLIND_NIL), Look(seat))
    assert choices[2:] == game.unseen_bids(seat)
    assert Bid(seat, NIL) in choices[2:]


def test_once_looked_the_legal_bids_in_order() -> None:
    game = trailing_ns("standard")
    seat = game.to_act
    assert seat is not None
    game.apply(Look(seat))
    choices = bid_choices(game, seat)
    assert choices == (Bid(seat, NIL), *(Bid(seat, v) for v in range(1, 14)))
    assert list(choices) == game.legal_actions(seat)


def test_euchre_offers_exactly_the_legal_calls() -> None:
    game = euchre()
    seat = game.to_act
    assert seat is not None
    choices = bid_choices(game, seat)
    assert choices
    assert all(isinstance(a, Call) for a in choices)
    assert list(choices) == [a for a in game.legal_actions(seat) if isinstance(a, Call)]


def test_nothing_to_bid_in_whist_or_out_of_turn() -> None:
    game = whist(mixed_deal(), "3H")
    assert game.to_act is not None
    assert bid_choices(game, game.to_act) == ()
    spades = trailing_ns("standard", blind_nil=False)
    seat = spades.to_act
    assert seat is not None
    assert bid_choices(spades, Seat((seat + 1) % 4)) == ()


def test_a_claim_waits_for_the_first_card_then_opens_to_every_seat() -> None:
    game = Game(Rules.from_preset("standard", renege="claim"), N)
    game.apply(deal(RENEGE_DEAL))
    with pytest.raises(WrongPhase, match="claims are made while the cards are played"):
        check_claimant(game, E)
    game = renege_game()
    with pytest.raises(IllegalAction, match="No card has been played yet this hand"):
        check_claimant(game, E)
    play(game, "AH")
    for seat in (N, E, S, W):
        check_claimant(game, seat)  # not refused: any seat may claim, on turn or not
        assert claim_targets(game, seat) == ((E, W) if seat in (N, S) else (N, S))


def test_a_wrong_claim_bars_its_side_with_the_engines_reason() -> None:
    game = renege_game()
    play(game, "AH", "2D")
    game.apply(Claim(W, S))  # S has not reneged: wrong, and EW may not claim again
    for seat in (E, W):
        with pytest.raises(IllegalAction, match="Your team made a wrong claim this hand") as barred:
            check_claimant(game, seat)
        with pytest.raises(IllegalAction) as claimed:
            game.check(Claim(seat, N))
        assert barred.value.reason == claimed.value.reason
        assert claim_targets(game, seat) == ()
    check_claimant(game, N)
    solo = renege_game(partnerships=False)
    play(solo, "AH", "2D")
    solo.apply(Claim(W, S))
    with pytest.raises(IllegalAction, match=r"^You made a wrong claim this hand"):
        check_claimant(solo, W)
