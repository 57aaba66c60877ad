"""games.md G1-G2 and G7 as worked examples, every number computed by hand in the comments:
renege claims (both penalties, both teams caught, wrong claims, unclaimed reneges), solo
scoring and end of game, the 51-card three-player deal, the Suicide/Whiz/Mirror bid rules.

The renege hand (dealer N, so E leads and bids first):
  N: 2H and the twelve spades 3S..AS     E: the twelve hearts 3H..AH and 2S
  S: the thirteen diamonds               W: the thirteen clubs
Trick 1: E leads AH, S 2D, W 2C, N ruffs with 3S although N holds 2H: **N reneges**; N wins.
Trick 2: N leads AS, E follows 2S (or, in the "both" hand, **E reneges** with 3H and keeps 2S,
which it plays on trick 3); S, W discard; N wins.  Tricks 3-12: N leads its spades, all win.
Trick 13: N leads 2H, E wins it with a heart.  N takes 12 tricks, E 1, S and W none.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.engine import NIL, Bid, Deal, Game, IllegalAction, Look, Phase, Play, Rules, Seat, card
from bot.engine.actions import BLIND_NIL, Claim
from bot.engine.errors import RecordError
from bot.engine.record import export_record, replay
from bot.engine.spades.renege import RenegeClaims
from bot.engine.spades.scoring import score_player
from tests.engine.builders import make_bids

RANKS = "23456789TJQKA"
N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def renege_of(game: Game, seat: Seat) -> bool:
    assert isinstance(game, RenegeClaims)
    return game.reneged(seat)


def suit(s: str, ranks: str = RANKS) -> list[str]:
    return [r + s for r in ranks]


RENEGE_DEAL = {
    "N": ["2H", *suit("S", RANKS[1:])],
    "E": [*suit("H", RANKS[1:]), "2S"],
    "S": suit("D"),
    "W": suit("C"),
}


def deal(hands: dict[str, list[str]], seats: str = "NESW") -> Deal:
    return Deal(tuple(tuple(card(c) for c in hands[s]) for s in seats))


def renege_game(preset: str = "standard", **overrides: Any) -> Game:
    """The renege hand dealt by N, bids made (E 3, S nil, W 1, N 4 unless solo)."""
    game = Game(Rules.from_preset(preset, renege="claim", **overrides), N)
    game.apply(deal(RENEGE_DEAL))
    make_bids(game, {"E": 3, "S": "nil", "W": 1, "N": 4})
    return game


def play_codes(game: Game, *codes: str) -> None:
    for code in codes:
        seat = game.to_act
        assert seat is not None
        game.apply(Play(seat, card(code)))


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
        play_codes(game, code)


# ---------------------------------------------------------------- G1: renege claims
def test_a_renege_is_possible_and_nothing_shows() -> None:
    game = renege_game()
    play_codes(game, "AH", "2D", "2C")
    # N holds 2H but every card is offered, and playing a spade is not refused.
    assert len(game.legal_actions()) == 13
    before = game.spades_broken
    play_codes(game, "3S")
    assert not before
    assert game.claim_results == ()
    assert renege_of(game, N)


def test_without_claims_the_renege_is_refused() -> None:
    game = Game(Rules.from_preset("standard"), N)
    game.apply(deal(RENEGE_DEAL))
    make_bids(game, {"E": 3, "S": "nil", "W": 1, "N": 4})
    play_codes(game, "AH", "2D", "2C")
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
    play_codes(game, "AH", "2D")
    with pytest.raises(IllegalAction, match="only claim against an opponent"):
        game.apply(Claim(E, W))
    game.apply(Claim(W, S))  # S has not reneged
    (wrong,) = game.claim_results
    assert not wrong.correct
    assert wrong.text == "West's claim is wrong: South has not reneged this hand"
    play_codes(game, "2C", "3S")  # N reneges now
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
    hands = {
        "N": ["2H", *suit("S", RANKS[1:])],
        "E": [*suit("H", RANKS[1:]), "2S"],
        "S": suit("D"),
        "W": suit("C"),
    }
    game.apply(deal(hands))
    make_bids(game, {"E": 1, "S": 1, "W": 1, "N": 1})
    # E leads 2S before spades are broken while holding hearts: a renege.
    play_codes(game, "2S", "2D", "2C", "3S")
    assert game.spades_broken  # what everyone sees: a spade was played
    assert renege_of(game, E)
    # N won and leads 4S holding 2H: spades were not broken by E's renege lead.
    play_codes(game, "4S")
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


# ---------------------------------------------------------------- G2: solo
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
    play_codes(game, "AH", "2D", "2C", "2H", "KH", "3D", "3C", "3S", "AS", "2S", "4D", "4C")
    for spade, heart, k in zip(
        "KQJT98765 4".replace(" ", ""), "QJT9876543", range(10), strict=True
    ):
        play_codes(game, spade + "S", heart + "H", RANKS[3 + k] + "D", RANKS[3 + k] + "C")
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


# ---------------------------------------------------------------- G2: three players
def test_cutthroat_3_deals_51_cards_17_each() -> None:
    game = Game(Rules.from_preset("cutthroat-3"), N)
    game.deal(random.Random(7))
    hands = game.deal_cards
    assert [len(h) for h in hands] == [17, 17, 17]
    codes = {c.code for h in hands for c in h}
    assert len(codes) == 51
    assert "2C" not in codes
    assert game.seating.seats == (N, E, S)
    assert game.to_act == E  # left of the dealer N
    game.apply(Look(E)) if game.blind_open(E) else None
    assert Bid(E, 17) in game.legal_actions()
    with pytest.raises(IllegalAction, match="A bid is 1 to 17 tricks"):
        game.apply(Bid(E, 18))


THREE_DEAL = {
    "N": [*suit("S"), "2H", "3H", "4H", "5H"],
    "E": [*suit("H", RANKS[4:]), *suit("D", RANKS[:8])],
    "S": [*suit("D", RANKS[8:]), *suit("C", RANKS[1:])],
}


def test_cutthroat_3_hand_of_17_tricks() -> None:
    # N deals; E leads.  T1-4: E leads AH, KH, QH, JH; S discards clubs, N must follow 2H-5H:
    # E wins 4.  T5: E leads TH, S discards, N (no hearts) ruffs 2S and wins.  T6-17: N leads
    # AS..3S, E and S discard: N wins 12.  N 13 tricks, E 4, S 0: 17 tricks, 51 cards.
    game = Game(Rules.from_preset("cutthroat-3"), N)
    game.apply(deal(THREE_DEAL, "NES"))
    make_three_bids(game, {"E": 4, "S": "nil", "N": 13})
    clubs = iter(suit("C", RANKS[1:]))
    for heart, low in zip("AKQJ", "2345", strict=True):
        play_codes(game, heart + "H", next(clubs), low + "H")
    play_codes(game, "TH", next(clubs), "2S")
    e_rest = iter([*suit("H", "6789")[::-1], *suit("D", RANKS[:8])])
    s_rest = iter([*clubs, *suit("D", RANKS[8:])])
    for r in "AKQJT9876543":
        play_codes(game, r + "S", next(e_rest), next(s_rest))
    res = game.results[-1]
    assert res.tricks[:3] == (13, 4, 0)
    assert len(res.plays) == 51
    # N: 13 bid, 13 taken -> 130.  E: 4 of 4 -> 40.  S: nil made -> +100.
    assert [t.points for t in res.teams] == [130, 40, 100]
    line = next(iter(replay(export_record(game))))
    assert line["tricks"] == {"N": 13, "E": 4, "S": 0}
    assert set(line["players"]) == {"N", "E", "S"}


def make_three_bids(game: Game, bids: dict[str, int | str]) -> None:
    while game.phase is Phase.BID:
        seat = game.to_act
        assert seat is not None
        spec = bids[seat.name]
        value = NIL if spec == "nil" else int(spec)
        if game.blind_open(seat):
            game.apply(Look(seat))
        game.apply(Bid(seat, value))


def test_three_player_records_refuse_a_fourth_seat() -> None:
    game = Game(Rules.from_preset("cutthroat-3"), N)
    game.apply(deal(THREE_DEAL, "NES"))
    doc = export_record(game)
    doc["hands"][0]["deal"]["W"] = []
    with pytest.raises(RecordError, match="N, E, S"):
        list(replay(doc))
    doc = export_record(game)
    doc["first_dealer"] = "W"
    with pytest.raises(RecordError, match="first_dealer"):
        list(replay(doc))


# ---------------------------------------------------------------- G2: bid restrictions
def bidding_game(preset: str, hands: dict[str, list[str]] = RENEGE_DEAL) -> Game:
    game = Game(Rules.from_preset(preset, blind_nil=False), N)
    game.apply(deal(hands))
    return game


def bid_values(game: Game) -> list[int]:
    return [a.value for a in game.legal_actions() if isinstance(a, Bid)]


def test_whiz_bids_nil_or_the_spade_count() -> None:
    game = bidding_game("whiz")
    # E holds one spade (2S): nil or 1.
    assert bid_values(game) == [NIL, 1]
    with pytest.raises(IllegalAction) as info:
        game.apply(Bid(E, 2))
    assert info.value.reason == "In Whiz you bid nil or your 1 spade"
    game.apply(Bid(E, 1))
    game.apply(Bid(S, NIL))  # S holds no spade: nil only
    with pytest.raises(IllegalAction, match="In Whiz you bid nil: you hold no spades"):
        game.apply(Bid(W, 1))
    game.apply(Bid(W, NIL))
    assert bid_values(game) == [NIL, 12]  # N holds 12 spades
    with pytest.raises(IllegalAction) as info:
        game.apply(Bid(N, 5))
    assert info.value.reason == "In Whiz you bid nil or your 12 spades"


def test_whiz_allows_blind_nil() -> None:
    game = Game(Rules.from_preset("whiz", blind_nil_min_deficit=0), N)
    game.apply(deal(RENEGE_DEAL))
    assert Bid(E, BLIND_NIL) in game.legal_actions()


def test_mirror_bids_exactly_the_spade_count() -> None:
    game = Game(Rules.from_preset("mirror", blind_nil_min_deficit=0), N)
    game.apply(deal(RENEGE_DEAL))
    assert not game.blind_open(E)  # no blind nil in Mirror
    assert bid_values(game) == [1]
    with pytest.raises(IllegalAction) as info:
        game.apply(Bid(E, NIL))
    assert info.value.reason == "In Mirror you bid your 1 spade"
    game.apply(Bid(E, 1))
    assert bid_values(game) == [NIL]  # S has no spade
    with pytest.raises(IllegalAction, match="In Mirror you bid nil: you hold no spades"):
        game.apply(Bid(S, 3))
    with pytest.raises(IllegalAction, match="There is no blind nil in Mirror"):
        game.apply(Bid(S, BLIND_NIL))


def test_mirror_counts_jokers_as_spades() -> None:
    rules = Rules.from_preset("mirror", deck="jokers")
    game = Game(rules, N)
    game.deal(random.Random(3))
    e = game.deal_cards[1]
    count = sum(1 for c in e if c.code in ("BJ", "LJ") or c.code.endswith("S"))
    assert bid_values(game) == [count or NIL]


def test_suicide_one_partner_nil_the_other_four_or_more() -> None:
    game = bidding_game("suicide")
    assert bid_values(game) == [NIL, *range(4, 14)]  # E, the first of EW
    with pytest.raises(IllegalAction) as info:
        game.apply(Bid(E, 3))
    assert info.value.reason == "In Suicide you bid nil or at least 4"
    game.apply(Bid(E, NIL))
    game.apply(Bid(S, 5))  # S, the first of NS, takes the other role
    assert bid_values(game) == list(range(4, 14))  # W: partner E bid nil
    with pytest.raises(IllegalAction) as info:
        game.apply(Bid(W, NIL))
    assert info.value.reason == "In Suicide your partner bid nil, so you bid 4 or more"
    game.apply(Bid(W, 4))
    assert bid_values(game) == [NIL]  # N: partner S bid 5
    with pytest.raises(IllegalAction) as info:
        game.apply(Bid(N, 6))
    assert info.value.reason == "In Suicide your partner bid 5, so you bid nil"


def test_suicide_blind_nil_only_in_the_nil_role() -> None:
    game = Game(Rules.from_preset("suicide", blind_nil_min_deficit=0), N)
    game.apply(deal(RENEGE_DEAL))
    assert game.blind_open(E)
    game.apply(Bid(E, BLIND_NIL))
    assert game.blind_open(S)
    game.apply(Look(S))
    game.apply(Bid(S, 4))
    assert not game.blind_open(W)  # partner bid blind nil: W must bid 4 or more
    with pytest.raises(IllegalAction, match="your partner bid nil, so you bid 4 or more"):
        game.apply(Bid(W, BLIND_NIL))
    assert game.blind_open(N)  # partner bid 4: N takes the nil role, blind if it likes


def test_variant_presets_are_standard_plus_their_options() -> None:
    base = Rules.from_preset("standard").options()
    changed: dict[str, dict[str, Any]] = {
        "solo": {"partnerships": False},
        "cutthroat-3": {"partnerships": False, "players": 3},
        "suicide": {"bidding": "suicide"},
        "whiz": {"bidding": "whiz"},
        "mirror": {"bidding": "mirror"},
    }
    for preset, diff in changed.items():
        assert Rules.from_preset(preset).options() == {**base, **diff}


@pytest.mark.parametrize(
    ("preset", "bids", "index", "reason"),
    [
        # E holds one spade, S and W none, N twelve (RENEGE_DEAL)
        ("whiz", [("E", 1), ("S", 2)], 2, "In Whiz you bid nil: you hold no spades"),
        ("mirror", [("E", 1), ("S", "nil"), ("W", "nil"), ("N", 11)], 4, "your 12 spades"),
        ("suicide", [("E", "nil"), ("S", 5), ("W", "nil")], 3, "your partner bid nil, so you bid"),
    ],
)
def test_illegal_restricted_bids_in_records_are_refused_with_their_index(
    preset: str, bids: list[tuple[str, int | str]], index: int, reason: str
) -> None:
    """records.md: the first illegal bid is refused with its 1-based index and the reason the
    player would read (games.md G2)."""
    game = bidding_game(preset)
    doc = export_record(game)
    doc["hands"][0]["bids"] = [{"seat": s, "bid": v} for s, v in bids]
    with pytest.raises(RecordError) as info:
        list(replay(doc))
    details = info.value.details
    assert (details["error"], details["hand"], details["bid"]) == ("illegal bid", 1, index)
    assert reason in details["reason"]
