"""What a seat is trying to do with the current trick, from the bids and the tricks taken: keep
its nil, cover its partner's, catch an opponent's, take tricks (contract, or a set worth
pushing) or duck them.  Used by the ``normal`` play policy (:mod:`bot.ai.play_policy`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

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

    def counted(self, team: int, tricks: list[int] | tuple[int, ...]) -> int:
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


PUSH_SET_TRICKS: Final = 2


def mode_for(spec: HandSpec, seat: int, tricks: list[int] | tuple[int, ...], left: int) -> Mode:
    """The seat's goal given the tricks taken so far and ``left`` tricks still to play."""
    team = seat & 1
    partner = seat ^ 2
    nil = spec.nil
    me_nil = nil[seat] and tricks[seat] == 0
    p_nil = nil[partner] and tricks[partner] == 0
    opp = tuple(s for s in (team ^ 1, (team ^ 1) + 2) if nil[s] and tricks[s] == 0)
    c = spec.contract[team]
    taken = spec.counted(team, tricks)
    if spec.ny_first:
        want = True
    elif c is None:
        want = False
    else:
        want = taken < c
    if not want and not spec.ny_first:
        oc = spec.contract[team ^ 1]
        if oc is not None:
            oneed = oc - spec.counted(team ^ 1, tricks)
            # Tricks we must still take to set them.
            must = left - oneed + 1
            if oneed > 0 and 0 < must <= PUSH_SET_TRICKS:
                want = not spec.ny or (c is not None and taken + must <= spec.ny_max[team])
    return Mode(me_nil, p_nil, opp, want)
