"""Card play for solo Spades (every player alone; three or four players, games.md G2).

:func:`heuristic_play` is the ``normal`` solo policy: a player who still needs tricks wins the
trick as cheaply as it can, a player who has made its bid (or bid nil) ducks with the highest
card that loses, and a discard is the lowest card, side suits before spades.

:class:`SoloSearch` is the ``hard`` solo player: perfect-information Monte Carlo through the
engine itself, for its cards and its bids.  It samples deals of the unseen cards consistent
with the voids shown, rebuilds the hand on each sample (deal, bids, plays so far), tries every
legal card and plays the rest out with :func:`heuristic_play`, scoring each card by the seat's
hand points minus the mean of the other players' (the engine's own scoring: contracts, nils,
bags and the bag penalty).  The number of samples follows the budget through a fixed cost
model, and a CPU-time guard at three times the budget stops a search running far over it.

Bids (after looking) are searched the same way: on each sampled deal every candidate bid — nil
when allowed, and the numbers within two of the hand's trick estimate — is made, the players
after this seat bid as the ``normal`` bidder would, and the hand is played out with
:func:`heuristic_play`; the candidate with the best mean value is bid.  The choice between
looking and blind nil stays with the ``normal`` bidder.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Final, TypeVar

from bot.ai.deck_tables import hand_mask
from bot.ai.rule_bidding import estimate_tricks
from bot.engine.actions import BLIND_NIL, Action, Bid, Deal, Look, Play
from bot.engine.cards import Card, cards_of
from bot.engine.errors import IllegalAction
from bot.engine.game import Game, Phase
from bot.engine.rules import Rules
from bot.engine.seats import Seat
from bot.engine.spades.game import SpadesGame
from bot.engine.spades.view import SpadesPart
from bot.engine.views import SeatView, seat_view

ROLLOUT_COST_S: Final = 1.2e-3  # one play-out of a whole hand, measured on one core
BID_COST_S: Final = 2.0e-3  # one play-out from a bid: the others' bids, then the hand
MIN_SAMPLES: Final = 3
MAX_SAMPLES: Final = 60


def heuristic_play(game: SpadesGame) -> Action:
    """The solo policy for the seat on turn of ``game`` (see the module docstring)."""
    seat = game.to_act
    assert seat is not None
    mask = game.honest_mask()
    order = game.trump_order
    power = order.power
    trumps = order.trumps
    cards = sorted(cards_of(mask), key=lambda c: power[c.index])
    bid = game.bids[seat]
    won = game.tricks_won[seat]
    wants = bid is not None and bid > 0 and won < bid
    trick = game.current_trick
    if not trick:
        if wants:
            return Play(seat, cards[-1])
        side = [c for c in cards if not trumps >> c.index & 1]
        return Play(seat, (side or cards)[0])
    lead_suit = order.suit_of(trick[0][1])
    best = max(
        (c for _, c in trick if order.suit_of(c) == lead_suit or trumps >> c.index & 1),
        key=lambda c: power[c.index],
    )
    beats = [
        c
        for c in cards
        if power[c.index] > power[best.index]
        and (order.suit_of(c) == lead_suit or trumps >> c.index & 1)
    ]
    if wants and beats:
        return Play(seat, beats[0])
    losers = [c for c in cards if c not in beats]
    if losers:
        if not wants:
            follow = [c for c in losers if order.suit_of(c) == lead_suit]
            return Play(seat, (follow or losers)[-1] if follow else _discard(losers, trumps))
        return Play(seat, _discard(losers, trumps))
    return Play(seat, cards[0])


def _discard(cards: list[Card], trumps: int) -> Card:
    side = [c for c in cards if not trumps >> c.index & 1]
    return (side or cards)[0]


def solo_normal_play(view: SeatView, rng: random.Random) -> Action:
    """The ``normal`` solo card: :func:`heuristic_play` on the hand as the seat sees it (the
    other hands, which the policy does not read, are a sample)."""
    game = rebuild(view, rng)
    return heuristic_play(game) if game is not None else view.legal[0]


A = TypeVar("A", bound=Action)

# (a view of a seat in the sampled game) -> that seat's bid, as the normal bidder makes it
Bidder = Callable[[SeatView], Action]


class SoloSearch:
    """The ``hard`` solo player's cards and bids (see the module docstring)."""

    def bid(self, view: SeatView, rng: random.Random, budget_s: float, bidder: Bidder) -> Action:
        """The bid with the best mean value over sampled deals (``bidder``: the other seats'
        bids in the play-outs)."""
        assert view.seat is not None
        cands = _bid_candidates(view)
        if len(cands) <= 1:
            return cands[0] if cands else view.legal[0]
        me = view.seat

        def value(g: SpadesGame, hands_before: int) -> float:
            return _bid_rollout(g, me, hands_before, bidder)

        totals, done = _sample_totals(view, rng, budget_s, cands, BID_COST_S, value)
        if not done:
            return cands[0]
        return max(cands, key=lambda a: (totals[a], -a.value))

    def play(self, view: SeatView, rng: random.Random, budget_s: float) -> Action:
        legal = [a for a in view.legal if isinstance(a, Play)]
        if len(legal) <= 1:
            return view.legal[0]
        assert view.seat is not None
        me = view.seat

        def value(g: SpadesGame, hands_before: int) -> float:
            return _rollout_value(g, me, hands_before)

        totals, done = _sample_totals(view, rng, budget_s, legal, ROLLOUT_COST_S, value)
        if not done:
            return legal[0]
        return max(legal, key=lambda a: (totals[a], -a.card.index))


