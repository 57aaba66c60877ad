"""games.md G2 bid restrictions: Whiz, Mirror and Suicide bids (the live refusals and in
records), and the variant presets as standard plus their options."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.engine import NIL, Bid, Game, IllegalAction, Look, Rules
from bot.engine.actions import BLIND_NIL
from bot.engine.errors import RecordError
from bot.engine.record import export_record, replay
from tests.engine.snapshot import refused
from tests.engine.variant_deals import RENEGE_DEAL, E, N, S, W, deal


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
    refused(game, Bid(E, 2), IllegalAction, "In Whiz you bid nil or your 1 spade")
    game.apply(Bid(E, 1))
    game.apply(Bid(S, NIL))  # S holds no spade: nil only
    with pytest.raises(IllegalAction, match="In Whiz you bid nil: you hold no spades"):
        game.apply(Bid(W, 1))
    game.apply(Bid(W, NIL))
    assert bid_values(game) == [NIL, 12]  # N holds 12 spades
    refused(game, Bid(N, 5), IllegalAction, "In Whiz you bid nil or your 12 spades")


def test_whiz_allows_blind_nil() -> None:
    game = Game(Rules.from_preset("whiz", blind_nil_min_deficit=0), N)
    game.apply(deal(RENEGE_DEAL))
    assert Bid(E, BLIND_NIL) in game.legal_actions()


def test_mirror_bids_exactly_the_spade_count() -> None:
    game = Game(Rules.from_preset("mirror", blind_nil_min_deficit=0), N)
    game.apply(deal(RENEGE_DEAL))
    assert not game.blind_open(E)  # no blind nil in Mirror
    assert bid_values(game) == [1]
    refused(game, Bid(E, NIL), IllegalAction, "In Mirror you bid your 1 spade")
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
    refused(game, Bid(E, 3), IllegalAction, "In Suicide you bid nil or at least 4")
    game.apply(Bid(E, NIL))
    game.apply(Bid(S, 5))  # S, the first of NS, takes the other role
    assert bid_values(game) == list(range(4, 14))  # W: partner E bid nil
    refused(
        game, Bid(W, NIL), IllegalAction, "In Suicide your partner bid nil, so you bid 4 or more"
    )
    game.apply(Bid(W, 4))
    assert bid_values(game) == [NIL]  # N: partner S bid 5
    refused(game, Bid(N, 6), IllegalAction, "In Suicide your partner bid 5, so you bid nil")


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
