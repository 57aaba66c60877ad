"""Computer players in the games.md G1-G2 variants: renege claims, solo, three players and the
Suicide/Whiz/Mirror bid rules.

:class:`VariantAware` wraps every level (``easy``, ``normal``, ``hard``):

* **Renege claims**: the seat's view offers every card in hand; a computer player chooses
  among ``view.honest`` (the cards that follow the rules), so it never reneges.
* **Bid rules** (Suicide, Whiz, Mirror): ``easy`` and ``normal`` bid by
  :func:`restricted_bid` (the choice is nil or one number, or forced); ``hard`` bids from its
  search (:mod:`bot.ai.search.bidding` values every legal bid — nil and the allowed numbers —
  on the worlds it plays out).  Any other wanted bid that is not legal is moved to the nearest
  legal one (:func:`fit_bid`).
* **Partnership variants and claims**: every level plays its usual cards from the honest
  plays; ``hard`` is the search of :mod:`bot.ai.hard` in every partnership variant.
* **Solo and three players** (no partner): the ``easy`` and ``normal`` levels play their usual
  bidding with no partner to protect (see :func:`solo_view`); ``normal`` plays the solo
  policy of :mod:`bot.ai.solo_search`, ``easy`` its usual play; the ``hard`` level searches
  its cards and bids with :mod:`bot.ai.solo_search` (perfect-information Monte Carlo through
  the engine itself), since the partnership search of :mod:`bot.ai.hard` models two teams of
  two; only its choice between looking and blind nil is the ``normal`` bidder's.

:func:`proven_renege` is G1's claiming rule; the bot hands it to the table service's automatic
turns (bot/tables/turns.py), which ask every computer seat after each accepted action.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Final

from bot.ai.deck_tables import hand_mask
from bot.ai.players import NormalPlayer, Player
from bot.ai.rule_bidding import estimate_tricks, nil_checklist
from bot.ai.solo_search import SoloSearch, solo_normal_play
from bot.engine.actions import BLIND_NIL, NIL, Action, Bid
from bot.engine.cards import Card
from bot.engine.decks import DECKS
from bot.engine.game import Phase
from bot.engine.rules import RESTRICTED_BIDDING
from bot.engine.seats import Seat
from bot.engine.spades.view import SpadesPart
from bot.engine.views import SeatView

SPADE: Final = "S"


def honest_view(view: SeatView) -> SeatView:
    """The view a computer player decides from: with renege claims, the honest plays only."""
    if view.rules.claims and view.phase is Phase.PLAY and view.honest != view.legal:
        return dataclasses.replace(view, legal=view.honest)
    return view


def solo_view(view: SeatView) -> SeatView:
    """In solo games the partnership policies must not see an opponent's bid as a partner's:
    the seat opposite is shown as not having bid."""
    if view.rules.partnerships or view.seat is None:
        return view
    part = view.part_as(SpadesPart)
    bids = list(part.bids)
    partner = view.seat ^ 2
    if partner < len(bids):
        bids[partner] = None
    return dataclasses.replace(view, part=dataclasses.replace(part, bids=tuple(bids)))


def fit_bid(view: SeatView, action: Action) -> Action:
    """``action`` if legal, else the legal bid nearest its value (nil counting as 0)."""
    if action in view.legal or not isinstance(action, Bid):
        return action
    bids = [a for a in view.legal if isinstance(a, Bid) and a.value != BLIND_NIL]
    if not bids:
        return view.legal[0]
    want = max(action.value, NIL)
    return min(bids, key=lambda b: (abs(b.value - want), b.value))


def restricted_bid(view: SeatView) -> Action:
    """A bid under Suicide, Whiz or Mirror from the hand's trick estimate:

    * Whiz: nil when the hand passes the nil checklist, or is far weaker than its spade count
      (estimate below count - 1.5 and under 2.5 tricks); else the spade count;
    * Suicide: the team's first bidder takes the nil role with an estimate under 3 tricks,
      else bids max(4, estimate); the partner takes the role left;
    * Mirror: the one bid allowed.
    """
    assert view.seat is not None
    bids = [a for a in view.legal if isinstance(a, Bid) and a.value != BLIND_NIL]
    nil = next((b for b in bids if b.value == NIL), None)
    numbers = [b for b in bids if b.value > 0]
    if nil is None or not numbers:
        return bids[0] if bids else view.legal[0]
    hand = hand_mask(view)
    est = estimate_tricks(view.rules.deck, hand)
    if view.rules.bidding == "whiz":
        count = numbers[0].value
        weak = est < count - 1.5 and est < 2.5
        return nil if nil_checklist(view.rules.deck, hand) or weak else numbers[0]
    if est < 3.0:
        return nil
    return min(numbers, key=lambda b: abs(b.value - max(4, round(est))))


class VariantAware:
    """Any level made to play every variant (see the module docstring)."""

    def __init__(self, inner: Player, level: str) -> None:
        self.inner = inner
        self.level = level
        self.search = SoloSearch() if level == "hard" else None
        # Solo bids: the partnership bid simulation of ``hard`` models two teams, so solo bids
        # come from the ``normal`` bidder at that level.
        self.solo_bidder: Player = NormalPlayer() if level == "hard" else inner

    def decide(self, view: SeatView, rng: random.Random, budget_s: float) -> Action:
        view = honest_view(view)
        if len(view.legal) == 1:
            return view.legal[0]
        if not view.rules.partnerships:
            if view.phase is Phase.PLAY and self.search is not None:
                return self.search.play(view, rng, budget_s)
            if view.phase is Phase.PLAY and self.level == "normal":
                return solo_normal_play(view, rng)
            if self.search is not None and view.phase is Phase.BID and view.hand is not None:
                return self.search.bid(view, rng, budget_s, self._solo_normal_bid)
            action = self.solo_bidder.decide(solo_view(view), rng, budget_s)
            return fit_bid(view, action) if action not in view.legal else action
        if (
            view.phase is Phase.BID
            and view.rules.bidding in RESTRICTED_BIDDING
            and view.hand is not None
            and self.level != "hard"  # hard's search values the legal bids itself
        ):
            return restricted_bid(view)
        action = self.inner.decide(view, rng, budget_s)
        return fit_bid(view, action)

    def _solo_normal_bid(self, view: SeatView) -> Action:
        """Another seat's bid in the hard solo search's play-outs: the normal bidder's."""
        action = self.solo_bidder.decide(solo_view(view), random.Random(0), 0.0)
        return fit_bid(view, action)


