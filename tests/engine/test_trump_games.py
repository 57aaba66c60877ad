"""games.md G3 (Whist) and G4 (Euchre) worked examples, hand-computed, through the scoring
functions and end to end through frozen records replayed by ``python -m bot.engine replay``;
records' G5 shape; and the rules of each game's play: the trump card, calling, the dealer's
pick-up, going alone, stick the dealer, the void hand, the bowers."""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bot.engine import RecordError, Rules, card
from bot.engine.euchre import score_euchre
from bot.engine.record import Replayer, replay
from bot.engine.record_fields import with_stated_fields
from bot.engine.whist import score_whist
from tests.engine.scenarios import RECORDS_DIR
from tests.engine.trump_games import rescore
from tests.engine.trump_scenarios import SCENARIOS, build_record

REPO = Path(__file__).resolve().parents[2]


@cache
def load(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((RECORDS_DIR / f"{name}.json").read_text(encoding="utf-8"))
    return doc


@cache
def lines(name: str) -> list[dict[str, Any]]:
    return list(replay(load(name)))


# ---------------------------------------------------------------- scoring, rule by rule
@pytest.mark.parametrize(
    ("how", "tricks", "points", "label"),
    [
        ("odd_tricks", 7, 7 - 6, "1 odd trick (7 tricks)"),
        ("odd_tricks", 9, 9 - 6, "3 odd tricks (9 tricks)"),
        ("odd_tricks", 13, 13 - 6, "7 odd tricks (13 tricks)"),
        ("odd_tricks", 6, 0, "No odd trick (6 tricks)"),
        ("odd_tricks", 0, 0, "No odd trick (0 tricks)"),
        ("one_per_hand", 7, 1, "More tricks (7 tricks)"),
        ("one_per_hand", 13, 1, "More tricks (13 tricks)"),
        ("one_per_hand", 6, 0, "Fewer tricks (6 tricks)"),
    ],
)
def test_whist_scoring_gives_the_worked_example(
    how: str, tricks: int, points: int, label: str
) -> None:
    score = score_whist(how, tricks, 4)
    assert (score.points, score.score) == (points, 4 + points)
    assert (score.bags, score.bag_penalty, score.bag_count) == (0, 0, 0)
    assert [(p.label, p.points) for p in score.parts] == [(label, points)]


EUCHRE_ROWS = [
    # (situation, points rule, makers' tricks, alone, makers' points, defenders' points)
    ("makers take 3", "standard", 3, False, 1, 0),
    ("makers take 4", "standard", 4, False, 1, 0),
    ("makers take all 5: a march", "standard", 5, False, 2, 0),
    ("lone maker takes all 5", "standard", 5, True, 4, 0),
    ("lone maker takes 3", "standard", 3, True, 1, 0),
    ("makers take 2: euchred", "standard", 2, False, 0, 2),
    ("makers take 0: euchred", "standard", 0, False, 0, 2),
    ("lone maker euchred (G7)", "standard", 1, True, 0, 2),
    ("per trick: makers 3, defenders 2", "per_trick", 3, False, 3, 2),
    ("per trick: makers 5, plus 1 for all five", "per_trick", 5, False, 5 + 1, 0),
    ("per trick: defenders take all 5", "per_trick", 0, False, 0, 5 + 1),
    ("per trick: alone changes nothing", "per_trick", 4, True, 4, 1),
]


@pytest.mark.parametrize("row", EUCHRE_ROWS, ids=[r[0] for r in EUCHRE_ROWS])
@pytest.mark.parametrize("makers", [0, 1], ids=["NS make", "EW make"])
def test_euchre_scoring_gives_the_worked_example(
    row: tuple[str, str, int, bool, int, int], makers: int
) -> None:
    _, how, took, alone, made, defended = row
    tricks = [0, 0]
    tricks[makers], tricks[makers ^ 1] = took, 5 - took
    teams = score_euchre(how, makers, tricks, alone, [2, 3])
    assert teams[makers].points == made
    assert teams[makers ^ 1].points == defended
    assert [t.score for t in teams] == [[2, 3][s] + teams[s].points for s in (0, 1)]
    for t in teams:
        assert sum(p.points for p in t.parts) == t.points
        assert (t.bags, t.bag_penalty, t.bag_count) == (0, 0, 0)


# ---------------------------------------------------------------- end to end, through records
# (record, hand, trump, maker, NS tricks, EW tricks, NS points, EW points) — each hand's points
# worked out from G3/G4 by hand; scores are the running sums.
SHOWN: list[tuple[str, int, str | None, str | None, int, int, int, int]] = [
    ("whist", 1, "H", None, 9, 4, 9 - 6, 0),
    ("whist", 2, "S", None, 5, 8, 0, 8 - 6),
    ("whist", 3, "D", None, 7, 6, 7 - 6, 0),
    ("whist", 4, "C", None, 12, 1, 12 - 6, 0),
    ("short-whist", 1, "C", None, 10, 3, 10 - 6, 0),
    ("short-whist", 2, "H", None, 6, 7, 0, 7 - 6),
    ("short-whist", 3, "S", None, 6, 7, 0, 7 - 6),
    ("short-whist", 4, "D", None, 8, 5, 8 - 6, 0),
    ("whist-one-per-hand", 1, "S", None, 7, 6, 1, 0),
    ("whist-one-per-hand", 2, "H", None, 0, 13, 0, 1),
    ("whist-one-per-hand", 3, "C", None, 8, 5, 1, 0),
    ("euchre", 1, "S", "E", 1, 4, 0, 1),  # ordered up, made
    ("euchre", 2, None, None, 0, 0, 0, 0),  # everybody passed: void
    ("euchre", 3, "H", "N", 5, 0, 2, 0),  # named in round 2, march
    ("euchre", 4, "D", "S", 5, 0, 4, 0),  # alone march
    ("euchre", 5, "C", "W", 3, 2, 2, 0),  # makers euchred
    ("euchre", 6, "S", "W", 2, 3, 0, 1),  # alone, made with 3
    ("euchre", 7, "H", "N", 2, 3, 0, 2),  # lone maker euchred
    ("euchre", 8, "D", "E", 1, 4, 0, 1),
    ("euchre", 9, "C", "S", 5, 0, 2, 0),  # NS reach 10
    ("euchre-stick", 1, "D", "N", 4, 1, 1, 0),  # stuck dealer names ♦
    ("euchre-stick", 2, "C", "E", 0, 5, 0, 4),  # stuck dealer alone, march
    ("euchre-per-trick", 1, "H", "E", 3, 2, 3, 2),
    ("euchre-per-trick", 2, "S", "W", 0, 5, 0, 5 + 1),
    ("euchre-per-trick-tie", 1, "H", "N", 3, 2, 3, 2),
    ("euchre-per-trick-tie", 2, "S", "S", 2, 3, 2, 3),  # 5-5 at the target: play on
    ("euchre-per-trick-tie", 3, "C", "N", 5, 0, 5 + 1, 0),
]


@pytest.mark.parametrize("row", SHOWN, ids=lambda r: f"{r[0]} hand {r[1]}")
def test_record_hand_line_shows_the_worked_example(
    row: tuple[str, int, str | None, str | None, int, int, int, int],
) -> None:
    name, hand, trump, maker, ns_tricks, ew_tricks, ns_points, ew_points = row
    out = lines(name)
    line = out[hand - 1]
    assert line["hand"] == hand
    assert line["trump"] == trump
    if name.startswith("euchre"):
        assert line["maker"] == maker
    else:
        assert "maker" not in line
    tricks = line["tricks"]
    assert (tricks["N"] + tricks["S"], tricks["E"] + tricks["W"]) == (ns_tricks, ew_tricks)
    teams = line["teams"]
    assert (teams["NS"]["points"], teams["EW"]["points"]) == (ns_points, ew_points)
    before = out[hand - 2]["teams"] if hand > 1 else {"NS": {"score": 0}, "EW": {"score": 0}}
    for team in ("NS", "EW"):
        assert teams[team]["score"] == before[team]["score"] + teams[team]["points"]
        assert teams[team]["bags"] == teams[team]["bag_penalty"] == teams[team]["bag_count"] == 0


@pytest.mark.parametrize(
    ("name", "winner", "score"),
    [
        ("whist", "NS", {"NS": 10, "EW": 2}),  # first side to 7
        ("short-whist", "NS", {"NS": 6, "EW": 2}),  # first side to 5
        ("whist-one-per-hand", "NS", {"NS": 2, "EW": 1}),
        ("euchre", "NS", {"NS": 10, "EW": 5}),
        ("euchre-stick", "EW", {"NS": 1, "EW": 4}),
        ("euchre-per-trick", "EW", {"NS": 3, "EW": 8}),
        ("euchre-per-trick-tie", "NS", {"NS": 11, "EW": 5}),  # not after the 5-5 hand
    ],
)
def test_record_final_line_names_the_winner(name: str, winner: str, score: dict[str, int]) -> None:
    final = lines(name)[-1]
    assert final == {"final": True, "score": score, "winner": winner}
    assert len(lines(name)) == len(load(name)["hands"]) + 1


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_record_replays_to_the_independent_rescoring(name: str) -> None:
    assert lines(name) == rescore(load(name))


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_frozen_record_matches_its_scenario(name: str) -> None:
    """The frozen records were written before records stated their game, deck, seats, hand
    numbers and dealers (records.md): they stay so, as old records the engine still reads, and
    with those fields filled in from their rules they are the record the engine writes now."""
    assert with_stated_fields(load(name)) == build_record(name)


@pytest.mark.parametrize("name", ["whist", "euchre"])
def test_replay_cli_prints_the_lines(name: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "bot.engine", "replay", str(RECORDS_DIR / f"{name}.json")],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert [json.loads(x) for x in proc.stdout.splitlines()] == lines(name)


def test_every_whist_and_euchre_preset_has_a_record() -> None:
    presets = {load(name)["rules"]["preset"] for name in SCENARIOS}
    assert presets == {"whist", "short-whist", "euchre"}
    decks = {Rules.from_record(load(name)["rules"]).deck for name in SCENARIOS}
    assert decks == {"standard", "euchre24", "euchre28", "euchre32"}


# ---------------------------------------------------------------- the records' G5 shape
def test_a_whist_hand_records_its_trump_card_and_no_bids() -> None:
    for hand in load("whist")["hands"]:
        assert set(hand) == {"deal", "trump_card", "plays"}
        assert all(len(cards) == 13 for cards in hand["deal"].values())
    first = load("whist")["hands"][0]
    assert first["trump_card"] in first["deal"]["N"], "North dealt the first hand"


def test_a_euchre_hand_records_up_card_calls_discard_and_plays() -> None:
    hands = load("euchre")["hands"]
    ordered = hands[0]
    assert set(ordered) == {"deal", "up_card", "calls", "discard", "plays"}
    assert all(len(cards) == 5 for cards in ordered["deal"].values())
    dealt = {c for cards in ordered["deal"].values() for c in cards}
    assert ordered["up_card"] not in dealt, "the up-card is not dealt"
    assert ordered["calls"] == [
        {"seat": "E", "call": "order", "alone": False},
    ]
    assert ordered["discard"] in ordered["deal"]["N"] or ordered["discard"] == ordered["up_card"]


def test_a_void_hand_records_eight_passes_and_no_plays() -> None:
    void = load("euchre")["hands"][1]
    assert [c["call"] for c in void["calls"]] == ["pass"] * 8
    assert all("alone" not in c for c in void["calls"])
    assert void["plays"] == []
    assert "discard" not in void


def test_a_lone_hand_records_no_plays_of_the_partner_sitting_out() -> None:
    alone = load("euchre")["hands"][3]  # S alone, N sits out
    assert {"seat": "S", "call": "order", "alone": True} in alone["calls"]
    assert len(alone["plays"]) == 15
    assert not set(alone["plays"]) & set(alone["deal"]["N"])


def test_a_second_round_call_names_the_suit() -> None:
    named = load("euchre")["hands"][2]
    assert named["calls"][-1] == {"seat": "N", "call": "H", "alone": False}
    assert [c["call"] for c in named["calls"][:4]] == ["pass"] * 4
    assert "discard" not in named


# ---------------------------------------------------------------- refused records (G5, G7)
def refused(doc: dict[str, Any]) -> dict[str, object]:
    with pytest.raises(RecordError) as info:
        list(replay(doc))
    return info.value.details


def copy_of(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(json.dumps(load(name)))
    return doc


def test_a_call_out_of_turn_is_refused_with_its_index() -> None:
    doc = copy_of("euchre")
    doc["hands"][0]["calls"][0]["seat"] = "S"  # East calls first when North deals
    assert refused(doc) == {
        "error": "illegal call",
        "hand": 1,
        "call": 1,
        "seat": "S",
        "value": "order",
        "alone": False,
        "reason": "It is East's turn to call",
    }


def test_naming_the_turned_down_suit_is_refused() -> None:
    doc = copy_of("euchre")
    hand = doc["hands"][2]  # round 2: N names ♥ after the up-card was turned down
    up_suit = hand["up_card"][1]
    hand["calls"][-1]["call"] = up_suit
    details = refused(doc)
    # S deals: W N E S pass, W passes again, N names (the 6th call)
    assert (details["error"], details["hand"], details["call"]) == ("illegal call", 3, 6)
    assert str(details["reason"]).endswith("was turned down: name another suit, or pass")


def test_a_pass_going_alone_is_refused() -> None:
    doc = copy_of("euchre")
    doc["hands"][1]["calls"][0]["alone"] = True
    details = refused(doc)
    assert (details["error"], details["hand"], details["call"]) == ("illegal call", 2, 1)


def test_the_stuck_dealer_may_not_pass() -> None:
    doc = copy_of("euchre-stick")
    doc["hands"][0]["calls"][-1] = {"seat": "N", "call": "pass"}
    details = refused(doc)
    assert details["reason"] == "The dealer must name a suit (stick the dealer)"
    assert (details["error"], details["call"]) == ("illegal call", 8)


def test_a_call_that_is_no_call_is_refused() -> None:
    doc = copy_of("euchre")
    doc["hands"][0]["calls"][0]["call"] = "hearts"
    details = refused(doc)
    assert (details["error"], details["hand"], details["call"]) == ("illegal call", 1, 1)


def test_a_discard_the_dealer_does_not_hold_is_refused() -> None:
    doc = copy_of("euchre")
    hand = doc["hands"][0]
    hand["discard"] = hand["deal"]["E"][0]
    details = refused(doc)
    assert details["error"] == "illegal discard"
    assert (details["hand"], details["discard"]) == (1, 1)
    assert details["card"] == hand["deal"]["E"][0]


def test_a_discard_without_a_pick_up_is_refused() -> None:
    doc = copy_of("euchre")
    hand = doc["hands"][2]  # named in round 2: nobody picked up
    hand["discard"] = hand["deal"]["S"][0]
    details = refused(doc)
    assert details["error"] == "illegal discard"
    assert details["reason"] == "Only the dealer discards, after taking the up-card"


def test_a_missing_discard_stops_the_plays() -> None:
    doc = copy_of("euchre")
    del doc["hands"][0]["discard"]
    details = refused(doc)
    assert (details["error"], details["play"]) == ("illegal play", 1)
    assert details["reason"] == "the dealer has not discarded"


def test_the_partner_sitting_out_may_not_play() -> None:
    doc = copy_of("euchre")
    hand = doc["hands"][3]  # S alone, N sits out; E leads
    hand["plays"][1] = hand["deal"]["N"][0]  # S's card swapped for one of N's
    details = refused(doc)
    assert (details["error"], details["play"]) == ("illegal play", 2)
    assert details["reason"] == f"You don't hold {card(hand['deal']['N'][0])}"


def test_a_dealt_up_card_is_an_invalid_deal() -> None:
    doc = copy_of("euchre")
    hand = doc["hands"][0]
    hand["up_card"] = hand["deal"]["W"][0]
    details = refused(doc)
    assert details["error"] == "invalid deal"
    assert details["reason"] == "The up-card is a card of the kitty, not one dealt"


def test_a_euchre_hand_without_its_up_card_is_malformed() -> None:
    doc = copy_of("euchre")
    del doc["hands"][0]["up_card"]
    assert refused(doc) == {
        "error": "malformed record",
        "hand": 1,
        "reason": "a Euchre hand names its up_card",
    }


def test_a_trump_card_not_the_dealers_is_an_invalid_deal() -> None:
    doc = copy_of("whist")
    hand = doc["hands"][0]
    hand["trump_card"] = hand["deal"]["E"][0]
    details = refused(doc)
    assert details["error"] == "invalid deal"
    assert details["hand"] == 1


def test_a_bid_in_whist_is_refused() -> None:
    doc = copy_of("whist")
    doc["hands"][0]["bids"] = [{"seat": "E", "bid": 3}]
    details = refused(doc)
    assert (details["error"], details["bid"]) == ("illegal bid", 1)
    assert details["reason"] == "There is no bid in Whist"


def test_euchre_decks_are_refused_outside_euchre() -> None:
    doc = copy_of("whist")
    doc["rules"]["deck"] = "euchre24"
    details = refused(doc)
    assert details["error"] == "invalid rules"
    assert details["option"] == "deck"


@pytest.mark.parametrize(("name", "cut"), [("euchre", 7), ("euchre", 0), ("whist", 30)])
def test_an_unfinished_last_hand_lists_every_seats_tricks(name: str, cut: int) -> None:
    doc = copy_of(name)
    doc["hands"] = doc["hands"][:1]
    doc["hands"][0]["plays"] = doc["hands"][0]["plays"][:cut]
    out = list(replay(doc))
    assert out[0]["complete"] is False
    assert set(out[0]) == {"hand", "dealer", "tricks", "complete"}
    assert set(out[0]["tricks"]) == {"N", "E", "S", "W"}
    assert sum(out[0]["tricks"].values()) == cut // 4
    assert out == rescore(doc)


def test_replay_reports_each_action_to_an_observer() -> None:
    seen: list[tuple[str, str]] = []
    replayer = Replayer(
        load("euchre"), before=lambda game, action: seen.append((game.phase, type(action).__name__))
    )
    list(replayer.lines())
    assert seen[0] == ("deal", "Deal")
    assert ("call", "Call") in seen
    assert ("discard", "Discard") in seen
    assert seen.count(("play", "Play")) == sum(len(h["plays"]) for h in load("euchre")["hands"])