def _sample_totals(
    view: SeatView,
    rng: random.Random,
    budget_s: float,
    cands: Sequence[A],
    cost_s: float,
    value: Callable[[SpadesGame, int], float],
) -> tuple[dict[A, float], int]:
    """Each candidate's summed ``value`` (given the game after it and the hands finished
    before) over sampled deals, and how many deals were sampled: as many as ``budget_s``
    buys at ``cost_s`` a play-out, at least MIN_SAMPLES, stopped after three budgets of CPU."""
    assert view.seat is not None
    me = view.seat
    samples = max(MIN_SAMPLES, min(MAX_SAMPLES, int(budget_s / (cost_s * len(cands)))))
    totals = dict.fromkeys(cands, 0.0)
    guard = time.process_time() + 3 * budget_s
    done = 0
    for _ in range(samples):
        base = rebuild(view, rng)
        if base is None:
            continue
        if base.phase is Phase.BID and base.blind_open(me):  # this seat has looked at its cards
            base.apply(Look(me))
        for action in cands:
            g = base.clone()
            g.apply(action)
            totals[action] += value(g, len(base.results))
        done += 1
        if done >= MIN_SAMPLES and time.process_time() > guard:
            break
    return totals, done


def _bid_candidates(view: SeatView) -> list[Bid]:
    """Nil (when legal) and the legal numbers within two of the hand's trick estimate."""
    bids = [a for a in view.legal if isinstance(a, Bid) and a.value != BLIND_NIL]
    numbers = [b for b in bids if b.value > 0]
    est = round(estimate_tricks(view.rules.deck, hand_mask(view)))
    near = [b for b in numbers if abs(b.value - est) <= 2] or numbers
    return [b for b in bids if b.value <= 0] + near


def _bid_rollout(game: SpadesGame, me: Seat, hands_before: int, bidder: Bidder) -> float:
    """The rest of the bidding (the others as ``bidder`` bids for them), then the play-out."""
    while game.phase is Phase.BID:
        seat = game.to_act
        assert seat is not None
        view = seat_view(game, seat)
        action = bidder(view)
        game.apply(action if action in view.legal else view.legal[0])
    return _rollout_value(game, me, hands_before)


def _rollout_value(game: SpadesGame, me: Seat, hands_before: int) -> float:
    while len(game.results) == hands_before and game.phase is Phase.PLAY:
        game.apply(heuristic_play(game))
    teams = game.results[hands_before].teams
    others = [t.points for k, t in enumerate(teams) if k != me]
    return teams[me].points - sum(others) / len(others)


def rebuild(view: SeatView, rng: random.Random) -> SpadesGame | None:
    """The hand so far on a sampled deal of the unseen cards (``None`` if sampling failed)."""
    assert view.seat is not None
    assert view.hand is not None
    rules: Rules = view.rules
    game = Game(rules, view.dealer)
    assert isinstance(game, SpadesGame)
    seats = game.seating.seats
    me = view.seat
    played: dict[Seat, list[Card]] = {s: [] for s in seats}
    voids: dict[Seat, set[str]] = {s: set() for s in seats}
    suit_of = game.deck.suit_of
    for trick in [*(t.cards for t in view.completed_tricks), view.current_trick]:
        if not trick:
            continue
        led = suit_of(trick[0][1])
        for seat, c in trick:
            played[seat].append(c)
            if suit_of(c) != led:
                voids[seat].add(led)
    seen = set(view.hand) | {c for cs in played.values() for c in cs}
    unseen = [c for c in game.deck.cards if c not in seen]
    rng.shuffle(unseen)
    hands: dict[Seat, list[Card]] = {me: list(view.hand) + played[me]}
    need = {s: view.cards_left[s] for s in seats if s != me}
    for _ in range(20):
        current: dict[Seat, list[Card]] = {s: [] for s in need}
        ok = True
        for c in sorted(unseen, key=lambda c: -sum(suit_of(c) in voids[s] for s in need)):
            room = [s for s in need if len(current[s]) < need[s] and suit_of(c) not in voids[s]]
            if not room:
                ok = False
                break
            current[rng.choice(room)].append(c)
        if ok:
            break
        rng.shuffle(unseen)
    else:
        return None
    for s in need:
        hands[s] = current[s] + played[s]
    game.scores = list(view.scores)
    game.bag_counts = list(view.bag_counts)
    try:
        game.apply(Deal(tuple(tuple(hands[s]) for s in seats)))
        for b in view.part_as(SpadesPart).bid_log:
            if b.value != BLIND_NIL and game.blind_open(b.seat):
                game.apply(Look(b.seat))
            game.apply(Bid(b.seat, b.value))
        for seat, c in view.plays:
            game.apply(Play(seat, c))
    except IllegalAction:
        return None
    return game
