"""Scoring of one hand for one team (rules.md §5, §8 and the §10 rulings), as pure functions."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from frozen_engine.rules import Rules

NIL: Final = 0
BLIND_NIL: Final = -1

# Game-deciding events a hand can produce for a team.
WINS: Final = "wins"
LOSES: Final = "loses"


@dataclass(frozen=True, slots=True)
class TeamHandScore:
    """What one hand did for one team; the fields of the replay line, plus the event."""

    points: int  # everything scored, bag penalty included
    bags: int  # overtricks gained this hand
    bag_penalty: int  # amount subtracted for reaching the bag limit (>= 0)
    score: int  # running total after the hand
    bag_count: int  # bag counter after any penalty
    event: str | None = None  # WINS / LOSES the game at once
    was_set: bool = False  # the contract failed (for New York's set-twice)

    def to_json(self) -> dict[str, int]:
        return {
            "points": self.points,
            "bags": self.bags,
            "bag_penalty": self.bag_penalty,
            "score": self.score,
            "bag_count": self.bag_count,
        }


def score_individual(
    rules: Rules,
    bids: tuple[int, int],
    tricks: tuple[int, int],
    score_before: int,
    bag_count_before: int,
    joker_points: int = 0,
) -> TeamHandScore:
    """Score a team of two individual bidders.  ``bids`` use NIL / BLIND_NIL or 1..13."""
    nil_players = [(b, t) for b, t in zip(bids, tricks, strict=True) if b <= NIL]
    contract = sum(b for b in bids if b > 0)
    contract_tricks = sum(t for b, t in zip(bids, tricks, strict=True) if b > 0)
    points = 0
    bags = 0
    event: str | None = None
    was_set = False
    # 1. Contract
    if contract > 0:
        counted = contract_tricks
        if rules.nil_tricks == "contract":
            counted += sum(t for _, t in nil_players)
        if counted >= contract:
            over = counted - contract
            points += 10 * contract + rules.bag_value * over
            bags += over
        else:
            was_set = True
            if rules.set_penalty == "bid":
                points -= 10 * contract
    both_blind = len(nil_players) == 2 and all(b == BLIND_NIL for b, _ in nil_players)
    both_nil = len(nil_players) == 2 and all(b == NIL for b, _ in nil_players)
    if both_blind and rules.double_blind_nil != "off":
        # 4. Double blind nil replaces step 2 entirely (no bags).
        failures = sum(1 for _, t in nil_players if t > 0)
        if rules.double_blind_nil == "decides_game":
            points += 800 if failures == 0 else -800
            event = WINS if failures == 0 else LOSES
        else:
            points += (400, -150, -250)[failures]
    elif both_nil and rules.double_nil == "team":
        # 3. Double nil as a team replaces step 2 entirely (no bags).
        made = all(t == 0 for _, t in nil_players)
        points += rules.double_nil_value if made else -rules.double_nil_value
    else:
        # 2. Each nil player on its own.
        for b, t in nil_players:
            value = rules.blind_nil_value if b == BLIND_NIL else rules.nil_value
            points += value if t == 0 else -value
            if rules.nil_tricks == "bags" and t:
                points += rules.bag_value * t
                bags += t
    points += joker_points
    # 5. Bag penalty
    bag_count = bag_count_before + bags
    penalty = 0
    if rules.bag_limit and rules.bag_penalty:
        while bag_count >= rules.bag_limit:
            bag_count -= rules.bag_limit
            penalty += rules.bag_penalty
    points -= penalty
    return TeamHandScore(
        points, bags, penalty, score_before + points, bag_count, event=event, was_set=was_set
    )


def score_new_york(
    bid: int | None, blind: bool, tricks: int, score_before: int, joker_points: int = 0
) -> TeamHandScore:
    """Score a New York team bid (``None`` = the bid-less first hand: 10 per trick)."""
    event: str | None = None
    was_set = False
    if bid is None:
        points = 10 * tricks
    elif bid == 10:
        if tricks >= 10:
            points = 200 * (2 if blind else 1)
            if tricks == 13:
                event = WINS
        else:
            points = -200
            was_set = True
    elif bid <= tricks <= bid + 2:
        points = 10 * bid * (2 if blind else 1)
    else:
        points = -10 * bid
        was_set = True
    points += joker_points
    return TeamHandScore(points, 0, 0, score_before + points, 0, event=event, was_set=was_set)
