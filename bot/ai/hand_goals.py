"""What a seat is trying to do with the current trick, from the bids and the tricks taken: keep
its nil, cover its partner's, catch an opponent's, take tricks (contract, or a set worth
pushing) or duck them.  Used by the ``normal`` play policy (:mod:`bot.ai.play_policy`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from bot.engine.actions import NIL
from bot.engine.rules import Rules


@dataclass(frozen=True, slots=True)
class HandSpec:
    """The static facts of a hand in play: contracts and nil bidders (by seat / team)."""

    rules: Rules
    nil: tuple[bool, bool, bool, bool]
    contract: tuple[int | None, int | None]  # None: no contract (double nil, NY first hand)
    count_nil: bool  # nil players' tricks count toward the contract
    ny: bool
    ny_first: bool
    ny_max: tuple[int, int]  # New York: most tricks that still make the bid

    @staticmethod
    def from_bids(
        rules: Rules,
        bids: tuple[int | None, ...],
        team_bids: tuple[int | None, int | None],
        hand_number: int,
    ) -> HandSpec:
        if rules.new_york:
            first = team_bids[0] is None and team_bids[1] is None and hand_number == 1
            maxes = tuple((13 if b is None or b >= 10 else b + 2) for b in team_bids)
            return HandSpec(
                rules,
                (False, False, False, False),
                team_bids,
                False,
                True,
                first,
                (maxes[0], maxes[1]),
            )
        b = [x if x is not None else 1 for x in bids]
        nil = (b[0] <= NIL, b[1] <= NIL, b[2] <= NIL, b[3] <= NIL)
        contract: list[int | None] = []
        for team in (0, 1):
            c = sum(x for x in (b[team], b[team + 2]) if x > 0)
            contract.append(c if c > 0 else None)
        return HandSpec(
            rules,
            nil,
            (contract[0], contract[1]),
            rules.nil_tricks == "contract",
            False,
            False,
            (13, 13),
        )

    def counted(self, team: int, tricks: Sequence[int]) -> int:
        total = 0
        for s in (team, team + 2):
            if self.count_nil or not self.nil[s]:
                total += tricks[s]
        return total


@dataclass(slots=True)
class Mode:
    """What a seat is trying to do with the current trick."""

    me_nil: bool
    partner_nil: bool
    opp_nil: tuple[int, ...]  # seats of opponents whose nil is still alive
    want: bool  # the team wants tricks (contract, or a set worth pushing)


# How close a side that has made its bid must be to setting the opponents to go on taking
# tricks (it needs at most this many of the tricks left to set them).  One rule, two
# distances: the ``normal`` player fights within 2, as it always has; the hard player's search
# imagines play-outs in which a side fights within 4 (SEARCH_PUSH_SET_TRICKS,
# bot/ai/search/spades.py): the players it meets defend for the set that far, and its bids
# and play did better for expecting it (docs/benchmarks.md, "The set fought for within four
# tricks").  Normal's own play was never measured at 4, so it keeps 2: a different player.
NORMAL_PUSH_SET_TRICKS: Final = 2


class Contracts(Protocol):
    """What :func:`wants_tricks` reads of a hand: the contracts by team and New York's."""

    @property
    def contract(self) -> Sequence[int | None]: ...  # by team; None: no contract

    @property
    def ny(self) -> bool: ...

    @property
    def ny_first(self) -> bool: ...  # New York's first hand: everyone takes tricks

    @property
    def ny_max(self) -> Sequence[int]: ...  # New York: by team, most tricks that still make it

    def counted(self, team: int, tricks: Sequence[int]) -> int: ...  # toward the contract


def wants_tricks(
    hand: Contracts, team: int, tricks: Sequence[int], left: int, push_set: int
) -> bool:
    """Whether ``team`` wants tricks with ``left`` still to play: for its contract, or, once
    that is made, to set the opponents when it needs at most ``push_set`` of the tricks left
    (in New York only without going past its own most)."""
    if hand.ny_first:
        return True
    c = hand.contract[team]
    taken = hand.counted(team, tricks)
    if c is not None and taken < c:
        return True
    oc = hand.contract[team ^ 1]
    if oc is None:
        return False
    oneed = oc - hand.counted(team ^ 1, tricks)
    must = left - oneed + 1  # tricks we must still take to set them
    if oneed > 0 and 0 < must <= push_set:
        return not hand.ny or (c is not None and taken + must <= hand.ny_max[team])
    return False


def mode_for(spec: HandSpec, seat: int, tricks: list[int] | tuple[int, ...], left: int) -> Mode:
    """The seat's goal given the tricks taken so far and ``left`` tricks still to play."""
    team = seat & 1
    partner = seat ^ 2
    nil = spec.nil
    me_nil = nil[seat] and tricks[seat] == 0
    p_nil = nil[partner] and tricks[partner] == 0
    opp = tuple(s for s in (team ^ 1, (team ^ 1) + 2) if nil[s] and tricks[s] == 0)
    want = wants_tricks(spec, team, tricks, left, NORMAL_PUSH_SET_TRICKS)
    return Mode(me_nil, p_nil, opp, want)