def proven_renege(view: SeatView) -> Seat | None:
    """G1's claiming rule for a computer player: the opponent (not yet caught) whose renege the
    cards seen so far prove, or ``None``.  Proof: a player who showed out of a suit later plays
    that suit; or a spade led before spades were seen broken by a player who later plays a
    non-spade (which it held at the time)."""
    part = view.bidding
    if view.seat is None or part is None or not part.claim_targets:
        return None
    targets = part.claim_targets
    caught = {c.against for c in part.claims if c.correct}
    suit_of = DECKS[view.rules.deck].suit_of
    shown_out: dict[Seat, set[str]] = {}
    spade_lead: set[Seat] = set()
    broken = False
    for trick_cards in _tricks(view):
        led = suit_of(trick_cards[0][1])
        for k, (seat, card) in enumerate(trick_cards):
            suit = suit_of(card)
            proof = suit in shown_out.get(seat, ()) or (seat in spade_lead and suit != SPADE)
            if proof and seat in targets and seat not in caught:
                return seat
            if k == 0:
                if suit == SPADE and not broken:
                    spade_lead.add(seat)
            elif suit != led:
                shown_out.setdefault(seat, set()).add(led)
                if suit == SPADE:
                    broken = True
    return None


def _tricks(view: SeatView) -> list[tuple[tuple[Seat, Card], ...]]:
    out = [t.cards for t in view.completed_tricks]
    if view.current_trick:
        out.append(view.current_trick)
    return out
