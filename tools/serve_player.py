"""Serve a built-in computer level over the player protocol (docs/player-protocol.md), from this
checkout or from the tree of another revision:

    python -m tools.serve_player --level hard
    python tools/serve_player.py --root WORKTREE --level hard --budget 0.05

The arena seats it for a ``git:REV:LEVEL`` side (:mod:`tools.revisions` checks the revision
out), so that "the previous hard" is ``hard`` as it was at a named commit, in its own process
and on its own CPU clock.

Standalone on purpose: the standard library at import, then ``bot`` from ``--root`` put first
on ``sys.path`` — so it serves revisions from before ``tools/`` existed.  It uses only what every
revision's ``bot`` has had: ``Rules(preset=..., **options)``, ``Game(rules, dealer)``, ``Deal``,
``apply``, ``to_act``, ``legal_actions``, ``seat_view`` and ``bot.ai``'s ``get_player`` and
``DEFAULT_BUDGET_S``.  The seat's view is rebuilt by replaying the game in that revision's
engine: the hands finished so far from their ``hand_end`` records, then this hand from the
view — the seat's own cards, the bids and the cards played; the cards the seat cannot see are
dealt at random, and its player decides from the seat view, which never shows them.  Spades
only (a Whist or Euchre view does not carry the turned card), and New York full games are not
replayed (their records keep only the team bids): the server then answers an ``error``, which
the arena counts as a problem and replaces by a ``normal`` move.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

# Seconds a reading of the virtual clock costs.  The search reads it about twice a world, so a
# 100 ms budget buys about 60 worlds for a bid and 165 for a card: what the CPU clock gave hard
# on this project's 2-core test machine (a bid 52-79 worlds, a full-budget card 33-400).
BID_TICK = 0.0008
PLAY_TICK = 0.0003


class VirtualClock:
    """A deterministic clock for searching players: each reading advances it by ``tick``."""

    def __init__(self) -> None:
        self.now = 0.0
        self.tick = PLAY_TICK

    def __call__(self) -> float:
        self.now += self.tick
        return self.now

    def for_bid(self, bidding: bool) -> None:
        """Price the readings of the next decision (a bid's worlds cost more than a card's)."""
        self.tick = BID_TICK if bidding else PLAY_TICK


class Unserved(Exception):
    """A decision this server cannot rebuild; answered as ``{"error": ...}``."""


def use_root(root: Path) -> None:
    """Import ``bot`` from ``root``, whatever else is on the path (an editable install)."""
    here = str(Path(__file__).resolve().parent)
    sys.path[:] = [str(root), *(p for p in sys.path if p not in (here, str(root)))]
    import bot

    found = Path(bot.__file__).resolve().parents[1]
    if found != root.resolve():
        raise SystemExit(f"serve_player: bot was imported from {found}, not from {root}")


def action_json(action: Any) -> Any:
    """An action in record notation, by its kind's name (every revision's action classes)."""
    from bot.engine.actions import bid_record

    kind = type(action).__name__
    if kind == "Play":
        return action.card.code
    if kind == "Bid":
        if action.blind:
            return {"bid": action.value, "blind": True}
        return bid_record(action.value)
    if kind == "Look":
        return "look"
    if kind == "Call":
        return {"call": action.call, "alone": action.alone}
    if kind == "Discard":
        return {"discard": action.card.code}
    if kind == "Claim":
        return {"claim": action.against.name}
    return [c.code for c in action.cards]


def action_key(value: Any) -> str:
    """An action's notation compared as text (a set of cards in any order)."""
    if isinstance(value, list) and all(isinstance(x, str) for x in value):
        value = sorted(value)
    return json.dumps(value, sort_keys=True)


def make_rules(data: dict[str, Any]) -> Any:
    """The revision's rules of a message: the options it knows (a newer option it lacks is
    dropped: that revision plays the rules it has)."""
    from bot.engine.rules import Rules

    known = {f.name for f in dataclasses.fields(Rules)}
    return Rules(**{k: v for k, v in data.items() if k in known})


def game_deck(game: Any) -> Any:
    """The game's deck (its cards and each card's suit in play), as the revision has it."""
    if hasattr(game, "deck"):
        return game.deck  # three players: a card less
    try:
        from bot.engine.decks import DECKS
    except ImportError:  # before the shared core, decks were in cards.py
        from bot.engine.cards import DECKS  # type: ignore[attr-defined, no-redef]
    return DECKS[game.rules.deck]


