"""A small external player for the JSON-lines protocol (docs/player-protocol.md).

Run it in the arena::

    python -m tools.arena --ns normal --ew 'cmd:python -m tools.example_player'

It bids by counting aces, kings and high spades, and plays the lowest card that wins the trick
if it can, else its lowest card.  Standard library only: copy it and make it yours.
"""

from __future__ import annotations

import json
import sys
from typing import Any

RANKS = "23456789TJQKA"


def power(code: str, led: str | None) -> int:
    """How strong a card is in the current trick (0: cannot win)."""
    if code in ("BJ", "LJ"):
        return 200 if code == "BJ" else 199
    rank, suit = RANKS.index(code[0]), code[1]
    if suit == "S":
        return 100 + rank
    return rank + 1 if suit == led else 0


def choose(msg: dict[str, Any]) -> Any:
    legal = msg["legal"]
    view = msg["view"]
    if view["phase"] == "bid":
        if "look" in legal:
            return "look"  # never bid blind
        hand = view["hand"]
        count = sum(1 for c in hand if c[0] in "AK") + sum(
            1 for c in hand if c[1] == "S" and c[0] in "QJT"
        )
        numbers = [b for b in legal if isinstance(b, int)]
        return min(numbers, key=lambda b: abs(b - max(1, count)))
    if view["phase"] == "pass":
        return legal[0]
    trick = view["current_trick"]
    led = trick[0][1][1] if trick else None
    if not trick:
        return min(legal, key=lambda c: power(c, c[1]))
    best = max(power(card, led) for _, card in trick)
    winners = [c for c in legal if power(c, led) > best]
    if winners:
        return min(winners, key=lambda c: power(c, led))
    return min(legal, key=lambda c: (power(c, led), RANKS.find(c[0])))


def main() -> None:
    for line in sys.stdin:
        msg = json.loads(line)
        if msg.get("type") == "decide":
            print(json.dumps({"action": choose(msg)}), flush=True)
        # "hand_end" and "game_end" lines need no answer.


if __name__ == "__main__":
    main()
