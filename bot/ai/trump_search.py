"""The ``hard`` Whist and Euchre players: Monte Carlo over sampled deals, like the Spades one.

For a card, the player samples deals of the hidden cards consistent with what its seat has
seen (cards played, voids shown, the turned-up card still in the dealer's hand, its own
discard), plays the rest of the hand out with the ``normal`` policy on every sampled deal for
each distinct legal card, and scores the result with the game's real scoring (plus a bonus
when the hand wins or loses the game).  In Euchre the calls (order up, pass, name a suit, go
alone) and the dealer's discard are searched the same way: every option is played out on
every sample, the other seats calling by the ``normal`` rules.  A searched choice replaces the
``normal`` one only when it is better by :data:`ANCHOR` points a deal, so sampling noise cannot
overturn sound play.

The number of samples follows the time budget through a fixed cost model (no clock), so a
decision depends only on the view and the seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

import bot.ai.euchre as eu
import bot.ai.whist as wh
from bot.ai.deck_tables import bits
from bot.ai.trumps import Seen, Sim, TrumpDeck, sample_hands, trump_deck
from bot.engine.actions import Action, Call, Discard, Play
from bot.engine.cards import CARDS
from bot.engine.euchre import HAND, score_euchre
from bot.engine.game import Phase
from bot.engine.seats import turn_order
from bot.engine.trump_part import TrumpPart
from bot.engine.views import SeatView
from bot.engine.whist import score_whist

PLAY_COST_S: Final = 8e-6  # one card of a play-out, policy included (measured)
MIN_SAMPLES: Final = 6
MAX_SAMPLES: Final = 200
ANCHOR: Final = 0.05  # points a deal a searched choice must gain over the normal one
TRICK_TIEBREAK: Final = 0.02  # value of a trick beyond the points it scores
GAME_BONUS: Final = 4.0  # the value, in points, of winning (or not losing) the game now

Utility = Callable[[list[int]], float]


def sample_count(budget_s: float, options: int, cards_left: int) -> int:
    per_sample = max(1, options) * max(1, cards_left) * PLAY_COST_S
    return max(MIN_SAMPLES, min(MAX_SAMPLES, int(budget_s / per_sample)))


def side_points(
    view: SeatView, mine: int, points: tuple[int, int], tricks: tuple[int, int]
) -> float:
    """My side's points minus theirs, a little for tricks, and the game if it ends."""
    value = points[mine] - points[mine ^ 1] + TRICK_TIEBREAK * (tricks[mine] - tricks[mine ^ 1])
    after = (view.scores[0] + points[0], view.scores[1] + points[1])
    if max(after) >= view.rules.target and after[0] != after[1]:
        value += GAME_BONUS if after[mine] > after[mine ^ 1] else -GAME_BONUS
    return value


def _by_side(tricks: list[int]) -> tuple[int, int]:
    return (tricks[0] + tricks[2], tricks[1] + tricks[3])


def whist_utility(view: SeatView, mine: int) -> Utility:
    how = view.rules.whist_points

    def value(tricks: list[int]) -> float:
        by = _by_side(tricks)
        pts = (score_whist(how, by[0], 0).points, score_whist(how, by[1], 0).points)
        return side_points(view, mine, pts, by)

    return value


def euchre_utility(view: SeatView, mine: int, maker: int, alone: bool) -> Utility:
    how = view.rules.euchre_points

    def value(tricks: list[int]) -> float:
        by = _by_side(tricks)
        teams = score_euchre(how, maker & 1, list(by), alone, [0, 0])
        return side_points(view, mine, (teams[0].points, teams[1].points), by)

    return value


def search_card(
    view: SeatView, t: TrumpDeck, utility: Utility, attack: tuple[bool, bool], normal: int,
    rng: random.Random, budget_s: float,
) -> int:  # fmt: skip
    """The card the play-outs prefer (``normal`` unless another is better by ANCHOR)."""
    seen = Seen(view, t)
    me = seen.me
    options = [a.card.index for a in view.legal if isinstance(a, Play)]
    order = turn_order(view.seats, view.sitting_out)
    size = len(view.seats) - (view.sitting_out is not None)
    left = sum(view.cards_left) - (
        view.cards_left[view.sitting_out] if view.sitting_out is not None else 0
    )
    n = sample_count(budget_s, len(options), left)
    trick = [(int(s), c.index) for s, c in view.current_trick]
    totals = dict.fromkeys(options, 0.0)
    done = 0
    for _ in range(n):
        hands = sample_hands(seen, rng)
        if hands is None:
            continue
        if view.sitting_out is not None:
            hands[view.sitting_out] = 0
        done += 1
        for card in options:
            sim = Sim(t, hands.copy(), me, trick.copy(), list(view.tricks_won), order, size)
            sim.play(card)
            sim.rollout(attack)
            totals[card] += utility(sim.tricks)
    if not done:
        return normal
    best = max(options, key=lambda c: (totals[c], c == normal))
    return best if totals[best] - totals[normal] > ANCHOR * done else normal


class WhistHard:
    level = "hard"

    def decide(self, view: SeatView, rng: random.Random, budget_s: float) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        assert view.seat is not None
        assert view.trump is not None
        t = trump_deck(view.rules.deck, view.trump)
        normal = wh.play(view)
        assert isinstance(normal, Play)
        mine = int(view.seat) & 1
        hand = sum(c.bit for c in view.hand or ())
        long = (hand & t.trumps).bit_count() >= wh.LONG_TRUMPS
        attack = (long and mine == 0, long and mine == 1)
        utility = whist_utility(view, mine)
        card = search_card(view, t, utility, attack, normal.card.index, rng, budget_s)
        return Play(view.seat, CARDS[card])


