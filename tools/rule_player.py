"""An outside rule-based Spades player for the arena, over the JSON-lines protocol.

    python -m tools.arena --ns hard --ew 'cmd:python -m tools.rule_player'

Written for the benchmark apart from the project's own players (standard library only, none
of ``bot.ai``), the way a club player plays: it counts sure and likely tricks to bid, bids nil
on hands without high cards, keeps track of the cards played and of the suits each seat has
shown void, and plays by the classic rules — cash the master cards of a suit, second hand low,
third hand high but no higher than needed, never overtake a partner who is winning with the
best card left, ruff when short of the contract, cover a partner's nil, lead low into an
opponent's nil, and duck once the contract is made (bags).
"""

from __future__ import annotations

import json
import sys
from typing import Any

RANKS = "23456789TJQKA"
SEATS = "NESW"


def rank(code: str) -> int:
    if code == "BJ":
        return 16
    if code == "LJ":
        return 15
    return RANKS.index(code[0])


def suit(code: str) -> str:
    return "S" if code in ("BJ", "LJ") else code[1]


def beats(a: str, b: str, led: str) -> bool:
    """Does card ``a`` beat card ``b`` in a trick led in ``led``?"""
    sa, sb = suit(a), suit(b)
    if sa == sb:
        return rank(a) > rank(b)
    return sa == "S" or (sa == led and sb != "S")


def winner(trick: list[list[str]]) -> tuple[str, str]:
    led = suit(trick[0][1])
    seat, best = trick[0]
    for s, c in trick[1:]:
        if beats(c, best, led):
            seat, best = s, c
    return seat, best


# --------------------------------------------------------------------------- bidding
def estimate(hand: list[str]) -> float:
    by: dict[str, list[int]] = {s: [] for s in "SHDC"}
    for c in hand:
        by[suit(c)].append(rank(c))
    spades = sorted(by["S"], reverse=True)
    n_sp = len(spades)
    tricks = 0.0
    for k, r in enumerate(spades):
        missing = sum(1 for x in range(r + 1, 13) if x not in spades)
        if missing <= k:
            tricks += 1.0  # a top spade, or protected enough to win
        elif missing == k + 1 and n_sp >= 3:
            tricks += 0.5
    tricks += max(0, n_sp - 4) * 0.7
    for s in "HDC":
        cards = sorted(by[s], reverse=True)
        n = len(cards)
        if 12 in cards:
            tricks += 0.9 if n <= 5 else 0.6
        if 11 in cards and n >= 2:
            tricks += 0.7 if 12 in cards else 0.5
        if 10 in cards and n >= 3 and 12 in cards and 11 in cards:
            tricks += 0.3
        if n <= 1 and n_sp >= 3:
            tricks += 0.7 if n == 0 else 0.4
    return tricks


def nil_ok(hand: list[str]) -> bool:
    spades = [rank(c) for c in hand if suit(c) == "S"]
    if len(spades) > 3 or any(r >= 7 for r in spades):
        return False
    for s in "HDC":
        cards = sorted((rank(c) for c in hand if suit(c) == s), reverse=True)
        if not cards:
            continue
        if cards[0] == 12 or (cards[0] == 11 and len(cards) < 4):  # an ace; a bare king
            return False
        if cards[0] == 10 and len(cards) < 3:  # a queen with too few guards
            return False
        if cards[-1] >= 6 or (len(cards) >= 5 and cards[-2] >= 4):  # no low cards to duck
            return False
    return estimate(hand) < 0.9


def bid(view: dict[str, Any], legal: list[Any]) -> Any:
    if "look" in legal:
        return "look"
    hand = view["hand"]
    me = view["to_act"]
    partner = SEATS[(SEATS.index(me) + 2) % 4]
    pbid = view["bids"].get(partner)
    if "nil" in legal and pbid not in ("nil", "blind_nil") and nil_ok(hand):
        return "nil"
    est = estimate(hand)
    made = sum(b for b in view["bids"].values() if isinstance(b, int))
    want = max(1, int(est + 0.6))
    if made + want > 13:
        want = max(1, 13 - made)
    numbers = [b for b in legal if isinstance(b, int)]
    return min(numbers, key=lambda b: abs(b - want))


