"""The league store against a real database file: recording, standings, stats, history."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from bot.engine import Rules
from bot.engine.__main__ import main as engine_main
from bot.engine.record import replay
from bot.engine.record_fields import GAME_FIELDS
from bot.league.errors import InvalidGame, SeasonError
from bot.league.models import FinishedGame, LeaderboardRow, LeaderboardSort
from bot.league.recording import prepare_game
from bot.league.stats import summarize_record
from bot.store.db import Database
from bot.store.league import LeagueStore
from tests.league.games import finished_game

FOUR = (1, 2, 3, 4)


def winners(game: FinishedGame) -> set[int]:
    team = 0 if game.winner == "NS" else 1
    return {u for i, s in enumerate(game.seats) if i % 2 == team and (u := s.user_id)}


async def test_a_recorded_game_feeds_standings_stats_and_history(store: LeagueStore) -> None:
    game = finished_game(1, FOUR)
    recorded = await store.recorder.record(game)
    assert recorded.rated
    assert recorded.season == 1
    assert {c.user_id for c in recorded.changes} == set(FOUR)
    won = winners(game)
    for change in recorded.changes:
        assert (change.delta > 0) == (change.user_id in won)

    board = await store.standings.leaderboard(1, viewer_id=1)
    # The two winners show the same rating, as do the two losers: they share a rank.
    assert [r.rank for r in board.rows] == [1, 1, 3, 3]
    assert {r.user_id for r in board.rows[:2]} == won
    assert board.pages == 1
    assert board.viewer is not None
    assert board.viewer.user_id == 1

    summary = summarize_record(game.record)
    stats = await store.standings.stats(1, 1)
    assert stats is not None
    assert stats.games == 1
    assert stats.wins == int(1 in won)
    assert stats.rated_games == 1
    assert stats.hands == summary.hands
    assert stats.contract_hands == summary.seats[0].contract_hands
    assert stats.bags == summary.seats[0].bags
    assert stats.rank is not None
    assert stats.ranked == 4
    assert stats.trend == stats.rating - 1000, "a newcomer starts at 1000"
    assert stats.most_frequent_partner is not None
    assert stats.most_frequent_partner.user_id == 3

    history = await store.history.games(1, 1)
    assert history.total == 1
    (entry,) = history.entries
    assert entry.game_id == recorded.game_id
    assert entry.seat == "N"
    assert entry.partner.user_id == 3
    assert {o.user_id for o in entry.opponents} == {2, 4}
    assert (entry.score_us, entry.score_them) == game.scores
    assert entry.result == ("won" if 1 in won else "lost")
    assert entry.rating_change == stats.rating - 1000


async def test_a_stored_record_replays_to_the_stored_scores(
    store: LeagueStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = finished_game(2, FOUR)
    recorded = await store.recorder.record(game)
    doc = await store.history.game_record(1, recorded.game_id)
    assert doc is not None
    assert doc["players"]["N"] == {"name": "player1", "bot": False}
    final = list(replay(doc))[-1]
    assert final == {
        "final": True,
        "score": {"NS": game.scores[0], "EW": game.scores[1]},
        "winner": game.winner,
    }
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert engine_main(["replay", str(path)]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1]) == final


async def test_a_record_stored_before_records_stated_their_game_is_handed_out_with_it(
    store: LeagueStore,
) -> None:
    """A game recorded by an older bot has a record without ``game``, ``deck``, ``seats`` and
    the hands' numbers and dealers (records.md): it is handed out with them, from its rules."""
    rules = Rules.from_preset("cutthroat-3", target=150, lose_at=-200)
    game = finished_game(6, (1, 2, 3), rules=rules)
    new = game.record
    old = {k: v for k, v in new.items() if k not in GAME_FIELDS}
    old["hands"] = [
        {k: v for k, v in h.items() if k not in ("hand", "dealer")} for h in new["hands"]
    ]
    recorded = await store.recorder.record(dataclasses.replace(game, record=old))
    doc = await store.history.game_record(1, recorded.game_id)
    assert doc == new
    assert (doc["game"], doc["deck"], doc["seats"]) == ("spades", "standard", ["N", "E", "S"])


