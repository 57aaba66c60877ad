"""The arena's detail log: needless overtakes of a partner's winning card, and one JSON line per
duplicate deal."""

from __future__ import annotations

import json
from pathlib import Path

from bot.engine.actions import Play, Seat
from bot.engine.cards import card
from tests.engine.builders import game_in_play, play
from tools.arena import run_match
from tools.arena_detail import overtakes_partner


def test_ruffing_the_partners_ace_as_last_to_play_is_needless_and_known() -> None:
    # North deals, East leads: E 2C, S AC (winning), W 3C; North, void in clubs, ruffs.
    game = game_in_play(
        "standard", {"E": ["2C"], "S": ["AC"], "W": ["3C"], "N": ["2S", "2H"]}, {"N": "C"}
    )
    play(game, "2C", "AC", "3C")
    assert overtakes_partner(game, Play(Seat.N, card("2S"))) == (True, True)
    # The heart would have left the trick to the partner: no overtake.
    assert overtakes_partner(game, Play(Seat.N, card("2H"))) == (False, False)


def test_a_ruff_is_needless_by_the_real_hands_but_not_known_while_an_opponent_may_beat() -> None:
    # E leads KC, S 3C; West ruffs its partner's king with North still to play.  North holds
    # only low clubs (needless by the real hands), but the ace of clubs is unseen by West.
    game = game_in_play(
        "standard",
        {"E": ["KC", "AC"], "S": ["3C"], "W": ["2S", "2H"], "N": ["4C"]},
        {"W": "C", "N": "S"},
    )
    play(game, "KC", "3C")
    assert overtakes_partner(game, Play(Seat.W, card("2S"))) == (True, False)


def test_taking_the_trick_from_an_opponent_is_no_overtake() -> None:
    game = game_in_play(
        "standard", {"E": ["2C"], "S": ["5C"], "W": ["KC"], "N": ["2S", "2H"]}, {"N": "C"}
    )
    play(game, "2C", "5C", "KC")
    assert overtakes_partner(game, Play(Seat.N, card("2S"))) == (False, False)


def test_detail_log_has_a_line_per_deal_with_both_tables(tmp_path: Path) -> None:
    path = tmp_path / "detail.jsonl"
    summary = run_match("normal", "easy", 3, seed=7, detail=str(path))
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    assert [x["deal"] for x in lines] == [0, 1, 2]
    for x in lines:
        assert [h["ns"] for h in x["hands"]] == ["normal", "easy"]
        # Duplicate: both tables play the same cards.
        assert x["hands"][0]["deal"] == x["hands"][1]["deal"]
        for h in x["hands"]:
            assert sum(h["tricks"]) == 13
            assert len(h["plays"].split()) == 52
        # The difference is side A's points less side B's, averaged over the two tables.
        t0, t1 = x["hands"]
        assert (
            x["diff"]
            == ((t0["points"][0] - t0["points"][1]) + (t1["points"][1] - t1["points"][0])) / 2
        )
    assert summary.deals == 3
