"""Scoring of one Spades hand for one team (rules.md §5, §8 and the §10 rulings), itemised.

Pure functions: the game and the computer players' searches both call them.  Every result
carries its :class:`~bot.engine.scoring.ScorePart` list, which adds up to ``points``.
"""

from __future__ import annotations

from typing import Final

from bot.engine.actions import BLIND_NIL, NIL
from bot.engine.lines import Line
from bot.engine.rules import Rules
from bot.engine.scoring import (
    JOKER_BONUS,
    LOSES,
    REACHED_TARGET,
    WINS,
    ScorePart,
    TeamHandScore,
    bags_line,
)
from bot.engine.seats import Seat, Team


def score_individual(
    rules: Rules,
    bids: tuple[int, int],
    tricks: tuple[int, int],
    score_before: int,
    bag_count_before: int,
    joker_points: int = 0,
    seats: tuple[Seat, Seat] | None = None,
) -> TeamHandScore:
    """Score a team of two individual bidders.  ``bids`` use NIL / BLIND_NIL or 1..13;
    ``seats`` (the two players, in the order of ``bids``) name them in the parts."""
    b0, b1 = bids
    t0, t1 = tricks
    s0, s1 = seats if seats is not None else (None, None)
    nil_players: list[tuple[int, int, Seat | None]] = []
    if b0 <= NIL:
        nil_players.append((b0, t0, s0))
    if b1 <= NIL:
        nil_players.append((b1, t1, s1))
    contract = (b0 if b0 > 0 else 0) + (b1 if b1 > 0 else 0)
    parts: list[ScorePart] = []
    bags = 0
    event: str | None = None
    was_set = False
    # 1. Contract
    if contract > 0:
        counted = (t0 if b0 > 0 else 0) + (t1 if b1 > 0 else 0)
        if rules.nil_tricks == "contract":
            counted += sum(t for _, t, _ in nil_players)
        if counted >= contract:
            parts.append(ScorePart("contract", _contract_made(contract, counted), 10 * contract))
            bags += counted - contract
        else:
            was_set = True
            lost = -10 * contract if rules.set_penalty == "bid" else 0
            parts.append(ScorePart("contract", _contract_set(contract, counted, lost), lost))
    both_blind = len(nil_players) == 2 and all(b == BLIND_NIL for b, _, _ in nil_players)
    both_nil = len(nil_players) == 2 and all(b == NIL for b, _, _ in nil_players)
    if both_blind and rules.double_blind_nil != "off":
        # 4. Double blind nil replaces step 2 entirely (no bags).
        failures = sum(1 for _, t, _ in nil_players if t > 0)
        if rules.double_blind_nil == "decides_game":
            event = WINS if failures == 0 else LOSES
            label = DOUBLE_BLIND_NIL_DECIDES[failures > 0]
            parts.append(ScorePart("double_blind_nil", label, 800 if not failures else -800))
        else:
            label = DOUBLE_BLIND_NIL_SCORED[failures]
            parts.append(ScorePart("double_blind_nil", label, (400, -150, -250)[failures]))
    elif both_nil and rules.double_nil == "team":
        # 3. Double nil as a team replaces step 2 entirely (no bags).
        taken = sum(t for _, t, _ in nil_players)
        value = rules.double_nil_value
        if taken == 0:
            parts.append(ScorePart("double_nil", DOUBLE_NIL_MADE, value))
        else:
            parts.append(ScorePart("double_nil", _double_nil_failed(taken), -value))
    else:
        # 2. Each nil player on its own.
        for b, t, s in nil_players:
            parts.append(_nil_part(rules, b, t, s))
            if rules.nil_tricks == "bags" and t:
                bags += t
    if bags:
        parts.append(ScorePart("bags", bags_line(bags), rules.bag_value * bags))
    if joker_points:
        parts.append(ScorePart("jokers", JOKER_BONUS, joker_points))
    # 5. Bag penalty
    bag_count, penalty = _bag_penalty(rules, bag_count_before + bags, parts)
    points = sum(p.points for p in parts)
    return TeamHandScore(
        points,
        bags,
        penalty,
        score_before + points,
        bag_count,
        event=event,
        was_set=was_set,
        parts=tuple(parts),
    )


def _nil_part(rules: Rules, bid: int, tricks: int, seat: Seat | None) -> ScorePart:
    """§5 step 2: one player's nil or blind nil, made or failed."""
    blind = bid == BLIND_NIL
    value = rules.blind_nil_value if blind else rules.nil_value
    kind = "blind_nil" if blind else "nil"
    if tricks == 0:
        return ScorePart(kind, _nil_made(blind, seat), value, seat)
    return ScorePart(kind, _nil_failed(blind, seat, tricks), -value, seat)


# The items without parts, made once.
DOUBLE_BLIND_NIL_DECIDES: Final = (
    Line("Double blind nil made: the team wins the game"),
    Line("Double blind nil failed: the team loses"),
)
DOUBLE_BLIND_NIL_SCORED: Final = (  # by failures
    Line("Double blind nil: both made"),
    Line("Double blind nil: one failed"),
    Line("Double blind nil: both failed"),
)
DOUBLE_NIL_MADE: Final = Line("Double nil made")


