"""Reviews of games where everyone plays alone (solo, cutthroat-3) and of renege-claim games:
the replay names every player's score and the winner, three-seat games have no West, and the
review says the hard player gives no opinions on solo games instead of failing or inventing
any.  With renege claims, a renege gets no opinion (hard weighs only cards that follow suit)."""

from __future__ import annotations

import random

import pytest

from bot.engine import Game, Play, Rules, Seat, seat_view
from bot.engine.record import export_record
from bot.review.decisions import decision_views, replay_game
from bot.review.opinion import evaluate
from bot.ui.review.review_render import review_pages


def finished(preset: str, seed: int = 5, **overrides: object) -> Game:
    """A whole game of random legal choices (a low target and a mercy floor so it ends)."""
    game = Game(Rules.from_preset(preset, **overrides), Seat.N)
    rng = random.Random(seed)
    while game.winner is None:
        if not game.legal_actions():
            game.deal(rng)
        else:
            game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize(("preset", "seats"), [("solo", 4), ("cutthroat-3", 3)])
def test_a_solo_game_is_replayed_with_every_players_score_and_no_opinions(
    preset: str, seats: int
) -> None:
    game = finished(preset, target=150, lose_at=-150)
    doc = export_record(game)
    replay = replay_game(doc)
    assert len(replay.scores) == seats
    assert replay.winner == Seat(int(game.winner)).name  # type: ignore[arg-type]
    pages = review_pages(replay, None, frozenset({Seat.N}), 1)
    overview = "\n".join(pages[0].lines)
    for k, s in enumerate(game.rules.seats):
        assert f"{s.word} ({replay.players[s]}) {game.scores[k]}" in overview
    assert f"**{replay.players[Seat(int(game.winner))]}** wins" in overview  # type: ignore[arg-type]
    assert "cannot say which" in overview
    assert "hard prefers" not in "\n".join(line for p in pages for line in p.lines)
    hand = "\n".join(pages[1].lines)
    assert ("W " in hand.split("\n")[0]) == (seats == 4), "three players: no West"
    score = next(line for line in pages[1].lines if line.startswith("**Score**"))
    assert [part.split()[0] for part in score.removeprefix("**Score**: ").split(" · ")] == [
        s.name for s in game.rules.seats
    ]
    first_play = next(d for d in replay.decisions if d.is_play)
    for d, view in decision_views(doc, set(range(first_play.index + 2))):
        assert evaluate(view, d.action, random.Random(1), 4) is None, "no opinion in solo"


def test_with_renege_claims_a_renege_gets_no_opinion_and_hard_weighs_honest_cards() -> None:
    rules = Rules.from_preset("standard", renege="claim")
    game = Game(rules, Seat.N)
    rng = random.Random(8)
    game.deal(rng)
    while game.phase.name != "PLAY":
        game.apply(rng.choice(game.legal_actions()))
    # Play until a seat could renege: it holds the led suit but may play another.
    while True:
        view = seat_view(game, game.to_act)  # type: ignore[arg-type]
        reneges = [a for a in view.legal if a not in view.honest]
        if reneges and len(view.honest) > 1:
            break
        game.apply(rng.choice(view.honest))
    assert evaluate(view, reneges[0], random.Random(1), 8) is None, "a renege: no opinion"
    honest = view.honest[0]
    assert isinstance(honest, Play)
    ev = evaluate(view, honest, random.Random(1), 8)
    assert ev is not None
    assert ev.preferred in view.honest, "hard never prefers a renege"
