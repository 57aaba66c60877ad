"""The arena in every games.md G2 preset: solo deals rotate one player of side A round a
field of side B; partnership variants duplicate as before."""

from __future__ import annotations

import pytest

from bot.engine import GameKind, entry_of
from tools.arena import main, run_match


@pytest.mark.parametrize(("preset", "seats"), [("solo", 4), ("cutthroat-3", 3)])
def test_a_solo_deal_is_played_once_per_seat_with_a_rotated_round(preset: str, seats: int) -> None:
    s = run_match("normal", "easy", deals=2, games=1, seed=3, preset=preset)
    assert s.deals == 2
    a, b = s.sides
    # Every rotation seats one A and the rest B: A plays each hand of a deal once.
    assert a["team_hands"] == 2 * seats
    assert b["team_hands"] == 2 * seats * (seats - 1)
    assert s.games == seats  # one full game per rotation
    assert sum(s.game_wins) <= seats


def test_a_solo_match_is_deterministic() -> None:
    x = run_match("normal", "easy", deals=3, seed=5, preset="cutthroat-3")
    y = run_match("normal", "easy", deals=3, seed=5, preset="cutthroat-3", jobs=2)
    assert x.diff_mean == y.diff_mean
    assert x.sides == y.sides


@pytest.mark.parametrize("preset", ["solo", "cutthroat-3", "suicide", "whiz", "mirror"])
def test_the_cli_accepts_every_new_preset(preset: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert preset in entry_of(GameKind.SPADES).preset_names
    args = ["--ns", "normal", "--ew", "easy", "--deals", "1", "--preset", preset, "--quiet"]
    assert main(args) == 0
    assert "points per deal, A - B" in capsys.readouterr().out
