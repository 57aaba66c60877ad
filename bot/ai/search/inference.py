"""Inference from the cards the other seats chose to play: soft facts that weight the worlds.

A seat's play says something about the cards it kept.  Three patterns, each a *soft void* (a
set of cards the seat most likely did not hold when it played) with a likelihood ratio
measured on the arena's deals (docs/ai.md, "Inference from the play"):

* ``DUCK``: third or fourth to play, an opponent winning the trick, its side wanting tricks
  (the game's goals, as the play-out policy reads them; not a live nil), the seat followed
  suit with a card that lost: it held no card of the suit above the winning one.  Strong from
  the last seat (nobody after it could take the trick for its side), weak from the third.
* ``NO_RUFF``: the same, but the seat could not follow and threw a card of another side suit:
  it held no trump that would have won the trick.  (Second to play, a seat has no such
  obligation: measured, its low card says nothing.)
* ``TOUCH``: a seat playing a card holds no touching cheaper one (the next lower card of the
  suit still in play): the search, like most players, plays the lowest of equal cards.  Only
  while its side wants tricks: a nil, or a side avoiding bags, plays the highest card that
  loses.

A soft void the seat later contradicted (it played one of those cards afterwards) says that it
did not play by the pattern then, and is dropped.  Cards the searching seat knows the place of
(its own, played, passed) are left out of every mask.  A world is weighted by the product of
the ratios of the soft voids it breaks; :func:`play_weight` is one loop over a few dozen masks.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.ai.search.layout import Layout

# goals(tricks per seat, tricks still to play) -> (wants tricks per team, nil alive per seat)
Goals = Callable[[list[int], int], tuple[list[bool], list[bool]]]

TOUCH = 0
DUCK = 1  # third to play; DUCK + 1: last to play
NO_RUFF = 3  # third to play; NO_RUFF + 1: last to play
# The weight of a world in which the seat held a card of the soft void, against one where it
# did not, by kind (TOUCH, DUCK third, DUCK last, NO_RUFF third, NO_RUFF last): measured on the
# arena's deals (docs/ai.md) for the opponents — the weaker of what the rule player and the
# previous hard (a searching player) showed, so that it holds for both — and for the partner
# (the search, which ducks to avoid bags and keeps trumps more often than a rule player).
RATIO = (0.2, 0.6, 0.2, 0.6, 0.8)
PARTNER_RATIO = (0.1, 0.6, 0.45, 1.0, 0.85)


def soft_voids(
    lay: Layout,
    tricks: Sequence[Sequence[tuple[int, int]]],
    goals: Goals,
    tricks_per_hand: int,
    team_of: Sequence[int],
    me: int,
    unknown: int,
) -> list[tuple[int, int, int]]:
    """The soft voids of every seat but ``me`` as ``(seat, mask, kind)``, from ``tricks`` (in
    search numbering, the last may be unfinished); masks are within ``unknown``, the cards
    whose place ``me`` does not know."""
    n = len(team_of)
    found: list[tuple[int, int, int, int]] = []  # (seat, mask, kind, cards played by then)
    won = [0] * n
    played = 0
    trump = lay.trump
    for trick in tricks:
        if not trick:
            continue
        want, nil = goals(won, tricks_per_hand - sum(won))
        lead = lay.suit_masks[lay.suit_of[trick[0][1]]]
        w_seat, w = trick[0]
        for i, (s, c) in enumerate(trick):
            bit = 1 << c
            if s != me and want[team_of[s]] and not nil[s]:
                suit = lay.suit_masks[lay.suit_of[c]]
                below = suit & (bit - 1) & ~played
                if below:
                    found.append((s, 1 << (below.bit_length() - 1), TOUCH, played))
                if i >= 2 and team_of[w_seat] != team_of[s]:
                    last = int(i == n - 1)
                    if bit & lead and not bit & lay.beats[w] and (1 << w) & lead:
                        found.append((s, lead & lay.beats[w], DUCK + last, played))
                    elif not bit & (lead | trump):
                        found.append((s, trump & lay.beats[w], NO_RUFF + last, played))
            if i and bit & lay.beats[w]:
                w_seat, w = s, c
            played |= bit
        if len(trick) == n:
            won[w_seat] += 1
    later = [0] * n  # the cards each seat played, to drop the voids it contradicted
    for trick in tricks:
        for s, c in trick:
            later[s] |= 1 << c
    out = []
    for s, mask, kind, before in found:
        if mask & later[s] & ~before:
            continue
        m = mask & unknown
        if m:
            out.append((s, m, kind))
    return out


def play_weight(
    voids: Sequence[tuple[int, int, int]], partner: int = -1
) -> Callable[[list[int]], float]:
    """How well a world's hands explain the plays: the product of the ratios of the soft voids
    it breaks (1 when it breaks none); ``partner``'s voids weigh by :data:`PARTNER_RATIO`."""
    table = []
    for s, m, k in voids:
        r = (PARTNER_RATIO if s == partner else RATIO)[k]
        if r < 1.0:
            table.append((s, m, r))

    def weight(hands: list[int]) -> float:
        w = 1.0
        for s, m, r in table:
            if hands[s] & m:
                w *= r
        return w

    return weight
