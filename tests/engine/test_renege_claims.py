"""games.md G1 as worked examples, every number computed by hand in the comments: renege
claims (both penalties, both teams caught, wrong claims, unclaimed reneges) on the renege hand
of :mod:`tests.engine.variant_deals`, and claims in records."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine import Game, IllegalAction, Play, Rules, Seat, card
from bot.engine.actions import Claim
from bot.engine.errors import RecordError
from bot.engine.record import export_record, replay
from bot.engine.spades.renege import RenegeClaims
from tests.engine.builders import RANKS, make_bids, play
from tests.engine.variant_deals import RENEGE_DEAL, E, N, S, W, deal, suit


def renege_of(game: Game, seat: Seat) -> bool:
    assert isinstance(game, RenegeClaims)
    return game.reneged(seat)


def renege_game(preset: str = "standard", **overrides: Any) -> Game:
    """The renege hand dealt by N, bids made (E 3, S nil, W 1, N 4 unless solo)."""
    game = Game(Rules.from_preset(preset, renege="claim", **overrides), N)
    game.apply(deal(RENEGE_DEAL))
    make_bids(game, {"E": 3, "S": "nil", "W": 1, "N": 4})
    return game


def play_renege_hand(game: Game, *, e_reneges: bool = False, claims: Any = None) -> None:
    """Play the renege hand; ``claims[k]`` = claims to make after ``k`` plays."""
    claims = claims or {}
    plays = ["AH", "2D", "2C", "3S"]  # trick 1: N ruffs, a renege (N holds 2H)
    if e_reneges:
        plays += ["AS", "3H", "3D", "3C", "KS", "2S", "4D", "4C"]  # E keeps 2S: a renege
        rest_spades = "QJT98765 4"
    else:
        plays += ["AS", "2S", "3D", "3C", "KS", "3H", "4D", "4C"]
        rest_spades = "QJT98765 4"
    diamonds = iter(suit("D", RANKS[3:]))
    clubs = iter(suit("C", RANKS[3:]))
    hearts = iter(suit("H", RANKS[2:]))
    for r in rest_spades.replace(" ", ""):
        plays += [r + "S", next(hearts), next(diamonds), next(clubs)]
    plays += ["2H", next(hearts), next(diamonds), next(clubs)]
    assert len(plays) == 52
    for k, code in enumerate(plays):
        for seat, against in claims.get(k, ()):
            game.apply(Claim(seat, against))
        play(game, code)


def test_a_renege_is_possible_and_nothing_shows() -> None:
    game = renege_game()
    play(game, "AH", "2D", "2C")
    # N holds 2H but every card is offered, and playing a spade is not refused.
    assert len(game.legal_actions()) == 13
    before = game.spades_broken
    play(game, "3S")
    assert not before
    assert game.claim_results == ()
    assert renege_of(game, N)


def test_without_claims_the_renege_is_refused() -> None:
    game = Game(Rules.from_preset("standard"), N)
    game.apply(deal(RENEGE_DEAL))
    make_bids(game, {"E": 3, "S": "nil", "W": 1, "N": 4})
    play(game, "AH", "2D", "2C")
    with pytest.raises(IllegalAction, match="You must follow ♥"):
        game.apply(Play(N, card("3S")))
    with pytest.raises(IllegalAction, match="Reneges are prevented"):
        game.apply(Claim(E, N))


def test_unclaimed_renege_stands_and_the_hand_scores_normally() -> None:
    game = renege_game()
    play_renege_hand(game)
    res = game.results[-1]
    assert res.tricks == (12, 1, 0, 0)
    # NS: N bid 4 took 12 -> 40 + 8 bags; S nil made +100.  EW: 3 + 1 = 4, took 1: -40.
    assert [t.points for t in res.teams] == [40 + 8 + 100, -40]
    assert [t.caught for t in res.teams] == [False, False]
    assert res.teams[0].bags == 8


def test_correct_claim_round_penalty() -> None:
    game = renege_game()
    play_renege_hand(game, claims={4: [(E, N)]})
    res = game.results[-1]
    (claim,) = res.claims
    assert claim.correct
    assert claim.trick == 1
    assert claim.after == 4
    assert claim.text == "North reneged in trick 1"
    # p(NS) = 148: NS scores min(0, 148) = 0, no bags; EW: own -40 + max(0, 148) = +108.
    assert [t.points for t in res.teams] == [0, -40 + 148]
    assert [t.caught for t in res.teams] == [True, False]
    assert res.teams[0].bags == 0
    assert game.bag_counts == [0, 0]
    assert game.scores == [0, 108]
    for t in res.teams:
        assert sum(p.points for p in t.parts) == t.points


def test_correct_claim_250_penalty() -> None:
    game = renege_game(renege_penalty=250)
    play_renege_hand(game, claims={20: [(W, N)]})
    res = game.results[-1]
    # NS: -250, no bags.  EW: contract 3 + 1 = 4 "made exactly": 10 x 4 = +40, no bags.
    assert [t.points for t in res.teams] == [-250, 40]
    assert [t.bags for t in res.teams] == [0, 0]


def test_the_house_preset_penalises_250() -> None:
    assert Rules.from_preset("house").renege_penalty == 250
    assert Rules.from_preset("standard").renege_penalty == "round"


def test_under_250_the_other_teams_nil_counts_as_made() -> None:
    # EW caught instead: E reneges on trick 2 and N claims.  NS (not caught) score as if
    # made exactly: N's 4 -> 40, S's nil -> +100 = 140, no bags.  EW: -250.
    game = renege_game(renege_penalty=250)
    play_renege_hand(game, e_reneges=True, claims={8: [(N, E)]})
    res = game.results[-1]
    assert res.claims[0].text == "East reneged in trick 2"
    assert [t.points for t in res.teams] == [140, -250]
    assert [t.caught for t in res.teams] == [False, True]


def test_both_teams_caught_round() -> None:
    game = renege_game()
    play_renege_hand(game, e_reneges=True, claims={4: [(E, N)], 9: [(S, E)]})
    res = game.results[-1]
    # Each scores only min(0, p): NS p = 148 -> 0; EW p = -40 -> -40.  No bags.
    assert [t.points for t in res.teams] == [0, -40]
    assert [t.caught for t in res.teams] == [True, True]
    assert [t.bags for t in res.teams] == [0, 0]


def test_both_teams_caught_250() -> None:
    game = renege_game(renege_penalty=250)
    play_renege_hand(game, e_reneges=True, claims={4: [(E, N)], 9: [(S, E)]})
    assert [t.points for t in game.results[-1].teams] == [-250, -250]


def test_a_wrong_claim_changes_no_score_and_bars_the_team() -> None:
    game = renege_game()
    play(game, "AH", "2D")
    with pytest.raises(IllegalAction, match="only claim against an opponent"):
        game.apply(Claim(E, W))
    game.apply(Claim(W, S))  # S has not reneged
    (wrong,) = game.claim_results
    assert not wrong.correct
    assert wrong.text == "West's claim is wrong: South has not reneged this hand"
    play(game, "2C", "3S")  # N reneges now
    with pytest.raises(IllegalAction, match="Your team made a wrong claim this hand"):
        game.apply(Claim(E, N))
    # The same hand played out: no score changes (NS 148, EW -40 as if nobody claimed).
    full = renege_game()
    play_renege_hand(full, claims={2: [(W, S)]})
    res = full.results[-1]
    assert [t.points for t in res.teams] == [148, -40]
    assert [t.caught for t in res.teams] == [False, False]


def test_a_claim_against_a_renege_made_later_is_wrong() -> None:
    # E reneges at play 6; N claims after 5 plays: wrong, and NS may not claim again.
    game = renege_game()
    play_renege_hand(game, e_reneges=True, claims={5: [(N, E)]})
    res = game.results[-1]
    assert [c.correct for c in res.claims] == [False]
    assert [t.caught for t in res.teams] == [False, False]


def test_only_the_first_correct_claim_against_a_team_counts() -> None:
    game = renege_game()
    play_renege_hand(game, claims={4: [(E, N)], 10: [(W, N)]})
    first, second = game.results[-1].claims
    assert first.correct
    assert first.counted
    assert second.correct
    assert not second.counted
    assert [t.points for t in game.results[-1].teams] == [0, 108]


def test_claims_only_during_play() -> None:
    game = renege_game()
    with pytest.raises(IllegalAction, match="No card has been played yet"):
        game.apply(Claim(E, N))
    fresh = Game(Rules.from_preset("standard", renege="claim"), N)
    fresh.apply(deal(RENEGE_DEAL))
    with pytest.raises(IllegalAction, match="while the cards are played"):
        fresh.apply(Claim(E, N))


def test_a_renege_spade_lead_does_not_break_spades() -> None:
    # N leads a spade first, holding 2H: a renege; spades stay unbroken, so E's later
    # spade lead while holding hearts is a renege too (G7: breaking).
    game = Game(Rules.from_preset("standard", renege="claim"), N)
    game.apply(deal(RENEGE_DEAL))
    make_bids(game, {"E": 1, "S": 1, "W": 1, "N": 1})
    # E leads 2S before spades are broken while holding hearts: a renege.
    play(game, "2S", "2D", "2C", "3S")
    assert game.spades_broken  # what everyone sees: a spade was played
    assert renege_of(game, E)
    # N won and leads 4S holding 2H: spades were not broken by E's renege lead.
    play(game, "4S")
    assert renege_of(game, N)
    assert game.honest_mask() != 0


def test_replay_records_claims_and_caught() -> None:
    game = renege_game()
    play_renege_hand(game, claims={4: [(E, N)]})
    doc = export_record(game)
    assert doc["hands"][0]["claims"] == [{"seat": "E", "against": "N", "after": 4}]
    line, final = list(replay(doc))
    assert line["teams"]["NS"] == {
        "points": 0,
        "caught": True,
        "bags": 0,
        "bag_penalty": 0,
        "score": 0,
        "bag_count": 0,
    }
    assert line["teams"]["EW"]["caught"] is False
    assert final == {"final": True, "score": {"NS": 0, "EW": 108}, "winner": None}


@pytest.mark.parametrize(
    ("claims", "index", "reason"),
    [
        ([{"seat": "E", "against": "W", "after": 3}], 1, "You can only claim against an opponent"),
        (
            [{"seat": "W", "against": "S", "after": 2}, {"seat": "E", "against": "N", "after": 9}],
            2,
            "Your team made a wrong claim this hand, so cannot claim again",
        ),
        ([{"seat": "E", "against": "N", "after": 52}], 1, "too late"),
        ([{"seat": "E", "against": "N", "after": 0}], 1, "after"),
        ([{"seat": "E", "against": "N", "after": 9}, {"seat": "E", "against": "N", "after": 4}],
         2, "order"),
    ],
)  # fmt: skip
def test_illegal_claims_in_records_are_refused_with_their_index(
    claims: list[dict[str, Any]], index: int, reason: str
) -> None:
    game = renege_game()
    play_renege_hand(game)
    doc = export_record(game)
    doc["hands"][0]["claims"] = claims
    with pytest.raises(RecordError) as info:
        list(replay(doc))
    details = info.value.details
    assert details["hand"] == 1
    assert details["claim"] == index
    assert reason in details["reason"]


def test_claims_are_refused_where_reneges_are_prevented_in_a_record() -> None:
    game = renege_game()
    play_renege_hand(game)
    doc = export_record(game)
    doc["rules"] = {"preset": "standard"}
    doc["hands"][0]["plays"] = doc["hands"][0]["plays"][:3]
    doc["hands"][0]["claims"] = [{"seat": "E", "against": "N", "after": 2}]
    with pytest.raises(RecordError) as info:
        list(replay(doc))
    assert info.value.details["error"] == "illegal claim"
