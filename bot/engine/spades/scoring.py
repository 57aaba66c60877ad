"""Scoring of one Spades hand for one team (rules.md §5, §8 and the §10 rulings), itemised.

Pure functions: the game and the computer players' searches both call them.  Every result
carries its :class:`~bot.engine.scoring.ScorePart` list, which adds up to ``points``.
"""

from __future__ import annotations

from bot.engine.actions import BLIND_NIL, NIL
from bot.engine.rules import Rules
from bot.engine.scoring import LOSES, WINS, ScorePart, TeamHandScore, plural
from bot.engine.seats import Seat, Team


def _whose(seat: Seat | None, what: str) -> str:
    return f"{seat.word}'s {what}" if seat is not None else what.capitalize()


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
        took = plural(counted, "trick")
        if counted >= contract:
            parts.append(ScorePart("contract", f"Contract {contract} made ({took})", 10 * contract))
            bags += counted - contract
        else:
            was_set = True
            lost = -10 * contract if rules.set_penalty == "bid" else 0
            free = "" if lost else ": no penalty"
            parts.append(ScorePart("contract", f"Contract {contract} set ({took}){free}", lost))
    both_blind = len(nil_players) == 2 and all(b == BLIND_NIL for b, _, _ in nil_players)
    both_nil = len(nil_players) == 2 and all(b == NIL for b, _, _ in nil_players)
    if both_blind and rules.double_blind_nil != "off":
        # 4. Double blind nil replaces step 2 entirely (no bags).
        failures = sum(1 for _, t, _ in nil_players if t > 0)
        if rules.double_blind_nil == "decides_game":
            event = WINS if failures == 0 else LOSES
            label = "made: the team wins the game" if not failures else "failed: the team loses"
            parts.append(
                ScorePart(
                    "double_blind_nil", f"Double blind nil {label}", 800 if not failures else -800
                )
            )
        else:
            label = ("both made", "one failed", "both failed")[failures]
            parts.append(
                ScorePart(
                    "double_blind_nil", f"Double blind nil: {label}", (400, -150, -250)[failures]
                )
            )
    elif both_nil and rules.double_nil == "team":
        # 3. Double nil as a team replaces step 2 entirely (no bags).
        taken = sum(t for _, t, _ in nil_players)
        value = rules.double_nil_value
        if taken == 0:
            parts.append(ScorePart("double_nil", "Double nil made", value))
        else:
            parts.append(
                ScorePart("double_nil", f"Double nil failed ({plural(taken, 'trick')})", -value)
            )
    else:
        # 2. Each nil player on its own.
        for b, t, s in nil_players:
            parts.append(_nil_part(rules, b, t, s))
            if rules.nil_tricks == "bags" and t:
                bags += t
    if bags:
        parts.append(ScorePart("bags", plural(bags, "bag"), rules.bag_value * bags))
    if joker_points:
        parts.append(ScorePart("jokers", "Joker bonus", joker_points))
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
    what = "blind nil" if blind else "nil"
    value = rules.blind_nil_value if blind else rules.nil_value
    kind = "blind_nil" if blind else "nil"
    if tricks == 0:
        return ScorePart(kind, _whose(seat, what) + " made", value, seat)
    return ScorePart(
        kind, _whose(seat, what) + f" failed ({plural(tricks, 'trick')})", -value, seat
    )


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
            reached = plural(rules.bag_limit * times, "bag")
            parts.append(ScorePart("bag_penalty", f"Bag penalty ({reached})", -penalty))
    return bag_count, penalty


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
    took = plural(tricks, "trick")
    if bid > 0:
        if tricks >= bid:
            parts.append(ScorePart("contract", f"Bid {bid} made ({took})", 10 * bid, seat))
            bags = tricks - bid
        else:
            was_set = True
            lost = -10 * bid if rules.set_penalty == "bid" else 0
            free = "" if lost else ": no penalty"
            parts.append(ScorePart("contract", f"Bid {bid} set ({took}){free}", lost, seat))
    else:
        parts.append(_nil_part(rules, bid, tricks, seat))
        if rules.nil_tricks == "bags":
            bags = tricks
    if bags:
        parts.append(ScorePart("bags", plural(bags, "bag"), rules.bag_value * bags))
    if joker_points:
        parts.append(ScorePart("jokers", "Joker bonus", joker_points))
    bag_count, penalty = _bag_penalty(rules, bag_count_before + bags, parts)
    points = sum(p.points for p in parts)
    return TeamHandScore(
        points, bags, penalty, score_before + points, bag_count, was_set=was_set, parts=tuple(parts)
    )