async def test_record_game_commits_or_rolls_back_with_the_callers_transaction(
    db: Database, store: LeagueStore
) -> None:
    async def fails_after_recording() -> None:
        async with db.transaction() as conn:
            await store.recorder.record_game(conn, finished_game(3, FOUR))
            raise RuntimeError("the final action failed")

    with pytest.raises(RuntimeError):
        await fails_after_recording()
    assert (await store.history.games(1, 1)).total == 0
    assert (await store.standings.leaderboard(1)).rows == ()
    prepared = prepare_game(finished_game(3, FOUR))
    async with db.transaction() as conn:
        recorded = await store.recorder.record_game(conn, prepared)
    assert await store.history.game_record(1, recorded.game_id) is not None


async def test_a_record_that_does_not_rescore_to_the_game_is_refused(store: LeagueStore) -> None:
    game = finished_game(4, FOUR)
    wrong = dataclasses.replace(game, scores=(game.scores[0] + 10, game.scores[1]))
    with pytest.raises(InvalidGame, match="the record scores"):
        await store.recorder.record(wrong)
    assert (await store.standings.leaderboard(1)).rows == ()


def test_counting_from_the_engine_results_equals_replaying_the_record() -> None:
    for seed, abandon in ((12, None), (13, 2)):
        game = finished_game(seed, FOUR, abandon_after=abandon)
        fast = finished_game(seed, FOUR, abandon_after=abandon, with_results=True)
        assert fast.results is not None
        assert prepare_game(fast).summary.seats == prepare_game(game).summary.seats
        assert prepare_game(fast).summary.scores == game.scores
        wrong = dataclasses.replace(fast, scores=(1, 2))
        with pytest.raises(InvalidGame, match="the record scores"):
            prepare_game(wrong)


def test_a_record_under_other_rules_is_refused() -> None:
    game = finished_game(4, FOUR)
    record = {**game.record, "rules": {"preset": "short"}}
    with pytest.raises(InvalidGame, match="not the game's rules"):
        prepare_game(dataclasses.replace(game, record=record))
    record = {**game.record, "rules": {"preset": "standard", "colour": "red"}}
    with pytest.raises(InvalidGame, match="rules are invalid"):
        prepare_game(dataclasses.replace(game, record=record))


def test_a_finished_game_checks_its_seats() -> None:
    game = finished_game(4, FOUR)
    seats = (game.seats[0], game.seats[0], game.seats[2], game.seats[3])
    with pytest.raises(InvalidGame, match="two seats"):
        dataclasses.replace(game, seats=seats)
    with pytest.raises(InvalidGame, match="has a winner"):
        dataclasses.replace(game, winner=None)


async def test_games_with_computer_players_are_counted_but_unrated_by_default(
    store: LeagueStore,
) -> None:
    game = finished_game(5, (1, None, 3, 4))
    recorded = await store.recorder.record(game)
    assert not recorded.rated
    assert recorded.changes == ()
    stats = await store.standings.stats(1, 1)
    assert stats is not None
    assert stats.games == 1
    assert stats.rated_games == 0
    assert stats.rating == 1000, "unrated: still the newcomer's 1000"
    assert (await store.standings.rating_history(1, 1)) == []
    assert (await store.history.games(1, 1)).entries[0].opponents[0].bot_level == "normal"


async def test_a_server_can_rate_games_against_computer_players(store: LeagueStore) -> None:
    await store.settings.update(1, rate_bot_games=True)
    recorded = await store.recorder.record(finished_game(5, (1, None, 3, 4)))
    assert recorded.rated
    assert {c.user_id for c in recorded.changes} == {1, 3, 4}
    assert len(await store.standings.rating_history(1, 1)) == 1


