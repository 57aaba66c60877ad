# The state changes between asserts on the same property; mypy would pin it to the first value.
# mypy: disable-error-code="comparison-overlap"
"""Card passing after blind nil (rules.md §4): who passes first, how many different cards, in
which order when both teams bid blind nil, and no passing where the table has none."""

from __future__ import annotations

from bot.engine import (
    BLIND_NIL,
    SEATS,
    Bid,
    Game,
    Look,
    PassCards,
    Phase,
    Play,
    Rules,
    Seat,
)
from bot.engine.errors import (
    IllegalPass,
    NotYourTurn,
    WrongPhase,
)
from tests.engine.builders import (
    bid_looking_first,
    deal_next,
    passing_game,
    trailing_ns,
)
from tests.engine.snapshot import refused


def test_blind_nil_bidder_passes_first_then_the_partner_passes_back() -> None:
    game = passing_game()
    assert game.phase is Phase.PASS
    assert game.to_act == Seat.S
    assert not game.hand_hidden(Seat.S)
    give = game.hand(Seat.S)[:2]
    refused(game, PassCards(Seat.N, game.hand(Seat.N)[:2]), NotYourTurn,
            "It is South's turn to pass cards")  # fmt: skip
    refused(game, Play(Seat.E, game.hand(Seat.E)[0]), WrongPhase, "Cards are being passed")
    game.apply(PassCards(Seat.S, give))
    assert set(give) <= set(game.hand(Seat.N))
    assert len(game.hand(Seat.S)) == 11
    assert game.to_act == Seat.N
    back = tuple(c for c in game.hand(Seat.N) if c not in give)[:2]
    game.apply(PassCards(Seat.N, back))
    assert set(back) <= set(game.hand(Seat.S))
    assert [len(game.hand(s)) for s in SEATS] == [13, 13, 13, 13]
    assert game.phase is Phase.PLAY
    assert game.to_act == game.dealer.left


def test_partner_may_pass_back_the_cards_just_received() -> None:
    game = passing_game()
    give = game.hand(Seat.S)[:2]
    game.apply(PassCards(Seat.S, give))
    game.apply(PassCards(Seat.N, give))
    assert set(give) <= set(game.hand(Seat.S))


def test_a_pass_is_exactly_the_right_number_of_different_cards_held() -> None:
    game = passing_game()
    hand = game.hand(Seat.S)
    refused(game, PassCards(Seat.S, hand[:1]), IllegalPass, "Pass exactly 2 different cards")
    refused(game, PassCards(Seat.S, hand[:3]), IllegalPass, "Pass exactly 2 different cards")
    refused(game, PassCards(Seat.S, (hand[0], hand[0])), IllegalPass,
            "Pass exactly 2 different cards")  # fmt: skip
    other = game.hand(Seat.E)[0]
    refused(game, PassCards(Seat.S, (hand[0], other)), IllegalPass, f"You don't hold {other}")


def test_one_card_passing() -> None:
    game = passing_game(blind_nil_pass=1)
    hand = game.hand(Seat.S)
    refused(game, PassCards(Seat.S, hand[:2]), IllegalPass, "Pass exactly 1 different card")
    assert len(game.legal_actions()) == 13
    game.apply(PassCards(Seat.S, hand[:1]))
    assert len(game.legal_actions()) == 14


def test_passes_follow_the_order_in_which_the_blind_nil_bids_were_made() -> None:
    # d = 0: both teams may bid blind nil.  S bids before W, so S and N pass first.
    game = Game(Rules.from_preset("house", blind_nil_min_deficit=0))
    deal_next(game)
    game.apply(Look(Seat.E))
    game.apply(Bid(Seat.E, 3))
    game.apply(Bid(Seat.S, BLIND_NIL))
    game.apply(Bid(Seat.W, BLIND_NIL))
    assert not game.blind_open(Seat.N)  # partner of a blind nil: no double blind nil at 0
    game.apply(Bid(Seat.N, 3))
    order = []
    while game.phase is Phase.PASS:
        seat = game.to_act
        assert seat is not None
        order.append(seat)
        game.apply(PassCards(seat, game.hand(seat)[:2]))
    assert order == [Seat.S, Seat.N, Seat.W, Seat.E]
    assert [p.seat for p in game.passes] == order


def test_no_passing_without_blind_nil_pass() -> None:
    game = trailing_ns("standard")
    game.apply(Bid(Seat.S, BLIND_NIL))
    bid_looking_first(game, Seat.W, Seat.N, Seat.E)
    assert game.phase is Phase.PLAY