def _double_nil_failed(k: int) -> Line:
    if k == 1:
        return Line("Double nil failed ({k} trick)", k=k)
    return Line("Double nil failed ({k} tricks)", k=k)


def _nil_made(blind: bool, seat: Seat | None) -> Line:
    if seat is None:
        return Line("Blind nil made") if blind else Line("Nil made")
    if blind:
        return Line("{seat}'s blind nil made", seat=seat)
    return Line("{seat}'s nil made", seat=seat)


def _nil_failed(blind: bool, seat: Seat | None, k: int) -> Line:
    if seat is None:
        if blind:
            if k == 1:
                return Line("Blind nil failed ({k} trick)", k=k)
            return Line("Blind nil failed ({k} tricks)", k=k)
        if k == 1:
            return Line("Nil failed ({k} trick)", k=k)
        return Line("Nil failed ({k} tricks)", k=k)
    if blind:
        if k == 1:
            return Line("{seat}'s blind nil failed ({k} trick)", seat=seat, k=k)
        return Line("{seat}'s blind nil failed ({k} tricks)", seat=seat, k=k)
    if k == 1:
        return Line("{seat}'s nil failed ({k} trick)", seat=seat, k=k)
    return Line("{seat}'s nil failed ({k} tricks)", seat=seat, k=k)


def _contract_made(n: int, k: int) -> Line:
    if k == 1:
        return Line("Contract {n} made ({k} trick)", n=n, k=k)
    return Line("Contract {n} made ({k} tricks)", n=n, k=k)


def _contract_set(n: int, k: int, lost: int) -> Line:
    """The contract set: its penalty, or none (``set_penalty = zero``)."""
    if lost:
        if k == 1:
            return Line("Contract {n} set ({k} trick)", n=n, k=k)
        return Line("Contract {n} set ({k} tricks)", n=n, k=k)
    if k == 1:
        return Line("Contract {n} set ({k} trick): no penalty", n=n, k=k)
    return Line("Contract {n} set ({k} tricks): no penalty", n=n, k=k)


def _bag_penalty(rules: Rules, bag_count: int, parts: list[ScorePart]) -> tuple[int, int]:
    """§5 step 5: the bag count after penalties and the amount taken (a part is added)."""
    penalty = 0
    if rules.bag_limit and rules.bag_penalty:
        times = 0
        while bag_count >= rules.bag_limit:
            bag_count -= rules.bag_limit
            penalty += rules.bag_penalty
            times += 1
        if times:
            label = _bag_penalty_line(rules.bag_limit * times)
            parts.append(ScorePart("bag_penalty", label, -penalty))
    return bag_count, penalty


def _bag_penalty_line(k: int) -> Line:
    return Line("Bag penalty ({k} bag)", k=k) if k == 1 else Line("Bag penalty ({k} bags)", k=k)


def score_player(
    rules: Rules,
    bid: int,
    tricks: int,
    score_before: int,
    bag_count_before: int,
    joker_points: int = 0,
    seat: Seat | None = None,
) -> TeamHandScore:
    """games.md G2 solo: §5 applied to one player (own contract, nil, bags, penalty)."""
    parts: list[ScorePart] = []
    bags = 0
    was_set = False
    if bid > 0:
        if tricks >= bid:
            parts.append(ScorePart("contract", _bid_made(bid, tricks), 10 * bid, seat))
            bags = tricks - bid
        else:
            was_set = True
            lost = -10 * bid if rules.set_penalty == "bid" else 0
            parts.append(ScorePart("contract", _bid_set(bid, tricks, lost), lost, seat))
    else:
        parts.append(_nil_part(rules, bid, tricks, seat))
        if rules.nil_tricks == "bags":
            bags = tricks
    if bags:
        parts.append(ScorePart("bags", bags_line(bags), rules.bag_value * bags))
    if joker_points:
        parts.append(ScorePart("jokers", JOKER_BONUS, joker_points))
    bag_count, penalty = _bag_penalty(rules, bag_count_before + bags, parts)
    points = sum(p.points for p in parts)
    return TeamHandScore(
        points, bags, penalty, score_before + points, bag_count, was_set=was_set, parts=tuple(parts)
    )


def _bid_made(n: int, k: int) -> Line:
    if k == 1:
        return Line("Bid {n} made ({k} trick)", n=n, k=k)
    return Line("Bid {n} made ({k} tricks)", n=n, k=k)


def _bid_set(n: int, k: int, lost: int) -> Line:
    if lost:
        if k == 1:
            return Line("Bid {n} set ({k} trick)", n=n, k=k)
        return Line("Bid {n} set ({k} tricks)", n=n, k=k)
    if k == 1:
        return Line("Bid {n} set ({k} trick): no penalty", n=n, k=k)
    return Line("Bid {n} set ({k} tricks): no penalty", n=n, k=k)