async def test_abandoned_games_are_stored_and_counted_but_unrated(store: LeagueStore) -> None:
    game = finished_game(6, FOUR, abandon_after=1)
    recorded = await store.recorder.record(game)
    assert not recorded.rated
    stats = await store.standings.stats(1, 2)
    assert stats is not None
    assert (stats.games, stats.wins, stats.losses, stats.abandoned) == (1, 0, 0, 1)
    assert stats.win_rate is None
    assert stats.most_frequent_partner is None  # partnerships count finished games only
    assert (await store.history.games(1, 2)).entries[0].result == "abandoned"
    doc = await store.history.game_record(1, recorded.game_id)
    assert list(replay(doc))[-1]["score"] == {"NS": game.scores[0], "EW": game.scores[1]}


async def _league(store: LeagueStore, games: int = 24, players: int = 24) -> None:
    for seed in range(games):
        a, b, c, d = ((seed * 3 + k * 7) % players + 1 for k in range(4))
        assert len({a, b, c, d}) == 4
        await store.recorder.record(finished_game(100 + seed, (a, b, c, d), minutes=seed))


async def _all_rows(store: LeagueStore, sort: LeaderboardSort) -> list[LeaderboardRow]:
    rows: list[LeaderboardRow] = []
    first = await store.standings.leaderboard(1, sort=sort)
    for page in range(first.pages):
        rows.extend((await store.standings.leaderboard(1, sort=sort, page=page)).rows)
    return rows


_KEYS = {
    LeaderboardSort.RATING: lambda r: (-(r.mu - 3 * r.sigma), -r.rated_games, r.user_id),
    LeaderboardSort.WINS: lambda r: (-r.wins, r.rated_games, r.user_id),
    LeaderboardSort.WIN_RATE: lambda r: (-r.win_rate, -r.rated_games, r.user_id),
    LeaderboardSort.GAMES: lambda r: (-r.rated_games, -r.wins, r.user_id),
}


@pytest.mark.parametrize("sort", list(LeaderboardSort))
async def test_leaderboard_pages_in_order_and_always_shows_the_viewer(
    store: LeagueStore, sort: LeaderboardSort
) -> None:
    await _league(store)
    rows = await _all_rows(store, sort)
    assert len(rows) == 24
    if sort is LeaderboardSort.RATING:  # equal ratings share a rank: 1 + how many show more
        assert [r.rank for r in rows] == [1 + sum(o.rating > r.rating for o in rows) for r in rows]
    else:
        assert [r.rank for r in rows] == list(range(1, 25))
    assert rows == sorted(rows, key=_KEYS[sort])
    for expected in rows:
        page = await store.standings.leaderboard(
            1, sort=sort.value, page=0, viewer_id=expected.user_id
        )
        assert page.pages == 3
        assert len(page.rows) == 10
        assert page.viewer == expected


async def test_leaderboard_hides_players_below_the_minimum_and_clamps_pages(
    store: LeagueStore,
) -> None:
    await _league(store)
    await store.settings.update(1, min_games=5)
    everyone = await _all_rows(store, LeaderboardSort.GAMES)
    assert all(r.rated_games >= 5 for r in everyone)
    assert (await store.standings.leaderboard(1)).ranked == len(everyone)
    board = await store.standings.leaderboard(1, page=99, viewer_id=10_000)
    assert board.page == board.pages - 1
    assert board.viewer is None
    stats = await store.standings.stats(1, everyone[0].user_id)
    assert stats is not None
    assert stats.rank is not None
    await store.settings.update(1, min_games=1000)
    board = await store.standings.leaderboard(1, viewer_id=everyone[0].user_id)
    assert board.rows == ()
    assert board.pages == 1
    assert board.viewer is not None
    assert board.viewer.rank is None


async def test_leaderboard_sort_names_are_checked(store: LeagueStore) -> None:
    page = await store.standings.leaderboard(1, sort="win rate")
    assert page.sort is LeaderboardSort.WIN_RATE
    with pytest.raises(ValueError, match="sort must be one of"):
        await store.standings.leaderboard(1, sort="elo")


