"""The JSON-lines player protocol (docs/player-protocol.md): views and actions as JSON,
and :class:`ExternalPlayer`, which seats a program that speaks it."""

from __future__ import annotations

import json
import queue
import random
import shlex
import subprocess
import sys
import threading
from collections.abc import Sequence
from typing import Any, Final

from bot.engine.actions import SEATS, Action, Bid, bid_record
from bot.engine.decks import DECKS
from bot.engine.game import Game, HandResult
from bot.engine.record import TEAM_KEYS, hand_json, hand_line
from bot.engine.spades.view import SpadesPart
from bot.engine.views import SeatView
from tools import serve_player

PROTOCOL: Final = "spades-player/1"
ANSWER_TIMEOUT_S: Final = 10.0


def _bid_json(value: int | None) -> int | str | None:
    return None if value is None else bid_record(value)


def rules_json(view: SeatView) -> dict[str, Any]:
    return {"preset": view.rules.preset, **view.rules.options()}


_NO_BIDDING = SpadesPart(False, (None, None, None, None), (), (None, None), (None, None))


def _trump_played(view: SeatView) -> bool:
    """A trump has been played this hand (what ``spades_broken`` says of a game without
    Spades' part)."""
    trumps = DECKS[view.rules.deck].with_trump(view.trump).trumps
    return any(trumps >> c.index & 1 for _, c in view.plays)


def view_json(view: SeatView) -> dict[str, Any]:
    """Exactly what the seat may know, in record notation (the Spades fields are there, empty,
    in every game)."""
    bidding = view.bidding or _NO_BIDDING
    broken = bidding.spades_broken if view.bidding is not None else _trump_played(view)
    out: dict[str, Any] = {
        "hand_number": view.hand_number,
        "phase": str(view.phase),
        "dealer": view.dealer.name,
        "to_act": view.to_act.name if view.to_act is not None else None,
        "hand": None if view.hand is None else [c.code for c in view.hand],
        "hand_hidden": view.hand_hidden,
        "blind_open": bidding.blind_open,
        "cards_left": {s.name: view.cards_left[s] for s in SEATS},
        "bids": {s.name: _bid_json(bidding.bids[s]) for s in SEATS},
        "bid_log": [_bid_entry(b) for b in bidding.bid_log],
        "tricks": {s.name: view.tricks_won[s] for s in SEATS},
        "current_trick": [[s.name, c.code] for s, c in view.current_trick],
        "plays": [[s.name, c.code] for s, c in view.plays],
        "trick_winners": [t.winner.name for t in view.completed_tricks],
        "spades_broken": broken,
        # by side: NS and EW, or (solo, games.md G2) each player's seat
        "scores": {name: view.scores[k] for k, name in enumerate(view.side_names)},
        "bag_counts": {name: view.bag_counts[k] for k, name in enumerate(view.side_names)},
        "passed": [c.code for c in bidding.passed],
        "received": [c.code for c in bidding.received],
    }
    if view.rules.new_york:
        out["team_bids"] = {
            TEAM_KEYS[t]: (None if b is None else _bid_entry(b))
            for t, b in enumerate(bidding.team_bids)
        }
        out["proposals"] = {
            TEAM_KEYS[t]: (None if p is None else {"bid": p[0], "blind": p[1]})
            for t, p in enumerate(bidding.proposals)
        }
    return out


def _bid_entry(b: Bid) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": b.seat.name, "bid": bid_record(b.value)}
    if b.blind:
        out["blind"] = True
    return out


def action_json(action: Action) -> Any:
    """An action in record notation: a card code, a bid, ``"look"`` or a list of cards (one
    definition, :func:`tools.serve_player.action_json`, which must run without this module)."""
    return serve_player.action_json(action)


def _key(value: Any) -> str:
    return serve_player.action_key(value)


def action_from_json(view: SeatView, value: Any) -> Action | None:
    """The legal action ``value`` names, or ``None``.  Pass sets may be in any order."""
    want = _key(value)
    for a in view.legal:
        if _key(action_json(a)) == want:
            return a
    return None


def decide_message(view: SeatView) -> dict[str, Any]:
    assert view.seat is not None
    return {
        "type": "decide",
        "protocol": PROTOCOL,
        "seat": view.seat.name,
        "rules": rules_json(view),
        "view": view_json(view),
        "legal": [action_json(a) for a in view.legal],
    }


