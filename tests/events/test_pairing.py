"""The pure pairing and scoring rules of tournaments: Swiss, single elimination, duplicate."""

from __future__ import annotations

import itertools
import random

import pytest

from bot.events.pairing import duplicate, elimination, swiss
from bot.events.pairing.model import EventError, GameSlot, TournamentSettings, winner_by_score


def done(round_no: int, slot: int, a: int, b: int, sa: int, sb: int) -> GameSlot:
    return GameSlot(
        round_no, slot, 1, (a, b), "done", scores=(sa, sb), winner=winner_by_score((a, b), (sa, sb))
    )


def bye(round_no: int, slot: int, e: int) -> GameSlot:
    return GameSlot(round_no, slot, 1, (e,), "bye")


def play_swiss(entries: list[int], rounds: int, seed: int) -> list[GameSlot]:
    """Pair and play ``rounds`` Swiss rounds with random scores."""
    rng = random.Random(seed)
    games: list[GameSlot] = []
    for r in range(1, rounds + 1):
        order = [s.entry for s in swiss.standings(entries, games)]
        tables, byes = swiss.pair_round(order, games)
        for i, (a, b) in enumerate(tables, start=1):
            games.append(done(r, i, a, b, rng.randrange(0, 500, 10), rng.randrange(0, 500, 10)))
        games += [bye(r, len(tables) + i, e) for i, e in enumerate(byes, start=1)]
    return games


# ---------------------------------------------------------------------- Swiss
@pytest.mark.parametrize("seed", range(30))
def test_swiss_never_pairs_a_rematch_while_one_can_be_avoided(seed: int) -> None:
    games = play_swiss(list(range(1, 9)), 3, seed)
    pairs = [frozenset(g.entries) for g in games if g.status == "done"]
    assert len(pairs) == 12
    assert len(set(pairs)) == len(pairs), "a pair met twice"


def test_swiss_backtracks_rather_than_forcing_a_rematch_at_the_bottom() -> None:
    # 1-2 and 3-4 and 5-6 met; in order 1,3,2,4,5,6 the greedy pairing 1-3, 2-4 leaves 5-6
    # (a rematch); backtracking finds 1-3, 2-5, 4-6 (or another without any rematch).
    games = [done(1, 1, 1, 2, 100, 0), done(1, 2, 3, 4, 100, 0), done(1, 3, 5, 6, 100, 0)]
    tables, byes = swiss.pair_round([1, 3, 2, 4, 5, 6], games)
    assert byes == []
    assert all(swiss.rematches(t, swiss.met(games)) == 0 for t in tables)
    assert tables[0] == (1, 3)


def test_swiss_accepts_the_fewest_rematches_when_none_can_be_avoided() -> None:
    # Four teams, three rounds: everyone met everyone; the fourth round must repeat.
    games = [
        done(1, 1, 1, 2, 1, 0),
        done(1, 2, 3, 4, 1, 0),
        done(2, 1, 1, 3, 1, 0),
        done(2, 2, 2, 4, 1, 0),
        done(3, 1, 1, 4, 1, 0),
        done(3, 2, 2, 3, 1, 0),
    ]
    tables, _ = swiss.pair_round([1, 2, 3, 4], games)
    assert sorted(itertools.chain(*tables)) == [1, 2, 3, 4]


def test_swiss_byes_rotate_nobody_gets_a_second_before_everyone_had_one() -> None:
    games = play_swiss([1, 2, 3, 4, 5], 5, seed=3)
    byes = [g.entries[0] for g in games if g.status == "bye"]
    assert sorted(byes) == [1, 2, 3, 4, 5]


def test_swiss_the_bye_goes_to_the_lowest_ranked_without_one() -> None:
    assert swiss.choose_byes([4, 1, 3, 2, 5], {}, 2) == [5]
    assert swiss.choose_byes([4, 1, 3, 2, 5], {5: 1}, 2) == [2]


