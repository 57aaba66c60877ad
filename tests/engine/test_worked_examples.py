"""rules.md §9: every worked example, through the scoring functions and end to end through the
frozen records in ``records/`` replayed by ``python -m bot.engine replay``.

The expected numbers are the §9 table's, each written as the arithmetic of §5/§8 behind it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bot.engine import BLIND_NIL, NIL, GameKind, Rules, entry_of
from bot.engine.record import replay
from bot.engine.record_fields import with_stated_fields
from bot.engine.scoring import LOSES, WINS
from bot.engine.spades.scoring import score_individual, score_new_york
from tests.engine.reference import rescore
from tests.engine.scenarios import RECORDS_DIR, SCENARIOS, build_record

REPO = Path(__file__).resolve().parents[2]


@cache
def load(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((RECORDS_DIR / f"{name}.json").read_text(encoding="utf-8"))
    return doc


@cache
def lines(name: str) -> list[dict[str, Any]]:
    return list(replay(load(name)))


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.engine", *args],
        cwd=REPO,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


# ---------------------------------------------------------------- through the scoring functions
@dataclass(frozen=True)
class Row:
    preset: str
    situation: str
    bids: tuple[int, int]
    tricks: tuple[int, int]
    points: int
    bags: int = 0
    bag_count_before: int = 0
    bag_penalty: int = 0
    bag_count: int | None = None  # default: before + bags
    event: str | None = None
    joker_points: int = 0

    def __str__(self) -> str:
        return f"{self.preset}: {self.situation}"


INDIVIDUAL_ROWS = [
    Row("standard", "bids 3 + 4, takes 7", (3, 4), (3, 4), points=10 * 7),
    Row("standard", "bid 5, takes 6", (2, 3), (3, 3), points=10 * 5 + 1, bags=1),
    Row(
        "standard",
        "bid 4, takes 6, bag count 8 -> 10",
        (2, 2),
        (3, 3),
        points=10 * 4 + 2 - 100,
        bags=2,
        bag_count_before=8,
        bag_penalty=100,
        bag_count=0,
    ),
    Row("standard", "bid 5, takes 4", (2, 3), (2, 2), points=-10 * 5),
    Row("standard", "bid 5, takes 1", (2, 3), (1, 0), points=-10 * 5),
    Row("standard", "nil (0 tricks) + 4 (takes 4)", (NIL, 4), (0, 4), points=100 + 10 * 4),
    Row("house", "nil + 3: nil takes 0, partner 3", (NIL, 3), (0, 3), points=100 + 10 * 3),
    Row("house", "nil + 3: nil takes 0, partner 2", (NIL, 3), (0, 2), points=100 - 10 * 3),
    Row("house", "nil + 3: nil takes 1, partner 3", (NIL, 3), (1, 3), points=10 * 3 - 100),
    Row(
        "standard",
        "nil + 3: nil takes 1, partner 3",
        (NIL, 3),
        (1, 3),
        points=10 * 3 - 100 + 1,
        bags=1,
    ),
    Row("no-set", "bids 2 + 3, takes 5", (2, 3), (2, 3), points=10 * 5),
    Row("no-set", "bids 2 + 3, takes 7", (2, 3), (4, 3), points=10 * 5 + 2, bags=2),
    Row("no-set", "bids 2 + 3, takes 4", (2, 3), (2, 2), points=0),
    Row("no-set", "nil + 4: nil takes 2, partner 3", (NIL, 4), (2, 3), points=0 - 100),
    # short: the nil part is +50 / +100; the partner's 2-bid made adds 10 * 2.
    Row("short", "nil made", (NIL, 2), (0, 2), points=50 + 10 * 2),
    Row("short", "blind nil made", (BLIND_NIL, 2), (0, 2), points=100 + 10 * 2),
    Row("tennessee", "blind nil made", (BLIND_NIL, 3), (0, 3), points=200 + 10 * 3),
    Row(
        "tennessee",
        "12 bags over the game: no bag penalty",
        (1, 1),
        (4, 4),
        points=10 * 2 + 6,
        bags=6,
        bag_count_before=6,
        bag_count=12,
    ),
    Row("guide", "double nil: neither takes a trick", (NIL, NIL), (0, 0), points=400),
    Row("guide", "double nil: one takes a trick", (NIL, NIL), (1, 0), points=-400),
    Row(
        "guide",
        "double blind nil made",
        (BLIND_NIL, BLIND_NIL),
        (0, 0),
        points=800,
        event=WINS,
    ),
    Row(
        "guide",
        "double blind nil failed",
        (BLIND_NIL, BLIND_NIL),
        (0, 2),
        points=-800,
        event=LOSES,
    ),
    Row("house", "double blind nil: both made", (BLIND_NIL, BLIND_NIL), (0, 0), points=400),
    Row("house", "double blind nil: both fail", (BLIND_NIL, BLIND_NIL), (1, 1), points=-250),
    Row("house", "double blind nil: one fails", (BLIND_NIL, BLIND_NIL), (0, 3), points=-150),
    # joker: E plays BJ, N plays LJ, E wins: EW capture both (+2 +1), NS lose LJ (-2).
    # The capture itself is counted by the game (see the joker record); here, that joker
    # points add to the hand's points and never to bags.
    Row("joker", "EW: +2 +1 on a made 3 + 3", (3, 3), (3, 3), points=60 + 2 + 1, joker_points=3),
    Row("joker", "NS: -2 on a made 3 + 4", (3, 4), (3, 4), points=70 - 2, joker_points=-2),
]


@pytest.mark.parametrize("row", INDIVIDUAL_ROWS, ids=str)
def test_scoring_function_gives_the_worked_example(row: Row) -> None:
    result = score_individual(
        Rules.from_preset(row.preset),
        row.bids,
        row.tricks,
        score_before=1000,
        bag_count_before=row.bag_count_before,
        joker_points=row.joker_points,
    )
    assert result.points == row.points
    assert result.score == 1000 + row.points
    assert result.bags == row.bags
    assert result.bag_penalty == row.bag_penalty
    expected_count = row.bag_count_before + row.bags if row.bag_count is None else row.bag_count
    assert result.bag_count == expected_count
    assert result.event == row.event


NEW_YORK_ROWS = [
    # (situation, bid, blind, tricks, points, event, set)
    ("bid 6, takes 8", 6, False, 8, 10 * 6, None, False),
    ("bid 6, takes 9", 6, False, 9, -10 * 6, None, True),
    ("bid 6, takes 5", 6, False, 5, -10 * 6, None, True),
    ("bid 10, takes 11", 10, False, 11, 200, None, False),
    ("bid 10, takes 13 (Boston)", 10, False, 13, 200, WINS, False),
    ("bid 10, takes 9", 10, False, 9, -200, None, True),
    ("blind 6 made", 6, True, 6, 2 * 10 * 6, None, False),
    ("blind 6 failed", 6, True, 5, -10 * 6, None, True),
    ("first hand, team takes 8", None, False, 8, 10 * 8, None, False),
]


@pytest.mark.parametrize(
    ("situation", "bid", "blind", "tricks", "points", "event", "was_set"),
    NEW_YORK_ROWS,
    ids=[r[0] for r in NEW_YORK_ROWS],
)
def test_new_york_scoring_gives_the_worked_example(
    situation: str,
    bid: int | None,
    blind: bool,
    tricks: int,
    points: int,
    event: str | None,
    was_set: bool,
) -> None:
    result = score_new_york(bid, blind, tricks, score_before=100)
    assert (result.points, result.score) == (points, 100 + points)
    assert (result.bags, result.bag_penalty, result.bag_count) == (0, 0, 0)
    assert result.event == event
    assert result.was_set == was_set


# ---------------------------------------------------------------- end to end, through records
@dataclass(frozen=True)
class Shown:
    """What hand ``hand`` of record ``record`` must show for ``team`` (None: not checked)."""

    record: str
    hand: int
    team: str
    situation: str
    points: int
    bags: int | None = None
    bag_penalty: int | None = None
    bag_count: int | None = None

    def __str__(self) -> str:
        return f"{self.record} hand {self.hand} {self.team}: {self.situation}"


SHOWN = [
    Shown("standard", 1, "NS", "bids 3 + 4, takes 7", 10 * 7, 0),
    Shown("standard", 2, "NS", "bid 5, takes 6", 10 * 5 + 1, 1, 0, 1),
    Shown("standard", 3, "NS", "bid 2, takes 9: bag count 1 -> 8", 10 * 2 + 7, 7, 0, 8),
    Shown("standard", 4, "NS", "bid 4, takes 6, bag count 8 -> 10", 10 * 4 + 2 - 100, 2, 100, 0),
    Shown("standard", 5, "NS", "bid 5, takes 4", -10 * 5, 0, 0, 0),
    Shown("standard", 6, "NS", "bid 5, takes 1", -10 * 5, 0, 0, 0),
    Shown("standard", 7, "NS", "nil (0 tricks) + 4 (takes 4)", 100 + 10 * 4, 0),
    Shown("standard", 8, "NS", "nil + 3: nil takes 1, partner 3", 10 * 3 - 100 + 1, 1, 0, 1),
    Shown("standard", 9, "NS", "blind nil + 4, both made", 200 + 10 * 4, 0),
    Shown("house", 1, "NS", "nil + 3: nil takes 0, partner 3", 100 + 10 * 3, 0),
    Shown("house", 2, "NS", "nil + 3: nil takes 0, partner 2", 100 - 10 * 3, 0),
    Shown("house", 3, "NS", "nil + 3: nil takes 1, partner 3 (no bag)", 10 * 3 - 100, 0),
    Shown("house", 4, "NS", "blind nil (after passing) + 4", 200 + 10 * 4, 0),
    Shown("house-double-blind-nil", 3, "NS", "double blind nil: both fail", -250, 0),
    Shown("house-double-blind-nil", 4, "NS", "double blind nil: one fails", -150, 0),
    Shown("house-double-blind-nil", 5, "NS", "double blind nil: both made", 400, 0),
    Shown("no-set", 1, "NS", "bids 2 + 3, takes 5", 10 * 5, 0),
    Shown("no-set", 2, "NS", "bids 2 + 3, takes 7", 10 * 5 + 2, 2),
    Shown("no-set", 3, "NS", "bids 2 + 3, takes 4", 0, 0),
    Shown("no-set", 4, "NS", "nil + 4: nil takes 2, partner 3", 0 - 100, 0),
    Shown("short", 1, "NS", "nil made (+50), partner's 1 made", 50 + 10 * 1, 0),
    Shown("short", 3, "NS", "blind nil made (+100), partner's 3 made", 100 + 10 * 3, 0),
    Shown("tennessee", 1, "NS", "blind nil made (+200), partner's 3 made", 200 + 10 * 3, 0),
    Shown("tennessee", 2, "NS", "bid 2, takes 8: 6 bags", 10 * 2 + 6, 6, 0, 6),
    Shown("tennessee", 3, "NS", "12 bags over the game: no bag penalty", 10 * 2 + 6, 6, 0, 12),
    Shown("tennessee", 4, "NS", "blind nil made while leading", 200 + 10 * 2, 0, 0, 12),
    Shown("guide-double-nil", 1, "NS", "double nil: neither takes a trick", 400, 0),
    Shown("guide-double-nil", 2, "NS", "double nil: one takes a trick (not -399)", -400, 0),
    Shown("guide-double-blind-nil-made", 1, "NS", "double blind nil made", 800, 0),
    Shown("guide-double-blind-nil-failed", 2, "NS", "double blind nil failed", -800, 0),
    Shown("new-york", 1, "NS", "first hand, team takes 8", 10 * 8, 0, 0, 0),
    Shown("new-york", 2, "NS", "bid 6, takes 8", 10 * 6, 0, 0, 0),
    Shown("new-york", 3, "NS", "bid 6, takes 9", -10 * 6, 0, 0, 0),
    Shown("new-york", 4, "NS", "bid 10, takes 11", 200, 0, 0, 0),
    Shown("new-york", 5, "NS", "bid 6, takes 5", -10 * 6, 0, 0, 0),
    Shown("new-york", 6, "NS", "bid 10, takes 9 (set twice in a row)", -200, 0, 0, 0),
    Shown("new-york-blind", 2, "NS", "blind 6 made", 2 * 10 * 6, 0, 0, 0),
    Shown("new-york-blind", 5, "NS", "blind 6 failed", -10 * 6, 0, 0, 0),
    Shown("new-york-boston", 2, "NS", "bid 10, takes 13", 200, 0, 0, 0),
    Shown("joker", 1, "EW", "E's BJ captures N's LJ: +2 +1 on a made 6", 10 * 6 + 2 + 1, 0),
    Shown("joker", 1, "NS", "N's LJ does not win its trick: -2 on a made 7", 10 * 7 - 2, 0),
    Shown("jjdd", 1, "NS", "bids 3 + 4, takes 7", 10 * 7, 0),
]


@pytest.mark.parametrize("shown", SHOWN, ids=str)
def test_record_hand_line_shows_the_worked_example(shown: Shown) -> None:
    line = lines(shown.record)[shown.hand - 1]
    assert line["hand"] == shown.hand
    team = line["teams"][shown.team]
    assert team["points"] == shown.points
    for key in ("bags", "bag_penalty", "bag_count"):
        if getattr(shown, key) is not None:
            assert team[key] == getattr(shown, key), key
    previous = lines(shown.record)[shown.hand - 2] if shown.hand > 1 else None
    before = previous["teams"][shown.team]["score"] if previous else 0
    assert team["score"] == before + team["points"]


@pytest.mark.parametrize(
    ("record", "winner", "hands"),
    [
        ("standard", "EW", 10),  # EW pass 500 in hand 10
        ("short", "EW", 3),  # the short game ends at 250
        ("tennessee", "NS", 4),
        ("guide-double-blind-nil-made", "NS", 1),  # wins at once, below the target of 1000
        ("guide-double-blind-nil-failed", "EW", 2),  # loses at once, EW below 0
        ("new-york", "EW", 6),  # NS set in hands 5 and 6: NS lose
        ("new-york-blind", "EW", 5),  # EW reach 500
        ("new-york-boston", "NS", 2),  # a Boston wins at once
        ("house", None, 4),
        ("house-double-blind-nil", None, 5),
        ("guide-double-nil", None, 2),
        ("no-set", None, 4),
        ("joker", None, 1),
        ("jjdd", None, 1),
    ],
)
def test_record_final_line_names_the_winner(record: str, winner: str | None, hands: int) -> None:
    out = lines(record)
    assert len(out) == hands + 1
    final = out[-1]
    assert final["final"] is True
    assert final["winner"] == winner
    assert final["score"] == {t: out[-2]["teams"][t]["score"] for t in ("NS", "EW")}


def test_every_preset_has_a_record() -> None:
    presets = {load(name)["rules"]["preset"] for name in SCENARIOS}
    # Whist, Euchre: test_trump_games.py; the games.md G2 presets: test_solo.py,
    # test_three_players.py, test_bid_restrictions.py
    variants = {"solo", "cutthroat-3", "suicide", "whiz", "mirror"}
    assert presets == set(entry_of(GameKind.SPADES).preset_names) - variants


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_record_replays_to_the_independent_rescoring(name: str) -> None:
    assert lines(name) == rescore(load(name))


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_frozen_record_matches_its_scenario(name: str) -> None:
    """The frozen records were written before records stated their game, deck, seats, hand
    numbers and dealers (records.md): they stay so, as old records the engine still reads, and
    with those fields filled in from their rules they are the record the engine writes now."""
    assert with_stated_fields(load(name)) == build_record(name)


@pytest.mark.parametrize("name", ["standard", "house-double-blind-nil", "new-york", "joker"])
def test_replay_cli_prints_one_line_per_hand_and_a_final_line(name: str) -> None:
    proc = run_cli("replay", str(RECORDS_DIR / f"{name}.json"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    printed = [json.loads(line) for line in proc.stdout.splitlines()]
    assert printed == lines(name)
    assert printed == rescore(load(name))


def test_replay_cli_reads_standard_input() -> None:
    text = (RECORDS_DIR / "short.json").read_text(encoding="utf-8")
    proc = run_cli("replay", "-", stdin=text)
    assert proc.returncode == 0, proc.stderr
    assert [json.loads(line) for line in proc.stdout.splitlines()] == lines("short")


# ---------------------------------------------------------------- details of particular records
def test_house_blind_nil_bidder_passes_two_cards_then_partner_passes_two_back() -> None:
    hand = load("house")["hands"][3]
    assert {"seat": "S", "bid": "blind_nil"} in hand["bids"]
    passes = hand["passes"]
    assert [p["seat"] for p in passes] == ["S", "N"]
    assert all(len(p["cards"]) == 2 for p in passes)
    assert set(passes[0]["cards"]) <= set(hand["deal"]["S"])
    assert set(passes[1]["cards"]) <= set(hand["deal"]["N"]) | set(passes[0]["cards"])


def test_house_double_blind_nil_team_does_not_pass() -> None:
    for hand in load("house-double-blind-nil")["hands"][2:]:
        bids = {b["seat"]: b["bid"] for b in hand["bids"]}
        assert bids["N"] == bids["S"] == "blind_nil"
        assert not hand.get("passes")


def test_double_blind_nil_needed_the_house_deficit() -> None:
    out = lines("house-double-blind-nil")
    before_first = out[1]["teams"]
    deficit = before_first["EW"]["score"] - before_first["NS"]["score"]
    assert deficit >= 201


def test_joker_record_has_east_big_joker_over_north_little_joker() -> None:
    hand = load("joker")["hands"][0]
    plays = hand["plays"]
    tricks = [plays[i : i + 4] for i in range(0, 52, 4)]
    (trick,) = [t for t in tricks if "BJ" in t]
    assert "LJ" in trick
    assert "BJ" in hand["deal"]["E"]
    assert "LJ" in hand["deal"]["N"]


def test_new_york_records_give_one_bid_per_team_and_none_in_the_first_hand() -> None:
    for name in ("new-york", "new-york-blind", "new-york-boston"):
        hands = load(name)["hands"]
        assert hands[0]["bids"] == []
        for hand in hands[1:]:
            assert len(hand["bids"]) == 2
            assert {b["seat"] in "NS" for b in hand["bids"]} == {True, False}
