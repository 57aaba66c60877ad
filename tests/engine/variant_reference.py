"""An independent reading of games.md G1-G2 and G7 (solo, three players, renege claims) for
re-scoring records: nothing from ``bot.engine``.  Like :mod:`tests.engine.reference` it trusts
the record to be legal and returns the replay lines of records.md (with ``players`` in solo
and ``caught`` where claims are played)."""

from __future__ import annotations

from typing import Any

from tests.engine.builders import effective_suit, trick_winner
from tests.engine.reference import preset_options, score_individual_team

PENALTY = 250


def rescore_variant(doc: dict[str, Any]) -> list[dict[str, Any]]:
    rules = dict(doc["rules"])
    o = {**preset_options(rules.pop("preset", "standard")), **rules}
    deck = "standard" if o["players"] == 3 else o["deck"]
    seats = "NES" if o["players"] == 3 else "NESW"
    solo = not o["partnerships"]
    sides = list(seats) if solo else ["NS", "EW"]
    cards_per_hand = 51 if o["players"] == 3 else 52

    def side_of(seat: str) -> str:
        return seat if solo else ("NS" if seat in "NS" else "EW")

    def clockwise(seat: str) -> list[str]:
        i = seats.index(seat)
        return [seats[(i + k) % len(seats)] for k in range(len(seats))]

    score = dict.fromkeys(sides, 0)
    bag_count = dict.fromkeys(sides, 0)
    total_bags = dict.fromkeys(sides, 0)
    winner: str | None = None
    lines: list[dict[str, Any]] = []
    first = seats.index(doc["first_dealer"])
    for n, hand in enumerate(doc["hands"], start=1):
        assert winner is None
        dealer = seats[(first + n - 1) % len(seats)]
        held = {s: set(hand["deal"][s]) for s in seats}
        for p in hand.get("passes", []):  # blind-nil card passing, to the partner
            partner = seats[(seats.index(p["seat"]) + 2) % 4]
            held[p["seat"]] -= set(p["cards"])
            held[partner] |= set(p["cards"])
        tricks = dict.fromkeys(seats, 0)
        jokers = dict.fromkeys(sides, 0)
        reneges: list[tuple[int, str, int]] = []  # (play number, seat, trick number)
        broken = False
        leader = clockwise(dealer)[1]
        plays = hand["plays"]
        trick: list[tuple[str, str]] = []
        for i, code in enumerate(plays, start=1):
            seat = clockwise(leader)[len(trick)]
            suit = effective_suit(code, deck)
            hand_suits = {effective_suit(c, deck) for c in held[seat]}
            if trick:
                led = effective_suit(trick[0][1], deck)
                if suit != led and led in hand_suits:
                    reneges.append((i, seat, (i - 1) // len(seats) + 1))
                if suit == "S" and led != "S":
                    broken = True
            elif suit == "S" and not broken:
                if hand_suits - {"S"}:
                    reneges.append((i, seat, (i - 1) // len(seats) + 1))
                else:
                    broken = True
            held[seat].discard(code)
            trick.append((seat, code))
            if len(trick) == len(seats):
                leader = trick_winner(trick, deck)
                tricks[leader] += 1
                if o["joker_bonus"]:
                    for s, c in trick:
                        if c in ("BJ", "LJ"):
                            jokers[side_of(leader)] += 2 if c == "BJ" else 1
                            if s != leader:
                                jokers[side_of(s)] -= 2
                trick = []
        caught = dict.fromkeys(sides, False)
        for claim in hand.get("claims", []):
            if any(s == claim["against"] and p <= claim["after"] for p, s, _ in reneges):
                caught[side_of(claim["against"])] = True
        if len(plays) < cards_per_hand:
            lines.append({"hand": n, "dealer": dealer, "tricks": tricks, "complete": False})
            break
        bids = {b["seat"]: b["bid"] for b in hand["bids"]}
        raw: dict[str, tuple[int, int, str | None, bool]] = {}
        for side in sides:
            members = [s for s in seats if side_of(s) == side]
            points, bags, event, was_set = score_individual_team(
                o, [bids[s] for s in members], [tricks[s] for s in members]
            )
            raw[side] = (points + jokers[side], bags, event, was_set)
        out: dict[str, dict[str, Any]] = {}
        for side in sides:
            p, bags, event, _ = raw[side]
            members = [s for s in seats if side_of(s) == side]
            if caught[side]:
                points = -PENALTY if o["renege_penalty"] == PENALTY else min(0, p)
                bags = 0
                event = None
            elif any(caught.values()) and o["renege_penalty"] == PENALTY:
                points, event = made_exactly(o, [bids[s] for s in members])
                bags = 0
            else:
                points = p + sum(max(0, raw[k][0]) for k in sides if caught[k])
            count = bag_count[side] + bags
            penalty = 0
            while o["bag_limit"] and o["bag_penalty"] and count >= o["bag_limit"]:
                count -= o["bag_limit"]
                penalty += o["bag_penalty"]
            points -= penalty
            score[side] += points
            bag_count[side] = count
            total_bags[side] += bags
            entry: dict[str, Any] = {"points": points}
            if o["renege"] == "claim":
                entry["caught"] = caught[side]
            out[side] = {
                **entry,
                "bags": bags,
                "bag_penalty": penalty,
                "score": score[side],
                "bag_count": count,
            }
        key = "players" if solo else "teams"
        lines.append({"hand": n, "dealer": dealer, "tricks": tricks, key: out})
        winner = decide(o, score, total_bags)
    lines.append({"final": True, "score": dict(score), "winner": winner})
    return lines


def made_exactly(o: dict[str, Any], bids: list[int | str]) -> tuple[int, str | None]:
    """G7 under ``250``: 10 x contract plus each nil's success value (no bags, no jokers)."""
    points = 10 * sum(b for b in bids if isinstance(b, int))
    nils = sorted(str(b) for b in bids if not isinstance(b, int))
    if nils == ["blind_nil", "blind_nil"] and o["double_blind_nil"] != "off":
        if o["double_blind_nil"] == "decides_game":
            return points + 800, "win"
        return points + 400, None
    if nils == ["nil", "nil"] and o["double_nil"] == "team":
        return points + o["double_nil_value"], None
    for b in nils:
        points += o["blind_nil_value"] if b == "blind_nil" else o["nil_value"]
    return points, None


def decide(o: dict[str, Any], score: dict[str, int], total_bags: dict[str, int]) -> str | None:
    """Solo (G2, G7): a player at the target or at lose_at ends it; the highest wins; ties by
    the ``tie`` rule.  Partnerships: rules.md §6 without events (not generated here)."""
    top = max(score.values())
    ended = top >= o["target"] or (o["lose_at"] is not None and min(score.values()) <= o["lose_at"])
    if not ended:
        return None
    leaders = [s for s, v in score.items() if v == top]
    if len(leaders) == 1:  # (two teams: a team at lose_at loses, so the other is higher)
        return leaders[0]
    if o["tie"] == "bags":
        most = max(total_bags[s] for s in leaders)
        ahead = [s for s in leaders if total_bags[s] == most]
        if len(ahead) == 1:
            return ahead[0]
    return None
