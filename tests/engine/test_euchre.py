"""Euchre's play (games.md G4, G7): the calling rounds, the dealer's pick-up and discard,
stick the dealer, the void hand, going alone with the partner sitting out, the bowers' suit
membership, and refusals a player can read."""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest

from bot.engine import (
    Bid,
    Call,
    Deal,
    Discard,
    Game,
    IllegalAction,
    Phase,
    Play,
    Rules,
    Seat,
    card,
    seat_view,
)
from bot.engine.errors import IllegalCall, InvalidDeal, MustFollowSuit, MustNameSuit, NotYourTurn

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W

# Hearts will be trump in most tests: J♥ right bower, J♦ left bower.
DEAL = {
    "N": ["JH", "AS", "KS", "9C", "TD"],
    "E": ["JD", "QS", "AC", "KC", "9D"],  # J♦: E's only "diamond" is the 9♦ once ♥ is trump
    "S": ["AH", "KH", "TS", "QC", "AD"],
    "W": ["9H", "9S", "JS", "TC", "KD"],
}
UP = "TH"  # kitty: T♥ (up), Q♥, JC, QD


def euchre(
    deal: Mapping[str, list[str]] = DEAL, up: str = UP, dealer: Seat = N, **overrides: object
) -> Game:
    game = Game(Rules.from_preset("euchre", **overrides), dealer)
    hands = tuple(tuple(card(c) for c in deal[s.name]) for s in Seat)
    game.apply(Deal(hands, card(up)))
    return game


def codes(actions: list[object]) -> list[str]:
    out = []
    for a in actions:
        if isinstance(a, Call):
            out.append(a.text)
        elif isinstance(a, Discard | Play):
            out.append(a.card.code)
    return out


def refusal(game: Game, action: object) -> IllegalAction:
    with pytest.raises(IllegalAction) as info:
        game.check(action)  # type: ignore[arg-type]
    return info.value


# ---------------------------------------------------------------- calling
def test_calling_starts_left_of_the_dealer_with_order_up_or_pass() -> None:
    game = euchre()
    assert game.phase is Phase.CALL
    assert game.calling_round == 1
    assert game.to_act is E
    assert codes(game.legal_actions()) == ["pass", "order up", "order up alone"]
    assert game.up_card == card("TH")
    assert game.trump is None


def test_ordering_up_makes_trump_and_the_dealer_takes_the_up_card_and_discards() -> None:
    game = euchre()
    game.apply(Call(E, Call.PASS))
    game.apply(Call(S, Call.ORDER))
    assert game.phase is Phase.DISCARD
    assert game.to_act is N
    assert game.maker is S
    assert card("TH") in game.hand(N)
    assert len(game.hand(N)) == 6
    assert sorted(codes(game.legal_actions())) == sorted([*DEAL["N"], "TH"])
    game.apply(Discard(N, card("9C")))
    assert game.phase is Phase.PLAY
    assert game.trump == "H"
    assert len(game.hand(N)) == 5
    assert game.to_act is E, "the seat left of the dealer leads"
    assert seat_view(game, N).trumps.discarded == card("9C")
    assert seat_view(game, S).trumps.discarded is None, "the discard is face down"


def test_the_dealer_may_discard_the_up_card_itself() -> None:
    game = euchre()
    game.apply(Call(E, Call.ORDER))
    game.apply(Discard(N, card("TH")))
    assert game.phase is Phase.PLAY
    assert set(game.hand(N)) == {card(c) for c in DEAL["N"]}


def test_only_the_dealer_discards() -> None:
    game = euchre()
    game.apply(Call(E, Call.ORDER))
    assert isinstance(refusal(game, Discard(E, card("QS"))), NotYourTurn)
    assert refusal(game, Discard(E, card("QS"))).reason == "The dealer (North) discards"
    assert refusal(game, Discard(N, card("QS"))).reason == "You don't hold Q♠"


def test_second_round_names_any_suit_but_the_one_turned_down() -> None:
    game = euchre()
    for seat in (E, S, W, N):
        game.apply(Call(seat, Call.PASS))
    assert game.calling_round == 2
    assert game.to_act is E
    assert codes(game.legal_actions()) == [
        "pass", "call ♠", "call ♠ alone", "call ♦", "call ♦ alone", "call ♣", "call ♣ alone",
    ]  # fmt: skip
    assert refusal(game, Call(E, "H")).reason == "♥ was turned down: name another suit, or pass"
    assert refusal(game, Call(E, Call.ORDER)).reason.startswith("The up-card was turned down")
    game.apply(Call(E, "S"))
    assert game.phase is Phase.PLAY, "no pick-up in the second round"
    assert (game.trump, game.maker) == ("S", E)
    assert len(game.hand(N)) == 5


