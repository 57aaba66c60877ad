"""What a finished game changes in the league, decided without a database
(bot/league/outcome.py): rated or not, skills before and after, wins, losses, partnerships."""

from __future__ import annotations

import dataclasses

from bot.engine.rules import Rules
from bot.league.models import SeatPlayer
from bot.league.outcome import settle, skills_before
from bot.league.ratings import BOT_SKILLS, INITIAL, Skill
from tests.league.games import finished_game

MEMBERS = (1, 2, 3, 4)


def test_skills_before_are_the_members_known_ones_else_the_starting_skill() -> None:
    seats = (SeatPlayer(1, "a"), SeatPlayer(None, "Computer", "hard"), SeatPlayer(3, "c"))
    known = {1: Skill(30.0, 2.0)}
    assert skills_before(seats, known) == (Skill(30.0, 2.0), BOT_SKILLS["hard"], INITIAL)


def test_a_finished_game_of_members_is_rated_and_moves_every_rating() -> None:
    game = finished_game(1, MEMBERS)
    outcome = settle(game, skills_before(game.seats, {}), rate_bot_games=False)
    assert outcome.rated
    assert all(s.after != s.before for s in outcome.seats)
    winners = {s.seat for s in outcome.seats if s.won}
    assert len(winners) == 2
    assert all(s.lost == (s.seat not in winners) for s in outcome.seats)
    assert [c.user_id for c in outcome.changes] == list(MEMBERS)
    assert sorted((p.low, p.high) for p in outcome.partnerships) == [(1, 3), (2, 4)]
    assert [p.won for p in sorted(outcome.partnerships, key=lambda p: p.low)] == [
        0 in winners,
        1 in winners,
    ]


def test_computer_players_keep_a_game_unrated_unless_the_server_rates_them() -> None:
    game = finished_game(2, (1, None, 3, None))
    before = skills_before(game.seats, {})
    unrated = settle(game, before, rate_bot_games=False)
    assert not unrated.rated
    assert [s.after for s in unrated.seats] == list(before)
    assert unrated.changes == ()
    assert any(s.won for s in unrated.seats), "counted all the same"
    rated = settle(game, before, rate_bot_games=True)
    assert rated.rated
    assert [c.user_id for c in rated.changes] == [1, 3], "members only"
    assert [s.after for s in rated.seats if s.player.is_bot] == [before[1], before[3]]
    assert [(p.low, p.high) for p in rated.partnerships] == [(1, 3)]


def test_an_abandoned_game_is_neither_won_nor_lost_nor_rated() -> None:
    game = finished_game(3, MEMBERS, abandon_after=1)
    outcome = settle(game, skills_before(game.seats, {}), rate_bot_games=True)
    assert not outcome.rated
    assert not any(s.won or s.lost for s in outcome.seats)
    assert outcome.partnerships == ()


def test_a_table_that_ruled_the_game_out_leaves_it_unrated() -> None:
    game = dataclasses.replace(finished_game(4, MEMBERS), rateable=False)
    assert not settle(game, skills_before(game.seats, {}), rate_bot_games=True).rated


def test_a_member_who_left_lost_and_the_pair_did_not_finish_together() -> None:
    game = finished_game(5, MEMBERS)
    winner = next(i for i in range(4) if game.side_names[game.side_of(i)] == game.winner)
    seats = list(game.seats)
    seats[winner] = dataclasses.replace(seats[winner], forfeit=True)
    left = dataclasses.replace(game, seats=tuple(seats))
    outcome = settle(left, skills_before(left.seats, {}), rate_bot_games=False)
    assert outcome.seats[winner].lost
    assert not outcome.seats[winner].won
    assert outcome.seats[(winner + 2) % 4].won, "the partner keeps the table's result"
    assert len(outcome.partnerships) == 1


def test_solo_games_count_no_partnerships() -> None:
    game = finished_game(6, MEMBERS, rules=Rules.from_preset("solo", target=100))
    outcome = settle(game, skills_before(game.seats, {}), rate_bot_games=False)
    assert outcome.rated
    assert outcome.partnerships == ()
    assert sum(s.won for s in outcome.seats) == 1