def hand_end_message(
    result: HandResult, new_york: bool, game: Game | None = None
) -> dict[str, Any]:
    """Sent to every seat after a hand: the record of the hand and its score line (the
    line's sides are the game's: teams, or players in solo)."""
    return {
        "type": "hand_end",
        **hand_line(result, game),
        "record": hand_json(result.deal, result.bids, result.passes, result.plays, new_york),
    }


def game_end_message(
    scores: Sequence[int], winner: int | None, sides: Sequence[str] = TEAM_KEYS
) -> dict[str, Any]:
    """The final scores by side (``NS``/``EW``, or seat names in solo) and the winner."""
    return {
        "type": "game_end",
        "score": {name: scores[k] for k, name in enumerate(sides)},
        "winner": sides[winner] if winner is not None else None,
    }


class ExternalPlayer:
    """A program speaking the JSON-lines protocol on stdin/stdout.

    A malformed, illegal or late answer (or a dead program) is recorded in ``problems`` and
    replaced by the ``normal`` player's move; the match goes on.
    """

    def __init__(self, command: str, timeout_s: float = ANSWER_TIMEOUT_S) -> None:
        from bot.ai.players import NormalPlayer

        self.level = "cmd"
        self.command = command
        self.timeout_s = timeout_s
        self.fallback = NormalPlayer()
        self.problems: list[str] = []
        self.decisions = 0
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._dead = False
        self._skip = 0  # late answers still to come, to be dropped

    def _start(self) -> subprocess.Popen[str] | None:
        if self._dead:
            return None
        if self._proc is None:
            args = shlex.split(self.command)
            if args and args[0] in ("python", "python3"):
                args[0] = sys.executable
            try:
                self._proc = subprocess.Popen(  # noqa: S603 - the user's own command
                    args,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    text=True,
                    bufsize=1,
                )
            except OSError as e:
                self._problem(f"cannot start {self.command!r}: {e}")
                self._dead = True
                return None
            threading.Thread(target=self._reader, args=(self._proc,), daemon=True).start()
        return self._proc

    def _reader(self, proc: subprocess.Popen[str]) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            self._lines.put(line)
        self._lines.put(None)

    def _problem(self, text: str) -> None:
        self.problems.append(text)
        if len(self.problems) <= 20:
            print(f"[player {self.command!r}] {text}", file=sys.stderr)

    def _send(self, message: dict[str, Any]) -> bool:
        proc = self._start()
        if proc is None or proc.stdin is None:
            return False
        try:
            proc.stdin.write(json.dumps(message) + "\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            self._problem("the program stopped reading its input")
            self._dead = True
            return False
        return True

    def notify(self, message: dict[str, Any]) -> None:
        """A line that needs no answer (``hand_end``, ``game_end``)."""
        self._send(message)

    def decide(self, view: SeatView, rng: random.Random, budget_s: float) -> Action:
        self.decisions += 1
        action = self._ask(view)
        if action is None:
            return self.fallback.decide(view, rng, budget_s)
        return action

    def _ask(self, view: SeatView) -> Action | None:
        if not self._send(decide_message(view)):
            return None
        try:
            line = self._lines.get(timeout=self.timeout_s)
            while line is not None and self._skip:
                self._skip -= 1
                line = self._lines.get(timeout=self.timeout_s)
        except queue.Empty:
            self._problem(f"no answer within {self.timeout_s:g} s; replaced by a normal move")
            self._skip += 1
            return None
        if line is None:
            self._problem("the program exited; its moves are now made by normal")
            self._dead = True
            return None
        try:
            answer = json.loads(line)
        except ValueError:
            self._problem(f"malformed answer {line.strip()[:80]!r}; replaced by a normal move")
            return None
        if not isinstance(answer, dict) or "action" not in answer:
            self._problem(f"answer without 'action': {line.strip()[:80]!r}")
            return None
        action = action_from_json(view, answer["action"])
        if action is None:
            self._problem(
                f"illegal action {json.dumps(answer['action'])[:80]}; replaced by a normal move"
            )
        return action

    def close(self) -> None:
        proc = self._proc
        if proc is None:
            return
        self._proc = None
        try:
            if proc.stdin:
                proc.stdin.close()
            proc.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()