async def test_partnerships_rank_the_best_pairs(store: LeagueStore) -> None:
    await _league(store)
    page = await store.standings.partnerships(1)
    assert page.has_next
    rows = page.rows + (await store.standings.partnerships(1, page=1)).rows
    assert len(rows) > 10
    assert [r.rank for r in rows] == list(range(1, len(rows) + 1))
    scores = [((r.wins + 1) / (r.games + 2), r.games) for r in rows]
    assert scores == sorted(scores, reverse=True)
    assert all(r.user_a < r.user_b for r in rows)
    assert rows[0].name_a == f"player{rows[0].user_a}"


async def test_history_pages_newest_first_and_rating_history_follows_rated_games(
    store: LeagueStore,
) -> None:
    for seed in range(13):
        await store.recorder.record(
            finished_game(200 + seed, (1, 2 + seed % 3, 9, 8), minutes=seed)
        )
    first = await store.history.games(1, 1)
    second = await store.history.games(1, 1, page=1)
    assert (first.total, first.pages, len(first.entries), len(second.entries)) == (13, 2, 10, 3)
    ids = [e.game_id for e in first.entries + second.entries]
    assert ids == sorted(ids, reverse=True)
    points = await store.standings.rating_history(1, 1)
    assert len(points) == 13
    stats = await store.standings.stats(1, 1)
    assert stats is not None
    assert points[-1].rating == stats.rating
    assert stats.trend == stats.rating - points[2].rating
    assert stats.most_frequent_partner is not None
    assert stats.most_frequent_partner.user_id == 9
    assert stats.most_frequent_partner.games == 13


async def test_new_season_resets_standings_and_old_seasons_stay_viewable(
    store: LeagueStore,
) -> None:
    await store.recorder.record(finished_game(7, FOUR))
    season = await store.settings.start_season(1, "  Spring   2026 ")
    assert (season.number, season.name, season.current) == (2, "Spring 2026", True)
    assert (await store.settings.get(1)).current_season == 2
    assert await store.standings.stats(1, 1) is None
    assert (await store.standings.leaderboard(1)).rows == ()
    old = await store.standings.leaderboard(1, season=1)
    assert len(old.rows) == 4
    assert (await store.standings.stats(1, 1, season=1)) is not None
    recorded = await store.recorder.record(finished_game(8, FOUR))
    assert recorded.season == 2
    stats = await store.standings.stats(1, 1)
    assert stats is not None
    assert stats.games == 1
    seasons = await store.settings.seasons(1)
    assert [(s.number, s.name, s.current) for s in seasons] == [
        (1, "Season 1", False),
        (2, "Spring 2026", True),
    ]
    assert (await store.history.games(1, 1)).total == 2  # history spans seasons
    with pytest.raises(SeasonError, match="already a season called"):
        await store.settings.start_season(1, "spring 2026")
    with pytest.raises(SeasonError, match="cannot be empty"):
        await store.settings.start_season(1, "   ")
    with pytest.raises(SeasonError, match="no season 3"):
        await store.standings.leaderboard(1, season=3)


async def test_a_server_without_games_has_its_first_season(store: LeagueStore) -> None:
    seasons = await store.settings.seasons(5)
    assert [(s.number, s.name, s.current, s.started_at) for s in seasons] == [
        (1, "Season 1", True, None)
    ]
    season = await store.settings.start_season(5)
    assert season.name == "Season 2"
    assert [s.number for s in await store.settings.seasons(5)] == [1, 2]