class EuchreHard:
    level = "hard"

    def decide(self, view: SeatView, rng: random.Random, budget_s: float) -> Action:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        assert view.seat is not None
        if view.phase is Phase.CALL:
            return self._call(view, rng, budget_s)
        if view.phase is Phase.DISCARD:
            return self._discard(view, rng, budget_s)
        tp = view.part_as(TrumpPart)
        assert view.trump is not None
        assert tp.maker is not None
        t = trump_deck(view.rules.deck, view.trump)
        normal = eu.play(view)
        assert isinstance(normal, Play)
        mine = int(view.seat) & 1
        makers = int(tp.maker) & 1
        attack = (makers == 0, makers == 1)
        utility = euchre_utility(view, mine, int(tp.maker), tp.alone)
        card = search_card(view, t, utility, attack, normal.card.index, rng, budget_s)
        return Play(view.seat, CARDS[card])

    # ------------------------------------------------------------------ calls
    def _call(self, view: SeatView, rng: random.Random, budget_s: float) -> Action:
        assert view.seat is not None
        assert view.part_as(TrumpPart).up_card is not None
        options = [a for a in view.legal if isinstance(a, Call)]
        normal = eu.normal_call(view)
        c = eu.calling(view)
        me = c.seat
        pool = _calling_pool(view, c)
        n = sample_count(budget_s, len(options), 4 * HAND * 2)
        totals = dict.fromkeys(options, 0.0)
        for _ in range(n):
            rng.shuffle(pool)
            hands = [0, 0, 0, 0]
            hands[me] = c.hand
            k = 0
            for s in range(4):
                if s != me:
                    hands[s] = sum(1 << i for i in pool[k : k + HAND])
                    k += HAND
            for option in options:
                totals[option] += _play_call(view, c, hands, option)
        best = max(options, key=lambda o: (totals[o], o == normal))
        return best if totals[best] - totals[normal] > ANCHOR * n else normal

    # ------------------------------------------------------------------ discard
    def _discard(self, view: SeatView, rng: random.Random, budget_s: float) -> Action:
        assert view.seat is not None
        tp = view.part_as(TrumpPart)
        assert tp.up_card is not None
        assert tp.maker is not None
        t = trump_deck(view.rules.deck, tp.up_card.suit)
        normal = eu.discard(view)
        assert isinstance(normal, Discard)
        options = [a for a in view.legal if isinstance(a, Discard)]
        seen = Seen(view, t)
        me = seen.me
        out = int(tp.maker) ^ 2 if tp.alone else None
        seats = view.seats
        order = turn_order(seats, None if out is None else seats[out])
        size = 4 - (out is not None)
        utility = euchre_utility(view, me & 1, int(tp.maker), tp.alone)
        attack = ((int(tp.maker) & 1) == 0, (int(tp.maker) & 1) == 1)
        n = sample_count(budget_s, len(options), 4 * HAND)
        totals = dict.fromkeys(options, 0.0)
        seen.need = [0 if s in (me, out) else HAND for s in range(4)]
        for _ in range(n):
            hands = sample_hands(seen, rng)
            if hands is None:
                continue
            if out is not None:
                hands[out] = 0
            for option in options:
                h = hands.copy()
                h[me] &= ~option.card.bit
                if me == out:
                    h[me] = 0
                sim = Sim(t, h, order[int(view.dealer)], [], [0, 0, 0, 0], order, size)
                sim.rollout(attack)
                totals[option] += utility(sim.tricks)
        best = max(options, key=lambda o: (totals[o], o == normal))
        return best if totals[best] - totals[normal] > ANCHOR * n else normal


def _calling_pool(view: SeatView, c: eu.Calling) -> list[int]:
    """The cards another seat may hold while calling: all but mine and the up-card."""
    t = trump_deck(c.deck, None)
    return bits(t.mask & ~c.hand & ~(1 << c.up))


def _play_call(view: SeatView, c: eu.Calling, hands: list[int], option: Call) -> float:
    """My side's points if I make ``option`` and the others call by the ``normal`` rules."""
    me = c.seat
    mine = me & 1
    seat, rnd = me, c.round
    call, alone = option.call, option.alone
    while call == Call.PASS:
        if seat == c.dealer:
            if rnd == 2:
                return 0.0  # everybody passed: a void hand
            rnd = 2
        seat = (seat + 1) % 4
        them = eu.Calling(c.deck, hands[seat], seat, c.dealer, rnd, c.up, c.stick)
        call, alone = eu.decide_call(them)
    trump = c.up_suit if call == Call.ORDER else call
    t = trump_deck(c.deck, trump)
    h = hands.copy()
    if call == Call.ORDER:
        with_up = h[c.dealer] | 1 << c.up
        h[c.dealer] = with_up & ~(1 << eu.best_discard(t, with_up))
    out = (seat ^ 2) if alone else None
    if out is not None:
        h[out] = 0
    order = turn_order(view.seats, None if out is None else view.seats[out])
    size = 4 - (out is not None)
    makers = seat & 1
    sim = Sim(t, h, order[c.dealer], [], [0, 0, 0, 0], order, size)
    sim.rollout((makers == 0, makers == 1))
    by = _by_side(sim.tricks)
    teams = score_euchre(view.rules.euchre_points, makers, list(by), alone, [0, 0])
    return side_points(view, mine, (teams[0].points, teams[1].points), by)
