"""The hard computer player's opinion of one decision, from the deciding seat's view only.

:func:`evaluate` runs the ``hard`` player's own search on the view the seat had at that
moment and keeps what the search knows about every choice:

* a card — the determinized search (:func:`bot.ai.search.pimc.choose`) over worlds consistent
  with what the seat had seen: its choice, and the mean value (points for the seat's side, in
  the game's own scoring and chance of winning) of every distinct card, the card played
  included; then the card played and the preferred card are played out again on the same
  number of worlds to count the tricks the side takes with each;
* a bid — the search's bidding model (:mod:`bot.ai.search.bidding`): every legal bid valued on
  the same play-outs; the preferred bid is the one the hard player bids (its shading included).

The review has no clock: the search is bounded by a number of worlds instead of time, so the
same view and seed always give the same opinion on any machine, however busy.  It runs the hard
player's own pieces (:func:`bot.ai.search.spades_play.card_choice` and ``search_card``,
:func:`bot.ai.search.bidding.estimate_bids`) with their values kept; ``bot.ai.evaluation``
offers the same as a view-level evaluation.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from bot.ai.search import bidding
from bot.ai.search.candidates import representative
from bot.ai.search.spades_play import card_choice, search_card
from bot.engine import Action, Bid, Play, SeatView
from bot.engine.game import Phase

CARD_WORLDS: Final = 48  # worlds for a decision (the search races candidates out before that)
TRICK_WORLDS: Final = 24  # worlds on which the card played and the preferred one are counted


@dataclass(frozen=True, slots=True)
class Evaluation:
    """The search's view of one decision: per choice it valued, the expected value a deal for
    the seat's side (points), and for cards the side's expected tricks."""

    preferred: Action
    points: dict[Action, float]
    tricks: dict[Action, float] | None
    samples: int

    def loss(self, actual: Action) -> tuple[float, float | None]:
        """(points, tricks) the choice made is expected to cost against the preferred one."""
        lost = self.points[self.preferred] - self.points[actual]
        if self.tricks is None:
            return lost, None
        return lost, self.tricks[self.preferred] - self.tricks[actual]


def _no_clock() -> float:
    return 0.0


def evaluate(
    view: SeatView, actual: Action, rng: random.Random, worlds: int = CARD_WORLDS
) -> Evaluation | None:
    """The hard player's evaluation of the decision ``view.seat`` faced, ``actual`` (the
    choice made) among the choices valued; ``None`` when there was nothing to judge (a forced
    card, a hidden hand, a New York team bid, a game the search does not play)."""
    if view.seat is None or not view.my_turn or view.rules.game != "spades":
        return None
    if len(view.legal) == 1:
        return None
    if view.phase is Phase.PLAY and isinstance(actual, Play):
        return _evaluate_play(view, actual, rng, worlds)
    if view.phase is Phase.BID and isinstance(actual, Bid):
        return _evaluate_bid(view, actual, rng, worlds)
    return None


def _evaluate_play(
    view: SeatView, actual: Play, rng: random.Random, worlds: int
) -> Evaluation | None:
    assert view.seat is not None
    me = int(view.seat)
    choice = card_choice(view, rng)  # the hard player's own candidates and default card
    if len(choice.runs) == 1:
        return None
    d = search_card(choice, _no_clock, 1.0, worlds, value_all=True)
    game = choice.game
    lay = game.layout
    played = representative(choice.runs, lay.suit_of, lay.to_sim[actual.card.index])
    # Trick counts of the two cards that matter, on worlds of their own.
    counts = {d.best: 0.0, played: 0.0}
    assert choice.sampler is not None
    for _ in range(TRICK_WORLDS):
        st = game.start(choice.sampler.sample())
        for c in counts:
            child = st.copy()
            child.play(c)
            child.run()
            counts[c] += child.tricks[me & 1] + child.tricks[(me & 1) + 2]
    preferred: Action = choice.play(d.best)
    points: dict[Action, float] = {choice.play(c): v for c, v in d.means.items()}
    points[actual] = d.means.get(played, min(d.means.values()))
    trick_means: dict[Action, float] = {
        preferred: counts[d.best] / TRICK_WORLDS,
        actual: counts[played] / TRICK_WORLDS,
    }
    return Evaluation(preferred, points, trick_means, d.worlds)


def _evaluate_bid(
    view: SeatView, actual: Bid, rng: random.Random, worlds: int
) -> Evaluation | None:
    """Every legal bid valued on the same worlds, as the hard player values them
    (:func:`bot.ai.search.bidding.estimate_bids`); the hard player's bid is the preferred one."""
    assert view.seat is not None
    if view.rules.new_york or view.hand_hidden or view.hand is None or actual.blind:
        return None  # team bids and blind decisions: not the bidding model's
    e = bidding.estimate_bids(view, rng, 1.0, _no_clock, worlds)
    points: dict[Action, float] = {Bid(view.seat, b): v for b, v in e.means.items()}
    if actual not in points:
        return None
    return Evaluation(Bid(view.seat, e.best()), points, None, e.worlds)
