"""What the arena writes down about a deal beyond the figures (``--detail FILE``): one JSON line
per duplicate deal with its difference, each table's cards, bids, plays, tricks and points, and
every needless overtake of a partner's winning card (:func:`overtakes_partner`)."""

from __future__ import annotations

import json
from typing import Any

from bot.engine.actions import NIL, Action, Play, Seat
from bot.engine.game import Game, HandResult
from bot.engine.spades.view import SpadesPart


def overtakes_partner(game: Game, action: Action) -> tuple[bool, bool]:
    """Is ``action`` a ruff or overtake of the partner's winning card, and was that needless?

    Returns ``(by the real hands, known to the player)``.  Both need: the partner's card is
    winning the trick, the partner is not a nil bidder still to be covered, the player had a
    legal card that would not beat it, and played one that does.  *By the real hands*: no
    opponent still to play holds a legal card that beats it.  *Known*: no card that could beat
    it is unseen by the player, except in suits those opponents have shown they lack — the
    player could tell the trick was already won.
    """
    no = (False, False)
    if not isinstance(action, Play) or not game.rules.partnerships:
        return no
    trick = game.current_trick
    if not trick or game.sitting_out is not None:
        return no
    deck = game.trump_order  # the trump in force (Whist, Euchre: this hand's)
    power = deck.power
    spades = deck.trumps
    lead = next(m for m in deck.suit_masks if m >> trick[0][1].index & 1)
    follow = lead | spades
    best_seat, best = max(
        ((s, c) for s, c in trick if follow >> c.index & 1), key=lambda x: power[x[1].index]
    )
    seat = action.seat
    if best_seat != seat.partner:
        return no
    partner_bid = _bids(game)[best_seat]
    if partner_bid is not None and partner_bid <= NIL and game.tricks_won[best_seat] == 0:
        return no
    beats = 0
    for i in range(54):
        bit = 1 << i
        above = bit & deck.mask and power[i] > power[best.index]
        if above and (bit & spades or (bit & lead and not (1 << best.index) & spades)):
            beats |= bit
    legal = game.legal_mask()
    if not legal & ~beats or not (1 << action.card.index) & beats:
        return no
    later = [Seat((seat + k) % 4) for k in range(1, 4 - len(trick))]
    real = not any(((game.hand_mask(o) & lead) or game.hand_mask(o)) & beats for o in later)
    unseen = deck.mask & ~game.hand_mask(seat)
    voids = [0, 0, 0, 0]
    for t in [*(tr.cards for tr in game.completed_tricks), trick]:
        led = next(m for m in deck.suit_masks if m >> t[0][1].index & 1)
        for s, c in t:
            unseen &= ~c.bit
            if not led >> c.index & 1:
                voids[s] |= led
    known = not any(unseen & ~voids[o] & beats for o in later)
    return real, known and real


def bid_text(bid: Any) -> str:
    """A bid of a hand's record in a few letters (``N 4``, ``E nil``, ``S blind nil``)."""
    seat = bid.seat.name if hasattr(bid, "seat") else "?"
    value = getattr(bid, "value", bid)
    return f"{seat}{' blind' if getattr(bid, 'blind', False) else ''} {value}"


def hand_record(table: int, ns: str, res: HandResult) -> dict[str, Any]:
    """One table's play of a deal: who sat North–South, the cards, bids, plays, tricks, points."""
    return {
        "table": table,
        "ns": ns,
        "deal": [" ".join(c.code for c in h) for h in res.deal],
        "bids": [bid_text(b) for b in res.bids],
        "plays": " ".join(c.code for c in res.plays),
        "tricks": list(res.tricks),
        "points": [t.points for t in res.teams],
    }


def _bids(game: Game) -> tuple[int | None, ...]:
    """Each seat's bid this hand (``None``: not made, or a game without bids)."""
    part = game.view_part(None)
    return part.bids if isinstance(part, SpadesPart) else (None, None, None, None)


def overtake_event(game: Game, action: Play, hand: str, spec: str, known: bool) -> dict[str, Any]:
    """A needless overtake as the detail log shows it (before ``action`` is applied)."""
    return {
        "seat": action.seat.name,
        "player": spec,
        "known": known,
        "trick_number": len(game.completed_tricks) + 1,
        "hand": hand,
        "trick": " ".join(f"{s.name}:{c.code}" for s, c in game.current_trick),
        "played": action.card.code,
        "bids": list(_bids(game)),
        "tricks_won": list(game.tricks_won),
    }


class DetailLog:
    """The ``--detail`` file: emptied when the match starts, a line appended per deal."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        if path:
            open(path, "w", encoding="utf-8").close()

    def deal(
        self,
        number: int,
        diff: float,
        diff_eff: float,
        hands: list[dict[str, Any]],
        events: list[dict[str, Any]],
    ) -> None:
        if not self.path:
            return
        line = {"deal": number, "diff": diff, "diff_eff": diff_eff}
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(json.dumps({**line, "hands": hands, "overtakes": events}) + "\n")
