"""An independent reading of rules.md, used to check the engine.

:func:`rescore` replays a ``spades-record/1`` document with its own trick logic
(:mod:`tests.engine.builders`) and its own arithmetic for §5, §6, §8 and §10, taking the
presets from the §7 table as written out in ``spec_presets.md``: nothing from ``bot``.  It
trusts the record to be legal (the engine checks that) and returns the replay lines of
records.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.engine.builders import SEAT_ORDER, clockwise_from, trick_winner

# Preset values: rules.md §7 as written out in spec_presets.md (read below, cell by cell), and
# this module's own reading of §3 and §8 for what the table leaves to them.
SPEC_TABLE = Path(__file__).with_name("spec_presets.md")
_BOOL = {"nil", "blind_nil", "joker_bonus"}
_INT = {
    "target", "nil_value", "blind_nil_value", "blind_nil_min_deficit", "blind_nil_pass",
    "double_nil_value", "double_blind_nil_min_deficit", "bag_value", "bag_limit", "bag_penalty",
    "lose_at",
}  # fmt: skip
# §3: individual bidding in all presets but new-york.  §8: one bid per team, no nil, no bag
# count or penalty, a set costs the bid (the nil options do not apply).
SECTION_8 = {
    "bidding": "new_york",
    "blind_nil": False,
    "nil_tricks": "none",
    "set_penalty": "bid",
    "bag_value": 0,
    "bag_limit": None,
    "bag_penalty": 0,
}
# Options the table does not state where they do not apply; the scorer needs a value.
UNSTATED = {"double_nil_value": 400, "double_blind_nil_min_deficit": 0}
# games.md G3: every preset of rules.md §7 is a game of Spades; G1-G2: reneges prevented,
# partnerships of four players unless a preset says otherwise.
GAMES_MD: dict[str, Any] = {
    "game": "spades",
    "renege": "prevented",
    "renege_penalty": "round",
    "partnerships": True,
    "players": 4,
}
# games.md G1: the house preset (seed 000) penalises a renege -250; G2: the variant presets.
G1_PRESET_OPTIONS: dict[str, dict[str, Any]] = {"house": {"renege_penalty": 250}}
G2_PRESETS: dict[str, dict[str, Any]] = {
    "solo": {"partnerships": False},
    "cutthroat-3": {"partnerships": False, "players": 3},
    "suicide": {"bidding": "suicide"},
    "whiz": {"bidding": "whiz"},
    "mirror": {"bidding": "mirror"},
}


def _cell(option: str, text: str) -> Any:
    if option in _BOOL:
        assert text in ("on", "off"), (option, text)
        return text == "on"
    if option in _INT:
        return None if text in ("off", "–") else int(text)
    return text


def read_spec_table(path: Path = SPEC_TABLE) -> dict[str, dict[str, Any]]:
    """Preset → the options its §7 column states (``option / option`` rows split cell by
    cell; a cell with fewer parts states the first options only, ``see §8`` none)."""
    rows = [line.strip().strip("|").split("|") for line in path.read_text().splitlines()]
    rows = [[c.strip() for c in r] for r in rows if len(r) > 2 and not r[0].startswith("---")]
    header, body = rows[0], rows[1:]
    presets = [h.split(" (")[0] for h in header[1:]]
    out: dict[str, dict[str, Any]] = {p: {} for p in presets}
    for row in body:
        names = row[0].split(" / ")
        if names[1:2] == ["value"] and names[0] != "nil":
            names[1] = f"{names[0]}_value"
        names = [n if n != "min_deficit" else f"{names[0]}_min_deficit" for n in names]
        for preset, cell in zip(presets, row[1:], strict=True):
            if cell == "see §8" or (cell == "–" and preset == "new-york"):
                continue
            for name, part in zip(names, cell.split(" / "), strict=False):
                out[preset][name] = _cell(name, part)
    return out


PRESET_CHANGES: dict[str, dict[str, Any]] = read_spec_table()  # what §7 states, per preset
PRESET_CHANGES.update(G2_PRESETS)


def preset_options(name: str) -> dict[str, Any]:
    """Every option of a preset: §7's column, then §3/§8, then the standard column."""
    stated = PRESET_CHANGES[name]
    extra = SECTION_8 if name == "new-york" else {"bidding": "individual"}
    if name in G2_PRESETS:
        extra = {"bidding": G2_PRESETS[name].get("bidding", "individual")}
    return {
        **GAMES_MD,
        **UNSTATED,
        **PRESET_CHANGES["standard"],
        **stated,
        **extra,
        **G1_PRESET_OPTIONS.get(name, {}),
    }


TEAMS = ("NS", "EW")


def team_of(seat: str) -> str:
    return "NS" if seat in "NS" else "EW"


def other(team: str) -> str:
    return "EW" if team == "NS" else "NS"


def score_individual_team(
    o: dict[str, Any], bids: list[int | str], tricks: list[int]
) -> tuple[int, int, str | None, bool]:
    """rules.md §5 steps 1-4 for one team: (points, bags, "win"/"lose"/None, contract set)."""
    bidders = [(b, t) for b, t in zip(bids, tricks, strict=True) if isinstance(b, int)]
    nils = [(b, t) for b, t in zip(bids, tricks, strict=True) if not isinstance(b, int)]
    points = 0
    bags = 0
    event = None
    was_set = False
    if bidders:  # 1. the contract
        contract = sum(b for b, _ in bidders)
        counted = sum(t for _, t in bidders)
        if o["nil_tricks"] == "contract":
            counted += sum(t for _, t in nils)
        if counted < contract:
            was_set = True
            points -= 10 * contract if o["set_penalty"] == "bid" else 0
        else:
            points += 10 * contract + o["bag_value"] * (counted - contract)
            bags += counted - contract
    kinds = sorted(str(b) for b, _ in nils)
    failed = sum(1 for _, t in nils if t > 0)
    if kinds == ["blind_nil", "blind_nil"] and o["double_blind_nil"] != "off":  # 4.
        if o["double_blind_nil"] == "decides_game":
            points += -800 if failed else 800
            event = "lose" if failed else "win"
        else:
            points += {0: 400, 1: -150, 2: -250}[failed]
    elif kinds == ["nil", "nil"] and o["double_nil"] == "team":  # 3.
        points += -o["double_nil_value"] if failed else o["double_nil_value"]
    else:  # 2.
        for b, t in nils:
            value = o["blind_nil_value"] if b == "blind_nil" else o["nil_value"]
            points += -value if t else value
            if o["nil_tricks"] == "bags":
                points += o["bag_value"] * t
                bags += t
    return points, bags, event, was_set