# --------------------------------------------------------------------------- play
class Memory:
    """Cards gone and suits each seat has shown void, from the view."""

    def __init__(self, view: dict[str, Any], jokers: bool) -> None:
        self.jokers = jokers
        self.gone = {c for _, c in view["plays"]}
        self.void: dict[str, set[str]] = {s: set() for s in SEATS}
        plays = view["plays"]
        for k in range(0, len(plays), 4):
            trick = plays[k : k + 4]
            led = suit(trick[0][1])
            for s, c in trick[1:]:
                if suit(c) != led:
                    self.void[s].add(led)

    def master(self, card: str, hand: list[str]) -> bool:
        """No unseen card of its suit is higher."""
        s, r = suit(card), rank(card)
        higher = [RANKS[x] + s for x in range(r + 1, 13)]
        if s == "S" and self.jokers:
            higher += [j for j, x in (("LJ", 15), ("BJ", 16)) if x > r]
        return all(c in self.gone or c in hand for c in higher)

    def safe(self, card: str, hand: list[str], seats: list[str], led: str) -> bool:
        """Can none of ``seats`` beat ``card``?  A seat is taken to follow suit unless it has
        shown a void; a void seat ruffs if spades are out and it has not shown none."""
        higher_out = not self.master(card, hand)
        spades_out = any(
            (RANKS[r] + "S") not in self.gone and (RANKS[r] + "S") not in hand for r in range(13)
        )
        for x in seats:
            void = led in self.void[x]
            if suit(card) == led:
                if not void and higher_out:
                    return False
                if void and led != "S" and spades_out and "S" not in self.void[x]:
                    return False
            elif void and higher_out and "S" not in self.void[x]:  # our ruff, overruffed
                return False
        return True


def lead_for_tricks(hand: list[str], legal: list[str], mem: Memory) -> str:
    """No master to cash: the top of a sequence headed by the second-best card left, else a
    short side suit to ruff later (with spades to ruff), else low from a suit with no
    unguarded king or queen (never away from a tenace), else the lowest card."""
    side = [c for c in legal if suit(c) != "S"]
    if not side:
        return min(legal, key=rank)
    n_spades = sum(1 for c in hand if suit(c) == "S")
    by = {s: sorted((c for c in side if suit(c) == s), key=rank, reverse=True) for s in "HDC"}
    for cards in by.values():
        if len(cards) >= 2 and rank(cards[0]) - rank(cards[1]) == 1:
            gone_above = all(
                RANKS[x] + suit(cards[0]) in mem.gone for x in range(rank(cards[0]) + 2, 13)
            )
            if gone_above:  # e.g. K-Q with the ace out: the king forces it
                return cards[0]
    if n_spades >= 2:
        short = [cards for cards in by.values() if len(cards) == 1 and rank(cards[0]) < 10]
        if short:
            return short[0][0]
    safe = [cs for cs in by.values() if cs and rank(cs[0]) < 10]
    pool = max(safe or [cs for cs in by.values() if cs], key=len)
    return pool[-1]