async def test_servers_never_see_each_others_league(store: LeagueStore) -> None:
    one = await store.recorder.record(finished_game(9, FOUR, guild_id=1))
    two = await store.recorder.record(finished_game(10, FOUR, guild_id=2))
    await store.recorder.record(finished_game(11, (1, 2, 5, 6), guild_id=2))
    assert await store.history.game_record(2, one.game_id) is None
    assert await store.history.game_record(1, two.game_id) is None
    assert (await store.history.games(1, 1)).total == 1
    assert (await store.history.games(2, 1)).total == 2
    s1, s2 = await store.standings.stats(1, 1), await store.standings.stats(2, 1)
    assert s1 is not None
    assert s2 is not None
    assert (s1.games, s2.games) == (1, 2)
    assert len((await store.standings.leaderboard(1)).rows) == 4
    assert len((await store.standings.leaderboard(2)).rows) == 6
    await store.settings.start_season(1)
    assert (await store.settings.get(2)).current_season == 1
    assert await store.standings.stats(2, 5) is not None
    assert await store.standings.stats(1, 5) is None


# ---------------------------------------------------------------------- fair play (issue 9)
async def test_min_games_counts_rated_games_only(store: LeagueStore) -> None:
    """Opening and abandoning tables (or playing with computers) never earns a rank."""
    await store.settings.update(1, min_games=2)
    for seed in range(3):
        await store.recorder.record(finished_game(seed, FOUR, abandon_after=1))
        await store.recorder.record(finished_game(10 + seed, (1, 2, None, None)))
    stats = await store.standings.stats(1, 1)
    assert stats is not None
    assert (stats.games, stats.rated_games, stats.abandoned) == (6, 0, 3)
    assert stats.rank is None
    assert (await store.standings.leaderboard(1)).ranked == 0
    await store.recorder.record(finished_game(20, FOUR))
    await store.recorder.record(finished_game(21, FOUR))
    board = await store.standings.leaderboard(1, viewer_id=1)
    assert board.ranked == 4
    assert all(r.rated_games == 2 for r in board.rows)


async def test_equal_ratings_share_a_rank_across_pages(store: LeagueStore) -> None:
    """Rated pairings that leave many players showing the same rating: every player's rank is
    one more than the number of players showing a higher rating, on every page."""
    for table in range(6):  # six tables of four newcomers: 12 winners, 12 losers
        a, b, c, d = range(100 + 4 * table, 104 + 4 * table)
        await store.recorder.record(finished_game(table, (a, b, c, d)))
    rows: list[LeaderboardRow] = []
    page = 0
    while True:
        board = await store.standings.leaderboard(1, page=page)
        rows.extend(board.rows)
        if page >= board.pages - 1:
            break
        page += 1
    shown = [r.rating for r in rows]
    assert len(set(shown)) < len(shown), "the league has ties to share"
    assert [r.rank for r in rows] == [1 + sum(s > mine for s in shown) for mine in shown]
    assert [r.rank for r in rows] == [1] * 12 + [13] * 12, "ties across the page boundary"
    for r in rows:
        stats = await store.standings.stats(1, r.user_id)
        assert stats is not None
        assert stats.rank == r.rank


async def test_leaving_a_rated_game_counts_as_a_loss_whatever_the_score(
    store: LeagueStore,
) -> None:
    game = finished_game(1, FOUR)
    winner_seat = 0 if game.winner == "NS" else 1
    leaver = FOUR[winner_seat]  # N or E, on the side that went on to win
    seats = list(game.seats)
    seats[winner_seat] = dataclasses.replace(seats[winner_seat], bot_level="normal", forfeit=True)
    left = dataclasses.replace(game, seats=(seats[0], seats[1], seats[2], seats[3]))
    recorded = await store.recorder.record(left)
    assert recorded.rated, "a rated game stays rated when a member leaves"
    change = {c.user_id: c for c in recorded.changes}
    assert change[leaver].delta < 0, "the leaver is rated as having lost"
    partner = FOUR[winner_seat + 2]
    assert change[partner].delta > 0, "the partner keeps the win the table reached"
    stats = await store.standings.stats(1, leaver)
    assert stats is not None
    assert (stats.wins, stats.losses) == (0, 1)
    assert (await store.history.games(1, leaver)).entries[0].result == "left (lost)"
    # Finishing would have been a win: leaving never beats finishing.
    stayed = await store.standings.stats(1, partner)
    assert stayed is not None
    assert stayed.rating > stats.rating
