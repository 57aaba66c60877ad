"""records.md: export, replay, and every refusal of ``python -m bot.engine replay``: exit code 1
and exactly one JSON line on standard error naming the error, the hand, the 1-based index of
the action under ``bid`` / ``pass`` / ``play``, the action and a reason."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from bot.engine import SEATS, Bid, Game, Phase, RecordError, Rules, Seat, card
from bot.engine.record import Replayer, export_record, replay
from tests.engine.builders import deal_action, fill_deal, make_bids, play_hand
from tests.engine.reference import rescore
from tests.engine.test_worked_examples import load, run_cli

Doc = dict[str, Any]


def wrong_seat_in_a_bid(doc: Doc) -> Doc:
    doc["hands"][0]["bids"][0]["seat"] = "N"  # East bids first when North deals
    return doc


def bid_of_zero(doc: Doc) -> Doc:
    doc["hands"][0]["bids"][0]["bid"] = 0
    return doc


def duplicate_card_in_a_deal(doc: Doc) -> Doc:
    deal = doc["hands"][1]["deal"]
    deal["N"][0] = deal["E"][0]
    return doc


def unknown_option(doc: Doc) -> Doc:
    doc["rules"]["colour"] = "red"
    return doc


def bad_option_value(doc: Doc) -> Doc:
    doc["rules"]["target"] = 5
    return doc


def card_not_in_hand(doc: Doc) -> Doc:
    hand = doc["hands"][0]
    hand["plays"][0] = hand["deal"]["S"][0]  # East leads with one of South's cards
    return doc


def not_following_suit(doc: Doc) -> Doc:
    hand = doc["hands"][0]
    led = hand["plays"][0][1]
    hand["plays"][1] = next(c for c in hand["deal"]["S"] if c[1] not in (led, "S"))
    return doc


def spade_led_before_broken(doc: Doc) -> Doc:
    hand = doc["hands"][0]
    hand["plays"][0] = next(c for c in hand["deal"]["E"] if c[1] == "S")
    return doc


def hand_after_the_game_is_over(doc: Doc) -> Doc:
    doc["hands"].append(copy.deepcopy(doc["hands"][-1]))
    return doc


def not_a_card_code(doc: Doc) -> Doc:
    doc["hands"][0]["plays"][4] = "ZZ"
    return doc


def play_before_bidding_ends(doc: Doc) -> Doc:
    del doc["hands"][0]["bids"][3]
    return doc


def early_stop_before_the_last_hand(doc: Doc) -> Doc:
    del doc["hands"][0]["plays"][-1]
    return doc


def wrong_format(doc: Doc) -> Doc:
    doc["format"] = "spades-record/2"
    return doc


REFUSALS: list[tuple[str, Callable[[Doc], Doc], Doc]] = [
    ("standard", wrong_seat_in_a_bid,
     {"error": "illegal bid", "hand": 1, "bid": 1, "seat": "N", "value": 3,
      "reason": "It is East's turn to bid"}),
    ("standard", bid_of_zero,
     {"error": "illegal bid", "hand": 1, "bid": 1, "seat": "E", "value": 0,
      "reason": '0 is not a bid (1-13, "nil" or "blind_nil")'}),
    ("standard", duplicate_card_in_a_deal,
     {"error": "invalid deal", "hand": 2, "reason": "A card is dealt twice"}),
    ("standard", unknown_option,
     {"error": "unknown option", "option": "colour", "reason": "Unknown rule option 'colour'"}),
    ("standard", bad_option_value,
     {"error": "invalid rules", "option": "target",
      "reason": "target must be between 100 and 1000, not 5"}),
    ("standard", hand_after_the_game_is_over,
     {"error": "hand after game over", "hand": 11, "reason": "the game was already over"}),
    ("standard", not_a_card_code,
     {"error": "malformed record", "hand": 1, "play": 5, "reason": "'ZZ' is not a card code"}),
    ("standard", play_before_bidding_ends,
     {"error": "illegal play", "hand": 1, "play": 1, "card": "5H",
      "reason": "bidding is not over"}),
    ("standard", early_stop_before_the_last_hand,
     {"error": "malformed record", "hand": 1, "reason": "only the last hand may stop early"}),
    ("standard", wrong_format,
     {"error": "malformed record", "reason": "format must be 'spades-record/1'"}),
]  # fmt: skip


def expected_play_error(doc: Doc, index: int, reason: str) -> Doc:
    return {"error": "illegal play", "hand": 1, "play": index,
            "card": doc["hands"][0]["plays"][index - 1], "reason": reason}  # fmt: skip


def run_refusal(doc: Doc) -> tuple[list[Doc], Doc]:
    """Replay through the CLI: the stdout lines and the one stderr line."""
    proc = run_cli("replay", "-", stdin=json.dumps(doc))
    assert proc.returncode == 1
    err = proc.stderr.splitlines()
    assert len(err) == 1, proc.stderr
    with pytest.raises(RecordError) as info:
        list(replay(doc))
    assert json.loads(err[0]) == info.value.details
    return [json.loads(line) for line in proc.stdout.splitlines()], json.loads(err[0])


@pytest.mark.parametrize(
    ("record", "change", "error"), REFUSALS, ids=[c.__name__ for _, c, _ in REFUSALS]
)
def test_replay_refuses_a_bad_record_with_one_json_line(
    record: str, change: Callable[[Doc], Doc], error: Doc
) -> None:
    _, line = run_refusal(change(copy.deepcopy(load(record))))
    assert line == error


@pytest.mark.parametrize(
    ("change", "index", "reason"),
    [
        (card_not_in_hand, 1, "You don't hold {card}"),
        (not_following_suit, 2, "You must follow ♥"),
        (spade_led_before_broken, 1, "Spades are not broken yet"),
    ],
    ids=["card not in hand", "not following suit", "spade led before broken"],
)
def test_replay_refuses_an_illegal_play(
    change: Callable[[Doc], Doc], index: int, reason: str
) -> None:
    doc = change(copy.deepcopy(load("standard")))
    _, line = run_refusal(doc)
    shown = str(card(doc["hands"][0]["plays"][index - 1]))
    assert line == expected_play_error(doc, index, reason.format(card=shown))


def test_replay_prints_the_hands_before_the_refusal() -> None:
    out, line = run_refusal(duplicate_card_in_a_deal(copy.deepcopy(load("standard"))))
    assert line["hand"] == 2
    assert out == rescore(load("standard"))[:1]


def test_replay_refuses_a_pass_the_rules_do_not_allow() -> None:
    doc = copy.deepcopy(load("house"))
    hand = doc["hands"][3]
    stranger = hand["deal"]["E"][0]
    hand["passes"][0]["cards"][0] = stranger
    _, line = run_refusal(doc)
    assert line == {"error": "illegal pass", "hand": 4, "pass": 1, "seat": "S",
                    "cards": hand["passes"][0]["cards"],
                    "reason": f"You don't hold {card(stranger)}"}  # fmt: skip


def test_replay_refuses_a_pass_out_of_turn() -> None:
    doc = copy.deepcopy(load("house"))
    passes = doc["hands"][3]["passes"]
    passes.reverse()
    _, line = run_refusal(doc)
    assert line == {"error": "illegal pass", "hand": 4, "pass": 1, "seat": "N",
                    "cards": passes[0]["cards"],
                    "reason": "It is South's turn to pass cards"}  # fmt: skip


def test_replay_refuses_a_bid_in_the_new_york_first_hand() -> None:
    doc = copy.deepcopy(load("new-york"))
    doc["hands"][0]["bids"] = [{"seat": "E", "bid": 5}]
    _, line = run_refusal(doc)
    assert line == {"error": "illegal bid", "hand": 1, "bid": 1, "seat": "E", "value": 5,
                    "reason": "the first hand is played without bidding"}  # fmt: skip


def test_replay_refuses_a_new_york_bid_by_the_wrong_team() -> None:
    doc = copy.deepcopy(load("new-york"))
    doc["hands"][1]["bids"].reverse()  # dealer E: NS (left of the dealer) bid first
    _, line = run_refusal(doc)
    assert line == {"error": "illegal bid", "hand": 2, "bid": 1, "seat": "E", "value": 4,
                    "reason": "it is team NS's turn to bid"}  # fmt: skip


def test_new_york_team_bid_may_name_either_partner() -> None:
    doc = copy.deepcopy(load("new-york"))
    bids = doc["hands"][1]["bids"]
    for b in bids:
        b["seat"] = Seat[b["seat"]].partner.name
    assert list(replay(doc)) == list(replay(load("new-york")))


@pytest.mark.parametrize(
    ("text", "reason"),
    [("{not json", "not JSON: "), ("[]", "a record is a JSON object"),
     ('"spades"', "a record is a JSON object")],
)  # fmt: skip
def test_replay_refuses_a_malformed_document(text: str, reason: str) -> None:
    proc = run_cli("replay", "-", stdin=text)
    assert proc.returncode == 1
    assert proc.stdout == ""
    (line,) = proc.stderr.splitlines()
    err = json.loads(line)
    assert err["error"] == "malformed record"
    assert err["reason"].startswith(reason)


def test_replay_of_a_missing_file_is_an_error_line() -> None:
    proc = run_cli("replay", "/nonexistent/record.json")
    assert proc.returncode == 1
    (line,) = proc.stderr.splitlines()
    assert json.loads(line)["error"] == "unreadable record"


def test_an_incomplete_last_hand_gives_a_complete_false_line() -> None:
    doc = copy.deepcopy(load("no-set"))
    last = doc["hands"][-1]
    del last["plays"][21:]  # five tricks and one card
    proc = run_cli("replay", "-", stdin=json.dumps(doc))
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert out == rescore(doc)
    line = out[-2]
    assert line["complete"] is False
    assert "teams" not in line
    assert line["hand"] == len(doc["hands"])
    assert line["dealer"] == "W"
    assert sum(line["tricks"].values()) == 5
    before = {t: out[-3]["teams"][t]["score"] for t in ("NS", "EW")}
    assert out[-1] == {"final": True, "score": before, "winner": None}


def test_a_hand_stopped_during_bidding_is_incomplete_too() -> None:
    doc = copy.deepcopy(load("short"))
    last = doc["hands"][-1]
    last["plays"] = []
    del last["bids"][2:]
    out = list(replay(doc))
    assert out[-2] == {"hand": 3, "dealer": "S", "tricks": dict.fromkeys("NESW", 0),
                       "complete": False}  # fmt: skip


# ---------------------------------------------------------------- export
def random_game_until(preset: str, seed: int, first_dealer: Seat, stop: int) -> Game:
    rng = random.Random(seed)
    game = Game(Rules.from_preset(preset), first_dealer)
    steps = 0
    while not game.over and steps < stop:
        if game.phase is Phase.DEAL:
            game.deal(rng)
            continue
        game.apply(rng.choice(game.legal_actions()))
        steps += 1
    return game


@pytest.mark.parametrize("preset", ["standard", "house", "guide", "joker", "new-york"])
@pytest.mark.parametrize("stop", [3, 30, 61, 130, 200])
def test_export_of_a_game_in_progress_replays_to_the_same_record(preset: str, stop: int) -> None:
    for first_dealer in SEATS:
        game = random_game_until(preset, stop * 4 + first_dealer, first_dealer, stop)
        doc = json.loads(json.dumps(export_record(game)))
        replayer = Replayer(doc)
        out = list(replayer.lines())
        assert export_record(replayer.game) == doc
        assert out == rescore(doc)
        assert replayer.game.scores == game.scores
        assert replayer.game.tricks_won == game.tricks_won


def test_new_york_export_lists_the_team_left_of_the_dealer_first_mid_hand() -> None:
    # Hand 2 dealt by North: EW bid first.  (The export used to list NS first.)
    game = Game(Rules.from_preset("new-york"), Seat.W)
    play_hand(game, None, {"N": 4, "E": 3, "S": 3, "W": 3})
    game.apply(deal_action(fill_deal("jjdd", {})))
    assert game.dealer == Seat.N
    make_bids(game, {"NS": 5, "EW": 6})
    doc = export_record(game)
    assert [b["seat"] for b in doc["hands"][1]["bids"]] == ["W", "N"]  # the answering partners
    assert list(replay(doc))[-2]["complete"] is False


def test_export_names_players_when_given() -> None:
    game = Game(Rules.from_preset("standard", target=300))
    players = {s.name: {"name": f"p{s.name}", "bot": s is Seat.E} for s in SEATS}
    doc = export_record(game, players)
    assert doc["players"] == players
    assert doc["rules"] == {"preset": "standard", "target": 300}
    assert "players" not in export_record(game)
    assert list(replay(doc)) == [{"final": True, "score": {"NS": 0, "EW": 0}, "winner": None}]


def test_replay_records_bids_as_the_engine_made_them() -> None:
    doc = load("standard")
    replayer = Replayer(doc)
    list(replayer.lines())
    first = replayer.game.results[0].bids
    assert first == tuple(Bid(Seat[b["seat"]], b["bid"]) for b in doc["hands"][0]["bids"])
