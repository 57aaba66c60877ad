"""The league with the games.md G1-G2 variants: solo and three-player games rated per player
(one-player teams ranked by score), partnership variants as before, claims in the stats."""

from __future__ import annotations

import dataclasses

import pytest

from bot.engine.rules import Rules
from bot.league.errors import InvalidGame
from bot.league.models import FinishedGame
from bot.league.ratings import INITIAL, Skill, rate_game, rate_sides
from bot.league.results import places, rate_finished
from bot.league.stats import summarize_record
from bot.store.league import LeagueStore
from tests.league.games import finished_game

SOLO = Rules.from_preset("solo", target=150, lose_at=-200)
THREE = Rules.from_preset("cutthroat-3", target=150, lose_at=-200)
CLAIMS = Rules.from_preset("standard", target=150, lose_at=-200, renege="claim")


def member_places(game: FinishedGame) -> dict[int, int]:
    """Each member's place: 1 for the winner, then by final score (equal scores share)."""
    w = "NESW".index(game.winner or "?")
    out = {}
    for i, sp in enumerate(game.seats):
        assert sp.user_id is not None
        better = sum(o > game.scores[i] for j, o in enumerate(game.scores) if j not in (i, w))
        out[sp.user_id] = 1 if i == w else 2 + better
    return out


@pytest.mark.parametrize(("rules", "users"), [(SOLO, (1, 2, 3, 4)), (THREE, (1, 2, 3))])
async def test_a_solo_game_is_rated_per_player_by_its_places(
    store: LeagueStore, rules: Rules, users: tuple[int, ...]
) -> None:
    game = finished_game(7, users, rules=rules)
    assert game.winner in "NESW"[: len(users)]
    recorded = await store.recorder.record(game)
    assert recorded.rated
    place = member_places(game)
    change = {c.user_id: c for c in recorded.changes}
    assert set(change) == set(users)
    # Every member started equal: a better place never gains less; the winner gains, the
    # last loses.
    by_place = sorted(users, key=lambda u: place[u])
    gains = [change[u].mu_after - change[u].mu_before for u in by_place]
    assert gains == sorted(gains, reverse=True)
    assert gains[0] > 0 > gains[-1]

    board = await store.standings.leaderboard(1)
    assert board.ranked == len(users)
    assert board.rows[0].user_id == by_place[0]
    summary = summarize_record(game.record)
    for i, u in enumerate(users):
        stats = await store.standings.stats(1, u)
        assert stats is not None
        assert stats.wins == int(place[u] == 1)
        assert stats.losses == int(place[u] != 1)
        assert stats.hands == summary.hands
        assert stats.bags == summary.seats[i].bags
        assert stats.most_frequent_partner is None  # nobody partners anybody in solo
        history = await store.history.games(1, u)
        (entry,) = history.entries
        assert entry.partner is None
        assert entry.team == "NESW"[i]
        assert sorted(o.user_id or 0 for o in entry.opponents) == sorted(set(users) - {u})
        assert entry.score_us == game.scores[i]
        assert entry.score_them == max(v for j, v in enumerate(game.scores) if j != i)
        assert entry.result == ("won" if place[u] == 1 else "lost")
    pairs = await store.standings.partnerships(1)
    assert pairs.rows == ()


async def test_a_solo_game_with_computers_stores_each_seat(store: LeagueStore) -> None:
    game = finished_game(3, (1, None, 2), rules=THREE)
    recorded = await store.recorder.record(game)
    assert not recorded.rated  # computer games are unrated by default, as in partnerships
    rows = await store.db.fetch(
        "SELECT seat, user_id, score FROM league_seats WHERE game_id = ? ORDER BY seat",
        (recorded.game_id,),
    )
    assert [(r[0], r[1], r[2]) for r in rows] == [
        (0, 1, game.scores[0]),
        (1, None, game.scores[1]),
        (2, 2, game.scores[2]),
    ]
    row = await store.db.fetchrow(
        "SELECT solo, players, winner, winner_seat FROM league_games WHERE game_id = ?",
        (recorded.game_id,),
    )
    assert row is not None
    assert (row[0], row[1], row[2]) == (1, 3, None)
    assert row[3] == "NES".index(game.winner or "?")