def test_swiss_standings_points_then_buchholz_then_head_to_head_then_difference() -> None:
    # Round 1: 1 beats 2 (300-100), 3 beats 4 (250-240).  Round 2: 1 beats 3, 2 beats 4.
    games = [
        done(1, 1, 1, 2, 300, 100),
        done(1, 2, 3, 4, 250, 240),
        done(2, 1, 1, 3, 200, 100),
        done(2, 2, 2, 4, 300, 0),
    ]
    rows = swiss.standings([1, 2, 3, 4], games)
    assert [r.entry for r in rows] == [1, 2, 3, 4]
    by = {r.entry: r for r in rows}
    assert by[1].points == 4
    assert by[2].points == 2
    assert by[3].points == 2
    # 2 and 3 level on points; Buchholz: 2 met 1 (4) and 4 (0) = 4; 3 met 4 (0) and 1 (4) = 4;
    # head-to-head: they never met (0 each); points difference: 2: -200 + 300 = 100,
    # 3: +10 - 100 = -90: 2 leads 3 on points difference.
    assert (by[2].buchholz, by[3].buchholz) == (4, 4)
    assert (by[2].difference, by[3].difference) == (100, -90)


def test_swiss_buchholz_ranks_the_entry_who_met_stronger_opponents_first() -> None:
    # 3 and 4 both won once: 3 lost to the leader 1 and beat 5; 4 lost to 5 and beat 6 by a
    # mile.  Buchholz (3: 4 + 2 = 6; 4: 2 + 0 = 2) puts 3 ahead despite 4's difference.
    games = [
        done(1, 1, 1, 3, 100, 90),
        done(1, 2, 5, 4, 500, 0),
        done(1, 3, 2, 6, 100, 0),
        done(2, 1, 1, 2, 100, 0),
        done(2, 2, 3, 5, 100, 0),
        done(2, 3, 4, 6, 1000, 0),
    ]
    by = {r.entry: r for r in swiss.standings([1, 2, 3, 4, 5, 6], games)}
    assert by[3].points == by[4].points == 2
    assert by[3].buchholz > by[4].buchholz
    assert by[3].difference < by[4].difference
    order = [r.entry for r in swiss.standings([1, 2, 3, 4, 5, 6], games)]
    assert order.index(3) < order.index(4)


def test_swiss_head_to_head_breaks_a_tie_before_points_difference() -> None:
    # A round robin of four: 1 and 2 end level on points (4) and Buchholz (8); 2 beat 1
    # narrowly, 1 has by far the bigger points difference.
    games = [
        done(1, 1, 2, 1, 100, 90),
        done(1, 2, 3, 4, 100, 0),
        done(2, 1, 1, 3, 500, 0),
        done(2, 2, 4, 2, 100, 0),
        done(3, 1, 1, 4, 100, 0),
        done(3, 2, 2, 3, 100, 0),
    ]
    rows = swiss.standings([1, 2, 3, 4], games)
    by = {r.entry: r for r in rows}
    assert by[1].points == by[2].points == 4
    assert by[1].buchholz == by[2].buchholz
    assert by[1].difference > by[2].difference
    order = [r.entry for r in rows]
    assert order.index(2) < order.index(1)


# ---------------------------------------------------------------------- elimination
def test_elimination_seeds_by_rating_with_ties_in_random_order() -> None:
    ratings = {1: 1500.0, 2: 1700.0, 3: 1500.0, 4: 1600.0}
    draws = {tuple(elimination.seeded(ratings, random.Random(s))) for s in range(20)}
    assert all(d[:2] == (2, 4) for d in draws)
    assert {d[2:] for d in draws} == {(1, 3), (3, 1)}


def test_elimination_byes_go_to_the_top_seeds_and_the_top_two_meet_only_in_the_final() -> None:
    matches = elimination.first_round(list(range(101, 113)))  # 12 entries, seeds 1..12
    byes = [m[0] for m in matches if len(m) == 1]
    assert sorted(byes) == [101, 102, 103, 104]
    assert elimination.seed_positions(16)[:4] == [1, 16, 8, 9]
    half = len(matches) // 2
    top, bottom = matches[:half], matches[half:]
    assert any(101 in m for m in top)
    assert any(102 in m for m in bottom)


