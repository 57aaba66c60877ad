"""A card decision of Spades: the seat's knowledge, the candidates, the search.

Shared by the ``hard`` player (:mod:`bot.ai.hard`), which plays the chosen card, and the public
evaluation (:mod:`bot.ai.evaluation`), which also values the cards the player would not
consider (a useless overtake of the partner).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from bot.ai.search.candidates import (
    SAFE_SHARE,
    overtakes,
    policy_card,
    threat_share,
    useless_overtakes,
)
from bot.ai.search.inference import play_weight, soft_voids
from bot.ai.search.pimc import SearchOutcome, choose
from bot.ai.search.solver import distinct
from bot.ai.search.spades import SpadesHand, bid_weight
from bot.ai.search.worlds import Sampler, SearchKnowledge
from bot.engine.actions import NIL, PLAYS, Play
from bot.engine.spades.view import SpadesPart
from bot.engine.views import SeatView


@dataclass
class CardChoice:
    """The cards of a decision: ``runs`` every legal run of touching cards (its lowest card),
    ``cands`` those the player considers, the default (the policy's) first."""

    game: SpadesHand
    knowledge: SearchKnowledge
    runs: list[int]
    cands: list[int]
    sampler: Sampler | None = None

    def play(self, card: int) -> Play:
        """The engine action playing a search-numbered card."""
        return PLAYS[self.game.me][self.game.layout.to_engine[card]]


def card_choice(view: SeatView, rng: random.Random) -> CardChoice:
    """The candidates of the seat on turn; with more than one, the sampler of its worlds and
    the default card first."""
    assert view.seat is not None
    me = int(view.seat)
    game = SpadesHand(view)
    lay = game.layout
    hand = lay.sim_mask(sum(c.bit for c in view.hand or ()))
    legal = 0
    for a in view.legal:
        if isinstance(a, Play):
            legal |= 1 << lay.to_sim[a.card.index]
    tricks = [[(int(s), lay.to_sim[c.index]) for s, c in tr.cards] for tr in view.completed_tricks]
    tricks.append([(int(s), lay.to_sim[c.index]) for s, c in view.current_trick])
    partner = me ^ 2
    bidding = view.part_as(SpadesPart)
    k = SearchKnowledge(
        lay,
        me,
        hand,
        tricks,
        view.cards_left,
        game.table.restrict_trump_lead,
        passed=lay.sim_mask(sum(c.bit for c in bidding.passed)),
        partner=partner,
    )
    in_play = k.unknown | hand | k.known[partner]
    for _, c in tricks[-1]:
        in_play |= 1 << c
    runs = distinct(lay.suit_of, legal, in_play)
    pbid = bidding.bids[partner]
    partner_nil = pbid is not None and pbid <= NIL and view.tricks_won[partner] == 0
    later = [(me + j) & 3 for j in range(1, 4 - len(tricks[-1]))]
    useless = useless_overtakes(lay, k, partner, tricks[-1], later, legal, partner_nil)
    over = overtakes(lay, partner, tricks[-1], legal, partner_nil)
    cands = [c for c in runs if not useless >> c & 1]
    choice = CardChoice(game, k, runs, cands)
    if len(runs) > 1:
        voids = soft_voids(
            lay, tricks, game.goals, game.table.tricks_per_hand, game.table.team_of, me, k.unknown
        )
        choice.sampler = Sampler(
            k, rng, bid_weight(view, lay), first=play_weight(voids, partner) if voids else None
        )
    if len(cands) > 1:
        assert choice.sampler is not None
        if over & sum(1 << c for c in cands):
            share = threat_share(choice.sampler, lay, tricks[-1], later)
            if share <= SAFE_SHARE:
                cands[:] = [c for c in cands if not over >> c & 1]
    if len(cands) > 1:
        assert choice.sampler is not None
        first = policy_card(game.start, choice.sampler, runs, cands, lay.suit_of)
        cands.insert(0, cands.pop(cands.index(first)))
    return choice


def search_card(
    choice: CardChoice,
    clock: Callable[[], float],
    budget_s: float,
    max_worlds: int,
    value_all: bool = False,
) -> SearchOutcome:
    """Search the candidates (with ``value_all``, every legal run, the others valued only)."""
    cands = list(choice.cands)
    extra = [c for c in choice.runs if c not in cands] if value_all else []
    if len(cands) + len(extra) == 1 or choice.sampler is None:
        return SearchOutcome(cands[0], 0)
    return choose(
        choice.game.start,
        cands + extra,
        choice.sampler,
        choice.game.value,
        choice.game.me & 1,
        clock,
        budget_s,
        max_worlds,
        eligible=len(cands),
    )
