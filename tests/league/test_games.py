"""The league keeps each game apart (issue 11): standings, ratings, partnerships, stats and the
rating history of Spades, Whist and Euchre are separate; Spades is the default; Euchre and
Whist games count their own statistics; the history lists every game with its game."""

from __future__ import annotations

from bot.engine.rules import Rules
from bot.league.stats import summarize_record
from bot.store.league import LeagueStore
from tests.league.games import finished_game, play_random_game

MEMBERS = (1, 2, 3, 4)
EUCHRE = Rules.from_preset("euchre", target=5)
WHIST = Rules.from_preset("whist", target=3)


async def test_each_game_has_its_own_standings_and_ratings(store: LeagueStore) -> None:
    await store.recorder.record(finished_game(1, MEMBERS))  # Spades
    await store.recorder.record(finished_game(2, MEMBERS, rules=EUCHRE, minutes=5))
    await store.recorder.record(finished_game(3, MEMBERS, rules=EUCHRE, minutes=10))
    spades = await store.standings.leaderboard(1)
    euchre = await store.standings.leaderboard(1, game="euchre")
    whist = await store.standings.leaderboard(1, game="whist")
    assert spades.game == "spades"
    assert euchre.game == "euchre"
    assert {r.games for r in spades.rows} == {1}
    assert {r.games for r in euchre.rows} == {2}
    assert whist.rows == ()
    assert whist.ranked == 0
    # The Euchre ratings moved twice, the Spades ones once: they are different ratings.
    assert {r.user_id: r.sigma for r in spades.rows} != {r.user_id: r.sigma for r in euchre.rows}


async def test_stats_and_rating_history_are_per_game(store: LeagueStore) -> None:
    await store.recorder.record(finished_game(1, MEMBERS))
    await store.recorder.record(finished_game(2, MEMBERS, rules=EUCHRE, minutes=5))
    spades = await store.standings.stats(1, 1)
    euchre = await store.standings.stats(1, 1, game="euchre")
    assert spades is not None
    assert euchre is not None
    assert (spades.game, euchre.game) == ("spades", "euchre")
    assert spades.games == euchre.games == 1
    assert await store.standings.stats(1, 1, game="whist") is None
    assert len(await store.standings.rating_history(1, 1)) == 1
    assert len(await store.standings.rating_history(1, 1, game="euchre")) == 1
    assert await store.standings.rating_history(1, 1, game="whist") == []


async def test_partnerships_are_per_game(store: LeagueStore) -> None:
    await store.recorder.record(finished_game(2, MEMBERS, rules=EUCHRE))
    assert (await store.standings.partnerships(1)).rows == ()
    pairs = await store.standings.partnerships(1, game="euchre")
    assert pairs.game == "euchre"
    assert {(r.user_a, r.user_b) for r in pairs.rows} == {(1, 3), (2, 4)}


async def test_history_lists_every_game_with_its_game(store: LeagueStore) -> None:
    await store.recorder.record(finished_game(1, MEMBERS))
    await store.recorder.record(finished_game(4, MEMBERS, rules=WHIST, minutes=5))
    page = await store.history.games(1, 1)
    assert [e.game for e in page.entries] == ["whist", "spades"]
    assert [e.preset for e in page.entries] == ["whist", "standard"]


async def test_euchre_stats_count_makers_alone_hands_marches_and_euchres(
    store: LeagueStore,
) -> None:
    game = finished_game(2, MEMBERS, rules=EUCHRE)
    await store.recorder.record(game)
    played = play_random_game(2, EUCHRE)
    summary = summarize_record(game.record)
    for seat, user in enumerate(MEMBERS):
        stats = await store.standings.stats(1, user, game="euchre")
        assert stats is not None
        mine = summary.seats[seat]
        assert stats.hands == len(played.results)
        assert (stats.maker_hands, stats.maker_made) == (mine.maker_hands, mine.maker_made)
        assert (stats.alone_hands, stats.marches, stats.euchres) == (
            mine.alone_hands,
            mine.marches,
            mine.euchres,
        )
        assert stats.tricks == sum(r.tricks[seat] for r in played.results)
        assert stats.contract_hands == stats.nil_bids == stats.bags == 0
    makers = sum(r.maker is not None for r in played.results)
    assert sum(s.maker_hands for s in summary.seats) == makers
    made = sum(
        r.maker is not None and r.tricks[r.maker & 1] + r.tricks[(r.maker & 1) + 2] >= 3
        for r in played.results
    )
    assert sum(s.maker_made for s in summary.seats) == made
    euchred = makers - made
    assert sum(s.euchres for s in summary.seats) == 2 * euchred


def test_whist_hands_count_tricks_only() -> None:
    game = finished_game(5, MEMBERS, rules=WHIST)
    summary = summarize_record(game.record)
    assert sum(s.tricks for s in summary.seats) == 13 * summary.hands
    assert all(s.contract_hands == s.maker_hands == s.bags == 0 for s in summary.seats)
