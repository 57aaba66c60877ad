"""Properties of random games in every preset (hypothesis picks the seed, the target and where
to stop; a seeded ``random.Random`` picks among the legal actions, with sensible bids so that
games end).

Checked along the way, against this package's own reading of rules.md (``builders`` for
tricks, ``reference`` for scores, never ``bot.engine.scoring``):

* a deal gives 13 distinct cards to each seat, the whole deck; a hand has 13 tricks and plays
  every card exactly once;
* every trick goes to the brute-force winner under the deck's trump order;
* suit is always followed when possible, and spades are never led before they are broken
  unless the leader holds nothing else;
* ``apply`` succeeds exactly for the members of ``legal_actions``; random illegal actions are
  refused with an ``IllegalAction`` and change nothing;
* every team score equals the independent re-scoring of the exported record, and
  ``replay(export(game))`` reproduces every hand line and the final line;
* every hand's itemised score (``parts``) adds up to its points.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.engine import (
    BLIND_NIL,
    CARDS,
    NIL,
    SEATS,
    Action,
    Bid,
    Deal,
    Game,
    GameKind,
    IllegalAction,
    Look,
    PassCards,
    Phase,
    Play,
    Rules,
    Seat,
    entry_of,
)
from bot.engine.record import export_record, final_line, hand_line, replay
from tests.engine.builders import TRUMPS_LOW_TO_HIGH, deck_codes, effective_suit, trick_winner
from tests.engine.reference import rescore
from tests.engine.snapshot import snapshot

MAX_HANDS = 30
# Whist and Euchre: test_trump_properties.py; solo, cutthroat-3, Suicide, Whiz, Mirror and
# renege claims (games.md G1-G2): test_variant_properties.py
VARIANT_PRESETS = ("solo", "cutthroat-3", "suicide", "whiz", "mirror")
SPADES_PRESETS = tuple(
    p for p in entry_of(GameKind.SPADES).preset_names if p not in VARIANT_PRESETS
)
EXAMPLES = 10


# ---------------------------------------------------------------- choosing actions
def strength(game: Game, seat: Seat) -> int:
    """A rough trick estimate: top trumps, side aces, long spades."""
    deck = game.rules.deck
    top = TRUMPS_LOW_TO_HIGH[deck][-4:]
    hand = [c.code for c in game.hand(seat)]
    spades = sum(1 for c in hand if effective_suit(c, deck) == "S")
    high = sum(1 for c in hand if c in top)
    aces = sum(1 for c in hand if c[0] == "A" and effective_suit(c, deck) != "S")
    return round(2 + 0.5 * (high + aces) + 0.5 * max(0, spades - len(top)))


def choose_bid(game: Game, seat: Seat, legal: list[Action], rng: random.Random) -> Action:
    if game.rules.new_york:
        proposal = game.proposal(seat.team)
        if Look(seat) in legal:  # a blind bid is open
            if proposal is not None and proposal[1] and rng.random() < 0.7:
                return Bid(seat, proposal[0], True)
            return Bid(seat, rng.choice((4, 5, 6)), True) if rng.random() < 0.5 else Look(seat)
        if proposal is not None and rng.random() < 0.7:
            return Bid(seat, proposal[0])
        value = 10 if rng.random() < 0.05 else min(10, max(4, 2 * strength(game, seat)))
        return Bid(seat, value)
    if Bid(seat, BLIND_NIL) in legal:
        return Bid(seat, BLIND_NIL) if rng.random() < 0.05 else Look(seat)
    est = strength(game, seat)
    if Bid(seat, NIL) in legal and est <= 2 and rng.random() < 0.1:
        return Bid(seat, NIL)
    return Bid(seat, min(13, max(1, est + rng.choice((-1, 0, 0, 1)))))


def choose(game: Game, rng: random.Random) -> Action:
    legal = game.legal_actions()
    seat = game.to_act
    assert seat is not None
    assert legal, "the seat on turn always has an action"
    if game.phase is Phase.BID:
        action = choose_bid(game, seat, legal, rng)
        assert action in legal
        return action
    return rng.choice(legal)


# ---------------------------------------------------------------- legality, independently
def canonical(action: Action) -> Action:
    if isinstance(action, PassCards):
        return PassCards(action.seat, tuple(sorted(action.cards, key=lambda c: c.index)))
    return action


def all_legal(game: Game) -> set[Action]:
    return {canonical(a) for s in SEATS for a in game.legal_actions(s)}


def universe(game: Game, rng: random.Random) -> list[Action]:
    """Every play, bid and look any seat could try, and some passes."""
    out: list[Action] = [Look(s) for s in SEATS]
    out += [Bid(s, v, b) for s in SEATS for v in range(-1, 15) for b in (False, True)]
    out += [Play(s, c) for s in SEATS for c in CARDS]
    for s in SEATS:
        hand = game.hand(s)
        for k in range(4):
            out.append(canonical(PassCards(s, tuple(rng.sample(hand, min(k, len(hand)))))))
        out.append(canonical(PassCards(s, tuple(rng.sample(CARDS, 2)))))
    out += [a for a in all_legal(game) if isinstance(a, PassCards)]
    return out


def check_apply_succeeds_exactly_for_legal_actions(game: Game, rng: random.Random) -> None:
    legal = all_legal(game)
    for action in universe(game, rng):
        trial = game.clone()
        try:
            trial.apply(action)
        except IllegalAction:
            assert action not in legal, action
            assert not game.is_legal(action)
        else:
            assert action in legal, action
            assert game.is_legal(action)


def random_illegal(game: Game, rng: random.Random) -> Action | Deal:
    legal = all_legal(game)
    while True:
        seat = rng.choice(SEATS)
        kind = rng.randrange(5)
        action: Action | Deal
        if kind == 0:
            action = Play(seat, rng.choice(CARDS))
        elif kind == 1:
            action = Bid(seat, rng.randrange(-1, 15), rng.random() < 0.5)
        elif kind == 2:
            action = Look(seat)
        elif kind == 3:
            pool = list(game.hand(seat)) + list(rng.sample(CARDS, 3))
            action = canonical(PassCards(seat, tuple(set(rng.sample(pool, rng.randrange(4))))))
        else:
            if game.phase is Phase.DEAL:
                continue
            cards = list(game.deck.cards)
            rng.shuffle(cards)
            action = Deal(tuple(tuple(cards[i::4]) for i in range(4)))  # type: ignore[arg-type]
        if isinstance(action, Deal) or action not in legal:
            return action


def check_refused_without_change(game: Game, action: Action | Deal) -> None:
    before = snapshot(game)
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    assert info.value.reason
    assert snapshot(game) == before


# ---------------------------------------------------------------- one random game
class Tracker:
    """The table as this test sees it: hands from the deal and passes, the trick, spades."""

    def __init__(self, game: Game) -> None:
        self.deck = game.rules.deck
        deal = game.deal_cards
        codes = [c.code for h in deal for c in h]
        assert [len(h) for h in deal] == [13, 13, 13, 13]
        assert sorted(codes) == sorted(deck_codes(self.deck))
        self.hands = {s: {c.code for c in deal[s]} for s in SEATS}
        self.trick: list[tuple[str, str]] = []
        self.broken = False
        self.tricks = dict.fromkeys("NESW", 0)
        self.played: list[str] = []

    def passed(self, action: PassCards) -> None:
        moved = {c.code for c in action.cards}
        self.hands[action.seat] -= moved
        self.hands[action.seat.partner] |= moved

    def before_play(self, game: Game, action: Play) -> None:
        code = action.card.code
        hand = self.hands[action.seat]
        assert code in hand
        suit = effective_suit(code, self.deck)
        if self.trick:
            led = effective_suit(self.trick[0][1], self.deck)
            if suit != led:
                assert all(effective_suit(c, self.deck) != led for c in hand), "renege"
        elif suit == "S" and not self.broken:
            assert all(effective_suit(c, self.deck) == "S" for c in hand), "spade led unbroken"

    def after_play(self, game: Game, action: Play) -> None:
        code = action.card.code
        self.hands[action.seat].discard(code)
        self.played.append(code)
        if effective_suit(code, self.deck) == "S":
            self.broken = True
        self.trick.append((action.seat.name, code))
        assert game.spades_broken == self.broken or game.phase is not Phase.PLAY
        if len(self.trick) == 4:
            winner = trick_winner(self.trick, self.deck)
            self.tricks[winner] += 1
            self.trick = []
            if len(self.played) < 52:
                assert game.to_act == Seat[winner]
                assert game.completed_tricks[-1].winner == Seat[winner]

    def hand_over(self, game: Game) -> None:
        result = game.results[-1]
        assert len(self.played) == 52
        assert len(set(self.played)) == 52
        assert [c.code for c in result.plays] == self.played
        assert sorted(self.played) == sorted(deck_codes(self.deck))
        assert sum(result.tricks) == 13
        assert {s.name: result.tricks[s] for s in SEATS} == self.tricks


def play_random_game(
    preset: str,
    seed: int,
    target: int | None,
    lose_at: int | None,
    stop_in_hand: int | None,
    probes: bool = True,
) -> Game:
    """Play until the game ends (or ``MAX_HANDS``, or a random step of hand ``stop_in_hand``);
    with ``probes``, also try random illegal actions and, in the first two hands, every action
    any seat could try."""
    rng = random.Random(seed)
    overrides: dict[str, Any] = {"lose_at": lose_at}
    if target is not None:
        overrides["target"] = target
    game = Game(Rules.from_preset(preset, **overrides), Seat(rng.randrange(4)))
    tracker: Tracker | None = None
    stop_at = rng.randrange(1, 60) if stop_in_hand is not None else None
    step = 0
    exact_check_at = rng.randrange(60)
    while not game.over:
        if game.phase is Phase.DEAL:
            if len(game.results) >= MAX_HANDS:
                break
            game.deal(rng)
            tracker = Tracker(game)
            step = 0
            continue
        assert tracker is not None
        if stop_at is not None and len(game.results) + 1 >= stop_in_hand and step == stop_at:  # type: ignore[operator]
            break
        if probes and rng.random() < 0.04:
            check_refused_without_change(game, random_illegal(game, rng))
        if probes and step == exact_check_at and len(game.results) < 2:
            check_apply_succeeds_exactly_for_legal_actions(game, rng)
        if game.phase is Phase.BID and rng.random() < 0.05:  # someone looks out of turn
            lookers = [s for s in SEATS if s != game.to_act and game.blind_open(s)]
            if lookers:
                game.apply(Look(rng.choice(lookers)))
        action = choose(game, rng)
        if isinstance(action, Play):
            tracker.before_play(game, action)
        hands_before = len(game.results)
        game.apply(action)
        step += 1
        if isinstance(action, PassCards):
            tracker.passed(action)
        elif isinstance(action, Play):
            tracker.after_play(game, action)
            if len(game.results) > hands_before:
                tracker.hand_over(game)
    return game


def check_record(game: Game) -> None:
    doc = json.loads(json.dumps(export_record(game)))
    lines = list(replay(doc))
    expected = [hand_line(r) for r in game.results]
    if game.phase not in (Phase.DEAL, Phase.OVER):
        tricks = {s.name: game.tricks_won[s] for s in SEATS}
        line = {"hand": game.hand_number, "dealer": game.dealer.name, "tricks": tricks}
        expected.append({**line, "complete": False})
    expected.append(final_line(game))
    assert lines == expected
    assert rescore(doc) == lines
    final = lines[-1]
    assert final["score"] == {"NS": game.scores[0], "EW": game.scores[1]}
    for result in game.results:  # the score sheet adds up (issue 8)
        for team in result.teams:
            assert sum(p.points for p in team.parts) == team.points


# ---------------------------------------------------------------- the properties
@pytest.mark.parametrize("preset", SPADES_PRESETS)
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(
    seed=st.integers(0, 2**32 - 1),
    target=st.sampled_from([None, 150, 250]),
    lose_at=st.sampled_from([None, -300]),
    stop_in_hand=st.none() | st.integers(1, 4),
)
def test_random_games_keep_every_rule(
    preset: str, seed: int, target: int | None, lose_at: int | None, stop_in_hand: int | None
) -> None:
    game = play_random_game(preset, seed, target, lose_at, stop_in_hand)
    check_record(game)


@pytest.mark.parametrize("preset", SPADES_PRESETS)
def test_random_games_in_every_preset_reach_an_end(preset: str) -> None:
    """The bidding bias makes games finish, so the end-of-game rules are exercised too."""
    ended = 0
    for seed in range(5):
        game = play_random_game(preset, seed, 250, -300, None, probes=False)
        check_record(game)
        ended += game.over
        if game.over:
            assert game.winner is not None
            assert game.end_reason
    assert ended >= 3