def test_first_round_takes_no_suit_but_the_up_cards() -> None:
    game = euchre()
    reason = refusal(game, Call(E, "S")).reason
    assert reason == "In the first round you order up ♥ (the up-card's suit) or pass"


def test_only_a_maker_goes_alone() -> None:
    game = euchre()
    error = refusal(game, Call(E, Call.PASS, alone=True))
    assert isinstance(error, IllegalCall)
    assert error.reason.startswith("Only the maker goes alone")


def test_calls_are_made_in_turn() -> None:
    game = euchre()
    assert refusal(game, Call(S, Call.ORDER)).reason == "It is East's turn to call"


def test_no_card_is_played_before_trump_is_chosen() -> None:
    game = euchre()
    assert refusal(game, Play(E, card("QS"))).reason == "Trump has not been chosen yet"


def test_euchre_has_no_bids() -> None:
    assert refusal(euchre(), Bid(E, 3)).reason == "There is no bid in Euchre"


# ---------------------------------------------------------------- stick the dealer, void hand
def pass_round(game: Game, seats: tuple[Seat, ...] = (E, S, W, N)) -> None:
    for seat in seats:
        game.apply(Call(seat, Call.PASS))


def test_stick_the_dealer_the_dealer_must_name_a_suit() -> None:
    game = euchre(stick_the_dealer=True)
    pass_round(game)
    pass_round(game, (E, S, W))
    assert game.to_act is N
    assert "pass" not in codes(game.legal_actions())
    error = refusal(game, Call(N, Call.PASS))
    assert isinstance(error, MustNameSuit)
    assert error.reason == "The dealer must name a suit (stick the dealer)"
    game.apply(Call(N, "C"))
    assert (game.trump, game.maker, game.phase) == ("C", N, Phase.PLAY)


def test_without_stick_the_dealer_all_passing_voids_the_hand() -> None:
    game = euchre()
    pass_round(game)
    pass_round(game)
    assert game.phase is Phase.DEAL
    assert game.dealer is E, "the deal passes on"
    assert game.hand_number == 2
    (result,) = game.results
    assert result.void
    assert result.plays == ()
    assert (result.trump, result.maker) == (None, None)
    assert [t.points for t in result.teams] == [0, 0]
    assert [c.call for c in result.calls] == ["pass"] * 8
    assert game.scores == [0, 0]


# ---------------------------------------------------------------- going alone
def test_the_lone_makers_partner_sits_out_and_holds_cards() -> None:
    game = euchre()
    game.apply(Call(E, Call.ORDER, alone=True))
    game.apply(Discard(N, card("9C")))
    assert game.sitting_out is W
    assert seat_view(game, N).sitting_out is W
    seen: list[Seat] = []
    while game.phase is Phase.PLAY:
        seat = game.to_act
        assert seat is not None
        seen.append(seat)
        if seat is E and len(seen) == 1:
            error = refusal(game, Play(W, card("9S")))
            assert error.reason == "You sit this hand out: your partner plays alone"
        game.apply(game.legal_actions()[0])
    assert W not in seen
    assert len(seen) == 15
    result = game.results[-1]
    assert len(result.plays) == 15
    assert result.tricks[W] == 0
    assert result.alone
    assert result.maker is E


def test_a_dealer_sitting_out_still_takes_the_up_card_and_discards() -> None:
    game = euchre()
    game.apply(Call(E, Call.PASS))
    game.apply(Call(S, Call.ORDER, alone=True))  # N, the dealer, sits out
    assert game.phase is Phase.DISCARD
    assert game.to_act is N
    game.apply(Discard(N, card("9C")))
    assert game.sitting_out is N
    assert game.to_act is E, "the seat left of the dealer leads"
    while game.phase is Phase.PLAY:
        assert game.to_act is not N
        game.apply(game.legal_actions()[0])


def test_lead_skips_a_sitting_out_seat_left_of_the_dealer() -> None:
    game = euchre()
    game.apply(Call(E, Call.PASS))
    game.apply(Call(S, Call.PASS))
    game.apply(Call(W, Call.ORDER, alone=True))  # E, left of the dealer, sits out
    game.apply(Discard(N, card("9C")))
    assert game.sitting_out is E
    assert game.to_act is S


# ---------------------------------------------------------------- the bowers
def hearts_trump() -> Game:
    game = euchre()
    game.apply(Call(E, Call.ORDER))
    game.apply(Discard(N, card("9C")))
    return game  # E leads; E holds J♦ (a ♥ now) and 9♦


