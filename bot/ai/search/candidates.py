"""The cards worth searching, and the one to keep without evidence.

* Touching cards of one hand are one candidate (:func:`~bot.ai.search.solver.distinct`).
* **No useless overtake of the partner.**  When the partner's card is winning the trick, a card
  of ours that beats it is dropped from the candidates if it cannot do better in this trick:
  every card a later opponent may hold (unseen by us, in a suit not shown void) that beats the
  partner's card beats ours too — in particular when nothing can beat the partner's card.  Such
  a card only spends a winner (or a trump) on a trick our side has anyway; its only gains are the
  lead, or shedding a winner to avoid a bag, and a search in which every seat sees every card
  overrates exactly those (the winner of the lead then plays perfectly).  A partner on nil
  still to be covered is the exception.  A safety play (ruffing high against an overruff,
  overtaking a card an unseen card could beat) stays a candidate and the search decides.
* **Overtakes only as safety plays.**  The other cards that beat the partner's winning card
  (a safety play against a later opponent who may beat it) are candidates only when the
  partner's card is more likely beaten than not: when more than ``SAFE_SHARE`` of the worlds
  (weighted by the inference from the play, :mod:`bot.ai.search.inference`) give a later
  opponent a card that beats it.  Otherwise the overtake spends a winner or a trump mostly for
  the lead, which a search in which every seat sees every card overrates — systematically, so
  that no significance test on its values removes it (it preferred ruffing a partner's
  unbeatable ace by many standard errors).
* **The default card** is the one the play-out policy chooses most often over a few worlds
  drawn from the seat's knowledge, among the candidates (the policy sees the cards, so it
  overtakes whenever the later opponent *can* beat the partner in that world); the search keeps
  it unless another is better by its significance test.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.ai.search.layout import Layout
from bot.ai.search.sim import State
from bot.ai.search.worlds import Sampler, SearchKnowledge

POLICY_VOTES = 7  # worlds asked for the policy's card
THREAT_WORLDS = 32  # worlds asked whether a later opponent can beat the partner's card
SAFE_SHARE = 0.5  # overtakes are no candidates when at most this share of worlds has a threat


def overtakes(
    lay: Layout,
    partner: int,
    trick: Sequence[tuple[int, int]],
    legal: int,
    partner_nil: bool,
) -> int:
    """The cards of ``legal`` that would take the trick from the partner's winning card (a
    mask; 0 unless the partner is winning, is not a nil to cover, and ``legal`` also has a
    card that would not).  ``trick``: the cards on the table as (seat, card)."""
    if not trick or partner < 0 or partner_nil:
        return 0
    w_seat, w = trick[0]
    for s, c in trick[1:]:
        if (1 << c) & lay.beats[w]:
            w_seat, w = s, c
    if w_seat != partner:
        return 0
    over = legal & lay.beats[w]
    if not over or not legal & ~over:
        return 0
    return over


def useless_overtakes(
    lay: Layout,
    k: SearchKnowledge,
    partner: int,
    trick: Sequence[tuple[int, int]],
    later: Sequence[int],
    legal: int,
    partner_nil: bool,
) -> int:
    """The cards of ``legal`` that beat the partner's winning card to no purpose (a mask).

    ``trick``: the cards on the table as (seat, card); ``later``: the seats still to play after
    ``me``, all of them opponents here."""
    over = overtakes(lay, partner, trick, legal, partner_nil)
    if not over:
        return 0
    w = trick[0][1]
    for _, c in trick[1:]:
        if (1 << c) & lay.beats[w]:
            w = c
    threats = 0
    for o in later:
        threats |= k.unknown & ~k.forbidden[o] & lay.beats[w]
    out = 0
    m = over
    while m:
        low = m & -m
        c = low.bit_length() - 1
        if not threats & ~lay.beats[c]:
            out |= low
        m ^= low
    return out


def threat_share(
    sampler: Sampler,
    lay: Layout,
    trick: Sequence[tuple[int, int]],
    later: Sequence[int],
    worlds: int = THREAT_WORLDS,
) -> float:
    """The share of ``worlds`` sampled worlds in which a seat of ``later`` (the opponents still
    to play) holds a card that beats the trick's winning card."""
    w = trick[0][1]
    for _, c in trick[1:]:
        if (1 << c) & lay.beats[w]:
            w = c
    lead = lay.suit_masks[lay.suit_of[trick[0][1]]]
    hit = 0
    for _ in range(worlds):
        hands = sampler.sample()
        for o in later:
            h = hands[o]
            if (h & lead or h) & lay.beats[w]:
                hit += 1
                break
    return hit / worlds


def representative(runs: Sequence[int], suit_of: Sequence[int], card: int) -> int:
    """The card of ``runs`` (the lowest card of each run of touching cards, in order) whose
    run holds ``card``."""
    rep = runs[0]
    for c in runs:
        if c <= card and suit_of[c] == suit_of[card]:
            rep = c
    return rep


def policy_card(
    start: Callable[[list[int]], State],
    sampler: Sampler,
    runs: list[int],
    cands: list[int],
    suit_of: Sequence[int],
    votes: int = POLICY_VOTES,
) -> int:
    """The candidate the play-out policy picks most often over ``votes`` worlds (``runs``: all
    legal runs of touching cards, ``cands`` those it may be; a pick outside ``cands`` is not
    counted; ties: the lower card)."""
    count = dict.fromkeys(cands, 0)
    for _ in range(votes):
        rep = representative(runs, suit_of, start(sampler.sample()).policy())
        if rep in count:
            count[rep] += 1
    return max(cands, key=lambda c: (count[c], -c))
