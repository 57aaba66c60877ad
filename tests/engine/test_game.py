# The state changes between asserts on the same property; mypy would pin it to the first value.
# mypy: disable-error-code="comparison-overlap"
"""The hand state machine (rules.md §2-§4, §6, §8, §10): dealer, deal, bidding, blind nil and
Look, card passing, New York partnership bidding, play, every refusal and its reason, and the
end of the game."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import pytest

from bot.engine import (
    BLIND_NIL,
    NIL,
    SEATS,
    Bid,
    Deal,
    Game,
    IllegalAction,
    Look,
    PassCards,
    Phase,
    Play,
    Rules,
    Seat,
    Team,
    card,
)
from bot.engine.dealer import draw_first_dealer
from bot.engine.errors import (
    BlindNilNotAllowed,
    CardNotInHand,
    GameOver,
    IllegalBid,
    IllegalPass,
    InvalidDeal,
    MustFollowSuit,
    MustLookFirst,
    NotYourTurn,
    SpadesNotBroken,
    WrongPhase,
)
from tests.engine.builders import (
    deal_action,
    deck_codes,
    fill_deal,
    finish_trick,
    game_in_play,
    make_bids,
    play,
    play_hand,
)
from tests.engine.snapshot import snapshot


def cards(*codes: str) -> tuple[object, ...]:
    return tuple(card(c) for c in codes)


def deal_next(game: Game, fixed: dict[str, list[str]] | None = None) -> None:
    game.apply(deal_action(fill_deal(game.rules.deck, fixed or {})))


def refused(game: Game, action: object, kind: type[IllegalAction], reason: str) -> None:
    """``action`` is refused with ``kind`` and ``reason`` and nothing changes."""
    before = snapshot(game)
    assert not game.is_legal(action)  # type: ignore[arg-type]
    with pytest.raises(kind) as info:
        game.apply(action)  # type: ignore[arg-type]
    assert info.value.reason == reason
    assert snapshot(game) == before


def trailing_ns(preset: str, **overrides: object) -> Game:
    """A game whose second hand is dealt with NS trailing EW by 140 (EW 80, NS -60)."""
    game = Game(Rules.from_preset(preset, **overrides))
    play_hand(game, {"N": 3, "E": 4, "S": 3, "W": 4}, {"N": 3, "E": 4, "S": 2, "W": 4})
    assert game.deficit(Team.NS) == 140
    deal_next(game)
    return game


# ---------------------------------------------------------------- dealer
@pytest.mark.parametrize("dealer", list(Seat))
def test_seat_left_of_the_dealer_bids_first_and_leads_the_first_trick(dealer: Seat) -> None:
    game = Game(Rules.from_preset("standard"), dealer)
    assert game.dealer == dealer
    deal_next(game)
    assert game.to_act == dealer.left
    make_bids(game, dict.fromkeys("NESW", 3))
    assert game.phase is Phase.PLAY
    assert game.to_act == dealer.left


def test_dealer_rotates_clockwise_every_hand() -> None:
    game = Game(Rules.from_preset("standard"), Seat.S)
    for _ in range(5):
        play_hand(game, dict.fromkeys("NESW", 3), {"N": 3, "E": 3, "S": 4, "W": 3})
    assert [r.dealer for r in game.results] == [Seat.S, Seat.W, Seat.N, Seat.E, Seat.S]
    assert game.dealer == Seat.W
    assert game.first_dealer == Seat.S


def test_draw_for_first_dealer_gives_the_deal_to_the_highest_card_and_ties_redraw() -> None:
    saw_a_tie = False
    for seed in range(300):
        rounds, dealer = draw_first_dealer(random.Random(seed))
        assert list(rounds[0]) == list(SEATS)
        for draw in rounds:
            assert len(set(draw.values())) == len(draw)  # distinct cards within a round
        for prev, nxt in itertools.pairwise(rounds):
            top = max(c.rank for c in prev.values())
            assert list(nxt) == [s for s, c in prev.items() if c.rank == top]
            assert len(nxt) >= 2
            saw_a_tie = True
        last = rounds[-1]
        top = max(c.rank for c in last.values())
        assert [s for s, c in last.items() if c.rank == top] == [dealer]
    assert saw_a_tie


def test_draw_for_first_dealer_is_reproducible_with_a_seeded_rng() -> None:
    assert draw_first_dealer(random.Random(7)) == draw_first_dealer(random.Random(7))


# ---------------------------------------------------------------- dealing
def test_a_deal_gives_each_seat_13_cards_of_the_tables_deck() -> None:
    game = Game(Rules.from_preset("standard"))
    codes = deck_codes("standard")
    hands = [tuple(card(c) for c in codes[i::4]) for i in range(4)]
    refused(game, Deal((hands[0][:12], hands[1], hands[2], hands[3])), InvalidDeal,
            "Each seat is dealt 13 cards")  # fmt: skip
    twice = (hands[0][:12] + hands[1][:1], hands[1], hands[2], hands[3])
    refused(game, Deal(twice), InvalidDeal, "A card is dealt twice")
    joker = Game(Rules.from_preset("joker"))
    refused(joker, Deal((hands[0], hands[1], hands[2], hands[3])), InvalidDeal,
            "The deal is not the jokers deck")  # fmt: skip
    game.apply(Deal((hands[0], hands[1], hands[2], hands[3])))
    assert game.phase is Phase.BID
    refused(game, Deal((hands[0], hands[1], hands[2], hands[3])), WrongPhase,
            "The cards have been dealt")  # fmt: skip


def test_a_seeded_shuffle_deals_the_same_cards() -> None:
    a, b = Game(Rules.from_preset("jjdd")), Game(Rules.from_preset("jjdd"))
    assert a.deal(random.Random(3)) == b.deal(random.Random(3))
    assert sorted(c.code for s in SEATS for c in a.hand(s)) == sorted(deck_codes("jjdd"))


def test_nothing_but_a_deal_is_accepted_before_the_deal() -> None:
    game = Game(Rules.from_preset("standard"))
    assert game.legal_actions() == []
    assert game.to_act is None
    refused(game, Bid(Seat.E, 3), WrongPhase, "The cards have not been dealt yet")
    refused(game, Play(Seat.E, card("AS")), WrongPhase, "The cards have not been dealt yet")


# ---------------------------------------------------------------- bidding
def test_bids_go_clockwise_from_the_left_of_the_dealer_once_each() -> None:
    game = Game(Rules.from_preset("standard"), Seat.N)
    deal_next(game)
    refused(game, Bid(Seat.S, 3), NotYourTurn, "It is East's turn to bid")
    game.apply(Bid(Seat.E, 3))
    refused(game, Bid(Seat.E, 4), NotYourTurn, "It is South's turn to bid")
    for seat in (Seat.S, Seat.W, Seat.N):
        assert game.to_act == seat
        game.apply(Bid(seat, 3))
    assert game.bids == (3, 3, 3, 3)
    assert [b.seat for b in game.bid_log] == [Seat.E, Seat.S, Seat.W, Seat.N]
    assert game.phase is Phase.PLAY


@pytest.mark.parametrize("value", [0, 1, 7, 13])
def test_a_bid_of_1_to_13_or_nil_is_accepted(value: int) -> None:
    game = Game(Rules.from_preset("standard"))
    deal_next(game)
    game.apply(Bid(Seat.E, value))
    assert game.bids[Seat.E] == value


@pytest.mark.parametrize("value", [14, 20, -2])
def test_a_bid_outside_1_to_13_is_refused(value: int) -> None:
    game = Game(Rules.from_preset("standard"))
    deal_next(game)
    refused(game, Bid(Seat.E, value), IllegalBid, "A bid is 1 to 13 tricks, or nil")


def test_nil_is_refused_where_nil_is_off() -> None:
    game = Game(Rules.from_preset("standard", nil=False))
    deal_next(game)
    assert Bid(Seat.E, NIL) not in game.legal_actions()
    refused(game, Bid(Seat.E, NIL), IllegalBid, "Nil is not allowed at this table")
    refused(game, Bid(Seat.E, 14), IllegalBid, "A bid is 1 to 13 tricks")


def test_only_new_york_bids_are_blind() -> None:
    game = Game(Rules.from_preset("standard"))
    deal_next(game)
    refused(game, Bid(Seat.E, 4, True), IllegalBid,
            "Only New York bids are blind; bid blind nil instead")  # fmt: skip


def test_no_card_is_played_or_passed_while_bidding() -> None:
    game = Game(Rules.from_preset("house"))
    deal_next(game)
    refused(game, Play(Seat.E, game.hand(Seat.E)[0]), WrongPhase, "Bidding is not over yet")
    refused(game, PassCards(Seat.E, game.hand(Seat.E)[:2]), WrongPhase, "Bidding is not over yet")


def test_no_bid_once_bidding_is_over() -> None:
    game = game_in_play("standard", {})
    refused(game, Bid(Seat.E, 3), WrongPhase, "Bidding is over")


# ---------------------------------------------------------------- blind nil and Look
def test_blind_nil_is_refused_unless_the_team_trails_by_the_minimum_deficit() -> None:
    game = Game(Rules.from_preset("standard"))
    deal_next(game)
    assert not any(game.blind_open(s) for s in SEATS)
    assert game.legal_actions() == [Bid(Seat.E, NIL), *(Bid(Seat.E, v) for v in range(1, 14))]
    refused(game, Bid(Seat.E, BLIND_NIL), BlindNilNotAllowed,
            "Blind nil needs your team at least 100 points behind")  # fmt: skip
    refused(game, Look(Seat.E), IllegalAction, "You can already see your cards")


@pytest.mark.parametrize(("minimum", "open_"), [(100, True), (140, True), (150, False)])
def test_blind_nil_deficit_is_opponents_score_minus_own_at_least_the_minimum(
    minimum: int, open_: bool
) -> None:
    game = trailing_ns("standard", blind_nil_min_deficit=minimum)  # NS trail by 140
    assert game.to_act == Seat.S
    assert game.blind_open(Seat.S) is open_
    assert game.blind_open(Seat.N) is open_
    assert not game.blind_open(Seat.E)
    assert (Bid(Seat.S, BLIND_NIL) in game.legal_actions()) is open_


def test_an_eligible_player_is_offered_blind_nil_or_look_before_any_card() -> None:
    game = trailing_ns("standard")
    assert game.legal_actions() == [Bid(Seat.S, BLIND_NIL), Look(Seat.S)]
    assert game.hand_hidden(Seat.S)
    refused(game, Bid(Seat.S, 4), MustLookFirst, "Look at your cards first (or bid blind nil)")
    refused(game, Bid(Seat.S, NIL), MustLookFirst, "Look at your cards first (or bid blind nil)")


def test_looking_at_the_cards_gives_up_blind_nil_for_the_hand() -> None:
    game = trailing_ns("standard")
    game.apply(Look(Seat.S))
    assert not game.hand_hidden(Seat.S)
    assert not game.blind_open(Seat.S)
    assert Bid(Seat.S, BLIND_NIL) not in game.legal_actions()
    assert Bid(Seat.S, 4) in game.legal_actions()
    refused(game, Bid(Seat.S, BLIND_NIL), BlindNilNotAllowed,
            "You have looked at your cards, so you cannot bid blind nil")  # fmt: skip
    refused(game, Look(Seat.S), IllegalAction, "You can already see your cards")


def test_a_player_may_look_before_their_turn_to_bid() -> None:
    game = trailing_ns("standard")
    assert game.legal_actions(Seat.N) == [Look(Seat.N)]
    game.apply(Look(Seat.N))
    assert not game.blind_open(Seat.N)
    assert game.legal_actions(Seat.N) == []
    assert game.to_act == Seat.S


def test_a_blind_nil_bidder_sees_the_cards_only_when_bidding_ends() -> None:
    game = trailing_ns("standard")
    game.apply(Bid(Seat.S, BLIND_NIL))
    assert game.hand_hidden(Seat.S)
    refused(game, Look(Seat.S), IllegalAction,
            "You bid blind nil: your cards show when bidding ends")  # fmt: skip
    make_rest = [(Seat.W, 3), (Seat.N, 3), (Seat.E, 3)]
    for seat, value in make_rest:
        if game.blind_open(seat):
            game.apply(Look(seat))
        game.apply(Bid(seat, value))
    assert game.phase is Phase.PLAY
    assert not game.hand_hidden(Seat.S)


def test_partner_of_a_blind_nil_bidder_may_not_bid_blind_nil_without_double_blind_nil() -> None:
    game = trailing_ns("standard")
    game.apply(Bid(Seat.S, BLIND_NIL))
    game.apply(Bid(Seat.W, 3))
    assert not game.blind_open(Seat.N)
    assert not game.hand_hidden(Seat.N)
    refused(game, Bid(Seat.N, BLIND_NIL), BlindNilNotAllowed,
            "Your partner bid blind nil; double blind nil is not allowed here")  # fmt: skip
    game.apply(Bid(Seat.N, NIL))  # a plain nil beside a blind nil is fine


def house_trailing(deficit_hands: int) -> Game:
    """House rules; NS trail by 150 per earlier hand (EW bid 13 and take all, NS bid 1 + 1)."""
    game = Game(Rules.from_preset("house"))
    for _ in range(deficit_hands):
        play_hand(game, {"N": 1, "E": 7, "S": 1, "W": 6}, {"E": 7, "W": 6, "N": 0, "S": 0})
    deal_next(game)
    return game


def test_second_blind_nil_in_a_team_needs_the_double_blind_nil_deficit() -> None:
    game = house_trailing(1)  # 150 behind: blind nil yes (100), double blind nil no (201)
    assert game.dealer == Seat.E
    game.apply(Bid(Seat.S, BLIND_NIL))
    game.apply(Bid(Seat.W, 3))
    assert not game.blind_open(Seat.N)
    refused(game, Bid(Seat.N, BLIND_NIL), BlindNilNotAllowed,
            "Double blind nil needs your team 201 points behind")  # fmt: skip


def test_double_blind_nil_is_open_at_the_double_blind_nil_deficit() -> None:
    game = house_trailing(2)  # 300 behind
    assert game.deficit(Team.NS) == 300
    game.apply(Bid(Seat.W, 3))
    game.apply(Bid(Seat.N, BLIND_NIL))
    assert game.blind_open(Seat.S)
    game.apply(Bid(Seat.E, 3))
    game.apply(Bid(Seat.S, BLIND_NIL))
    assert game.phase is Phase.PLAY  # a double blind nil team does not pass


def test_blind_nil_does_not_depend_on_nil() -> None:
    game = trailing_ns("standard", nil=False)
    game.apply(Bid(Seat.S, BLIND_NIL))
    game.apply(Bid(Seat.W, 3))
    refused(game, Bid(Seat.N, NIL), IllegalBid, "Nil is not allowed at this table")


def test_blind_nil_is_refused_where_it_is_off() -> None:
    game = Game(Rules.from_preset("no-set"))
    play_hand(game, {"N": 1, "E": 7, "S": 1, "W": 6}, {"E": 7, "W": 6, "N": 0, "S": 0})
    deal_next(game)
    assert game.deficit(Team.NS) >= 100
    assert not game.blind_open(Seat.S)
    refused(game, Bid(Seat.S, BLIND_NIL), BlindNilNotAllowed,
            "Blind nil is not allowed at this table")  # fmt: skip


@pytest.mark.parametrize("preset", ["guide", "tennessee"])
def test_zero_minimum_deficit_means_blind_nil_even_when_leading(preset: str) -> None:
    game = Game(Rules.from_preset(preset))
    play_hand(game, {"N": 4, "E": 3, "S": 4, "W": 2}, {"N": 4, "E": 3, "S": 4, "W": 2})
    assert game.deficit(Team.NS) < 0  # NS lead
    deal_next(game)
    assert all(game.blind_open(s) for s in SEATS)
    game.apply(Bid(Seat.S, BLIND_NIL))
    assert game.blind_open(Seat.N) is (preset == "guide")  # guide: double blind nil at d = 0


# ---------------------------------------------------------------- blind nil card passing
def passing_game(**overrides: object) -> Game:
    """House rules, NS 140 behind, S (second to bid) bids blind nil."""
    game = trailing_ns("house", **overrides)
    game.apply(Bid(Seat.S, BLIND_NIL))
    make_rest = [(Seat.W, 3), (Seat.N, 3), (Seat.E, 3)]
    for seat, value in make_rest:
        if game.blind_open(seat):
            game.apply(Look(seat))
        game.apply(Bid(seat, value))
    return game


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
    for seat in (Seat.W, Seat.N, Seat.E):
        if game.blind_open(seat):
            game.apply(Look(seat))
        game.apply(Bid(seat, 3))
    assert game.phase is Phase.PLAY


# ---------------------------------------------------------------- New York partnership bidding
def new_york_second_hand(first: dict[str, int]) -> Game:
    """New York after a bid-less first hand with ``first`` tricks; hand 2 dealt (dealer E)."""
    game = Game(Rules.from_preset("new-york"))
    play_hand(game, None, first)
    deal_next(game)
    return game


def test_new_york_first_hand_is_played_without_bidding() -> None:
    game = Game(Rules.from_preset("new-york"))
    deal_next(game)
    assert game.phase is Phase.PLAY
    assert game.to_act == Seat.E
    refused(game, Bid(Seat.E, 5), WrongPhase, "Bidding is over")
    refused(game, Bid(Seat.E, 5, True), WrongPhase, "Bidding is over")
    assert not any(game.blind_open(s) for s in SEATS)


def test_new_york_team_bid_is_the_partners_answer_to_the_proposal() -> None:
    game = new_york_second_hand({"N": 3, "E": 3, "S": 4, "W": 3})
    assert game.dealer == Seat.E
    assert game.to_act == Seat.S  # left of the dealer proposes for NS
    game.apply(Bid(Seat.S, 5))
    assert game.proposal(Team.NS) == (5, False)
    assert game.team_bids == (None, None)
    assert game.to_act == Seat.N  # the partner answers
    refused(game, Bid(Seat.W, 5), NotYourTurn, "It is North's turn to bid")
    game.apply(Bid(Seat.N, 7))  # changes the proposal: 7 is the team's bid
    assert game.team_bids[Team.NS] == Bid(Seat.N, 7)
    assert game.to_act == Seat.W
    game.apply(Bid(Seat.W, 4))
    game.apply(Bid(Seat.E, 4))  # confirms
    assert game.team_bids[Team.EW] == Bid(Seat.E, 4)
    assert game.phase is Phase.PLAY
    assert game.to_act == Seat.S


def test_new_york_answer_is_what_scores() -> None:
    game = Game(Rules.from_preset("new-york"))
    play_hand(game, None, {"N": 3, "E": 3, "S": 4, "W": 3})
    result = play_hand(game, {"NS": 7, "EW": 5}, {"N": 4, "E": 3, "S": 3, "W": 3})
    assert result.teams[Team.NS].points == 10 * 7
    assert result.teams[Team.EW].points == 10 * 5


@pytest.mark.parametrize("value", [0, 3, 11, 13])
def test_new_york_team_bid_is_4_to_10(value: int) -> None:
    game = new_york_second_hand({"N": 3, "E": 3, "S": 4, "W": 3})
    refused(game, Bid(Seat.S, value), IllegalBid, "A team bid is 4 to 10 tricks")


def test_new_york_blind_bid_needs_the_team_100_behind() -> None:
    game = new_york_second_hand({"N": 1, "E": 6, "S": 0, "W": 6})  # NS 10, EW 120
    assert game.deficit(Team.NS) == 110
    assert [game.blind_open(s) for s in SEATS] == [True, False, True, False]
    assert game.legal_actions() == [*(Bid(Seat.S, v, True) for v in range(4, 11)), Look(Seat.S)]
    assert game.hand_hidden(Seat.S)
    refused(game, Bid(Seat.S, 6), MustLookFirst,
            "Look at your cards before making a bid that is not blind")  # fmt: skip
    game.apply(Bid(Seat.S, 6, True))
    assert game.proposal(Team.NS) == (6, True)
    assert game.hand_hidden(Seat.S)  # the proposer has still not seen the cards
    game.apply(Bid(Seat.N, 6, True))
    assert game.team_bids[Team.NS] == Bid(Seat.N, 6, True)
    refused(game, Bid(Seat.W, 5, True), BlindNilNotAllowed,
            "A blind bid needs your team 100 points behind")  # fmt: skip


def test_new_york_blind_bid_is_refused_at_less_than_100_behind() -> None:
    game = new_york_second_hand({"N": 2, "E": 5, "S": 0, "W": 6})  # NS 20, EW 110
    assert game.deficit(Team.NS) == 90
    assert not game.blind_open(Seat.S)
    refused(game, Bid(Seat.S, 6, True), BlindNilNotAllowed,
            "A blind bid needs your team 100 points behind")  # fmt: skip


def test_new_york_blind_bid_is_lost_once_either_partner_looks() -> None:
    game = new_york_second_hand({"N": 1, "E": 6, "S": 0, "W": 6})
    game.apply(Look(Seat.N))
    assert not game.blind_open(Seat.S)
    refused(game, Bid(Seat.S, 6, True), BlindNilNotAllowed,
            "A blind bid is made before either partner looks at their cards")  # fmt: skip
    game.apply(Bid(Seat.S, 6))


def test_new_york_blind_boston_scores_400_and_wins() -> None:
    game = Game(Rules.from_preset("new-york"))
    play_hand(game, None, {"N": 1, "E": 6, "S": 0, "W": 6})
    result = play_hand(game, {"NS": (10, True), "EW": 4}, {"N": 7, "S": 6})
    assert result.teams[Team.NS].points == 2 * 200
    assert game.winner == Team.NS
    assert game.phase is Phase.OVER


# ---------------------------------------------------------------- play
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


# ---------------------------------------------------------------- refusals change nothing
def _scenes() -> list[tuple[str, Callable[[], Game]]]:
    def bidding() -> Game:
        return trailing_ns("house")

    def passing() -> Game:
        return passing_game()

    def mid_trick() -> Game:
        game = game_in_play("joker", {"E": ["5H"], "S": ["9H"]})
        play(game, "5H")
        return game

    def new_york_answer() -> Game:
        game = new_york_second_hand({"N": 1, "E": 6, "S": 0, "W": 6})
        game.apply(Bid(Seat.S, 5, True))
        return game

    return [("bidding", bidding), ("passing", passing), ("mid-trick", mid_trick),
            ("new-york", new_york_answer)]  # fmt: skip


@pytest.mark.parametrize(("name", "make"), _scenes(), ids=[n for n, _ in _scenes()])
def test_every_refused_action_leaves_the_state_unchanged(
    name: str, make: Callable[[], Game]
) -> None:
    game = make()
    legal = {a for s in SEATS for a in game.legal_actions(s)}
    candidates: list[object] = [Look(s) for s in SEATS]
    candidates += [Bid(s, v, b) for s in SEATS for v in range(-1, 15) for b in (False, True)]
    candidates += [Play(s, c) for s in SEATS for c in game.deck.cards]
    candidates += [PassCards(s, game.hand(s)[:2]) for s in SEATS]
    refusals = 0
    for action in candidates:
        if action in legal:
            continue
        before = snapshot(game)
        with pytest.raises(IllegalAction) as info:
            game.apply(action)  # type: ignore[arg-type]
        assert info.value.reason
        assert snapshot(game) == before
        refusals += 1
    assert refusals > 100


# ---------------------------------------------------------------- end of the game
def test_equal_scores_at_the_target_play_an_extra_hand() -> None:
    game = Game(Rules.from_preset("standard", target=130))
    play_hand(game, {"N": 3, "E": 4, "S": 3, "W": 3}, {"N": 3, "E": 4, "S": 3, "W": 3})
    play_hand(game, {"N": 4, "E": 3, "S": 3, "W": 3}, {"N": 4, "E": 3, "S": 3, "W": 3})
    assert game.scores == [130, 130]
    assert not game.over
    assert game.phase is Phase.DEAL
    play_hand(game, {"N": 3, "E": 4, "S": 3, "W": 3}, {"N": 3, "E": 4, "S": 3, "W": 3})
    assert game.winner == Team.EW


def test_tie_bags_gives_the_game_to_more_bags_taken_over_the_game_before_reductions() -> None:
    game = Game(Rules.from_preset("house", target=140))
    # NS take 10 bags in hand 1 (bag count back to 0 after -100); EW take none.
    play_hand(game, {"N": 1, "E": 1, "S": 1, "W": "nil"}, {"N": 6, "E": 1, "S": 6, "W": 0})
    play_hand(game, {"N": 7, "E": 1, "S": 6, "W": 1}, {"N": 7, "S": 6})
    play_hand(game, {"N": 4, "E": 3, "S": 4, "W": 2}, {"N": 4, "E": 3, "S": 4, "W": 2})
    assert game.scores == [140, 140]
    assert game.bag_counts == [0, 0]
    assert game.total_bags == [10, 0]
    assert game.winner == Team.NS


def test_tie_bags_with_equal_bags_plays_an_extra_hand() -> None:
    game = Game(Rules.from_preset("house", target=130))
    play_hand(game, {"N": 3, "E": 4, "S": 3, "W": 3}, {"N": 3, "E": 4, "S": 3, "W": 3})
    play_hand(game, {"N": 4, "E": 3, "S": 3, "W": 3}, {"N": 4, "E": 3, "S": 3, "W": 3})
    assert game.scores == [130, 130]
    assert game.total_bags == [0, 0]
    assert not game.over


def test_a_team_at_or_below_lose_at_loses() -> None:
    game = Game(Rules.from_preset("standard", lose_at=-100))
    play_hand(game, {"N": 3, "E": 2, "S": 7, "W": 2}, {"N": 4, "E": 4, "S": 1, "W": 4})
    assert game.scores[Team.NS] == -100
    assert game.winner == Team.EW
    assert game.scores[Team.EW] < game.rules.target


def test_both_teams_at_or_below_lose_at_the_higher_score_wins() -> None:
    game = Game(Rules.from_preset("standard", lose_at=-100))
    play_hand(game, {"N": 6, "E": 5, "S": 5, "W": 5}, {"N": 3, "E": 4, "S": 2, "W": 4})
    assert game.scores == [-110, -100]
    assert game.winner == Team.EW


def test_both_teams_equal_at_or_below_lose_at_play_on() -> None:
    game = Game(Rules.from_preset("standard", lose_at=-100))
    play_hand(game, {"N": 6, "E": 6, "S": 5, "W": 5}, {"N": 3, "E": 4, "S": 2, "W": 4})
    assert game.scores == [-110, -110]
    assert not game.over


def new_york_both_set_twice(third_ew_bid: int) -> Game:
    game = Game(Rules.from_preset("new-york"))
    play_hand(game, None, {"N": 4, "E": 3, "S": 3, "W": 3})  # NS 70, EW 60
    play_hand(game, {"NS": 5, "EW": 4}, {"N": 2, "E": 5, "S": 1, "W": 5})  # both set: 20, 20
    assert not game.over
    play_hand(game, {"NS": 5, "EW": third_ew_bid}, {"N": 1, "E": 6, "S": 1, "W": 5})
    assert game.set_streak == [2, 2]
    return game


def test_new_york_both_teams_set_twice_the_higher_score_wins() -> None:
    game = new_york_both_set_twice(4)
    assert game.scores == [-30, -20]
    assert game.winner == Team.EW


def test_new_york_both_teams_set_twice_with_equal_scores_play_on() -> None:
    game = new_york_both_set_twice(5)
    assert game.scores == [-30, -30]
    assert not game.over


def test_new_york_set_twice_means_two_hands_in_a_row() -> None:
    game = Game(Rules.from_preset("new-york"))
    set_ns = {"N": 1, "E": 6, "S": 1, "W": 5}  # NS 2 of 4: set; EW 11 of 9: made
    made_ns = {"N": 2, "E": 5, "S": 2, "W": 4}  # NS 4 of 4, EW 9 of 9
    play_hand(game, None, {"N": 0, "E": 7, "S": 0, "W": 6})  # the first hand is never a set
    play_hand(game, {"NS": 4, "EW": 9}, set_ns)
    play_hand(game, {"NS": 4, "EW": 9}, made_ns)
    play_hand(game, {"NS": 4, "EW": 9}, set_ns)
    assert not game.over
    play_hand(game, {"NS": 4, "EW": 9}, set_ns)
    assert game.scores[Team.EW] < game.rules.target
    assert game.winner == Team.EW


def test_double_blind_nil_events_for_both_teams_go_to_the_higher_score() -> None:
    game = Game(Rules.from_preset("guide"))
    play_hand(game, {"N": 4, "E": 3, "S": 3, "W": 3}, {"N": 4, "E": 3, "S": 3, "W": 3})
    bids = dict.fromkeys("NESW", "blind_nil")
    play_hand(game, bids, {"N": 1, "E": 6, "S": 0, "W": 6})  # both teams fail: -800 each
    assert game.scores == [70 - 800, 60 - 800]
    assert game.winner == Team.NS


def test_double_blind_nil_events_for_both_teams_with_equal_scores_play_on() -> None:
    game = Game(Rules.from_preset("guide"))
    bids = dict.fromkeys("NESW", "blind_nil")
    play_hand(game, bids, {"N": 1, "E": 6, "S": 0, "W": 6})
    assert game.scores == [-800, -800]
    assert not game.over


def test_double_blind_nil_made_against_a_failed_one_wins() -> None:
    game = Game(Rules.from_preset("guide"))
    play_hand(game, dict.fromkeys("NESW", "blind_nil"), {"E": 6, "W": 7})
    assert game.winner == Team.NS
