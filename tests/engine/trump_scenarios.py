"""The Whist and Euchre games behind the frozen records in ``tests/engine/records/``.

Each record demonstrates scoring rules of games.md G3/G4 (``test_trump_games.py`` lists what
every hand must score, worked out by hand).  The JSON files were generated from these scenarios
with ``python -m tests.engine.trump_scenarios`` and then checked by hand against G3/G4; a test
keeps the files and the scenarios in step.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from typing import Any

from bot.engine import Call, Deal, Discard, Game, Play, Rules, Seat, card
from bot.engine.record import export_record
from tests.engine.scenarios import RECORDS_DIR
from tests.engine.trump_games import SEATS, after, build_hand, deck_codes


@dataclass(frozen=True)
class WhistHand:
    trump: str  # the suit of the dealer's card turned up
    winners: str  # 13 seats, the winner of each trick


@dataclass(frozen=True)
class EuchreHand:
    winners: str = ""  # 5 (or fewer, alone) seats; "" = everybody passes (a void hand)
    trump: str = ""
    maker: str = ""
    round: int = 1  # 1: ordered up; 2: named in the second round
    alone: bool = False


def spread(counts: dict[str, int]) -> str:
    """Winners taking ``counts`` tricks each, in turn round the table."""
    left = dict(counts)
    out = ""
    while any(left.values()):
        for s in SEATS:
            if left.get(s):
                out += s
                left[s] -= 1
    return out


@dataclass(frozen=True)
class TrumpScenario:
    rules: dict[str, Any]
    hands: list[WhistHand] | list[EuchreHand]
    first_dealer: str = "N"


SCENARIOS: dict[str, TrumpScenario] = {
    "whist": TrumpScenario(
        {"preset": "whist"},
        [
            WhistHand("H", spread({"N": 3, "E": 2, "S": 6, "W": 2})),  # NS 9: +3
            WhistHand("S", spread({"N": 1, "E": 4, "S": 4, "W": 4})),  # EW 8: +2
            WhistHand("D", spread({"N": 4, "E": 3, "S": 3, "W": 3})),  # NS 7: +1
            WhistHand("C", spread({"N": 6, "E": 0, "S": 6, "W": 1})),  # NS 12: +6, wins
        ],
    ),
    "short-whist": TrumpScenario(
        {"preset": "short-whist"},
        [
            WhistHand("C", spread({"N": 5, "E": 1, "S": 5, "W": 2})),  # NS 10: +4
            WhistHand("H", spread({"N": 3, "E": 3, "S": 3, "W": 4})),  # EW 7: +1
            WhistHand("S", spread({"N": 3, "E": 3, "S": 3, "W": 4})),  # EW 7: +1
            WhistHand("D", spread({"N": 4, "E": 2, "S": 4, "W": 3})),  # NS 8: +2, wins (6-2)
        ],
        first_dealer="E",
    ),
    "whist-one-per-hand": TrumpScenario(
        {"preset": "whist", "whist_points": "one_per_hand", "target": 2},
        [
            WhistHand("S", spread({"N": 4, "E": 3, "S": 3, "W": 3})),  # NS 7: +1
            WhistHand("H", spread({"N": 0, "E": 9, "S": 0, "W": 4})),  # EW 13: +1
            WhistHand("C", spread({"N": 6, "E": 3, "S": 2, "W": 2})),  # NS 8: +1, wins 2-1
        ],
    ),
    "euchre": TrumpScenario(
        {"preset": "euchre"},
        [
            # N deals.  E orders up the up-card's suit; EW take 3: +1.
            EuchreHand("EWNEW", "S", "E"),
            # E deals.  All pass twice: void, no score.
            EuchreHand(),
            # S deals.  Round 2: N names ♥; NS take all 5: a march, +2.
            EuchreHand("NSNSN", "H", "N", round=2),
            # W deals.  S orders up alone, N sits out; S takes all 5: +4.
            EuchreHand("SSSSS", "D", "S", alone=True),
            # N deals.  W orders up; EW take 2: euchred, NS +2.
            EuchreHand("EWNSN", "C", "W"),
            # E deals.  Round 2: W names ♠ alone (E sits out); W takes 3: +1.
            EuchreHand("WNWSW", "S", "W", round=2, alone=True),
            # S deals.  N orders up alone (S sits out); N takes 2: euchred, EW +2.
            EuchreHand("NEWEN", "H", "N", alone=True),
            # W deals.  E orders up; EW take 4: +1 (EW 4, NS 8).
            EuchreHand("EEWNW", "D", "E"),
            # N deals.  Round 2: S names ♣; NS take all 5: +2 → NS 10, win.
            EuchreHand("SNSNS", "C", "S", round=2),
        ],
    ),
    "euchre-stick": TrumpScenario(
        {"preset": "euchre", "stick_the_dealer": True, "deck": "euchre32", "target": 3},
        [
            # N deals.  Everybody passes once, E S W pass again: the dealer must name (♦).
            EuchreHand("NSNES", "D", "N", round=2),  # NS 4: +1
            # E deals.  Stuck again: E names ♣ alone (W sits out) and takes all 5: +4, wins.
            EuchreHand("EEEEE", "C", "E", round=2, alone=True),
        ],
    ),
    "euchre-per-trick": TrumpScenario(
        {"preset": "euchre", "euchre_points": "per_trick", "deck": "euchre28", "target": 6},
        [
            EuchreHand("NEWSN", "H", "E"),  # NS 3, EW 2
            EuchreHand("EWEWE", "S", "W", round=2),  # NS 3, EW 5 + 1 = 8
        ],
    ),
    "euchre-per-trick-tie": TrumpScenario(
        {"preset": "euchre", "euchre_points": "per_trick", "target": 5},
        [
            EuchreHand("NENEN", "H", "N"),  # NS 3, EW 2
            EuchreHand("EWNSE", "S", "S"),  # NS 5, EW 5: equal at the target, play on
            EuchreHand("NSNSN", "C", "N", round=2),  # NS 11, EW 5: NS win
        ],
    ),
}


# ---------------------------------------------------------------- playing a scenario
def play_whist_hand(game: Game, spec: WhistHand) -> None:
    dealer = game.dealer.name
    built = build_hand("standard", spec.trump, False, SEATS, after(dealer, SEATS), spec.winners)
    turned = min((c for c in built.hands[dealer] if c[1] == spec.trump), key=deck_order)
    hands = tuple(tuple(card(c) for c in built.hands[s]) for s in SEATS)
    game.apply(Deal(hands, card(turned)))
    play_out(game, built.plays)


def play_euchre_hand(game: Game, spec: EuchreHand) -> None:
    deck = game.rules.deck
    dealer = game.dealer.name
    first = after(dealer, SEATS)
    if not spec.winners:  # everybody passes, twice
        codes = deck_codes(deck)
        hands = tuple(tuple(card(c) for c in codes[i:20:4]) for i in range(4))
        game.apply(Deal(hands, card(codes[20])))
        for _ in range(8):
            seat = game.to_act
            assert seat is not None
            game.apply(Call(seat, Call.PASS))
        return
    out = SEATS[(SEATS.index(spec.maker) + 2) % 4] if spec.alone else ""
    players = SEATS.replace(out, "") if out else SEATS
    built = build_hand(deck, spec.trump, True, players, after(dealer, players), spec.winners)
    hands = {s: list(cs) for s, cs in built.hands.items()}
    spare = list(built.spare)
    discard: str | None = None
    if spec.round == 1:
        # The up-card is one of the dealer's trumps of the trump's own suit: the dealer took it
        # and discarded a card nobody plays.  A dealer without one (or sitting out) took a
        # spare trump and discarded it again.
        mine = [c for c in hands.get(dealer, []) if c[1] == spec.trump and c[0] != "J"]
        if mine:
            up = mine[0]
            discard = spare.pop(0)
            hands[dealer] = [c for c in hands[dealer] if c != up] + [discard]
        else:
            up = next(c for c in spare if c[1] == spec.trump and c[0] != "J")
            spare.remove(up)
            discard = up
    else:
        up = next(c for c in spare if c[1] != spec.trump)
        spare.remove(up)
    if out:
        hands[out], spare = spare[:5], spare[5:]
    dealt = tuple(tuple(card(c) for c in hands[s]) for s in SEATS)
    game.apply(Deal(dealt, card(up)))
    rounds = [[Call.PASS] * 4] if spec.round == 2 else []
    for calls in rounds:
        for _ in calls:
            seat = game.to_act
            assert seat is not None
            game.apply(Call(seat, Call.PASS))
    seat = Seat[first]
    while seat.name != spec.maker:
        game.apply(Call(seat, Call.PASS))
        seat = seat.left
    name = Call.ORDER if spec.round == 1 else spec.trump
    game.apply(Call(seat, name, spec.alone))
    if discard is not None:
        game.apply(Discard(game.dealer, card(discard)))
    play_out(game, built.plays)


def deck_order(code: str) -> int:
    return "23456789TJQKA".index(code[0])


def play_out(game: Game, plays: list[str]) -> None:
    for code in plays:
        seat = game.to_act
        assert seat is not None
        game.apply(Play(seat, card(code)))


def build_record(name: str) -> dict[str, Any]:
    """Play the scenario through the engine and export the record."""
    sc = SCENARIOS[name]
    game = Game(Rules.from_record(sc.rules), Seat[sc.first_dealer])
    for hand in sc.hands:
        if isinstance(hand, WhistHand):
            play_whist_hand(game, hand)
        else:
            play_euchre_hand(game, hand)
    return export_record(game)


def dumps(doc: dict[str, Any]) -> str:
    """JSON with one line per dealt hand and per list of actions."""
    lines = ["{"]
    for key in ("format", "rules", "first_dealer"):
        lines.append(f"  {json.dumps(key)}: {json.dumps(doc[key])},")
    lines.append('  "hands": [')
    for i, hand in enumerate(doc["hands"]):
        lines.append("    {")
        lines.append('      "deal": {')
        deal = [f"        {json.dumps(s)}: {json.dumps(cs)}" for s, cs in hand["deal"].items()]
        lines.append(",\n".join(deal))
        lines.append("      },")
        rest = [f"      {json.dumps(k)}: {json.dumps(v)}" for k, v in hand.items() if k != "deal"]
        lines.append(",\n".join(rest))
        lines.append("    }" + ("," if i < len(doc["hands"]) - 1 else ""))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> None:
    for name in sys.argv[1:] or SCENARIOS:
        (RECORDS_DIR / f"{name}.json").write_text(dumps(build_record(name)), encoding="utf-8")


if __name__ == "__main__":
    main()