def unseen_suits(deck: Any, plays: list[tuple[str, str]], players: int) -> dict[str, set[str]]:
    """The suits each seat may still hold among the cards no one has seen: not a suit it did
    not follow, and only spades after it led them before they were broken."""
    by_code = {c.code: c for c in deck.cards}
    suits = {deck.suit_of(c) for c in deck.cards}
    may = {seat: set(suits) for seat, _ in plays}
    broken = False
    for start in range(0, len(plays), players):
        trick = plays[start : start + players]
        led = deck.suit_of(by_code[trick[0][1]])
        if led == "S" and not broken:
            may[trick[0][0]] &= {"S"}
        for seat, code in trick[1:]:
            if deck.suit_of(by_code[code]) != led:
                may[seat].discard(led)
        broken = broken or any(deck.suit_of(by_code[c]) == "S" for _, c in trick)
    return may


def spade_counts(rules: Any, bid_log: list[dict[str, Any]]) -> dict[str, int]:
    """The spades a seat was dealt, where its bid tells (Whiz and Mirror bid them)."""
    bidding = getattr(rules, "bidding", "")
    if bidding not in ("whiz", "mirror"):
        return {}
    out = {}
    for entry in bid_log:
        if isinstance(entry["bid"], int) and entry["bid"] > 0:
            out[entry["seat"]] = entry["bid"]
        elif entry["bid"] == "nil" and bidding == "mirror":
            out[entry["seat"]] = 0
    return out


def _fill(
    known: dict[str, list[str]],
    sizes: dict[str, int],
    free: list[Any],
    may: dict[str, set[str]],
    spades: dict[str, int],
    suit_of: Any,
    view: dict[str, Any],
) -> dict[str, list[str]]:
    """Each seat's known cards and, at random, unseen cards of suits it may hold, and as many
    more spades as ``spades`` says where its bid told: a matching of cards to the seats' free
    places, found by augmenting paths (a counted seat has a place for spades and one for the
    rest)."""
    rng = random.Random(json.dumps(view, sort_keys=True))
    pool = list(free)
    rng.shuffle(pool)
    room: dict[tuple[str, str], int] = {}
    for seat in known:
        left = sizes[seat] - len(known[seat])
        if seat in spades and left:
            room[seat, "S"] = spades[seat]
            room[seat, "other"] = left - room[seat, "S"]
        else:
            room[seat, "any"] = left
    holder: dict[int, tuple[str, str]] = {}  # card (index in pool) -> place

    def fits(k: int, place: tuple[str, str]) -> bool:
        suit = suit_of(pool[k])
        kind = place[1]
        if kind != "any" and (suit == "S") != (kind == "S"):
            return False
        return suit in may.get(place[0], {suit})

    def put(k: int, seen: set[tuple[str, str]]) -> bool:
        for place in room:
            if place in seen or not fits(k, place):
                continue
            seen.add(place)
            if room[place] > 0:
                room[place] -= 1
                holder[k] = place
                return True
            for other, at in list(holder.items()):  # move one of its cards elsewhere
                if at == place and put(other, seen):
                    holder[k] = place
                    return True
        return False

    for k in range(len(pool)):
        put(k, set())  # a card that no seat may hold stays undealt (a Euchre kitty)
    if any(room.values()):
        raise Unserved("no deal of the unseen cards fits the voids and bids shown")
    hands = {s: list(known[s]) for s in known}
    for k, (seat, _) in sorted(holder.items()):
        hands[seat].append(pool[k].code)
    return hands


class Replay:
    """Drives a game of the revision's engine through known actions, seat by seat."""

    def __init__(self, game: Any) -> None:
        self.game = game

    def legal(self) -> list[Any]:
        return list(self.game.legal_actions(self.game.to_act))

    def play(self, value: Any) -> None:
        """Apply the legal action ``value`` (record notation) names."""
        want = action_key(value)
        for action in self.legal():
            if action_key(action_json(action)) == want:
                self.game.apply(action)
                return
        raise Unserved(f"{value!r} is not legal for {self.game.to_act.name} here")

    def look(self) -> bool:
        """Look at the cards (no blind bid) if that is a choice now."""
        if "look" in [action_json(a) for a in self.legal()]:
            self.play("look")
            return True
        return False

    def bid(self, entry: dict[str, Any]) -> None:
        """A bid of the view's bid log or of a record (``{"seat", "bid", "blind"?}``)."""
        if entry["seat"] != self.game.to_act.name:
            raise Unserved(f"bid of {entry['seat']} out of turn")
        blind = bool(entry.get("blind"))
        want = action_key(entry["bid"])
        for action in self.legal():
            if (
                type(action).__name__ == "Bid"
                and bool(action.blind) == blind
                and action_key(action_json(dataclasses.replace(action, blind=False))) == want
            ):
                self.game.apply(action)
                return
        if not blind and self.look():
            self.bid(entry)
            return
        raise Unserved(f"bid {entry!r} is not legal here")


