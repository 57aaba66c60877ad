"""The arena's virtual clock: a match of searching players repeats to the card, so that two
versions of a player compared on the same deals differ only where the change matters."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bot.ai.levels import AnyGamePlayer
from bot.engine.rules import Rules
from tools import arena_players
from tools.arena import Task, main, run_task
from tools.arena_journal import Journal, JournalMismatch, match_header
from tools.arena_players import player, use_clock
from tools.serve_player import BID_TICK, PLAY_TICK, VirtualClock

BUDGETS = (("hard", 0.01), ("normal", 0.05))


def _task(number: int, clock: str) -> Task:
    return Task("deal", number, 5, Rules.from_preset("standard"), "hard", "normal", BUDGETS, clock)


def test_a_deal_played_twice_on_the_virtual_clock_is_played_card_for_card_alike() -> None:
    try:
        first = run_task(_task(0, "virtual"))
        # Another process state in between: a fresh player, other deals played before.
        use_clock("cpu")
        run_task(_task(1, "virtual"))
        again = run_task(_task(0, "virtual"))
    finally:
        use_clock("cpu")
    assert first.hands == again.hands  # the same bids and every card in the same order
    assert [ln.points for ln in first.lines] == [ln.points for ln in again.lines]
    assert first.diff == again.diff


def test_the_virtual_clock_prices_a_bid_reading_above_a_card_reading() -> None:
    clock = VirtualClock()
    clock.for_bid(True)
    t0 = clock()
    assert clock() - t0 == pytest.approx(BID_TICK)
    clock.for_bid(False)
    t1 = clock()
    assert clock() - t1 == pytest.approx(PLAY_TICK)


def test_searching_players_get_the_clock_of_the_process_mode() -> None:
    try:
        use_clock("virtual")
        searcher = player("hard")
        assert isinstance(searcher, AnyGamePlayer)
        assert isinstance(searcher.clock, VirtualClock)
        use_clock("cpu")
        searcher = player("hard")
        assert isinstance(searcher, AnyGamePlayer)
        assert searcher.clock is time.thread_time
    finally:
        use_clock("cpu")
    with pytest.raises(ValueError, match="unknown clock"):
        arena_players.use_clock("wall")


def test_a_virtual_clock_match_has_its_own_journal(tmp_path: Path) -> None:
    rules = Rules.from_preset("standard")
    budgets = dict(BUDGETS)
    path = tmp_path / "m.jsonl"
    Journal(str(path), match_header("hard", "normal", rules, 5, budgets))
    with pytest.raises(JournalMismatch, match="clock"):
        Journal(str(path), match_header("hard", "normal", rules, 5, budgets, "virtual"))
    assert "clock" not in match_header("hard", "normal", rules, 5, budgets)


def test_the_command_line_takes_the_clock(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "m.jsonl"
    argv = ["--ns", "hard", "--ew", "normal", "--deals", "1", "--budget", "0.01", "--quiet"]
    try:
        assert main([*argv, "--clock", "virtual", "--results", str(out)]) == 0
    finally:
        use_clock("cpu")
    assert '"clock": "virtual"' in out.read_text(encoding="utf-8").splitlines()[0]
    assert "points per deal" in capsys.readouterr().out
