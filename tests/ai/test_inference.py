"""Inference from the play: the soft voids a seat's cards reveal, and the worlds they weight."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ai.search.candidates import threat_share
from bot.ai.search.inference import DUCK, NO_RUFF, RATIO, TOUCH, play_weight, soft_voids
from bot.ai.search.layout import SPADES_LAYOUTS
from bot.ai.search.sim import State
from bot.ai.search.spades import SpadesHand
from bot.ai.search.worlds import Sampler, SearchKnowledge
from bot.engine import NIL, Seat, card
from tests.ai.helpers import position

LAY = SPADES_LAYOUTS["standard"]
TEAMS = (0, 1, 0, 1)
ALL = (1 << LAY.n) - 1


def c(code: str) -> int:
    return LAY.to_sim[card(code).index]


def mask(codes: str) -> int:
    return sum(1 << c(x) for x in codes.split())


def wanting(tricks: list[int], left: int) -> tuple[list[bool], list[bool]]:
    return [True, True], [False] * 4


def no_goal(tricks: list[int], left: int) -> tuple[list[bool], list[bool]]:
    return [False, False], [False] * 4


# N leads the 10♣, E plays the 3♣, S the 2♣, W (last, its side wanting tricks) the 4♣ under
# N's winning 10: W held no club above the 10.
DUCKED = [[(0, c("TC")), (1, c("3C")), (2, c("2C")), (3, c("4C"))]]


def test_a_seat_that_let_an_opponent_win_holds_nothing_higher() -> None:
    voids = soft_voids(LAY, DUCKED, wanting, 13, TEAMS, 2, ALL)
    assert (3, mask("JC QC KC AC"), DUCK + 1) in voids  # the last seat
    # Its partner E, second to play, may have played low with a higher club: no inference.
    assert not [v for v in voids if v[0] == 1 and v[2] != TOUCH]
    # The searching seat draws no inference about itself.
    assert not [v for v in voids if v[0] == 2]


def test_no_duck_inference_when_the_side_does_not_want_tricks_or_a_nil_ducks() -> None:
    assert not [v for v in soft_voids(LAY, DUCKED, no_goal, 13, TEAMS, 2, ALL) if v[2] != TOUCH]

    def w_nil(tricks: list[int], left: int) -> tuple[list[bool], list[bool]]:
        return [True, True], [False, False, False, True]

    assert not [v for v in soft_voids(LAY, DUCKED, w_nil, 13, TEAMS, 2, ALL) if v[2] != TOUCH]


def test_a_soft_void_the_seat_contradicted_later_is_dropped() -> None:
    later = [[(0, c("5H")), (1, c("6H")), (2, c("7H")), (3, c("QC"))]]  # W shows the Q♣
    voids = soft_voids(LAY, DUCKED + later, wanting, 13, TEAMS, 2, ALL)
    assert not [v for v in voids if v[0] == 3 and v[2] == DUCK + 1]


def test_a_discard_under_an_opponents_winner_means_no_trump() -> None:
    tricks = [[(0, c("TC")), (1, c("3C")), (2, c("2C")), (3, c("4D"))]]
    voids = soft_voids(LAY, tricks, wanting, 13, TEAMS, 2, ALL)
    assert (3, LAY.trump, NO_RUFF + 1) in voids


def test_a_played_card_hides_no_touching_cheaper_one() -> None:
    # E plays the K♥ on N's 5♥: had it held the Q♥ (nothing in play between) it would have
    # played that.  The 5♥ was led: no 4♥ with N either.
    tricks = [[(0, c("5H")), (1, c("KH"))]]
    voids = soft_voids(LAY, tricks, wanting, 13, TEAMS, 2, ALL)
    assert (1, 1 << c("QH"), TOUCH) in voids
    assert (0, 1 << c("4H"), TOUCH) in voids
    # Cards whose place the searching seat knows are no inference.
    known = soft_voids(LAY, tricks, wanting, 13, TEAMS, 2, ALL & ~mask("QH"))
    assert not [v for v in known if v[0] == 1 and v[2] == TOUCH]


def after_the_duck(bids: tuple[int, int, int, int] = (3, 3, 3, 3)) -> SpadesHand:
    """S's view after the trick of :data:`DUCKED` (won by N)."""
    view = position(
        me=Seat.S,
        hand="2H 3H 4H 5H 6H 7H 8H 9H 2D 3D 4D 5D",
        current=[],
        others={
            Seat.N: "JC 6D 7D 8D 9D TD JD QD KD AD 2S 3S",
            Seat.E: "QC TH JH QH KH AH 4S 5S 6S 7S 8S 9S",
            Seat.W: "KC AC 5C 6C 7C 8C 9C TS JS QS KS AS",
        },
        bids=dict(zip(Seat, bids, strict=True)),
        tricks_won=(1, 0, 0, 0),
    )
    return SpadesHand(view)


