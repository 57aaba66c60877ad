"""The search's parts: card layout, worlds, the clock budget, the exact solver, the utility."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from bot.ai.deck_tables import bits
from bot.ai.hard import MAX_BUDGET_S, HardPlayer
from bot.ai.rule_bidding import estimate_tricks
from bot.ai.search.candidates import useless_overtakes
from bot.ai.search.layout import SPADES_LAYOUTS
from bot.ai.search.solver import Solver
from bot.ai.search.spades import SpadesHand
from bot.ai.search.utility import PROGRESS, Utility
from bot.ai.search.worlds import Sampler, SearchKnowledge
from bot.engine import NIL, Bid, Game, Play, Rules, Seat, card, seat_view
from bot.engine.cards import CARDS
from bot.engine.decks import DECKS
from tests.ai.helpers import position

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


@pytest.mark.parametrize("deck", ["standard", "jokers", "jjdd"])
def test_bit_order_is_trick_order(deck: str) -> None:
    d = DECKS[deck]
    lay = SPADES_LAYOUTS[deck]
    assert lay.n == bin(d.mask).count("1")
    for a, b in combinations(range(lay.n), 2):
        ea, eb = lay.to_engine[a], lay.to_engine[b]
        if lay.suit_of[a] == lay.suit_of[b]:
            assert (d.power[ea] < d.power[eb]) == (a < b)
        # b beats a (when a is winning) exactly as the engine ranks them.
        engine_beats = (d.suit_masks[0] >> eb & 1 and not d.suit_masks[0] >> ea & 1) or (
            lay.suit_of[a] == lay.suit_of[b] and d.power[eb] > d.power[ea]
        )
        assert bool(lay.beats[a] >> b & 1) == bool(engine_beats)
    assert lay.trump.bit_length() == lay.n  # trumps are the highest run


def test_worlds_keep_every_hard_fact() -> None:
    view = position(
        me=N,
        hand="KH 2H 5C 7D",
        current=[(E, "9H"), (S, "QH"), (W, "3H")],
        others={E: "8C 9C TC", S: "4C 6C 8D", W: "JC QC KC"},
        bids={N: 5, E: 3, S: NIL, W: 3},
        tricks_won=(4, 3, 0, 2),
    )
    game = SpadesHand(view)
    lay = game.layout
    hand = lay.sim_mask(sum(c.bit for c in view.hand or ()))
    tricks = [[(int(s), lay.to_sim[c.index]) for s, c in t.cards] for t in view.completed_tricks]
    tricks.append([(int(s), lay.to_sim[c.index]) for s, c in view.current_trick])
    k = SearchKnowledge(lay, 0, hand, tricks, view.cards_left, True)
    sampler = Sampler(k, random.Random(1))
    for _ in range(200):
        hands = sampler.sample()
        assert hands[0] == hand
        assert [h.bit_count() for h in hands] == list(view.cards_left)
        assert sum(hands) == hands[0] | hands[1] | hands[2] | hands[3]  # disjoint
        assert not (hands[0] | hands[1] | hands[2] | hands[3]) & k.played
        for s in range(1, 4):
            assert not hands[s] & k.forbidden[s]


def test_search_stops_on_the_clock() -> None:
    """With a clock that moves 2 ms at each reading, a 50 ms budget is kept to within one
    world of the search (no real time is measured)."""
    now = [0.0]

    def clock() -> float:
        now[0] += 0.002
        return now[0]

    view = _opening_lead()
    action = HardPlayer(clock=clock).decide(view, random.Random(3), 0.05)
    assert action in view.legal
    assert 0.05 <= now[0] <= 0.05 + 0.01
    now[0] = 0.0
    HardPlayer(clock=clock).decide(view, random.Random(3), 60.0)
    assert now[0] <= MAX_BUDGET_S + 0.01  # never above the cap


def _opening_lead() -> object:
    from bot.ai.players import NormalPlayer
    from bot.engine import Game, seat_view

    game = Game(Rules.from_preset("standard"))
    rng = random.Random(5)
    game.deal(rng)
    while game.phase.value != "play":
        seat = game.to_act
        assert seat is not None
        game.apply(NormalPlayer().decide(seat_view(game, seat), rng, 0.01))
    assert game.to_act is not None
    return seat_view(game, game.to_act)


def test_solver_equals_minimax() -> None:
    # Two tricks left, N to lead: the solver's value of each card (alpha-beta, transposition
    # table, touching cards merged) equals plain minimax over every line of play.
    view = position(
        me=N,
        hand="AS 2H",
        current=[],
        others={E: "KS 4H", S: "3H 5D", W: "QS 6H"},
        bids={N: 4, E: 4, S: 4, W: 3},
        tricks_won=(3, 4, 2, 2),
    )
    game = SpadesHand(view)
    lay = game.layout
    hands = [lay.sim_mask(m) for m in _masks(view, {E: "KS 4H", S: "3H 5D", W: "QS 6H"})]
    st = game.start(hands)
    cands = bits(st.legal())
    exact = Solver(0, game.value).root_values(st, cands)
    assert exact == [_brute(game, st, c) for c in cands]


def _masks(view: object, others: dict[Seat, str]) -> list[int]:
    from bot.engine import SeatView, card

    assert isinstance(view, SeatView)
    out = [0, 0, 0, 0]
    out[0] = sum(c.bit for c in view.hand or ())
    for s, codes in others.items():
        out[s] = sum(card(c).bit for c in codes.split())
    return out


def _brute(game: SpadesHand, st: object, first: int) -> float:
    from bot.ai.search.sim import State

    assert isinstance(st, State)

    def value(s: State) -> float:
        if not any(s.hands):
            return game.value(s.tricks, s.extra)
        vals = []
        for c in bits(s.legal()):
            child = s.copy()
            child.play(c)
            vals.append(value(child))
        return max(vals) if s.t.team_of[s.turn] == 0 else min(vals)

    child = st.copy()
    child.play(first)
    return value(child)


def test_utility_prefers_points_and_the_game() -> None:
    u = Utility(500, 10.0, (0.0, 0.0))
    assert u.of_scores(0, (60, 40), (0, 0), None) > u.of_scores(0, (50, 40), (0, 0), None)
    # A bag brings the penalty nearer: 61 with a bag is worth less than 60 without.
    assert u.of_scores(0, (61, 40), (1, 0), None) < u.of_scores(0, (60, 40), (0, 0), None)
    # One point is worth about one unit in a young, level game.
    assert (
        0.8 < u.of_scores(0, (61, 60), (0, 0), None) - u.of_scores(0, (60, 60), (0, 0), None) < 1.2
    )
    assert u.of_scores(0, (0, 0), (0, 0), 0) == u.k + PROGRESS * 500
    assert u.of_scores(0, (0, 0), (0, 0), 1) == 0.0


def test_a_decided_game_is_still_played_for_points_to_its_end() -> None:
    # 1,450 points ahead the chance of winning is 1.0 in floating point whatever the hand
    # brings: only the tiebreak tells the hands apart, and it prefers points, and the win most.
    u = Utility(500, 10.0, (450.0, -1000.0))
    assert u.win_chance(0, (450.0, -1000.0)) == 1.0
    more = u.of_scores(0, (490, -1000), (0, 0), None)
    assert more > u.of_scores(0, (470, -1000), (0, 0), None)
    assert u.of_scores(0, (491, -1000), (1, 0), None) < more  # a bag still costs its share
    assert u.of_scores(0, (520, -1000), (0, 0), 0) > more
    # The tiebreak is far too small to matter while the chance of winning moves.
    young = Utility(500, 10.0, (0.0, 0.0))
    point = young.of_scores(0, (61, 60), (0, 0), None) - young.of_scores(0, (60, 60), (0, 0), None)
    assert point / 100 > PROGRESS


def test_far_ahead_hard_bids_what_its_hand_is_worth() -> None:
    # Before the tiebreak every bid was worth the same here and hard bid 1: its side stopped
    # playing for the target (an arena game ran 200 hands).  Now it bids for points.
    rules = Rules.from_preset("standard")
    for seed in range(50):
        game = Game(rules, Seat.W)
        game.scores = [450, -1000]
        game.deal(random.Random(seed))
        view = seat_view(game, Seat.N)
        assert view.hand is not None
        if estimate_tricks("standard", sum(c.bit for c in view.hand)) >= 4.5:
            break
    else:
        raise AssertionError("no strong hand in 50 deals")
    player = HardPlayer(clock=lambda: 0.0, max_worlds=40)
    bid = player.decide(view, random.Random(1), 0.1)
    assert isinstance(bid, Bid)
    assert bid.value >= 3


def test_hard_plays_legal_cards_from_its_own_view() -> None:
    view = _opening_lead()
    from bot.engine import SeatView

    assert isinstance(view, SeatView)
    a = HardPlayer(clock=lambda: 0.0, max_worlds=10).decide(view, random.Random(1), 0.1)
    assert isinstance(a, Play)
    assert a in view.legal


def _useless(hand: str, current: list[tuple[Seat, str]], partner_nil: bool = False) -> set[str]:
    """The useless overtakes of N with ``hand``, E still to play, every other card unseen."""
    lay = SPADES_LAYOUTS["standard"]
    mine = lay.sim_mask(sum(card(c).bit for c in hand.split()))
    trick = [(int(s), lay.to_sim[card(c).index]) for s, c in current]
    k = SearchKnowledge(lay, 0, mine, [trick], [4, 4, 3, 3], True)
    m = useless_overtakes(lay, k, 2, trick, [1], mine, partner_nil)
    return {str(CARDS[lay.to_engine[c]]) for c in bits(m)}


def test_useless_overtakes_are_only_those_that_cannot_help() -> None:
    # S led the jack of hearts, W followed; N is void in hearts.  The queen, king and ace are
    # unseen: E may beat the jack, and either ruff would protect it.
    assert _useless("3S 9S 3D 8C", [(S, "JH"), (W, "5H")]) == set()
    # Partner's ace can be beaten only by a ruff, and every unseen spade beats the 2: ruffing
    # with it cannot help; the 9 still protects against a lower spade.
    assert _useless("2S 9S 3D 8C", [(S, "AH"), (W, "5H")]) == {"2♠"}
    # Following suit: every card that beats partner's jack (king, ace, a ruff) beats our queen
    # too; over partner's king only a ruff could win, and it beats our ace as well.
    assert _useless("QH 2H", [(S, "JH"), (W, "5H")]) == {"Q♥"}
    assert _useless("AH 2H", [(S, "KH"), (W, "5H")]) == {"A♥"}
    assert _useless("AH KH", [(S, "QH"), (W, "5H")]) == set()  # no other card to play
    # A partner on nil still to be covered is always overtaken if we can.
    assert _useless("2S 9S 3D 8C", [(S, "AH"), (W, "5H")], partner_nil=True) == set()


def test_a_side_that_has_made_its_bid_fights_for_the_set_within_four_tricks() -> None:
    # In the play-outs a side past its bid ducks (bags cost) unless the opponents can still be
    # set: it fights when it needs at most SEARCH_PUSH_SET_TRICKS (4) of the tricks left for it.
    # (At 2 it gave up on sets the previous hard defends for; docs/benchmarks.md.)
    rules = Rules.from_preset("standard")
    game = Game(rules, Seat.W)
    game.deal(random.Random(2))
    for value in (1, 3, 1, 3):  # N, E, S, W: N-S 2, E-W 6
        seat = game.to_act
        assert seat is not None
        game.apply(Bid(seat, value))
    assert game.to_act is not None
    hand = SpadesHand(seat_view(game, game.to_act))
    # N-S have 4 (made); E-W have 1 of their 6 with 8 left: a set needs 4 of the 8.
    want, _ = hand.goals([3, 1, 1, 0], 8)
    assert want == [True, True]
    # With 9 left a set needs 5 of them: N-S duck.
    want, _ = hand.goals([2, 1, 1, 0], 9)
    assert want == [False, True]


@pytest.mark.parametrize("preset", ["standard", "new-york"])
def test_the_play_outs_goals_are_the_fight_for_the_set_rule(preset: str) -> None:
    # SpadesHand.goals writes hand_goals.wants_tricks out for speed: both must say the same.
    from bot.ai.hand_goals import wants_tricks
    from bot.ai.search.spades import SEARCH_PUSH_SET_TRICKS

    rng = random.Random(7)
    game = Game(Rules.from_preset(preset), Seat.W)
    game.deal(rng)
    assert game.to_act is not None
    view = seat_view(game, game.to_act)
    for _ in range(300):
        bids = [rng.choice([NIL, 1, 2, 3, 4, 5]) for _ in range(4)]
        team_bids = [bids[0] + bids[2], bids[1] + bids[3]]
        hand = SpadesHand(view, bids=bids, team_bids=team_bids)
        for _ in range(10):
            left = rng.randint(1, 13)
            tricks = [rng.randint(0, 13 - left) for _ in range(4)]
            want, _ = hand.goals(tricks, left)
            assert want == [
                wants_tricks(hand, team, tricks, left, SEARCH_PUSH_SET_TRICKS) for team in (0, 1)
            ], (bids, tricks, left)
