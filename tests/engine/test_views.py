"""What a seat (or the channel) may know: a hidden hand never reaches a view, the public view
never holds a hand, and a seat view holds only that seat's own cards."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from bot.engine import (
    BLIND_NIL,
    SEATS,
    Bid,
    Card,
    Game,
    Look,
    PassCards,
    Phase,
    Rules,
    Seat,
    seat_view,
)
from tests.engine.builders import (
    deal_action,
    fill_deal,
    game_in_play,
    make_bids,
    play,
    play_hand,
    trailing_ns,
)


def cards_in(obj: Any, skip: tuple[str, ...] = ("results",)) -> set[str]:
    """Every card code reachable from ``obj`` (the ``results`` of past hands left out)."""
    if isinstance(obj, Card):
        return {obj.code}
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return set().union(
            *(
                cards_in(getattr(obj, f.name), skip)
                for f in dataclasses.fields(obj)
                if f.name not in skip
            )
        )
    if isinstance(obj, tuple | list | set | frozenset):
        return set().union(*(cards_in(x, skip) for x in obj))
    if isinstance(obj, dict):
        return set().union(*(cards_in(x, skip) for x in (*obj.keys(), *obj.values())))
    return set()


def codes(cards: tuple[Card, ...]) -> set[str]:
    return {c.code for c in cards}


def test_seat_view_hides_the_hand_while_blind_nil_is_open() -> None:
    game = trailing_ns("standard")
    for seat in (Seat.N, Seat.S):
        view = seat_view(game, seat)
        assert view.bidding.blind_open
        assert view.hand is None
        assert view.hand_hidden
        assert not cards_in(view) & codes(game.hand(seat))
    assert view.cards_left == (13, 13, 13, 13)


def test_seat_view_shows_the_hand_after_look() -> None:
    game = trailing_ns("standard")
    game.apply(Look(Seat.S))
    view = seat_view(game, Seat.S)
    assert view.hand == game.hand(Seat.S)
    assert not view.hand_hidden
    assert not view.bidding.blind_open


def test_a_blind_nil_bidders_hand_stays_hidden_until_bidding_ends() -> None:
    game = trailing_ns("house")
    game.apply(Bid(Seat.S, BLIND_NIL))
    view = seat_view(game, Seat.S)
    assert view.hand is None
    assert not cards_in(view) & codes(game.hand(Seat.S))
    game.apply(Bid(Seat.W, 3))
    game.apply(Bid(Seat.N, 3))
    game.apply(Bid(Seat.E, 3))
    assert game.phase is Phase.PASS
    assert seat_view(game, Seat.S).hand == game.hand(Seat.S)


def test_new_york_blind_proposer_does_not_see_the_cards() -> None:
    game = Game(Rules.from_preset("new-york"))
    play_hand(game, None, {"N": 1, "E": 6, "S": 0, "W": 6})
    game.apply(deal_action(fill_deal("jjdd", {})))
    game.apply(Bid(Seat.S, 6, True))
    for seat in (Seat.S, Seat.N):
        view = seat_view(game, seat)
        assert view.hand is None
        assert not cards_in(view) & codes(game.hand(seat))


def test_public_view_never_contains_a_hand() -> None:
    rng = random.Random(11)
    for preset in ("house", "jjdd", "new-york"):
        game = Game(Rules.from_preset(preset))
        while not game.over and len(game.results) < 3:
            if game.phase is Phase.DEAL:
                game.deal(rng)
                continue
            view = seat_view(game, None)
            assert view.hand is None
            assert view.legal == ()
            played = {c.code for _, c in game.plays}
            assert cards_in(view) <= played
            game.apply(rng.choice(game.legal_actions()))


def test_seat_view_holds_only_the_seats_own_cards_and_played_ones() -> None:
    rng = random.Random(5)
    game = Game(Rules.from_preset("house", blind_nil_min_deficit=0))
    while len(game.results) < 3:
        if game.phase is Phase.DEAL:
            game.deal(rng)
            continue
        played = {c.code for _, c in game.plays}
        for seat in SEATS:
            view = seat_view(game, seat)
            own = set() if view.hand is None else codes(view.hand)
            passed = codes(view.bidding.passed) | codes(view.bidding.received)
            assert cards_in(view) <= played | own | passed
            assert view.hand is None or view.hand == game.hand(seat)
            assert view.legal == tuple(game.legal_actions(seat))
        game.apply(rng.choice(game.legal_actions()))


def test_passed_cards_show_to_the_two_partners_only() -> None:
    game = trailing_ns("house")
    make_bids(game, {"N": 3, "E": 3, "S": "blind_nil", "W": 3})
    give = game.hand(Seat.S)[:2]
    game.apply(PassCards(Seat.S, give))
    assert seat_view(game, Seat.S).bidding.passed == give
    assert seat_view(game, Seat.N).bidding.received == give
    for seat in (Seat.E, Seat.W, None):
        view = seat_view(game, seat)
        assert view.bidding.passed == view.bidding.received == ()
        if seat is not None:
            assert not cards_in(view) & codes(game.hand(Seat.N))


def test_seat_view_says_whose_turn_it_is() -> None:
    game = game_in_play("standard", {"E": ["5H"]})
    assert seat_view(game, Seat.E).my_turn
    assert not seat_view(game, Seat.S).my_turn
    assert seat_view(game, Seat.S).legal == ()
    play(game, "5H")
    assert seat_view(game, None).current_trick == game.current_trick
