"""Knowledge-based bidding: fractional trick counting, the nil checklist, blind decisions,
blind-nil card passing.  Shared by the ``normal`` and ``hard`` players."""

from __future__ import annotations

from typing import Final

from bot.ai.deck_tables import DECK_INFO, DeckInfo, bits, hand_mask
from bot.engine.actions import BLIND_NIL, NIL, Action, Bid, Look, PassCards, Seat
from bot.engine.rules import Rules
from bot.engine.spades.view import SpadesPart
from bot.engine.views import SeatView

# Added to the trick estimate before rounding down (0.5 = round to nearest).
BID_BIAS: Final = 0.5

# Value of the k-th round of a side suit still standing (later rounds get trumped).
_ROUND_FACTOR: Final = (1.0, 0.85, 0.5, 0.2, 0.05)


def _trump_pos(d: DeckInfo) -> dict[int, int]:
    return {i: k for k, i in enumerate(d.trump_order)}


_TRUMP_POS: Final = {name: _trump_pos(d) for name, d in DECK_INFO.items()}


def _side_pos(d: DeckInfo, suit: int) -> dict[int, int]:
    order = sorted(bits(d.suit_masks[suit]), key=lambda i: -d.power[i])
    return {i: k for k, i in enumerate(order)}


_SIDE_POS: Final = {name: tuple(_side_pos(d, s) for s in range(4)) for name, d in DECK_INFO.items()}


def estimate_tricks(deck: str, hand: int) -> float:
    """Expected tricks of a hand, by fractional counting: each suit's holding is valued on its
    own (memoised), then spare spades are counted for length and for ruffing short suits."""
    d = DECK_INFO[deck]
    sp_est, high, n_sp = _spade_part(deck, hand & d.spades)
    est = sp_est
    spare = n_sp - high
    long_extra = min(spare, max(0, n_sp - 4))
    est += 0.8 * long_extra
    spare -= long_extra
    masks = d.suit_masks
    shorts: list[int] = []
    for suit in (1, 2, 3):
        v, n = _side_part(deck, suit, hand & masks[suit])
        est += v
        shorts.append(n)
    # Trumping from short suits with spare spades.
    if spare > 0:
        for n in sorted(shorts):
            if spare <= 0:
                break
            if n == 0:
                take = min(spare, 2)
                est += (0.8, 1.3)[take - 1]
                spare -= take
            elif n == 1:
                est += 0.55
                spare -= 1
            elif n == 2:
                est += 0.2
                spare -= 1
    return est


_SPADE_PARTS: dict[tuple[str, int], tuple[float, int, int]] = {}
_SIDE_PARTS: dict[tuple[str, int, int], tuple[float, int]] = {}


def _spade_part(deck: str, spades: int) -> tuple[float, int, int]:
    """The trick value of a spade holding, how many of them count as high, how many."""
    key = (deck, spades)
    out = _SPADE_PARTS.get(key)
    if out is not None:
        return out
    tpos = _TRUMP_POS[deck]
    sp = sorted(bits(spades), key=lambda i: tpos[i])
    n_sp = len(sp)
    est = 0.0
    high = 0
    for j, i in enumerate(sp):
        higher_out = tpos[i] - j
        below = n_sp - j - 1
        if higher_out == 0:
            v = 1.0
        elif below >= higher_out:
            v = max(0.0, 1.0 - 0.22 * higher_out)
        else:
            v = 0.15 if higher_out == 1 else 0.0
        est += v
        if v >= 0.5:
            high += 1
    out = _SPADE_PARTS[key] = (est, high, n_sp)
    return out


def _side_part(deck: str, suit: int, cards_mask: int) -> tuple[float, int]:
    """The trick value of a side-suit holding, and its length."""
    key = (deck, suit, cards_mask)
    out = _SIDE_PARTS.get(key)
    if out is not None:
        return out
    spos = _SIDE_POS[deck][suit]
    cards = sorted(bits(cards_mask), key=lambda i: spos[i])
    n = len(cards)
    length_factor = max(0.3, 1.0 - 0.12 * max(0, n - 4))
    est = 0.0
    for j, i in enumerate(cards):
        higher_out = spos[i] - j
        below = n - j - 1
        rf = _ROUND_FACTOR[j] if j < len(_ROUND_FACTOR) else 0.0
        if higher_out == 0:
            v = rf
        elif higher_out == 1 and below >= 1:
            v = 0.6 * rf
        elif higher_out == 2 and below >= 2:
            v = 0.3 * rf
        elif higher_out == 1:
            v = 0.15
        else:
            v = 0.0
        est += v * length_factor
    out = _SIDE_PARTS[key] = (est, n)
    return out