def score_new_york(
    bid: int | None, blind: bool, tricks: int, score_before: int, joker_points: int = 0
) -> TeamHandScore:
    """Score a New York team bid (``None`` = the bid-less first hand: 10 per trick)."""
    event: str | None = None
    was_set = False
    if bid is None:
        part = ScorePart("new_york", _first_hand(tricks), 10 * tricks)
    elif (bid == 10 and tricks >= 10) or bid <= tricks <= bid + 2:
        if tricks == 13 and bid == 10:
            event = WINS
        label = _new_york_made(bid, blind, tricks)
        part = ScorePart("new_york", label, (200 if bid == 10 else 10 * bid) * (2 if blind else 1))
    else:
        was_set = True
        part = ScorePart(
            "new_york", _new_york_set(bid, blind, tricks), -200 if bid == 10 else -10 * bid
        )
    parts = [part]
    if joker_points:
        parts.append(ScorePart("jokers", JOKER_BONUS, joker_points))
    points = sum(p.points for p in parts)
    return TeamHandScore(
        points, 0, 0, score_before + points, 0, event=event, was_set=was_set, parts=tuple(parts)
    )


def _first_hand(k: int) -> Line:
    if k == 1:
        return Line("First hand: 10 a trick ({k} trick)", k=k)
    return Line("First hand: 10 a trick ({k} tricks)", k=k)


def _new_york_made(n: int, blind: bool, k: int) -> Line:
    """A team bid made (``k`` >= 4: always tricks); a blind one doubled; 13 tricks on a bid
    of 10 is a Boston."""
    if n == 10 and k == 13:
        if blind:
            return Line("Blind bid {n}: a Boston wins the game, doubled", n=n)
        return Line("Bid {n}: a Boston wins the game", n=n)
    if blind:
        return Line("Blind bid {n} made ({k} tricks), doubled", n=n, k=k)
    return Line("Bid {n} made ({k} tricks)", n=n, k=k)


def _new_york_set(n: int, blind: bool, k: int) -> Line:
    """A team bid set: under it, or 3 or more over it (below 10)."""
    if k > n:
        if blind:
            return Line("Blind bid {n} set ({k} tricks: 3 or more over)", n=n, k=k)
        return Line("Bid {n} set ({k} tricks: 3 or more over)", n=n, k=k)
    if blind:
        if k == 1:
            return Line("Blind bid {n} set ({k} trick)", n=n, k=k)
        return Line("Blind bid {n} set ({k} tricks)", n=n, k=k)
    if k == 1:
        return Line("Bid {n} set ({k} trick)", n=n, k=k)
    return Line("Bid {n} set ({k} tricks)", n=n, k=k)


# Why a partnership game ended, for the reasons without parts.
BOSTON: Final = Line("Boston")
DOUBLE_BLIND_NIL_WON: Final = Line("double blind nil made")
DOUBLE_BLIND_NIL_LOST: Final = Line("double blind nil failed")
BOTH_CLAIMED: Final = Line("both teams claimed the game; the higher score wins")
TIED_MORE_BAGS: Final = Line("tied at the target; the team with more bags over the game wins")


def decide_partnerships(
    rules: Rules,
    scores: list[int],
    total_bags: list[int],
    set_streak: list[int],
    teams: list[TeamHandScore],
) -> tuple[Team | None, Line | None]:
    """Is a partnership game over after this hand (rules.md §6 and §10)?  Events first (Boston,
    double blind nil; New York: set twice in a row), then lose_at, then the target and ties:
    the winning team and why, or ``(None, None)``."""
    s = scores
    claims: set[int] = set()
    reasons: dict[int, Line] = {}
    for team, res in enumerate(teams):
        other = team ^ 1
        if res.event == WINS:
            claims.add(team)
            reasons[team] = BOSTON if rules.new_york else DOUBLE_BLIND_NIL_WON
        elif res.event == LOSES:
            claims.add(other)
            reasons[other] = DOUBLE_BLIND_NIL_LOST
        if rules.new_york and set_streak[team] >= 2:
            claims.add(other)
            reasons[other] = Line("{team} were set twice in a row", team=Team(team))
    if len(claims) == 1:
        team = claims.pop()
        return Team(team), reasons[team]
    if len(claims) == 2 and s[0] != s[1]:
        return Team(0 if s[0] > s[1] else 1), BOTH_CLAIMED
    lose_at = rules.lose_at
    if lose_at is not None:
        down = [team for team in (0, 1) if s[team] <= lose_at]
        if len(down) == 1:
            why = Line("{team} fell to {n} or below (mercy rule)", team=Team(down[0]), n=lose_at)
            return Team(down[0] ^ 1), why
        if len(down) == 2 and s[0] != s[1]:
            why = Line(
                "both teams fell to {n} or below (mercy rule); the higher score wins", n=lose_at
            )
            return Team(0 if s[0] > s[1] else 1), why
    if max(s) >= rules.target:
        if s[0] != s[1]:
            return Team(0 if s[0] > s[1] else 1), REACHED_TARGET
        if rules.tie == "bags" and total_bags[0] != total_bags[1]:
            more = 0 if total_bags[0] > total_bags[1] else 1
            return Team(more), TIED_MORE_BAGS
    return None, None
