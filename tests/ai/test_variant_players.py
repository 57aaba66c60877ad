"""Computer players in every games.md G1-G2 variant (issue 10): legal bids under Suicide, Whiz
and Mirror, solo and three-player play, honest plays and G1's claiming rule with claims."""

from __future__ import annotations

import random

import pytest

from bot.ai import get_player
from bot.ai.variants import proven_renege
from bot.engine import Bid, Game, Phase, Play, Rules, Seat, seat_view
from bot.engine.actions import Claim
from bot.engine.spades.bidrules import allowed_bids

CASES = [
    ("solo", {}),
    ("cutthroat-3", {}),
    ("suicide", {}),
    ("whiz", {}),
    ("mirror", {}),
    ("standard", {"renege": "claim"}),
    ("cutthroat-3", {"renege": "claim"}),
]


def play(rules: Rules, levels: list[str], seed: int, hands: int, budget: float = 0.002) -> Game:
    rng = random.Random(seed)
    players = [get_player(level) for level in levels]
    game = Game(rules, Seat(seed % len(levels)))
    while not game.over and len(game.results) < hands:
        if game.to_act is None:
            game.deal(rng)
            continue
        seat = game.to_act
        view = seat_view(game, seat)
        action = players[seat].decide(view, random.Random(rng.getrandbits(32)), budget)
        assert action in view.legal
        if isinstance(action, Play):
            assert action in view.honest, "a computer player never reneges"
        if isinstance(action, Bid) and rules.bidding in ("whiz", "mirror", "suicide"):
            assert action.value in (
                *allowed_bids(rules.bidding, game.tricks_per_hand, game.spade_count(seat),  # type: ignore[attr-defined]
                              None if rules.solo else game.bids[seat ^ 2]),
                -1,
            )  # fmt: skip
        game.apply(action)
    return game


@pytest.mark.parametrize(("preset", "overrides"), CASES)
@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_every_level_plays_every_variant(
    preset: str, overrides: dict[str, object], level: str
) -> None:
    rules = Rules.from_preset(preset, **overrides)
    seats = 3 if rules.players == 3 else 4
    game = play(rules, [level] * seats, seed=3, hands=2)
    assert len(game.results) == 2
    assert sum(game.results[-1].tricks) == game.hand_size


def test_three_player_cutthroat_to_game_over_with_computers() -> None:
    rules = Rules.from_preset("cutthroat-3", target=200)
    game = play(rules, ["normal", "hard", "easy"], seed=5, hands=40)
    assert game.over
    assert isinstance(game.winner, Seat)


def test_computers_claim_a_proven_renege() -> None:
    """N shows out of hearts, then plays a heart: the opponent E proves the renege."""
    from tests.engine import builders
    from tests.engine.variant_deals import RENEGE_DEAL, deal

    game = Game(Rules.from_preset("standard", renege="claim"), Seat.N)
    game.apply(deal(RENEGE_DEAL))
    for seat, value in ((Seat.E, 3), (Seat.S, 0), (Seat.W, 1), (Seat.N, 4)):
        if game.blind_open(seat):
            from bot.engine import Look

            game.apply(Look(seat))
        game.apply(Bid(seat, value))
    builders.play(game, "AH", "2D", "2C", "3S")  # N ruffs holding 2H: not proven yet
    assert proven_renege(seat_view(game, Seat.E)) is None
    builders.play(game, "2H")  # N leads the heart it held: proven
    assert game.phase is Phase.PLAY
    assert proven_renege(seat_view(game, Seat.E)) == Seat.N
    assert proven_renege(seat_view(game, Seat.S)) is None  # N is S's partner
    game.apply(Claim(Seat.E, Seat.N))
    assert game.claim_results[-1].correct
    assert proven_renege(seat_view(game, Seat.W)) is None  # NS already caught