def nil_checklist(deck: str, hand: int, strict: bool = False) -> bool:
    """Is this hand safe enough to bid nil?"""
    d = DECK_INFO[deck]
    tpos = _TRUMP_POS[deck]
    sp = sorted(bits(hand & d.spades), key=lambda i: tpos[i])
    n_sp = len(sp)
    if n_sp > 3:
        return False
    if sp:
        need = (3, 5, 7)[n_sp - 1] + (1 if strict else 0)
        if tpos[sp[0]] < need + (len(d.trump_order) - 13):
            return False
    for suit in (1, 2, 3):
        spos = _SIDE_POS[deck][suit]
        cards = sorted(bits(hand & d.suit_masks[suit]), key=lambda i: spos[i])
        n = len(cards)
        if not n:
            continue
        top = spos[cards[0]]
        if top == 0:
            return False
        if top == 1 and n < 4:
            return False
        if top == 2 and n < 3:
            return False
        low_rank = d.power[cards[-1]]
        if n >= 2 and low_rank > (6 if strict else 7):
            return False
        if n == 1 and low_rank > 9:
            return False
        if n >= 5 and sum(1 for i in cards if d.power[i] <= 6) < 2:
            return False
    return estimate_tricks(deck, hand) <= (0.9 if strict else 1.3)


def _team_deficit(view: SeatView, seat: Seat) -> int:
    team = int(seat) & 1
    return view.scores[team ^ 1] - view.scores[team]


def blind_worth_it(view: SeatView, seat: Seat) -> bool:
    """Bid blind only when far behind and the opponents are closing in on the target."""
    team = int(seat) & 1
    deficit = _team_deficit(view, seat)
    opp = view.scores[team ^ 1]
    target = view.rules.target
    return deficit >= 200 and (opp >= target - 150 or deficit >= 350)


def choose_bid(view: SeatView, bias: float = BID_BIAS) -> Action:
    """The bidding decision (including blind nil / look and New York proposals)."""
    assert view.seat is not None
    seat = view.seat
    legal = view.legal
    rules = view.rules
    part = view.part_as(SpadesPart)
    if view.hand_hidden or view.hand is None:
        if rules.new_york:
            blind_bids = [a for a in legal if isinstance(a, Bid) and a.blind]
            prop = part.proposals[int(seat) & 1]
            if blind_bids and prop is not None and prop[1]:
                want = prop[0]
                for a in blind_bids:
                    if a.value == want:
                        return a
            if blind_bids and prop is None and blind_worth_it(view, seat):
                for a in blind_bids:
                    if a.value == 5:
                        return a
        else:
            partner_bid = part.bids[int(seat.partner)]
            bn = Bid(seat, BLIND_NIL)
            if bn in legal and partner_bid not in (NIL, BLIND_NIL) and blind_worth_it(view, seat):
                return bn
        return Look(seat)
    hand = hand_mask(view)
    if rules.new_york:
        return _new_york_bid(view, seat, estimate_tricks(rules.deck, hand))
    partner_bid = part.bids[int(seat.partner)]
    prev = sum(b for b in part.bids if b is not None and b > 0)
    value = individual_bid(rules, hand, partner_bid, prev, bias)
    if value == NIL and Bid(seat, NIL) not in legal:
        value = max(1, int(estimate_tricks(rules.deck, hand) + 0.5))
    return Bid(seat, value)


def individual_bid(
    rules: Rules, hand: int, partner_bid: int | None, prev_total: int, bias: float = 0.5
) -> int:
    """The normal bid of a hand (``NIL`` or 1..13), given the partner's bid if made and the
    total of the positive bids made before."""
    est = estimate_tricks(rules.deck, hand)
    if rules.nil and partner_bid not in (NIL, BLIND_NIL):
        strict = partner_bid is not None and partner_bid <= 2
        if nil_checklist(rules.deck, hand, strict):
            return NIL
    if partner_bid in (NIL, BLIND_NIL):
        est -= 0.4
    bid = int(est + bias)
    if prev_total + bid >= 14:
        bid -= 1
    return max(1, min(13, bid))


def _new_york_bid(view: SeatView, seat: Seat, est: float) -> Action:
    prop = view.part_as(SpadesPart).proposals[int(seat) & 1]
    team = est + 3.0 if prop is None else est + prop[0] - 3.0
    value = round(team)
    if value >= 10 and team < 10.6:
        value = 9
    value = max(4, min(10, value))
    bid = Bid(seat, value)
    if bid in view.legal:
        return bid
    return next(a for a in view.legal if isinstance(a, Bid))


def choose_pass(view: SeatView) -> Action:
    """Blind-nil card passing: the nil bidder sheds its highest cards, the partner sends low."""
    assert view.seat is not None
    seat = view.seat
    d = DECK_INFO[view.rules.deck]
    n = view.rules.blind_nil_pass
    hand = list(view.hand or ())
    if view.part_as(SpadesPart).bids[int(seat)] == BLIND_NIL:
        chosen = sorted(hand, key=lambda c: -d.power[c.index])[:n]
    else:
        side = sorted((c for c in hand if d.suit_of[c.index] != 0), key=lambda c: d.power[c.index])
        chosen = []
        used: set[int] = set()
        for c in side:
            if d.suit_of[c.index] not in used:
                chosen.append(c)
                used.add(d.suit_of[c.index])
            if len(chosen) == n:
                break
        for c in sorted(hand, key=lambda c: d.power[c.index]):
            if len(chosen) == n:
                break
            if c not in chosen:
                chosen.append(c)
    key = set(chosen)
    for a in view.legal:
        if isinstance(a, PassCards) and set(a.cards) == key:
            return a
    return view.legal[0]
