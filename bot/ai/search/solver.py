"""Exact values of the last tricks of a world: alpha-beta with a transposition table.

The value of a finished hand is the game's own utility (points, bags, nils, the game won or
lost); the seats of the searching side maximise it and every other seat minimises it (in a
partnership game that is the truth; with more sides it is the cautious, "paranoid" view).
Touching cards of one hand are searched once (:func:`distinct`), the play-out policy's card
is tried first, and positions at trick boundaries are remembered with their bounds.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.ai.search.sim import State

Value = Callable[[list[int], list[int]], float]
INF = 1e18


def distinct(lay_suit_of: tuple[int, ...], legal: int, in_play: int) -> list[int]:
    """The cards of ``legal`` with touching ones merged (the lowest of each run kept): cards of
    one suit with no card still in play between them win and lose the same tricks."""
    out: list[int] = []
    prev = -1
    m = legal
    while m:
        low = m & -m
        c = low.bit_length() - 1
        if not (
            prev >= 0
            and lay_suit_of[prev] == lay_suit_of[c]
            and not in_play & ((1 << c) - (2 << prev))
        ):
            out.append(c)
        prev = c
        m ^= low
    return out


class Solver:
    """Alpha-beta over one world; the table is kept across the candidates of a decision."""

    __slots__ = ("me_team", "nodes", "tt", "value")

    def __init__(self, me_team: int, value: Value) -> None:
        self.me_team = me_team
        self.value = value
        self.tt: dict[tuple[object, ...], tuple[float, float]] = {}
        self.nodes = 0

    def root_values(self, st: State, cands: list[int]) -> list[float]:
        """The exact value of playing each of ``cands`` now."""
        out = []
        for c in cands:
            child = st.copy()
            child.play(c)
            out.append(self.search(child, -INF, INF))
        return out

    def search(self, st: State, alpha: float, beta: float) -> float:
        self.nodes += 1
        t = st.t
        hands = st.hands
        key: tuple[object, ...] | None = None
        if not st.trick:
            if sum(st.tricks) >= t.tricks_per_hand or not hands[st.turn]:
                return self.value(st.tricks, st.extra)
            key = (*hands, st.turn, *st.tricks, *st.extra, st.broken)
            e = self.tt.get(key)
            if e is not None:
                lo, hi = e
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo == hi:
                    return lo
                alpha = max(alpha, lo)
                beta = min(beta, hi)
        a0, b0 = alpha, beta
        legal = st.legal()
        if legal & (legal - 1) == 0:
            moves = [legal.bit_length() - 1]
        else:
            in_play = st.trick
            for h in hands:
                in_play |= h
            moves = distinct(t.layout.suit_of, legal, in_play)
            if len(moves) > 1:
                first = st.policy()
                suit_of = t.layout.suit_of
                rep = -1
                for j, c in enumerate(moves):
                    if c <= first and suit_of[c] == suit_of[first]:
                        rep = j
                if rep > 0:
                    moves.insert(0, moves.pop(rep))
        maximize = t.team_of[st.turn] == self.me_team
        if maximize:
            best = -INF
            for c in moves:
                child = st.copy()
                child.play(c)
                v = self.search(child, alpha, beta)
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
        else:
            best = INF
            for c in moves:
                child = st.copy()
                child.play(c)
                v = self.search(child, alpha, beta)
                if v < best:
                    best = v
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
        if key is not None:
            lo, hi = self.tt.get(key, (-INF, INF))
            if best <= a0:
                hi = min(hi, best)
            elif best >= b0:
                lo = max(lo, best)
            else:
                lo = hi = best
            self.tt[key] = (lo, hi)
        return best