def test_the_left_bower_must_follow_a_trump_lead() -> None:
    game = hearts_trump()
    game.apply(Play(E, card("QS")))  # E leads ♠
    game.apply(Play(S, card("TS")))
    game.apply(Play(W, card("JS")))
    game.apply(Play(N, card("AS")))  # N wins, leads the right bower
    game.apply(Play(N, card("JH")))
    assert codes(game.legal_actions()) == ["JD"], "E's only heart is the left bower"
    error = refusal(game, Play(E, card("9D")))
    assert isinstance(error, MustFollowSuit)
    assert error.reason == "You must follow ♥ — the left bower is a ♥ now"
    game.apply(Play(E, card("JD")))
    assert game.current_trick[-1] == (E, card("JD"))


def test_the_left_bower_does_not_follow_its_printed_suit() -> None:
    game = hearts_trump()
    game.apply(Play(E, card("9D")))  # E leads ♦
    assert codes(game.legal_actions()) == ["AD"], "S must follow ♦ with the A♦"
    game.apply(Play(S, card("AD")))
    game.apply(Play(W, card("KD")))
    game.apply(Play(N, card("TD")))
    # S won; leads ♣.  E holds J♦, A♣, K♣: must follow ♣.
    game.apply(Play(S, card("QC")))
    game.apply(Play(W, card("TC")))
    game.apply(Play(N, card("TH")))  # N, void in ♣, trumps
    error = refusal(game, Play(E, card("JD")))
    assert error.reason == "You must follow ♣ — the J♦ is the left bower, a ♥ now"


def test_a_lone_left_bower_is_no_diamond_when_diamonds_are_led() -> None:
    deal = {**DEAL, "E": ["JD", "QS", "AC", "KC", "9S"], "W": ["9H", "9D", "JS", "TC", "KD"]}
    game = euchre(deal)
    game.apply(Call(E, Call.ORDER))
    game.apply(Discard(N, card("9C")))
    game.apply(Play(E, card("QS")))
    game.apply(Play(S, card("TS")))
    game.apply(Play(W, card("JS")))
    game.apply(Play(N, card("AS")))
    game.apply(Play(N, card("TD")))  # N leads ♦; E has no ♦ (its J♦ is a ♥)
    assert sorted(codes(game.legal_actions())) == sorted(["JD", "AC", "KC", "9S"])
    game.apply(Play(E, card("JD")))
    game.apply(Play(S, card("AD")))
    game.apply(Play(W, card("KD")))
    assert game.completed_tricks[-1].winner is E, "the left bower trumps the A♦"


def test_right_bower_beats_left_bower_beats_the_ace_of_trump() -> None:
    deal = {
        "N": ["AH", "AS", "KS", "9C", "TD"],
        "E": ["JD", "QS", "AC", "KC", "9D"],
        "S": ["JH", "KH", "TS", "QC", "AD"],
        "W": ["9H", "9S", "JS", "TC", "KD"],
    }
    game = euchre(deal, up="QH")
    game.apply(Call(E, Call.ORDER))
    game.apply(Discard(N, card("9C")))
    game.apply(Play(E, card("JD")))  # leading the left bower leads trump
    assert codes(game.legal_actions()) == ["JH", "KH"], "S must follow ♥"
    game.apply(Play(S, card("JH")))
    game.apply(Play(W, card("9H")))
    game.apply(Play(N, card("AH")))
    assert game.completed_tricks[-1].winner is S, "J♥ (right) over J♦ (left) over A♥"


# ---------------------------------------------------------------- deals
def test_the_up_card_is_not_a_dealt_card() -> None:
    game = Game(Rules.from_preset("euchre"))
    hands = tuple(tuple(card(c) for c in DEAL[s.name]) for s in Seat)
    with pytest.raises(InvalidDeal, match="The up-card is a card of the kitty"):
        game.apply(Deal(hands, card("JH")))
    with pytest.raises(InvalidDeal, match="turns up the top card"):
        game.apply(Deal(hands))
    with pytest.raises(InvalidDeal, match="Each seat is dealt 5 cards"):
        game.apply(Deal(tuple(h[:4] for h in hands), card("TH")))
    bad = ((*hands[0][:4], card("2C")), *hands[1:])
    with pytest.raises(InvalidDeal, match="not of the euchre24 deck"):
        game.apply(Deal(bad, card("TH")))


@pytest.mark.parametrize(("deck", "kitty"), [("euchre24", 4), ("euchre28", 8), ("euchre32", 12)])
def test_a_random_deal_gives_five_cards_each_and_turns_up_the_kittys_top(
    deck: str, kitty: int
) -> None:
    game = Game(Rules.from_preset("euchre", deck=deck))
    deal = game.deal(random.Random(7))
    assert [len(h) for h in deal.hands] == [5, 5, 5, 5]
    dealt = {c for h in deal.hands for c in h}
    assert deal.turned is not None
    assert deal.turned not in dealt
    assert len(game.deck.cards) - len(dealt) == kitty
    assert seat_view(game, None).trumps.up_card == deal.turned, "everyone sees the up-card"
