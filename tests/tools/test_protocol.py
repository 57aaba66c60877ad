"""The external player protocol: the example player in a real match, broken players replaced."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from bot.ai.players import NormalPlayer
from bot.engine import Game, Rules, Seat, seat_view
from tests.ai.conftest import play_game
from tools.arena import run_match
from tools.protocol import (
    ExternalPlayer,
    action_from_json,
    action_json,
    decide_message,
)

EXAMPLE = "cmd:python -m tools.example_player"


def test_example_player_completes_an_arena_match() -> None:
    summary = run_match("normal", EXAMPLE, deals=4, games=1, seed=3)
    assert summary.deals == 4
    assert summary.games == 2
    assert summary.problems == 0
    assert summary.times_ms[EXAMPLE[:]]["decisions"] > 100


def _script(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text(body)
    return f"cmd:{sys.executable} {path}"


GARBAGE = """
import sys, json
n = 0
for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] != "decide":
        continue
    n += 1
    if n % 3 == 0:
        print("this is not json", flush=True)
    elif n % 3 == 1:
        print(json.dumps({"action": "ZZ"}), flush=True)
    else:
        print(json.dumps({"move": msg["legal"][0]}), flush=True)
"""

QUITTER = """
import sys
sys.stdin.readline()
print("bye", flush=True)
"""


def test_garbage_player_is_reported_and_replaced(tmp_path: Path) -> None:
    cmd = _script(tmp_path, "garbage.py", GARBAGE)
    summary = run_match("normal", cmd, deals=2, seed=5)
    assert summary.deals == 2
    assert summary.problems > 50


def test_player_that_quits_is_replaced(tmp_path: Path) -> None:
    cmd = _script(tmp_path, "quitter.py", QUITTER)
    summary = run_match(cmd, "easy", deals=2, seed=5)
    assert summary.deals == 2
    assert summary.problems >= 1


def test_late_answer_is_replaced(tmp_path: Path) -> None:
    slow = tmp_path / "slow.py"
    slow.write_text(
        "import sys, json, time\n"
        "for line in sys.stdin:\n"
        "    msg = json.loads(line)\n"
        "    if msg['type'] == 'decide':\n"
        "        time.sleep(0.3)\n"
        "        print(json.dumps({'action': msg['legal'][0]}), flush=True)\n"
    )
    player = ExternalPlayer(f"{sys.executable} {slow}", timeout_s=0.1)
    try:
        rules = Rules.from_preset("standard")
        game = play_game(
            rules, [player, NormalPlayer(), NormalPlayer(), NormalPlayer()], seed=1, hands=1
        )
        assert game.results
        assert any("no answer" in p for p in player.problems)
    finally:
        player.close()


def test_view_json_holds_what_the_seat_knows() -> None:
    rules = Rules.from_preset("house")
    game = play_game(rules, [NormalPlayer()] * 4, seed=3, hands=1)
    game.deal(random.Random(2))
    while game.to_act is not None and game.phase.value != "play":
        view = seat_view(game, game.to_act)
        game.apply(NormalPlayer().decide(view, random.Random(0), 0.01))
    for _ in range(6):
        assert game.to_act is not None
        game.apply(NormalPlayer().decide(seat_view(game, game.to_act), random.Random(0), 0.01))
    seat = game.to_act
    assert seat is not None
    view = seat_view(game, seat)
    msg = decide_message(view)
    text = json.dumps(msg)
    assert json.loads(text) == msg
    v = msg["view"]
    assert msg["type"] == "decide"
    assert msg["seat"] == seat.name
    assert msg["rules"]["preset"] == "house"
    assert msg["rules"]["blind_nil_pass"] == 2
    assert sorted(v["hand"]) == sorted(c.code for c in game.hand(seat))
    assert v["dealer"] == game.dealer.name
    assert len(v["plays"]) == 6
    assert all(len(p) == 2 for p in v["plays"])
    assert v["current_trick"] == [[s.name, c.code] for s, c in game.current_trick]
    assert set(v["bids"]) == {"N", "E", "S", "W"}
    assert set(v["scores"]) == {"NS", "EW"}
    # No other seat's cards anywhere in the message.
    for other in Seat:
        if other != seat:
            for c in game.hand(other):
                assert f'"{c.code}"' not in text
    for a in view.legal:
        assert action_from_json(view, json.loads(json.dumps(action_json(a)))) == a
    assert action_from_json(view, "XX") is None


def test_legal_bids_and_passes_in_record_notation() -> None:
    rules = Rules.from_preset("house")
    game = Game(rules)
    game.scores = [420, 0]
    game.deal(random.Random(1))
    seat = game.to_act
    assert seat is not None
    view = seat_view(game, seat)
    legal = [action_json(a) for a in view.legal]
    assert legal == ["blind_nil", "look"]
    player = NormalPlayer()
    while game.phase.value == "bid":
        s = game.to_act
        assert s is not None
        v = seat_view(game, s)
        if game.blind_open(s) and s == seat:
            game.apply(next(a for a in v.legal if action_json(a) == "blind_nil"))
            continue
        game.apply(player.decide(v, random.Random(0), 0.01))
    assert game.phase.value == "pass"
    s = game.to_act
    assert s is not None
    v = seat_view(game, s)
    legal = [action_json(a) for a in v.legal]
    assert all(isinstance(x, list) and len(x) == 2 for x in legal)
    assert action_from_json(v, list(reversed(legal[0]))) == v.legal[0]
    numbers = Rules.from_preset("standard")
    g = Game(numbers)
    g.deal(random.Random(1))
    s = g.to_act
    assert s is not None
    legal = [action_json(a) for a in seat_view(g, s).legal]
    assert legal == ["nil", *range(1, 14)]