def play(view: dict[str, Any], legal: list[str], jokers: bool = False) -> str:
    hand: list[str] = view["hand"]
    me = view["to_act"]
    i = SEATS.index(me)
    partner = SEATS[(i + 2) % 4]
    opps = [SEATS[(i + 1) % 4], SEATS[(i + 3) % 4]]
    bids = view["bids"]
    tricks = view["tricks"]
    mem = Memory(view, jokers)
    trick = view["current_trick"]
    later = [SEATS[(i + k) % 4] for k in range(1, 4 - len(trick))]
    low = min(legal, key=lambda c: (suit(c) == "S", rank(c)))
    high = max(legal, key=lambda c: (suit(c) == "S", rank(c)))

    def is_nil(s: str) -> bool:
        return bids.get(s) in ("nil", "blind_nil") and tricks[s] == 0

    team = [me, partner]
    contract = sum(bids[s] for s in team if isinstance(bids.get(s), int))
    taken = sum(tricks[s] for s in team)
    need = taken < contract
    # Go for the set when the opponents can afford to lose at most one more trick.
    opp_contract = sum(bids[s] for s in opps if isinstance(bids.get(s), int))
    opp_need = opp_contract - sum(tricks[s] for s in opps)
    left = 13 - sum(tricks.values())
    if opp_contract and opp_need > 0 and left - opp_need <= 1:
        need = True
    opp_nil = [o for o in opps if is_nil(o)]

    if is_nil(me):
        if not trick:
            return low
        led = suit(trick[0][1])
        _, w = winner(trick)
        under = [c for c in legal if not beats(c, w, led)]
        if under:
            return max(under, key=lambda c: (suit(c) != "S", rank(c)))
        return min(legal, key=rank)
    if not trick:
        if opp_nil:
            return min(legal, key=lambda c: (suit(c) == "S", rank(c)))
        if is_nil(partner):
            masters = [c for c in legal if mem.master(c, hand)]
            return masters[0] if masters else high
        if need:
            for c in sorted(legal, key=lambda c: (suit(c) == "S", -rank(c))):
                if mem.master(c, hand) and mem.safe(c, hand, opps, suit(c)):
                    return c
            return lead_for_tricks(hand, legal, mem)
        return low
    led = suit(trick[0][1])
    wseat, w = winner(trick)
    winning = [c for c in legal if beats(c, w, led)]
    losing = [c for c in legal if not beats(c, w, led)]

    def cheapest_safe() -> str | None:
        for c in sorted(winning, key=lambda c: (suit(c) == "S", rank(c))):
            if mem.safe(c, hand, [s for s in later if s in opps], led):
                return c
        return None

    if is_nil(partner) and (wseat == partner or partner in later):
        if winning:
            return cheapest_safe() or max(winning, key=lambda c: (suit(c) == "S", rank(c)))
        return max(legal, key=lambda c: (suit(c) != "S", rank(c)))
    if opp_nil and (wseat in opp_nil or any(o in later for o in opp_nil)):
        if losing:
            return min(losing, key=rank) if wseat not in opp_nil else max(losing, key=rank)
        return min(legal, key=rank)
    partner_safe = wseat == partner and mem.safe(w, hand, [s for s in later if s in opps], led)
    if need and not partner_safe and winning:
        if not later:
            return min(winning, key=lambda c: (suit(c) == "S", rank(c)))
        if len(trick) == 1 and suit(winning[0]) == led:  # second hand low, unless a master
            masters = [c for c in winning if mem.master(c, hand)]
            return min(masters, key=rank) if masters else min(legal, key=rank)
        if suit(winning[0]) != led:  # a ruff: the lowest that wins now
            return cheapest_safe() or min(winning, key=rank)
        return cheapest_safe() or max(winning, key=rank)  # third hand high
    if losing:
        if need:
            return min(losing, key=lambda c: (suit(c) == "S", rank(c)))
        return max(losing, key=lambda c: (suit(c) != "S", rank(c)))  # shed high under
    if need:
        return min(legal, key=lambda c: (suit(c) == "S", rank(c)))
    return max(legal, key=lambda c: (suit(c) == "S", rank(c)))  # must win: win high, keep low


def choose(msg: dict[str, Any]) -> Any:
    legal = msg["legal"]
    view = msg["view"]
    if view["phase"] == "bid":
        return bid(view, legal)
    if view["phase"] != "play":
        return legal[0]
    return play(view, legal, msg.get("rules", {}).get("deck") in ("jokers", "jjdd"))


def main() -> None:
    for line in sys.stdin:
        msg = json.loads(line)
        if msg.get("type") == "decide":
            print(json.dumps({"action": choose(msg)}), flush=True)


if __name__ == "__main__":
    main()
