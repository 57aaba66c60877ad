"""Ratings: openskill Plackett-Luce over two teams of two, computer players fixed."""

from __future__ import annotations

import pytest

from bot.league.ratings import (
    BOT_SKILLS,
    INITIAL,
    Skill,
    conservative,
    display_rating,
    rate_game,
)

NOBODY_FIXED = (False, False, False, False)


def test_new_player_shows_1000_and_conservative_is_mu_minus_three_sigma() -> None:
    assert display_rating(INITIAL.mu, INITIAL.sigma) == 1000
    assert conservative(30.0, 2.0) == 24.0
    assert display_rating(30.0, 2.0) == 1960


def test_a_new_player_never_shows_zero_or_a_negative_rating() -> None:
    """One loss costs a newcomer about a tenth of the 1000 they start with, and even fifty
    losses in a row against newcomers never take the displayed rating to 0 or below."""
    me = INITIAL
    shown = [me.display]
    for _ in range(50):
        me = rate_game((me, INITIAL, INITIAL, INITIAL), NOBODY_FIXED, winner=1)[0]
        shown.append(me.display)
    assert shown[0] == 1000
    assert 850 <= shown[1] < 1000
    assert min(shown) > 0


def test_winners_go_up_and_losers_go_down() -> None:
    skills = (INITIAL,) * 4
    new = rate_game(skills, NOBODY_FIXED, winner=0)  # NS (seats N, S) win
    n, e, s, w = new
    assert n.mu > INITIAL.mu
    assert s.mu > INITIAL.mu
    assert e.mu < INITIAL.mu
    assert w.mu < INITIAL.mu
    assert all(x.sigma < INITIAL.sigma for x in new)
    new = rate_game(skills, NOBODY_FIXED, winner=1)
    assert new[1].mu > INITIAL.mu
    assert new[3].mu > INITIAL.mu
    assert new[0].mu < INITIAL.mu
    assert new[2].mu < INITIAL.mu


def test_upset_moves_ratings_more_than_an_expected_win_or_a_game_of_equals() -> None:
    strong, weak, equal = Skill(30.0, 3.0), Skill(20.0, 3.0), Skill(25.0, 3.0)
    # NS strong, EW weak
    expected = rate_game((strong, weak, strong, weak), NOBODY_FIXED, winner=0)
    upset = rate_game((strong, weak, strong, weak), NOBODY_FIXED, winner=1)
    equals = rate_game((equal,) * 4, NOBODY_FIXED, winner=1)
    gain_expected = expected[0].mu - strong.mu
    gain_upset = upset[1].mu - weak.mu
    gain_equals = equals[1].mu - equal.mu
    assert gain_upset > gain_equals > gain_expected > 0
    assert strong.mu - upset[0].mu > gain_expected


def test_partnerships_change_and_each_player_keeps_their_own_rating() -> None:
    a, b = Skill(28.0, 4.0), Skill(22.0, 6.0)
    new = rate_game((a, INITIAL, b, INITIAL), NOBODY_FIXED, winner=0)
    assert new[0] != new[2]  # partners are rated individually
    assert new[2].mu - b.mu > new[0].mu - a.mu  # the more uncertain player moves more


def test_computer_players_keep_their_fixed_rating() -> None:
    bot = BOT_SKILLS["hard"]
    new = rate_game((INITIAL, bot, INITIAL, bot), (False, True, False, True), winner=0)
    assert new[1] == bot
    assert new[3] == bot
    assert new[0].mu > INITIAL.mu


def test_computer_levels_are_ordered() -> None:
    assert BOT_SKILLS["easy"].mu < BOT_SKILLS["normal"].mu < BOT_SKILLS["hard"].mu


def test_rate_game_refuses_a_winner_that_is_not_a_team() -> None:
    with pytest.raises(ValueError, match="winner"):
        rate_game((INITIAL,) * 4, NOBODY_FIXED, winner=2)
