"""Every level plays complete games of every preset without an illegal action."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ai import LEVELS, get_player
from bot.ai.players import EasyPlayer, NormalPlayer
from bot.engine import (
    BLIND_NIL,
    Bid,
    Game,
    GameKind,
    Look,
    PassCards,
    Rules,
    Seat,
    entry_of,
    seat_view,
)
from tests.ai.conftest import fast_hard, play_game

# Whist and Euchre players: issue 11 milestone 4; the games.md G2 presets (played through
# get_player's VariantAware): tests/ai/test_variant_players.py
VARIANT_PRESETS = ("solo", "cutthroat-3", "suicide", "whiz", "mirror")
PRESET_NAMES = tuple(p for p in entry_of(GameKind.SPADES).preset_names if p not in VARIANT_PRESETS)


@pytest.mark.parametrize("preset", PRESET_NAMES)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_easy_and_normal_complete_games(preset: str, seed: int) -> None:
    rules = Rules.from_preset(preset, target=250)
    players = [NormalPlayer(), EasyPlayer(), NormalPlayer(), EasyPlayer()]
    game = play_game(rules, players, seed)
    assert game.over


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_hard_completes_a_game(preset: str) -> None:
    rules = Rules.from_preset(preset, target=150)
    players = [fast_hard(), NormalPlayer(), fast_hard(), EasyPlayer()]
    game = play_game(rules, players, seed=PRESET_NAMES.index(preset))
    assert game.over


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
@pytest.mark.parametrize("preset", ["house", "guide", "new-york", "tennessee"])
def test_blind_decisions_and_passing(level: str, preset: str) -> None:
    """Far behind, with blind bids open: every level is asked the blind / look question, answers
    it with a blind bid or a look, sees its cards once it looks, and — where it bid blind nil in
    the house preset — passes cards."""
    import random

    rules = Rules.from_preset(preset)
    player = fast_hard() if level == "hard" else get_player(level)
    asked = 0
    blind_bids = 0
    rng = random.Random(11)
    for hand in range(2):
        game = Game(rules, Seat(hand))
        game.scores = [0, 420]
        if rules.new_york:
            game.hand_number = 2  # blind team bids exist from the second hand
        game.deal(rng)
        while not game.results:
            seat = game.to_act
            assert seat is not None
            view = seat_view(game, seat)
            action = player.decide(view, random.Random(rng.getrandbits(32)), 0.01)
            assert action in view.legal
            if view.bidding.blind_open and seat == game.to_act:
                asked += 1
                assert view.hand is None
                assert (
                    isinstance(action, Look)
                    or (isinstance(action, Bid) and action.value == BLIND_NIL)
                    or (isinstance(action, Bid) and action.blind)
                )
                blind_bids += not isinstance(action, Look)
            game.apply(action)
            if isinstance(action, Look):
                assert seat_view(game, seat).hand is not None
        res = game.results[0]
        if preset == "house":
            blind = {int(b.seat) for b in res.bids if b.value == BLIND_NIL}
            alone = [s for s in blind if s ^ 2 not in blind]  # a blind pair passes nothing
            assert len(res.passes) == 2 * len(alone)
            assert all(len(p.cards) == 2 for p in res.passes)
    assert asked >= 2  # the far-behind team was asked in each hand
    if level == "easy":
        assert blind_bids == 0  # easy never bids blind


def test_normal_bids_blind_nil_when_far_behind_and_passes() -> None:
    rules = Rules.from_preset("house")
    game = play_game(rules, [NormalPlayer()] * 4, seed=3, scores=(0, 420), hands=1)
    res = game.results[0]
    assert any(b.value == BLIND_NIL for b in res.bids)
    assert len(res.passes) == 2
    assert all(len(p.cards) == 2 for p in res.passes)


def test_new_york_blind_team_bid_when_far_behind() -> None:
    rules = Rules.from_preset("new-york")
    game = Game(rules)
    game.scores = [0, 420]
    game.hand_number = 2
    import random

    game.deal(random.Random(4))
    seen_blind = False
    while not game.results:
        seat = game.to_act
        assert seat is not None
        view = seat_view(game, seat)
        action = NormalPlayer().decide(view, random.Random(1), 0.01)
        assert action in view.legal
        seen_blind |= isinstance(action, Bid) and action.blind
        game.apply(action)
    assert seen_blind


def test_hidden_hand_only_blind_or_look() -> None:
    import random

    rules = Rules.from_preset("standard")
    game = Game(rules)  # dealer N: E bids first
    game.scores = [150, 0]
    game.deal(random.Random(2))
    seat = game.to_act
    assert seat is Seat.E
    view = seat_view(game, seat)
    assert view.hand_hidden
    assert view.hand is None
    for level in LEVELS:
        action = get_player(level).decide(view, random.Random(0), 0.01)
        assert isinstance(action, Look | Bid)
        assert action in view.legal


def test_views_and_actions_pickle() -> None:
    import random

    rules = Rules.from_preset("house")
    game = play_game(rules, [NormalPlayer()] * 4, seed=3, scores=(0, 420), hands=1)
    game.deal(random.Random(1))
    view = seat_view(game, Seat.N)
    assert pickle.loads(pickle.dumps(view)) == view
    for a in view.legal:
        assert pickle.loads(pickle.dumps(a)) == a
    p = PassCards(Seat.N, view.hand[:2] if view.hand else ())
    assert pickle.loads(pickle.dumps(p)) == p


def test_get_player_rejects_unknown_level() -> None:
    with pytest.raises(ValueError, match="Unknown level"):
        get_player("grandmaster")


def test_hard_level_searches_to_the_clock_it_is_given() -> None:
    """The arena hands ``get_player("hard")`` the thread's CPU clock; the Spades searcher inside
    the every-game player must search to it (given before or after its first decision)."""
    import random

    ticks: list[int] = []

    def clock() -> float:
        ticks.append(1)
        return len(ticks) * 0.01  # moves, so the search stops within its budget

    game = Game(Rules.from_preset("standard"), Seat.N)
    game.apply(game.random_deal(random.Random(5)))
    player = get_player("hard")
    player.clock = clock  # type: ignore[attr-defined]
    seat = game.to_act
    assert seat is not None
    player.decide(seat_view(game, seat), random.Random(1), 0.05)
    assert ticks, "the search never read the clock it was given"
    later = get_player("hard")
    later.decide(seat_view(game, seat), random.Random(1), 0.05)
    ticks.clear()
    later.clock = clock  # type: ignore[attr-defined]
    later.decide(seat_view(game, seat), random.Random(1), 0.05)
    assert ticks
