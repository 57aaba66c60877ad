"""An independent reading of games.md G3 (Whist), G4 (Euchre) and G5/G7 (their records), used to
check the engine: nothing here comes from ``bot.engine``.

* the cards of each deck, effective suits and powers under a trump (bowers included);
* :func:`build_hand` — a deal and legal plays in which each trick goes to the seat wanted;
* :func:`rescore` — the replay lines of a legal Whist or Euchre record, computed on its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

SEATS = "NESW"
SUITS = "SHDC"
RANKS = "23456789TJQKA"
SAME_COLOUR = {"S": "C", "C": "S", "H": "D", "D": "H"}
LOWEST = {"standard": "2", "euchre24": "9", "euchre28": "8", "euchre32": "7"}
TEAMS = ("NS", "EW")


def deck_codes(deck: str) -> list[str]:
    low = RANKS.index(LOWEST[deck])
    return [r + s for s in SUITS for r in RANKS[low:]]


def effective_suit(code: str, trump: str | None, bowers: bool) -> str:
    """The left bower (the other jack of the trump's colour) is a trump in Euchre."""
    if bowers and trump and code == "J" + SAME_COLOUR[trump]:
        return trump
    return code[1]


def power(code: str, trump: str | None, bowers: bool) -> int:
    """Right bower > left bower > A > K … ; every trump above every other card."""
    if bowers and trump:
        if code == "J" + trump:
            return 300
        if code == "J" + SAME_COLOUR[trump]:
            return 299
    rank = RANKS.index(code[0])
    return rank + (100 if effective_suit(code, trump, bowers) == trump else 0)


def trick_winner(trick: Sequence[tuple[str, str]], trump: str | None, bowers: bool) -> str:
    """The highest trump, else the highest card of the suit led."""
    led = effective_suit(trick[0][1], trump, bowers)
    trumps = [(s, c) for s, c in trick if effective_suit(c, trump, bowers) == trump]
    followers = [(s, c) for s, c in trick if effective_suit(c, trump, bowers) == led]
    return max(trumps or followers, key=lambda sc: power(sc[1], trump, bowers))[0]


def team_of(seat: str) -> str:
    return "NS" if seat in "NS" else "EW"


def clockwise(start: str, players: str) -> list[str]:
    """The players (a subset of NESW, e.g. without a sitting-out seat), clockwise from
    ``start``."""
    i = SEATS.index(start)
    return [SEATS[(i + k) % 4] for k in range(4) if SEATS[(i + k) % 4] in players]


def after(seat: str, players: str) -> str:
    """The next player clockwise after ``seat`` (which may itself not play)."""
    i = SEATS.index(seat)
    return next(SEATS[(i + k) % 4] for k in range(1, 5) if SEATS[(i + k) % 4] in players)


# ---------------------------------------------------------------- building hands
@dataclass(frozen=True)
class Built:
    hands: dict[str, list[str]]  # as played (each seat's cards when play starts)
    plays: list[str]
    spare: list[str]  # cards nobody plays (for the kitty, a sitting-out hand, discards)


def build_hand(
    deck: str,
    trump: str,
    bowers: bool,
    players: str,
    leader: str,
    winners: Sequence[str],
) -> Built:
    """Tricks of one suit each (the winner holds the highest card), the last trick mixed: the
    lowest trump to its winner, one card of another suit to everyone else.

    ``players`` are the seats that play (clockwise order is taken from NESW); ``winners[k]``
    wins trick ``k``.  Every seat follows suit in every trick but the last, where each holds
    one card.
    """
    n = len(players)
    tricks = len(winners)
    by_suit = {
        s: sorted(
            (c for c in deck_codes(deck) if effective_suit(c, trump, bowers) == s),
            key=lambda c: power(c, trump, bowers),
        )
        for s in SUITS
    }
    plan: list[str] = []
    order = [trump] + [s for s in SUITS if s != trump]
    while len(plan) < tricks - 1:
        progress = False
        for s in order:
            if len(plan) < tricks - 1 and len(by_suit[s]) >= n + (s == trump):
                plan.append(s)
                progress = True
                block = by_suit[s][-n:]
                by_suit[s] = by_suit[s][:-n]
                by_suit[s + "*"] = by_suit.get(s + "*", []) + block
        assert progress, "the deck is too small for this many tricks"
    hands: dict[str, list[str]] = {s: [] for s in players}
    plays: list[str] = []
    lead = leader
    for k, suit in enumerate(plan):
        block = by_suit[suit + "*"][-n:]
        by_suit[suit + "*"] = by_suit[suit + "*"][:-n]
        w = winners[k]
        assign = {w: block[-1]}
        rest = [s for s in clockwise(lead, players) if s != w]
        for seat, c in zip(rest, reversed(block[:-1]), strict=True):
            assign[seat] = c
        trick = [(s, assign[s]) for s in clockwise(lead, players)]
        plays += [c for _, c in trick]
        for s, c in trick:
            hands[s].append(c)
        lead = trick_winner(trick, trump, bowers)
        assert lead == w
    # The last trick: the lowest trump wins it; the others discard from other suits.
    w = winners[-1]
    last = {w: by_suit[trump].pop(0)}
    others = [c for s in SUITS if s != trump for c in by_suit[s]]
    for seat in clockwise(lead, players):
        if seat != w:
            last[seat] = others.pop(0)
    trick = [(s, last[s]) for s in clockwise(lead, players)]
    plays += [c for _, c in trick]
    for s, c in trick:
        hands[s].append(c)
    assert trick_winner(trick, trump, bowers) == w
    spare = [c for c in deck_codes(deck) if c not in plays]
    return Built(hands, plays, spare)


# ---------------------------------------------------------------- rescoring records
def rescore(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """The replay lines (records.md, G5) of a legal Whist or Euchre record."""
    rules = dict(doc["rules"])
    preset = rules.pop("preset")
    game = "euchre" if preset == "euchre" else "whist"
    o: dict[str, Any] = {
        "whist": {"target": 7 if preset == "whist" else 5, "whist_points": "odd_tricks"},
        "euchre": {"target": 10, "deck": "euchre24", "euchre_points": "standard"},
    }[game]
    o.update(rules)
    score = dict.fromkeys(TEAMS, 0)
    winner: str | None = None
    lines: list[dict[str, Any]] = []
    first = SEATS.index(doc["first_dealer"])
    for n, hand in enumerate(doc["hands"], start=1):
        assert winner is None, "a hand after the end of the game"
        dealer = SEATS[(first + n - 1) % 4]
        if game == "whist":
            trump: str | None = hand["trump_card"][1]
            maker, alone, players = None, False, SEATS
        else:
            trump, maker, alone = euchre_trump(hand, dealer)
            players = SEATS.replace(SEATS[(SEATS.index(maker) + 2) % 4], "") if alone else SEATS
            assert maker is None or isinstance(maker, str)
        tricks = dict.fromkeys(SEATS, 0)
        plays = hand["plays"]
        per_trick = len(players)
        leader = after(dealer, players)
        for i in range(0, len(plays) - len(plays) % per_trick, per_trick):
            trick = list(zip(clockwise(leader, players), plays[i : i + per_trick], strict=True))
            leader = trick_winner(trick, trump, game == "euchre")
            tricks[leader] += 1
        total = 13 if game == "whist" else 5
        void = game == "euchre" and len(hand["calls"]) == 8 and trump is None
        if not void and sum(tricks.values()) < total:
            lines.append({"hand": n, "dealer": dealer, "tricks": tricks, "complete": False})
            break
        taken = {t: sum(v for s, v in tricks.items() if team_of(s) == t) for t in TEAMS}
        if game == "whist":
            points = whist_points(o["whist_points"], taken)
        elif void:
            points = dict.fromkeys(TEAMS, 0)
        else:
            assert maker is not None
            points = euchre_points(o["euchre_points"], team_of(maker), taken, alone)
        line: dict[str, Any] = {"hand": n, "dealer": dealer, "trump": trump}
        if game == "euchre":
            line["maker"] = maker
        line["tricks"] = tricks
        teams = {}
        for t in TEAMS:
            score[t] += points[t]
            teams[t] = {"points": points[t], "bags": 0, "bag_penalty": 0, "score": score[t]}
            teams[t]["bag_count"] = 0
        line["teams"] = teams
        lines.append(line)
        top = max(score.values())
        if top >= o["target"] and score["NS"] != score["EW"]:
            winner = max(TEAMS, key=lambda t: score[t])
    lines.append({"final": True, "score": dict(score), "winner": winner})
    return lines


def euchre_trump(hand: dict[str, Any], dealer: str) -> tuple[str | None, str | None, bool]:
    """(trump, maker, alone) from the calls; (None, None, False) when everybody passed."""
    up = hand["up_card"]
    for call in hand["calls"]:
        if call["call"] == "order":
            return up[1], call["seat"], bool(call.get("alone"))
        if call["call"] != "pass":
            return call["call"], call["seat"], bool(call.get("alone"))
    return None, None, False


def whist_points(how: str, taken: dict[str, int]) -> dict[str, int]:
    """G3: each trick over six, or 1 for the side with more tricks."""
    if how == "one_per_hand":
        return {t: int(taken[t] > 6) for t in TEAMS}
    return {t: max(0, taken[t] - 6) for t in TEAMS}


def euchre_points(how: str, makers: str, taken: dict[str, int], alone: bool) -> dict[str, int]:
    """G4: 1 for 3-4 tricks, 2 for all five (4 alone), 2 to the defenders when euchred; or 1
    a trick plus 1 for all five."""
    if how == "per_trick":
        return {t: taken[t] + (taken[t] == 5) for t in TEAMS}
    defenders = "EW" if makers == "NS" else "NS"
    if taken[makers] == 5:
        return {makers: 4 if alone else 2, defenders: 0}
    if taken[makers] >= 3:
        return {makers: 1, defenders: 0}
    return {makers: 0, defenders: 2}
