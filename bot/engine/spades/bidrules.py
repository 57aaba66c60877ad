"""The bid restrictions of Suicide, Whiz and Mirror (games.md G2, G7), with the reasons a
player reads when a bid is refused.

* **Suicide** (partnerships): in each team one partner bids nil (or blind nil), the other at
  least 4; the team's first bidder chooses the role, the partner takes the other.
* **Whiz**: nil (or blind nil) or exactly the number of spades in the bidder's hand.
* **Mirror**: exactly the number of spades in hand; with none, nil.  No blind nil.

Spades are counted in the follow-suit sense (jokers and jjdd's 2♦ are spades).  Pure functions
of what the bidder knows; :class:`~bot.engine.spades.game.SpadesGame` asks them while bidding.
"""

from __future__ import annotations

from typing import Final

from bot.engine.actions import NIL
from bot.engine.lines import Line
from bot.engine.rules import RESTRICTED_BIDDING, Rules

SUICIDE_MIN: Final = 4


def allowed_bids(bidding: str, top: int, spades: int, partner_bid: int | None) -> tuple[int, ...]:
    """Every bid value (NIL or 1..top; blind nil aside) a seat may make: ``spades`` is the
    count in its hand, ``partner_bid`` its partner's bid if made (Suicide)."""
    if bidding == "suicide":
        if partner_bid is None:
            return (NIL, *range(SUICIDE_MIN, top + 1))
        if partner_bid <= NIL:
            return tuple(range(SUICIDE_MIN, top + 1))
        return (NIL,)
    if bidding == "whiz":
        return (NIL, spades) if spades else (NIL,)
    return (spades,) if spades else (NIL,)  # mirror


def refusal(
    bidding: str, top: int, spades: int, partner_bid: int | None, value: int
) -> Line | None:
    """Why ``value`` (NIL or a number) is not a bid the seat may make, or ``None``."""
    if value in allowed_bids(bidding, top, spades, partner_bid):
        return None
    if bidding == "suicide":
        if partner_bid is None:
            return Line("In Suicide you bid nil or at least {n}", n=SUICIDE_MIN)
        if partner_bid <= NIL:
            return _PARTNER_NIL
        return Line("In Suicide your partner bid {n}, so you bid nil", n=partner_bid)
    if spades == 0:
        return Line("In {title} you bid nil: you hold no spades", title=bidding.capitalize())
    if bidding == "whiz":
        if spades == 1:
            return Line("In Whiz you bid nil or your {n} spade", n=spades)
        return Line("In Whiz you bid nil or your {n} spades", n=spades)
    if spades == 1:
        return Line("In Mirror you bid your {n} spade", n=spades)
    return Line("In Mirror you bid your {n} spades", n=spades)


def unseen_bids(rules: Rules, top: int, partner_bid: int | None) -> tuple[int, ...]:
    """The individual bids (NIL or 1..top) allowed whatever the bidder's spades: all that may
    be offered to, or accepted from, a bidder who has not seen their cards (Whiz: nil;
    Mirror: none; Suicide: all it allows, which depends on the partner's bid only)."""
    if rules.bidding not in RESTRICTED_BIDDING:
        return ((NIL,) if rules.nil else ()) + tuple(range(1, top + 1))
    common = set(allowed_bids(rules.bidding, top, 0, partner_bid))
    for spades in range(1, top + 1):
        common &= set(allowed_bids(rules.bidding, top, spades, partner_bid))
    return tuple(sorted(common))


def depends_on_spades(rules: Rules, top: int, partner_bid: int | None, value: int) -> bool:
    """Is ``value`` allowed with some spade counts and not with others (so that accepting or
    refusing it would tell a bidder who has not looked something about their cards)?"""
    if rules.bidding not in RESTRICTED_BIDDING:
        return False
    allowed = [value in allowed_bids(rules.bidding, top, s, partner_bid) for s in range(top + 1)]
    return any(allowed) and not all(allowed)


def unseen_refusal(bidding: str) -> Line:
    """Why a bid that depends on the spades is refused before the bidder has seen them: the
    same words whatever the cards."""
    return Line(
        "In {title} your bid depends on your spades, and your cards are still face down: look "
        "at them first (or bid blind nil)",
        title=bidding.capitalize(),
    )


def blind_allowed(bidding: str, partner_bid: int | None) -> bool:
    """May the restriction let a seat bid blind nil (the other blind-nil rules aside)?"""
    if bidding == "mirror":
        return False
    if bidding == "suicide":
        return partner_bid is None or partner_bid > NIL
    return True


def range_refusal(top: int, nil: bool) -> Line:
    """Why a number outside 1..``top`` is no bid (saying nil too, where it is allowed)."""
    if nil:
        return Line("A bid is 1 to {n} tricks, or nil", n=top)
    return Line("A bid is 1 to {n} tricks", n=top)


def new_york_blind_refusal(first_hand: bool, looked: bool, behind: int) -> Line:
    """Why a New York team may not bid blind: the first hand has no bids, a partner
    ``looked`` at their cards, or the team is not ``behind`` by enough."""
    if first_hand:
        return Line("There is no blind bid in the first hand")
    if looked:
        return Line("A blind bid is made before either partner looks at their cards")
    return Line("A blind bid needs your team {n} points behind", n=behind)


def blind_nil_refusal(
    rules: Rules, looked: bool, partner_bid: int | None, beside_blind_nil: bool
) -> Line:
    """Why a seat may not bid blind nil now (it may not: :meth:`SpadesGame.blind_open` said
    so): it ``looked`` at its cards, the restriction (``partner_bid``), the seat opposite's
    blind nil (``beside_blind_nil``), or the deficit the rules ask for."""
    if not rules.blind_nil:
        return Line("Blind nil is not allowed at this table")
    if looked:
        return Line("You have looked at your cards, so you cannot bid blind nil")
    if rules.bidding in RESTRICTED_BIDDING:
        reason = blind_refusal(rules.bidding, partner_bid)
        if reason:
            return reason
    if beside_blind_nil:
        if rules.double_blind_nil == "off":
            return Line("Your partner bid blind nil; double blind nil is not allowed here")
        need = max(rules.blind_nil_min_deficit, rules.double_blind_nil_min_deficit)
        return Line("Double blind nil needs your team {n} points behind", n=need)
    need = rules.blind_nil_min_deficit
    return Line("Blind nil needs your team at least {n} points behind", n=need)


def blind_refusal(bidding: str, partner_bid: int | None) -> Line | None:
    """Why the restriction forbids blind nil here, or ``None``."""
    if blind_allowed(bidding, partner_bid):
        return None
    if bidding == "mirror":
        return Line("There is no blind nil in Mirror: you bid your number of spades")
    return _PARTNER_NIL


_PARTNER_NIL: Final = Line("In Suicide your partner bid nil, so you bid {n} or more", n=SUICIDE_MIN)