def score_new_york(
    bid: int | None, blind: bool, tricks: int, score_before: int, joker_points: int = 0
) -> TeamHandScore:
    """Score a New York team bid (``None`` = the bid-less first hand: 10 per trick)."""
    event: str | None = None
    was_set = False
    took = plural(tricks, "trick")
    name = f"Blind bid {bid}" if blind else f"Bid {bid}"
    double = ", doubled" if blind else ""
    if bid is None:
        part = ScorePart("new_york", f"First hand: 10 a trick ({took})", 10 * tricks)
    elif bid == 10:
        if tricks >= 10:
            boston = tricks == 13
            if boston:
                event = WINS
            label = f"{name}: a Boston wins the game" if boston else f"{name} made ({took})"
            part = ScorePart("new_york", label + double, 200 * (2 if blind else 1))
        else:
            was_set = True
            part = ScorePart("new_york", f"{name} set ({took})", -200)
    elif bid <= tricks <= bid + 2:
        part = ScorePart(
            "new_york", f"{name} made ({took}){double}", 10 * bid * (2 if blind else 1)
        )
    else:
        was_set = True
        why = f"{took}: 3 or more over" if tricks > bid else took
        part = ScorePart("new_york", f"{name} set ({why})", -10 * bid)
    parts = [part]
    if joker_points:
        parts.append(ScorePart("jokers", "Joker bonus", joker_points))
    points = sum(p.points for p in parts)
    return TeamHandScore(
        points, 0, 0, score_before + points, 0, event=event, was_set=was_set, parts=tuple(parts)
    )


def decide_partnerships(
    rules: Rules,
    scores: list[int],
    total_bags: list[int],
    set_streak: list[int],
    teams: list[TeamHandScore],
) -> tuple[Team | None, str]:
    """Is a partnership game over after this hand (rules.md §6 and §10)?  Events first (Boston,
    double blind nil; New York: set twice in a row), then lose_at, then the target and ties:
    the winning team and why, or ``(None, "")``."""
    s = scores
    claims: set[int] = set()
    reasons: dict[int, str] = {}
    for team, res in enumerate(teams):
        other = team ^ 1
        if res.event == WINS:
            claims.add(team)
            reasons[team] = "Boston" if rules.new_york else "double blind nil made"
        elif res.event == LOSES:
            claims.add(other)
            reasons[other] = "double blind nil failed"
        if rules.new_york and set_streak[team] >= 2:
            claims.add(other)
            reasons[other] = f"{Team(team).name} set twice in a row"
    if len(claims) == 1:
        team = claims.pop()
        return Team(team), reasons[team]
    if len(claims) == 2 and s[0] != s[1]:
        return Team(0 if s[0] > s[1] else 1), "both teams claimed the game; higher score"
    lose_at = rules.lose_at
    if lose_at is not None:
        down = [team for team in (0, 1) if s[team] <= lose_at]
        if len(down) == 1:
            return Team(down[0] ^ 1), f"{Team(down[0]).name} fell to {lose_at} or below"
        if len(down) == 2 and s[0] != s[1]:
            return Team(0 if s[0] > s[1] else 1), "both teams fell to lose_at; higher score"
    if max(s) >= rules.target:
        if s[0] != s[1]:
            return Team(0 if s[0] > s[1] else 1), "reached the target"
        if rules.tie == "bags" and total_bags[0] != total_bags[1]:
            more = 0 if total_bags[0] > total_bags[1] else 1
            return Team(more), "tied at the target; more bags over the game"
    return None, ""