def score_new_york_team(bid: int | None, blind: bool, tricks: int) -> tuple[int, str | None, bool]:
    """rules.md §8 and the §10 New York rulings: (points, "win"/None, set)."""
    if bid is None:
        return 10 * tricks, None, False
    double = 2 if blind else 1
    if bid == 10:
        if tricks < 10:
            return -200, None, True
        return 200 * double, ("win" if tricks == 13 else None), False
    if bid <= tricks <= bid + 2:
        return 10 * bid * double, None, False
    return -10 * bid, None, True


def rescore(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """The replay lines (records.md) of a legal record, computed independently."""
    rules = dict(doc["rules"])
    o = {**preset_options(rules.pop("preset", "standard")), **rules}
    deck = o["deck"]
    ny = o["bidding"] == "new_york"
    score = dict.fromkeys(TEAMS, 0)
    bag_count = dict.fromkeys(TEAMS, 0)
    total_bags = dict.fromkeys(TEAMS, 0)
    set_streak = dict.fromkeys(TEAMS, 0)
    winner: str | None = None
    lines: list[dict[str, Any]] = []
    first = SEAT_ORDER.index(doc["first_dealer"])
    for n, hand in enumerate(doc["hands"], start=1):
        assert winner is None, "a hand after the end of the game"
        dealer = SEAT_ORDER[(first + n - 1) % 4]
        tricks = dict.fromkeys(SEAT_ORDER, 0)
        jokers = dict.fromkeys(TEAMS, 0)
        leader = clockwise_from(dealer)[1]
        plays = hand["plays"]
        for i in range(0, len(plays) - len(plays) % 4, 4):
            trick = list(zip(clockwise_from(leader), plays[i : i + 4], strict=True))
            leader = trick_winner(trick, deck)
            tricks[leader] += 1
            if o["joker_bonus"]:
                for seat, code in trick:
                    if code in ("BJ", "LJ"):
                        jokers[team_of(leader)] += 2 if code == "BJ" else 1
                        if seat != leader:
                            jokers[team_of(seat)] -= 2
        if len(plays) < 52:
            lines.append({"hand": n, "dealer": dealer, "tricks": tricks, "complete": False})
            break
        teams: dict[str, dict[str, int]] = {}
        events: dict[str, str | None] = {}
        for team in TEAMS:
            seats = [s for s in SEAT_ORDER if team_of(s) == team]
            if ny:
                mine = [b for b in hand["bids"] if team_of(b["seat"]) == team]
                bid = mine[0]["bid"] if mine else None
                blind = bool(mine and mine[0].get("blind"))
                taken = sum(tricks[s] for s in seats)
                points, event, was_set = score_new_york_team(bid, blind, taken)
                bags = 0
            else:
                by_seat = {b["seat"]: b["bid"] for b in hand["bids"]}
                points, bags, event, was_set = score_individual_team(
                    o, [by_seat[s] for s in seats], [tricks[s] for s in seats]
                )
            points += jokers[team]
            count = bag_count[team] + bags
            penalty = 0
            while o["bag_limit"] and o["bag_penalty"] and count >= o["bag_limit"]:
                count -= o["bag_limit"]
                penalty += o["bag_penalty"]
            points -= penalty
            score[team] += points
            bag_count[team] = count
            total_bags[team] += bags
            set_streak[team] = set_streak[team] + 1 if was_set else 0
            events[team] = event
            teams[team] = {
                "points": points,
                "bags": bags,
                "bag_penalty": penalty,
                "score": score[team],
                "bag_count": count,
            }
        lines.append({"hand": n, "dealer": dealer, "tricks": tricks, "teams": teams})
        winner = decide(o, score, total_bags, set_streak, events, ny)
    lines.append({"final": True, "score": dict(score), "winner": winner})
    return lines


def decide(
    o: dict[str, Any],
    score: dict[str, int],
    total_bags: dict[str, int],
    set_streak: dict[str, int],
    events: dict[str, str | None],
    ny: bool,
) -> str | None:
    """rules.md §6 with the §10 ruling on decisive events for both teams."""
    claims = set()
    for team in TEAMS:
        if events[team] == "win":
            claims.add(team)
        if events[team] == "lose" or (ny and set_streak[team] >= 2):
            claims.add(other(team))
    higher = max(TEAMS, key=lambda t: score[t]) if score["NS"] != score["EW"] else None
    if len(claims) == 1:
        return claims.pop()
    if len(claims) == 2 and higher:
        return higher
    if o["lose_at"] is not None:
        down = [t for t in TEAMS if score[t] <= o["lose_at"]]
        if len(down) == 1:
            return other(down[0])
        if len(down) == 2 and higher:
            return higher
    if max(score.values()) >= o["target"]:
        if higher:
            return higher
        if o["tie"] == "bags" and total_bags["NS"] != total_bags["EW"]:
            return max(TEAMS, key=lambda t: total_bags[t])
    return None