def _deal(game: Any, cards: list[Any], hands: dict[str, list[str]]) -> Any:
    """The deal of ``hands`` (codes by seat name) to the seats in play."""
    from bot.engine.actions import SEATS, Deal

    seating = getattr(game, "seating", None)  # three players: the seats in play only
    seats = seating.seats if seating is not None else SEATS
    by_code = {c.code: c for c in cards}
    return Deal(tuple(tuple(by_code[code] for code in hands.get(s.name, ())) for s in seats))


def replay_record(game: Any, cards: list[Any], record: dict[str, Any]) -> None:
    """Play a finished hand again from its ``hand_end`` record."""
    if "bids" not in record:
        raise Unserved("only Spades hands can be replayed")
    if game.rules.new_york:
        raise Unserved("New York full games are not replayed (their records keep team bids)")
    game.apply(_deal(game, cards, record["deal"]))
    replay = Replay(game)
    bids = list(record["bids"])
    passes = list(record.get("passes", ()))
    plays = list(record["plays"])
    results = len(game.results)
    while len(game.results) == results:
        phase = str(game.phase)
        if phase == "bid":
            replay.bid(bids.pop(0))
        elif phase == "pass":
            replay.play(passes.pop(0)["cards"])
        else:
            replay.play(plays.pop(0))


def current_hand(game: Any, cards: list[Any], msg: dict[str, Any]) -> None:
    """Deal and play this hand up to the seat's decision from what the seat knows; the cards it
    cannot see go, at random, to the seats that may hold them."""
    from bot.engine.actions import SEATS, Seat

    me = msg["seat"]
    view = msg["view"]
    partner = Seat[me].partner.name
    plays = [tuple(p) for p in view["plays"]]
    passed, received = list(view["passed"]), list(view["received"])
    known: dict[str, list[str]] = {s.name: [c for who, c in plays if who == s.name] for s in SEATS}
    if view["hand"] is not None:
        known[me] = [c for c in view["hand"] + known[me] + passed if c not in received]
    if passed or received:
        known[partner] = [c for c in known[partner] + received if c not in passed]
    sizes = {
        s.name: view["cards_left"][s.name] + sum(who == s.name for who, _ in plays) for s in SEATS
    }
    taken = {c for hand in known.values() for c in hand}
    free = [c for c in cards if c.code not in taken]
    deck = game_deck(game)
    players = sum(1 for size in sizes.values() if size)
    may = unseen_suits(deck, plays, players)
    by_code = {c.code: c for c in cards}
    counted = {  # the spades still to deal to a seat whose bid counts them
        s: n - sum(deck.suit_of(by_code[c]) == "S" for c in known[s])
        for s, n in spade_counts(game.rules, view["bid_log"]).items()
        if s != me
    }
    hands = _fill(known, sizes, free, may, counted, deck.suit_of, view)
    game.apply(_deal(game, cards, hands))
    replay = Replay(game)
    bids, played = list(view["bid_log"]), [c for _, c in plays]
    legal_now = sorted(action_key(a) for a in msg["legal"])
    while True:
        seat, phase = game.to_act.name, str(game.phase)
        if phase == "bid" and bids:
            replay.bid(bids.pop(0))
        elif phase == "pass" and seat not in (me, partner):
            # the other side's exchange: any cards the passer will not play
            options = [a for a in replay.legal() if not set(action_json(a)) & set(played)]
            if not options:
                raise Unserved("cannot rebuild the other side's card exchange")
            game.apply(options[0])
        elif phase == "pass" and ((seat == me and passed) or (seat == partner and received)):
            replay.play(passed if seat == me else received)
            passed, received = (
                ([], received) if seat == me else (passed, [])
            )  # each exchange happens once
        elif phase == "play" and played:
            if plays[len(plays) - len(played)][0] != seat:
                raise Unserved(f"play of {seat} out of turn")
            replay.play(played.pop(0))
        elif seat == me and sorted(action_key(action_json(a)) for a in replay.legal()) == legal_now:
            return
        elif seat == me and replay.look():
            continue
        else:
            raise Unserved(f"the rebuilt game waits for {seat} in {phase}, not for {me}")


