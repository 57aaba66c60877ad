"""games.md G2 solo as worked examples: one player's score, bags per player, a whole hand,
the end of the game, blind nil against the leader, no passing."""

from __future__ import annotations

import pytest

from bot.engine import NIL, Bid, Game, IllegalAction, Look, Phase, Rules
from bot.engine.actions import BLIND_NIL
from bot.engine.record import export_record, replay
from bot.engine.spades.scoring import score_player
from tests.engine.builders import RANKS, make_bids, play
from tests.engine.variant_deals import RENEGE_DEAL, E, N, S, deal


@pytest.mark.parametrize(
    ("bid", "tricks", "points", "bags"),
    [
        (4, 6, 10 * 4 + 2, 2),  # made: 10 x bid + 1 per overtrick
        (5, 5, 50, 0),
        (5, 3, -10 * 5, 0),  # set
        (NIL, 0, 100, 0),  # nil made
        (NIL, 2, -100 + 2, 2),  # nil failed; its tricks are bags (nil_tricks = bags)
        (BLIND_NIL, 0, 200, 0),
    ],
)
def test_solo_scores_one_player(bid: int, tricks: int, points: int, bags: int) -> None:
    res = score_player(Rules.from_preset("solo"), bid, tricks, 0, 0)
    assert (res.points, res.bags) == (points, bags)


def test_solo_bag_penalty_per_player() -> None:
    # 9 bags before, bid 3 takes 5: 30 + 2, bag count 11 -> penalty 100, count 1.
    res = score_player(Rules.from_preset("solo"), 3, 5, 200, 9)
    assert (res.points, res.bag_penalty, res.bag_count, res.score) == (32 - 100, 100, 1, 132)


def test_solo_hand_end_to_end() -> None:
    # The renege hand's cards, reneges prevented.  T1: E leads AH, S 2D, W 2C, N must follow
    # 2H: E wins.  T2: E (hearts and 2S; spades unbroken) leads KH, N ruffs 3S and wins.
    # T3: N leads AS, E follows 2S.  T4-13: N leads KS..4S and wins each.  N 12 tricks, E 1.
    game = Game(Rules.from_preset("solo"), N)
    game.apply(deal(RENEGE_DEAL))
    make_bids(game, {"E": 1, "S": "nil", "W": "nil", "N": 10})
    play(game, "AH", "2D", "2C", "2H", "KH", "3D", "3C", "3S", "AS", "2S", "4D", "4C")
    for spade, heart, k in zip(
        "KQJT98765 4".replace(" ", ""), "QJT9876543", range(10), strict=True
    ):
        play(game, spade + "S", heart + "H", RANKS[3 + k] + "D", RANKS[3 + k] + "C")
    res = game.results[-1]
    assert res.tricks == (12, 1, 0, 0)
    # N: bid 10 took 12 -> 100 + 2.  E: bid 1 took 1 -> 10.  S, W: nil made -> +100 each.
    assert [t.points for t in res.teams] == [102, 10, 100, 100]
    assert game.scores == [102, 10, 100, 100]
    assert game.bag_counts == [2, 0, 0, 0]
    line = next(iter(replay(export_record(game))))
    assert set(line["players"]) == {"N", "E", "S", "W"}
    assert "teams" not in line


def test_solo_end_of_game_highest_wins_and_ties_play_on() -> None:
    game = Game(Rules.from_preset("solo", target=250))
    game.scores = [260, 270, 100, 0]
    assert game._decide([]) == (E, "reached the target")
    game.scores = [270, 270, 100, 0]
    assert game._decide([])[0] is None  # tie = extra_hand
    bags = Game(Rules.from_preset("solo", target=250, tie="bags"))
    bags.scores = [270, 270, 100, 0]
    bags.total_bags = [3, 5, 9, 0]
    assert bags._decide([])[0] == E  # more bags among the tied leaders
    low = Game(Rules.from_preset("solo", lose_at=-200))
    low.scores = [-210, 50, 40, 0]
    assert low._decide([])[0] == E  # a player fell to lose_at: highest score wins


def test_solo_blind_nil_needs_a_deficit_to_the_leader() -> None:
    game = Game(Rules.from_preset("solo"), N)
    game.scores = [0, 50, 150, 100]  # leader S 150: N trails by 150, E by 100, W by 50
    game.apply(deal(RENEGE_DEAL))
    assert game.blind_open(E)  # E bids first and trails by 100
    game.apply(Look(E))
    game.apply(Bid(E, 2))
    assert not game.blind_open(S)  # the leader
    with pytest.raises(IllegalAction, match="at least 100 points behind the leader"):
        game.apply(Bid(S, BLIND_NIL))


def test_solo_has_no_card_passing_and_no_double_nil() -> None:
    game = Game(Rules.from_preset("solo", blind_nil_pass=2, double_nil="team"), N)
    game.scores = [0, 0, 0, 300]
    game.apply(deal(RENEGE_DEAL))
    make_bids(game, {"E": "blind_nil", "S": 1, "W": 1, "N": "nil"})
    assert game.phase is Phase.PLAY