async def test_a_solo_member_who_left_is_rated_last(store: LeagueStore) -> None:
    game = finished_game(7, (1, 2, 3, 4), rules=SOLO)
    winner = "NESW".index(game.winner or "?")
    seats = list(game.seats)
    seats[winner] = dataclasses.replace(seats[winner], bot_level="normal", forfeit=True)
    left = dataclasses.replace(game, seats=tuple(seats))
    recorded = await store.recorder.record(left)
    change = {c.user_id: c.mu_after - c.mu_before for c in recorded.changes}
    leaver = winner + 1
    assert change[leaver] < 0
    assert change[leaver] == min(change.values())
    stats = await store.standings.stats(1, leaver)
    assert stats is not None
    assert (stats.wins, stats.losses) == (0, 1)


def test_solo_games_check_their_seats_and_winner() -> None:
    game = finished_game(7, (1, 2, 3), rules=THREE)
    with pytest.raises(InvalidGame, match="3 seats"):
        dataclasses.replace(game, seats=(*game.seats, game.seats[0]))
    with pytest.raises(InvalidGame, match="winner must be one of N, E, S"):
        dataclasses.replace(game, winner="NS")
    with pytest.raises(InvalidGame, match="3 scores"):
        dataclasses.replace(game, scores=(1, 2))


async def test_claims_made_correct_and_caught_reach_the_stats(store: LeagueStore) -> None:
    game = finished_game(11, (1, 2, 3, 4), rules=CLAIMS, with_results=True)
    results = game.results or ()
    claims = [c for r in results for c in r.claims]
    assert any(c.correct for c in claims)
    assert any(not c.correct for c in claims)
    await store.recorder.record(game)
    for i in range(4):
        stats = await store.standings.stats(1, i + 1)
        assert stats is not None
        assert stats.claims == sum(c.seat == i for c in claims)
        assert stats.claims_won == sum(c.seat == i and c.correct for c in claims)
        caught = sum(any(c.correct and c.against == i for c in r.claims) for r in results)
        assert stats.caught == caught
    # replaying the stored record counts the same claims
    assert sum(s.claims for s in summarize_record(game.record).seats) == len(claims)


def test_rate_sides_is_rate_game_for_two_teams_and_ranks_one_player_teams() -> None:
    skills = [Skill(25.0, 8.0), Skill(27.0, 4.0), Skill(22.0, 6.0), Skill(24.0, 2.0)]
    fixed = [False, False, True, False]
    for winner in (0, 1):
        ranks = [1.0, 2.0] if winner == 0 else [2.0, 1.0]
        assert rate_game(skills, fixed, winner) == rate_sides(
            skills, fixed, ((0, 2), (1, 3)), ranks
        )
    solo = rate_sides([INITIAL] * 4, [False] * 4, ((0,), (1,), (2,), (3,)), [2.0, 1.0, 2.0, 4.0])
    assert solo[1].mu > solo[0].mu == solo[2].mu > solo[3].mu
    with pytest.raises(ValueError, match="exactly one side"):
        rate_sides([INITIAL] * 3, [False] * 3, ((0,), (1,)), [1.0, 2.0])


def test_places_put_the_winner_first_and_equal_scores_together() -> None:
    assert places((500, 300, 300, 200), 0) == [1.0, 2.0, 2.0, 4.0]
    assert places((300, 300, 100), 1) == [2.0, 1.0, 3.0]  # the tie broken by bags: E won


def test_a_partnership_leaver_on_the_winning_side_is_rated_as_losing() -> None:
    game = finished_game(1, (1, 2, 3, 4))
    won = 0 if game.winner == "NS" else 1
    seats = list(game.seats)
    seats[won] = dataclasses.replace(seats[won], bot_level="normal", forfeit=True)
    left = dataclasses.replace(game, seats=tuple(seats))
    before = tuple(Skill(25.0 + i, 8.0) for i in range(4))
    after = rate_finished(left, before)
    fixed = [False] * 4
    assert after[won] == rate_game(before, fixed, 1 - won)[won]
    normal = rate_game(before, fixed, won)
    assert [after[i] for i in range(4) if i != won] == [normal[i] for i in range(4) if i != won]