class Server:
    """One level's player, answering ``decide`` lines; it keeps the game so far (the hands
    finished, replayed once each) and rebuilds each decision's hand on a copy of it."""

    def __init__(self, level: str, budget_s: float, clock: str) -> None:
        from bot.ai import get_player

        self.player = get_player(level)
        self.budget_s = budget_s
        self.clock = VirtualClock() if clock == "virtual" else time.thread_time
        if hasattr(self.player, "clock"):
            self.player.clock = self.clock  # search to this process's own clock
        self.game: Any = None  # this game's hands so far, in the revision's engine
        self.records: list[dict[str, Any]] = []  # hand_end lines not replayed yet
        self.broken = False  # a finished hand could not be replayed: till the game's end

    def _game(self, msg: dict[str, Any]) -> Any:
        """The game up to this hand: made at its first decision, each finished hand added."""
        from bot.engine.actions import Seat
        from bot.engine.game import Game

        if self.game is None:
            rules = make_rules(msg["rules"])
            first = self.records[0]["dealer"] if self.records else msg["view"]["dealer"]
            self.game = Game(rules, Seat[first])
            if not self.records and self.game.hand_number != msg["view"]["hand_number"]:
                self.game.hand_number = msg["view"]["hand_number"]  # a one-hand New York game
        cards = list(game_deck(self.game).cards)
        while self.records:
            line = self.records.pop(0)
            try:
                replay_record(self.game, cards, line["record"])
            except Exception:
                self.broken = True  # the game so far is lost: every decision of it refused
                raise
        return self.game

    def view(self, msg: dict[str, Any]) -> Any:
        """The seat's view in the revision's engine, rebuilt by replaying the game."""
        from bot.engine.actions import Seat
        from bot.engine.views import seat_view

        game = self._game(msg).clone()
        current_hand(game, list(game_deck(game).cards), msg)
        return seat_view(game, Seat[msg["seat"]])

    def answer(self, line: str) -> dict[str, Any] | None:
        msg = json.loads(line)
        if msg.get("type") == "hand_end":
            self.records.append(msg)
        elif msg.get("type") == "game_end":
            self.game, self.broken = None, False
            self.records.clear()
        elif msg.get("type") == "decide":
            try:
                if self.broken:
                    raise Unserved("an earlier hand of this game could not be replayed")
                view = self.view(msg)
            except Exception as e:  # an engine's refusal too: one answer, not a dead program
                return {"error": f"serve_player cannot rebuild this view: {e}"}
            if isinstance(self.clock, VirtualClock):
                self.clock.for_bid(str(view.phase) == "bid")
            seed = hashlib.sha256(line.encode()).digest()
            action = self.player.decide(view, random.Random(seed), self.budget_s)
            return {"action": action_json(action)}
        return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tools.serve_player", description=__doc__)
    ap.add_argument("--level", required=True, help="a built-in level of that revision")
    ap.add_argument(
        "--root",
        type=Path,
        default=Path(__file__).resolve().parents[1],
        help="the tree whose bot plays (a revision's worktree; default: this one)",
    )
    ap.add_argument(
        "--budget",
        type=float,
        default=None,
        help="seconds a decision (default: the level's own default at that revision)",
    )
    ap.add_argument("--clock", choices=("cpu", "virtual"), default="cpu")
    ap.add_argument("--print-budget", action="store_true", help="print the budget and exit")
    args = ap.parse_args(argv)
    use_root(args.root)
    from bot.ai import DEFAULT_BUDGET_S, LEVELS

    if args.level not in LEVELS:
        print(
            f"serve_player: no level {args.level!r} at {args.root} (it has {', '.join(LEVELS)})",
            file=sys.stderr,
        )
        return 2
    budget = DEFAULT_BUDGET_S[args.level] if args.budget is None else args.budget
    if args.print_budget:
        print(budget)
        return 0
    server = Server(args.level, budget, args.clock)
    for line in sys.stdin:
        reply = server.answer(line)
        if reply is not None:
            print(json.dumps(reply), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
