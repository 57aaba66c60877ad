"""A fast perfect-information simulator of the play phase, for the ``hard`` player.

Hands are ``int`` bitmasks; the roll-out policy is the ``normal`` play policy reading the
sampled (exact) holdings; the last tricks are solved exactly by minimax on the hand's points.
"""

from __future__ import annotations

from collections.abc import Callable

from benchmarks.prev_hard.core import (
    SPADES,
    DeckInfo,
    HandSpec,
    PlayCtx,
    choose_play,
    distinct_cards,
    equivalent,
    mode_for,
)


class SimState:
    """The play phase of one hand with every card known."""

    __slots__ = (
        "blind",
        "broken",
        "d",
        "hands",
        "jokers",
        "lead",
        "spec",
        "trick",
        "tricks",
        "turn",
    )

    def __init__(
        self,
        d: DeckInfo,
        spec: HandSpec,
        hands: list[int],
        turn: int,
        trick: list[tuple[int, int]],
        broken: bool,
        tricks: list[int],
        jokers: list[int],
    ) -> None:
        self.d = d
        self.spec = spec
        self.hands = hands
        self.turn = turn
        self.trick = trick
        self.broken = broken
        self.tricks = tricks
        self.jokers = jokers
        self.lead = d.suit_of[trick[0][1]] if trick else -1
        # Roll-out players see only their own hand (True) or every hand (False).
        self.blind = False

    def copy(self) -> SimState:
        s = SimState.__new__(SimState)
        s.d = self.d
        s.spec = self.spec
        s.hands = self.hands.copy()
        s.turn = self.turn
        s.trick = self.trick.copy()
        s.broken = self.broken
        s.tricks = self.tricks.copy()
        s.jokers = self.jokers.copy()
        s.lead = self.lead
        s.blind = self.blind
        return s

    @property
    def cards_left(self) -> int:
        h = self.hands
        return (h[0] | h[1] | h[2] | h[3]).bit_count()

    def legal(self) -> int:
        hand = self.hands[self.turn]
        d = self.d
        if self.trick:
            return (hand & d.suit_masks[self.lead]) or hand
        if self.broken:
            return hand
        return (hand & ~d.spades) or hand

    def play(self, idx: int) -> None:
        d = self.d
        seat = self.turn
        bit = 1 << idx
        self.hands[seat] ^= bit
        trick = self.trick
        if not trick:
            self.lead = d.suit_of[idx]
        if d.suit_of[idx] == SPADES:
            self.broken = True
        trick.append((seat, idx))
        if len(trick) < 4:
            self.turn = (seat + 1) & 3
            return
        follow = d.suit_masks[self.lead] | d.spades
        power = d.power
        best = -1
        winner = 0
        for s, i in trick:
            if (1 << i) & follow and power[i] > best:
                best = power[i]
                winner = s
        self.tricks[winner] += 1
        if d.has_jokers and self.spec.rules.joker_bonus:
            for s, i in trick:
                if i == 53:
                    self.jokers[winner & 1] += 2
                elif i == 52:
                    self.jokers[winner & 1] += 1
                else:
                    continue
                if s != winner:
                    self.jokers[s & 1] -= 2
        self.trick = []
        self.turn = winner

    def policy_move(self) -> int:
        """The ``normal`` policy's card for the seat on turn, reading the exact holdings."""
        legal = self.legal()
        if legal & (legal - 1) == 0:
            return legal.bit_length() - 1
        seat = self.turn
        h = self.hands
        left = (h[0] | h[1] | h[2] | h[3]).bit_count()
        tricks_left = (left + len(self.trick) + 3) // 4
        mode = mode_for(self.spec, seat, self.tricks, tricks_left)
        others = (h[0] | h[1] | h[2] | h[3]) & ~h[seat]
        if self.blind:
            holders = [others, others, others, others]
            holders[seat] = h[seat]
            ctx = PlayCtx(self.d, seat, legal, self.trick, holders, others, mode, False)
        else:
            ctx = PlayCtx(self.d, seat, legal, self.trick, h, others, mode, True)
        return choose_play(ctx)

    def rollout(self) -> None:
        h = self.hands
        while h[0] | h[1] | h[2] | h[3]:
            self.play(self.policy_move())


Utility = Callable[[list[int], list[int]], float]


def solve(state: SimState, me_team: int, utility: Utility) -> float:
    """Exact minimax value (my team maximises) of the rest of the hand."""
    return _ab(state, me_team, utility, -1e18, 1e18)


def _ab(st: SimState, me_team: int, utility: Utility, alpha: float, beta: float) -> float:
    h = st.hands
    if not (h[0] | h[1] | h[2] | h[3]):
        return utility(st.tricks, st.jokers)
    legal = st.legal()
    maximize = (st.turn & 1) == me_team
    d = st.d
    # Try the policy's move first for better pruning; skip equivalent (touching) cards.
    first = st.policy_move()
    in_play = h[0] | h[1] | h[2] | h[3]
    for _, i in st.trick:
        in_play |= 1 << i
    order = [first]
    for i in distinct_cards(d, legal, in_play):
        if i != first and not equivalent(d, i, first, in_play):
            order.append(i)
    if maximize:
        best = -1e18
        for i in order:
            child = st.copy()
            child.play(i)
            v = _ab(child, me_team, utility, alpha, beta)
            if v > best:
                best = v
            if best > alpha:
                alpha = best
            if alpha >= beta:
                break
        return best
    best = 1e18
    for i in order:
        child = st.copy()
        child.play(i)
        v = _ab(child, me_team, utility, alpha, beta)
        if v < best:
            best = v
        if best < beta:
            beta = best
        if alpha >= beta:
            break
    return best
