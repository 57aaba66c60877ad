"""Helpers for the computer-player tests: synthetic seat views of chosen positions."""

from __future__ import annotations

import dataclasses
import random

from bot.ai.deck_tables import DECK_INFO, trick_winner
from bot.engine import PLAYS, Card, Game, Rules, Seat, SeatView, SpadesPart, Trick, card, seat_view
from bot.engine.actions import Bid
from bot.engine.cards import cards_of
from bot.engine.decks import DECKS
from bot.engine.game import Phase


def _cards(codes: str) -> tuple[Card, ...]:
    return tuple(card(c) for c in codes.split())


def position(
    me: Seat,
    hand: str,
    current: list[tuple[Seat, str]],
    others: dict[Seat, str],
    bids: dict[Seat, int],
    tricks_won: tuple[int, int, int, int],
    scores: tuple[int, int] = (0, 0),
    bag_counts: tuple[int, int] = (0, 0),
    rules: Rules | None = None,
) -> SeatView:
    """The view of ``me`` in a play-phase position.

    ``others`` gives the cards the other seats still hold (only the union matters to ``me``:
    it is the unknown part of the deck); every other card is placed in earlier tricks, one suit
    per trick where possible.
    """
    rules = rules or Rules.from_preset("standard")
    d = DECK_INFO[rules.deck]
    deck = DECKS[rules.deck]
    my = _cards(hand)
    cur = tuple((s, card(c)) for s, c in current)
    held = {s: _cards(v) for s, v in others.items()}
    held[me] = my
    in_play = set(my) | {c for _, c in cur} | {c for v in held.values() for c in v}
    played = [c for c in cards_of(deck.mask) if c not in in_play]
    played.sort(key=lambda c: (d.suit_of[c.index], d.power[c.index]))
    n_tricks = len(played) // 4
    assert n_tricks == sum(tricks_won), (n_tricks, tricks_won)
    winners = [s for s in Seat for _ in range(tricks_won[s])]
    tricks = []
    for k in range(n_tricks):
        group = played[4 * k : 4 * k + 4]
        w = winners[k]
        seats = [Seat((w + j) % 4) for j in range(4)]
        tricks.append(Trick(w, tuple(zip(seats, group, strict=True)), w))
    plays = tuple(p for t in tricks for p in t.cards) + cur
    # Legal plays of ``me``.
    mine = 0
    for c in my:
        mine |= c.bit
    if cur:
        lead_mask = d.suit_masks[d.suit_of[cur[0][1].index]]
        legal_mask = mine & lead_mask or mine
    else:
        broken = any(d.suit_of[c.index] == 0 for _, c in plays)
        legal_mask = mine if broken else (mine & ~d.spades or mine)
    legal = tuple(PLAYS[me][c.index] for c in cards_of(legal_mask))
    g = Game(rules)
    g.deal(random.Random(0))
    base = seat_view(g, me)
    cards_left = [13 - n_tricks - (1 if any(s == x for s, _ in cur) else 0) for x in Seat]
    bid_log = tuple(Bid(s, bids[s]) for s in Seat)
    bidding = dataclasses.replace(
        base.part_as(SpadesPart),
        hand_hidden=False,
        bids=tuple(bids[s] for s in Seat),
        bid_log=bid_log,
        spades_broken=any(d.suit_of[c.index] == 0 for _, c in plays),
        blind_open=False,
        unseen_bids=(),
    )
    return dataclasses.replace(
        base,
        phase=Phase.PLAY,
        to_act=me,
        hand=my,
        hand_hidden=False,
        cards_left=(cards_left[0], cards_left[1], cards_left[2], cards_left[3]),
        tricks_won=tricks_won,
        current_trick=cur,
        plays=plays,
        completed_tricks=tuple(tricks),
        scores=scores,
        bag_counts=bag_counts,
        legal=legal,
        part=bidding,
    )


def winner_of(rules: Rules, current: list[tuple[Seat, str]]) -> Seat:
    d = DECK_INFO[rules.deck]
    t = [(int(s), card(c).index) for s, c in current]
    return current[trick_winner(d, t)][0]
