"""Choosing a card: determinized search (PIMC) with paired worlds, racing and a clock.

Each *world* is a deal of the hidden cards drawn by a :class:`~bot.ai.search.worlds.Sampler`.
In every world every candidate card still in the race is played and the hand finished — by the
play-out policy, or exactly by :class:`~bot.ai.search.solver.Solver` when few cards are left —
and valued by the game's utility.  All candidates see the same worlds, so they are compared on
paired differences, whose noise is far smaller than that of the values themselves.

The first candidate is the play-out policy's own card: it is kept unless the leader beats it
by ``Z_PICK`` standard errors (without evidence, no deviation from sound play).

Racing: after a few worlds, a candidate whose mean is below the leader's by more than ``Z``
standard errors of the paired difference leaves the race, and so does one that has scored
exactly like the leader in every world so far (it is the same card in effect).  The search
stops when one candidate is left, when the clock says the next world would not fit in the
budget, or at ``max_worlds``.  The leader (highest mean; among equals, the earlier in
``cands`` order) is the card.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.ai.search.sim import State
from bot.ai.search.solver import Solver, Value
from bot.ai.search.worlds import Sampler

MIN_WORLDS = 10  # worlds before any candidate may leave the race
TIE_WORLDS = 12  # identical in this many worlds: the same card in effect
Z = 3.0  # standard errors of the paired difference that send a candidate out
Z_PICK = 1.0  # the default card (first) stays unless the leader beats it by this many
EXACT_CARDS = 12  # solve exactly when this few cards are left in the hands


@dataclass
class SearchOutcome:
    """The outcome of a search: the card, the worlds searched, and per candidate the mean
    value, the worlds it was valued on and (play-outs only) its side's mean tricks."""

    best: int
    worlds: int
    means: dict[int, float] = field(default_factory=dict)
    exact: bool = False
    counts: dict[int, int] = field(default_factory=dict)
    tricks: dict[int, float] = field(default_factory=dict)


def choose(
    start: Callable[[list[int]], State],
    cands: list[int],
    sampler: Sampler,
    value: Value,
    me_team: int,
    clock: Callable[[], float],
    budget_s: float,
    max_worlds: int = 100_000,
    eligible: int | None = None,
) -> SearchOutcome:
    """The best of ``cands`` (search-numbered cards, at least one) for the seat on turn.

    With ``eligible``, only the first ``eligible`` candidates may be chosen; the others are
    valued alongside (for an evaluation) and leave the race like any other."""
    t0 = clock()
    n_elig = len(cands) if eligible is None else eligible
    alive = list(range(len(cands)))
    vals: list[list[float]] = [[] for _ in cands]
    team_tricks = [0] * len(cands)
    mine: list[int] = []  # the seats of the searching side
    worlds = 0
    last_cost = 0.0
    exact = False
    while worlds < max_worlds:
        n_alive = sum(1 for j in alive if j < n_elig)
        if n_alive <= 1 and (len(alive) == n_alive or worlds >= MIN_WORLDS):
            break  # decided (candidates valued only get MIN_WORLDS worlds at least)
        now = clock()
        if worlds and now - t0 + last_cost > budget_s:
            break
        hands = sampler.sample()
        st = start(hands)
        if worlds == 0:
            exact = st.in_play().bit_count() <= EXACT_CARDS
            mine = [s for s, t in enumerate(st.t.team_of) if t == me_team]
        if exact:
            solver = Solver(me_team, value)
            vs = solver.root_values(st, [cands[j] for j in alive])
            for j, v in zip(alive, vs, strict=True):
                vals[j].append(v)
        else:
            for j in alive:
                child = st.copy()
                child.play(cands[j])
                child.run()
                vals[j].append(value(child.tricks, child.extra))
                for s in mine:
                    team_tricks[j] += child.tricks[s]
        worlds += 1
        last_cost = clock() - now
        if worlds >= MIN_WORLDS:
            alive = _race(alive, vals, worlds, n_elig)
    choosable = [j for j in alive if j < n_elig] or [0]
    best = max(choosable, key=lambda j: (sum(vals[j]), -j)) if worlds else 0
    if best != 0 and 0 in alive and worlds > 1 and _gap(vals[best], vals[0]) <= Z_PICK:
        best = 0
    means = {cands[j]: sum(vals[j]) / len(vals[j]) for j in range(len(cands)) if vals[j]}
    counts = {cands[j]: len(vals[j]) for j in range(len(cands))}
    tricks = {} if exact else {cands[j]: team_tricks[j] / n for j, n in _counted(vals)}
    return SearchOutcome(cands[best], worlds, means, exact, counts, tricks)


def _counted(vals: list[list[float]]) -> list[tuple[int, int]]:
    return [(j, len(v)) for j, v in enumerate(vals) if v]


def _paired(a: list[float], b: list[float], n: int) -> tuple[float, float]:
    """The mean of ``a - b`` over its ``n`` pairs and that difference's sample variance."""
    s1 = 0.0
    s2 = 0.0
    for x, y in zip(a, b, strict=True):
        d = x - y
        s1 += d
        s2 += d * d
    return s1 / n, max(0.0, (s2 - s1 * s1 / n) / (n - 1))


def _gap(a: list[float], b: list[float]) -> float:
    """How many standard errors the paired mean of ``a - b`` is above 0."""
    n = len(a)
    mean, var = _paired(a, b, n)
    if var == 0.0:
        return math.inf if mean > 0 else 0.0
    return mean / math.sqrt(var / n)


def _race(alive: list[int], vals: list[list[float]], n: int, n_elig: int) -> list[int]:
    leader = max([j for j in alive if j < n_elig] or alive, key=lambda j: (sum(vals[j]), -j))
    lv = vals[leader]
    keep = []
    for j in alive:
        if j == leader:
            keep.append(j)
            continue
        mean, var = _paired(lv, vals[j], n)
        if var == 0.0:
            if mean > 0 or (mean == 0 and n >= TIE_WORLDS):
                continue
        elif mean > Z * math.sqrt(var / n):
            continue
        keep.append(j)
    return keep