def test_the_inference_takes_the_higher_clubs_from_the_ducking_seat() -> None:
    # S (me) holds low cards; the clubs above the 10 are unseen.  Without inference W holds
    # one of J Q K A♣ in most worlds; with the duck inference in far fewer.
    game = after_the_duck()
    view = game.view
    me = int(Seat.S)
    hand = LAY.sim_mask(sum(x.bit for x in view.hand or ()))
    tricks = [
        [(0, c("TC")), (1, c("3C")), (2, c("2C")), (3, c("4C"))],
        [],
    ]
    k = SearchKnowledge(LAY, me, hand, tricks, view.cards_left, True)
    high = mask("JC QC KC AC")
    voids = soft_voids(LAY, tricks, game.goals, 13, TEAMS, me, k.unknown)
    assert (3, high, DUCK + 1) in voids
    plain = Sampler(k, random.Random(3))
    inferred = Sampler(k, random.Random(3), first=play_weight(voids, partner=0))
    n = 400
    without = sum(1 for _ in range(n) if plain.sample()[3] & high)
    with_inf = sum(1 for _ in range(n) if inferred.sample()[3] & high)
    # Bayes: the odds of W holding one of them fall by the duck's likelihood ratio (a little
    # less: the sampler gives up rejecting after a few tries).
    odds = (with_inf / (n - with_inf)) / (without / (n - without))
    assert RATIO[DUCK + 1] / 2 < odds < RATIO[DUCK + 1] * 2
    # Every world still meets the hard facts.
    for _ in range(50):
        hands = inferred.sample()
        assert hands[me] == hand
        assert not hands[3] & k.forbidden[3]


def test_the_partners_voids_weigh_by_the_partners_ratio() -> None:
    voids = [(0, mask("AC"), DUCK), (3, mask("KC"), DUCK)]
    w = play_weight(voids, partner=0)
    hands = [mask("AC"), 0, 0, mask("KC")]
    assert 0 < w(hands) < w([mask("AC"), 0, 0, 0]) < 1
    assert w([0, 0, 0, 0]) == 1.0


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 51), st.sampled_from([0, 1, 2, 3]))
def test_soft_voids_are_within_the_unknown_cards_and_never_the_searchers(
    seed: int, cut: int, me: int
) -> None:
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [sum(1 << x for x in deck[13 * s : 13 * s + 13]) for s in range(4)]
    game = after_the_duck((3, 3, NIL, 4))
    state = State(game.table, hands.copy(), 0, [], False, [0, 0, 0, 0], [0, 0])
    tricks: list[list[tuple[int, int]]] = [[]]
    for _ in range(cut):
        seat = state.turn
        x = state.policy()
        tricks[-1].append((seat, x))
        state.play(x)
        if len(tricks[-1]) == 4:
            tricks.append([])
    played = sum(1 << x for t in tricks for _, x in t)
    unknown = ALL & ~played & ~state.hands[me]
    voids = soft_voids(LAY, tricks, game.goals, 13, TEAMS, me, unknown)
    w = play_weight(voids, partner=me ^ 2)
    for s, m, kind in voids:
        assert s != me
        assert m
        assert not m & ~unknown
        assert kind in (TOUCH, DUCK, DUCK + 1, NO_RUFF, NO_RUFF + 1)
    assert 0 < w(state.hands) <= 1.0


def test_the_threat_to_the_partners_king_falls_when_the_last_seat_ducked_the_ace() -> None:
    # N's Q♣ won the first trick with W last to play, wanting tricks, playing the 4♣: W most
    # likely has no A♣ or K♣.  Now N leads the K♣, E follows low, S (me) may ruff: the share
    # of worlds in which W beats the king falls with the inference.
    game = after_the_duck()
    view = game.view
    me = int(Seat.S)
    first = [(0, c("QC")), (1, c("3C")), (2, c("2C")), (3, c("4C"))]
    now = [(0, c("KC")), (1, c("5C"))]
    hand = LAY.sim_mask(sum(x.bit for x in view.hand or ())) & ~mask("5C")
    k = SearchKnowledge(LAY, me, hand, [first, now], [11, 11, 12, 12], True)
    voids = soft_voids(LAY, [first, now], wanting, 13, TEAMS, me, k.unknown)
    assert (3, mask("AC"), DUCK + 1) in voids  # the K♣ is N's now: only the ace is left
    plain = threat_share(Sampler(k, random.Random(4)), LAY, now, [3], 200)
    inferred = threat_share(
        Sampler(k, random.Random(4), first=play_weight(voids, partner=0)), LAY, now, [3], 200
    )
    assert inferred < plain / 2