def test_elimination_best_of_three_needs_two_wins() -> None:
    a = done(1, 1, 1, 2, 100, 50)
    b = GameSlot(1, 1, 2, (1, 2), "done", scores=(10, 90), winner=2)
    assert elimination.match_winner([a], 3, {1: 0, 2: 1}) is None
    assert elimination.match_winner([a, b], 3, {1: 0, 2: 1}) is None
    c = GameSlot(1, 1, 3, (1, 2), "done", scores=(10, 90), winner=2)
    assert elimination.match_winner([a, b, c], 3, {1: 0, 2: 1}) == 2


def test_elimination_a_drawn_game_goes_to_the_better_seed() -> None:
    g = GameSlot(1, 1, 1, (5, 9), "done", scores=(200, 200), winner=None, decided=True)
    assert elimination.match_winner([g], 1, {9: 0, 5: 3}) == 9


# ---------------------------------------------------------------------- duplicate
def test_matchpoints_two_per_partnership_beaten_one_per_tie_hand_computed() -> None:
    # One board at three tables.  NS scored 120 (entry 1), 60 (entry 3), 120 (entry 5);
    # EW scored -50 (entry 2), 40 (entry 4), 40 (entry 6).
    games = [
        GameSlot(1, 1, 1, (1, 2), "done", boards=((120, -50),)),
        GameSlot(1, 2, 1, (3, 4), "done", boards=((60, 40),)),
        GameSlot(1, 3, 1, (5, 6), "done", boards=((120, 40),)),
    ]
    mp = duplicate.matchpoints(duplicate.board_scores(games))
    # NS: 1 beats 3 (2) ties 5 (1) = 3; 3 beats nobody = 0; 5 = 3.
    # EW: 2 beats nobody = 0; 4 beats 2 (2) ties 6 (1) = 3; 6 = 3.
    assert mp == {1: 3, 3: 0, 5: 3, 2: 0, 4: 3, 6: 3}
    assert duplicate.standings([1, 2, 3, 4, 5, 6], games)[0] == (1, 3)


def test_matchpoints_add_up_over_boards() -> None:
    games = [
        GameSlot(1, 1, 1, (1, 2), "done", boards=((100, 0), (0, 100))),
        GameSlot(1, 2, 1, (3, 4), "done", boards=((50, 0), (0, 50))),
    ]
    mp = duplicate.matchpoints(duplicate.board_scores(games))
    # Board 1: NS 1 beats 3 (+2), EW tie (+1 each).  Board 2: NS tie (+1 each), EW 2 beats 4.
    assert mp == {1: 3, 3: 1, 2: 3, 4: 1}


def test_duplicate_seating_every_partnership_plays_both_directions() -> None:
    entries = list(range(1, 9))
    directions: dict[int, set[str]] = {e: set() for e in entries}
    opponents: list[frozenset[int]] = []
    for r in (1, 2):
        tables = duplicate.seat_round(entries, r)
        assert sorted(itertools.chain(*tables)) == entries
        for ns, ew in tables:
            directions[ns].add("NS")
            directions[ew].add("EW")
            opponents.append(frozenset((ns, ew)))
    assert all(d == {"NS", "EW"} for d in directions.values())
    assert len(set(opponents)) == len(opponents), "the movement never repeats a meeting"


# ---------------------------------------------------------------------- settings
def test_settings_refuse_an_even_best_of_and_knockouts_for_solo_presets() -> None:
    with pytest.raises(EventError, match="odd number"):
        TournamentSettings(preset="standard", format="elimination", best_of=2)
    with pytest.raises(EventError, match="Swiss"):
        TournamentSettings(preset="solo", format="elimination", team_mode="solo", solo=True)
    assert TournamentSettings.from_record(
        TournamentSettings(preset="standard").to_record()
    ) == TournamentSettings(preset="standard")
