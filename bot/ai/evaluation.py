"""What the hard player thinks of every legal action of a seat: for post-game reviews.

    >>> ev = evaluate(view, random.Random(1), 0.2)
    >>> ev.chosen, [(a.action, a.value, a.samples) for a in ev.actions]

:func:`evaluate` runs the ``hard`` player's own search on the seat's view (never the hidden
cards) and returns the action it would choose and, per distinct legal action, the search's
expected value:

* ``value`` — what the hand is expected to bring the seat's side, in **points**: the change
  of the search's utility (the chance of winning the game, scaled so that one point of score
  is one unit at the current score).  In a young, level game that is the hand's points for
  the side less the opponents', bags charged their share of the next penalty; near the end it
  weighs points by what they do to the chance of winning.  :attr:`ActionValue.loss` is the
  chosen action's value less this one's;
* ``tricks`` — the side's expected tricks in the hand, where the search played the hand out
  (``None`` for the last tricks, which are solved exactly, and for blind decisions);
* ``samples`` — the worlds (deals of the hidden cards) the action was valued on.  Candidates
  the search found clearly worse stop being sampled early, so counts differ.

Cards that are the same in effect (touching cards of one suit) are one action, reported as
their lowest card.  A useless overtake of the partner (:mod:`bot.ai.search.candidates`) is
valued but never chosen.  Decisions with one legal action, card passing, and games the search
does not play (Whist, Euchre, New York bids) come back with the chosen action and no values.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.ai.games import ai_of
from bot.ai.hard import MAX_BUDGET_S, HardPlayer
from bot.ai.search import bidding
from bot.ai.search.candidates import representative
from bot.ai.search.spades_play import card_choice, search_card
from bot.ai.search.utility import Utility
from bot.engine.actions import BLIND_NIL, Action, Bid, Look, Play
from bot.engine.game import Phase
from bot.engine.views import SeatView

MAX_WORLDS = 100_000


@dataclass(frozen=True)
class ActionValue:
    """One legal action as the search saw it (see the module text)."""

    action: Action
    value: float
    tricks: float | None
    samples: int
    loss: float


@dataclass(frozen=True)
class HardEvaluation:
    """The action the hard player chooses and the value of each distinct legal action, best
    first."""

    chosen: Action
    actions: tuple[ActionValue, ...]
    worlds: int
    same_as: dict[Action, Action] = field(default_factory=dict)  # a card -> its run's lowest

    def of(self, action: Action) -> ActionValue | None:
        """The value of any legal ``action`` (a card touching others is valued as its run's
        lowest card); None if it was not valued."""
        action = self.same_as.get(action, action)
        for a in self.actions:
            if a.action == action:
                return a
        return None


def evaluate(
    view: SeatView,
    rng: random.Random,
    budget_s: float,
    clock: Callable[[], float] = time.perf_counter,
    max_worlds: int = MAX_WORLDS,
) -> HardEvaluation:
    """The hard player's evaluation of the seat's decision (see the module text).

    ``budget_s`` is not capped at the player's 300 ms: a review may spend longer for a
    steadier estimate.  ``max_worlds`` bounds the worlds whatever the clock says."""
    legal = view.legal
    if len(legal) == 1:
        return _bare(legal[0])
    if view.bidding is None:  # not Spades: the game's own hard player's choice, unvalued
        hard = ai_of(view.rules.game).players("hard")
        return _bare(hard.decide(view, rng, min(budget_s, MAX_BUDGET_S)))
    if view.phase is Phase.PLAY:
        return _play(view, rng, budget_s, clock, max_worlds)
    if view.phase is Phase.BID and not view.rules.new_york:
        if view.hand_hidden or view.hand is None:
            return _blind(view, rng, budget_s, clock, max_worlds)
        return _bid(view, rng, budget_s, clock, max_worlds)
    return _bare(HardPlayer(clock=clock).decide(view, rng, min(budget_s, MAX_BUDGET_S)))


def _bare(action: Action) -> HardEvaluation:
    return HardEvaluation(action, (), 0)


def _ranked(
    view: SeatView,
    chosen: Action,
    rows: list[tuple[Action, float, float | None, int]],
    same_as: dict[Action, Action] | None = None,
) -> HardEvaluation:
    assert view.seat is not None
    zero = Utility.of_view(view).before(int(view.seat) & 1)
    best = next((v for a, v, _, _ in rows if a == chosen), max(v for _, v, _, _ in rows))
    values = tuple(
        ActionValue(a, v - zero, t, n, best - v) for a, v, t, n in sorted(rows, key=lambda r: -r[1])
    )
    return HardEvaluation(chosen, values, max((n for *_, n in rows), default=0), same_as or {})


def _play(
    view: SeatView,
    rng: random.Random,
    budget_s: float,
    clock: Callable[[], float],
    max_worlds: int,
) -> HardEvaluation:
    t0 = clock()
    choice = card_choice(view, rng)
    d = search_card(choice, clock, budget_s - (clock() - t0), max_worlds, value_all=True)
    rows: list[tuple[Action, float, float | None, int]] = [
        (choice.play(c), d.means[c], d.tricks.get(c), d.counts.get(c, 0))
        for c in choice.runs
        if c in d.means
    ]
    if not rows:  # nothing to search: one candidate
        return _bare(choice.play(d.best))
    lay = choice.game.layout
    same_as: dict[Action, Action] = {}
    for a in view.legal:
        if isinstance(a, Play):
            c = lay.to_sim[a.card.index]
            same_as[a] = choice.play(representative(choice.runs, lay.suit_of, c))
    return _ranked(view, choice.play(d.best), rows, same_as)


def _bid(
    view: SeatView,
    rng: random.Random,
    budget_s: float,
    clock: Callable[[], float],
    max_worlds: int,
) -> HardEvaluation:
    assert view.seat is not None
    e = bidding.estimate_bids(view, rng, budget_s, clock, max_worlds)
    rows: list[tuple[Action, float, float | None, int]] = [
        (Bid(view.seat, b), m, e.tricks.get(b), e.worlds) for b, m in e.means.items()
    ]
    return _ranked(view, Bid(view.seat, e.best()), rows)


def _blind(
    view: SeatView,
    rng: random.Random,
    budget_s: float,
    clock: Callable[[], float],
    max_worlds: int,
) -> HardEvaluation:
    assert view.seat is not None
    blind = Bid(view.seat, BLIND_NIL)
    look = Look(view.seat)
    if blind not in view.legal:
        return _bare(look)
    e = bidding.estimate_blind(view, rng, budget_s, clock, max_worlds)
    chosen: Action = blind if e.blind > e.look else look
    return _ranked(view, chosen, [(blind, e.blind, None, e.worlds), (look, e.look, None, e.worlds)])
