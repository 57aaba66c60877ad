"""What a click on a hand message asks for: the engine action a button or select of
:func:`bot.ui.hand.hand.hand_controls` makes for the seat — the way back from the values those
components carry (a card code, a call, a bid) to the action.

One entry per verb that acts (:data:`ACTIONS`); **Refresh** asks for none.  A value that
cannot be read is refused with a reason (it reaches the player as a notice on their hand).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from bot.command_input import excerpt, whole_number
from bot.engine import BLIND_NIL, NIL, Action, Bid, Card, Discard, Look, PassCards, Play, Seat
from bot.engine import card as card_of_code
from bot.errors import Refusal
from bot.i18n import N_, _
from bot.ui.table.components import ComponentRef, HandVerb, MenuVerb
from bot.ui.text.trump_text import call_from_value

# (seat, the clicked component, a select's chosen values) -> the action
ActionOf = Callable[[Seat, ComponentRef, list[str]], Action]
NOT_YOURS: Final = N_("Those are not cards of yours: pick them from the menu.")


def bid_value(b: Bid) -> str:
    """A bid as a select option's value: ``nil``, ``5``, ``blind5``."""
    if b.value == NIL:
        return "nil"
    return f"blind{b.value}" if b.blind else str(b.value)


def _bid(seat: Seat, ref: ComponentRef, values: list[str]) -> Action:
    raw = values[0] if values else ""
    blind = raw.startswith("blind")
    number = whole_number(raw.removeprefix("blind"), 2)
    if raw != "nil" and number is None:
        raise Refusal(_("{text} is not a bid: pick one from the menu.", text=excerpt(raw)))
    return Bid(seat, NIL if number is None else number, blind)


def _pass(seat: Seat, ref: ComponentRef, values: list[str]) -> Action:
    try:
        cards = tuple(card_of_code(v) for v in values[:13])
    except (KeyError, ValueError):
        raise Refusal(_(NOT_YOURS)) from None
    return PassCards(seat, cards)


def _card(ref: ComponentRef) -> Card:
    if ref.card is None:
        raise Refusal(_("That button names no card: use Refresh."))
    return card_of_code(ref.card)


def _value(ref: ComponentRef) -> str:
    if ref.card is None:
        raise Refusal(_("That button names no call: use Refresh."))
    return ref.card


ACTIONS: Final[dict[HandVerb | MenuVerb, ActionOf]] = {
    HandVerb.PLAY: lambda seat, ref, _: Play(seat, _card(ref)),
    HandVerb.DISCARD: lambda seat, ref, _: Discard(seat, _card(ref)),
    HandVerb.CALL: lambda seat, ref, _: call_from_value(seat, _value(ref)),
    HandVerb.LOOK: lambda seat, ref, _: Look(seat),
    HandVerb.BLIND: lambda seat, ref, _: Bid(seat, BLIND_NIL),
    MenuVerb.BID: _bid,
    MenuVerb.PASS: _pass,
}


def hand_action(seat: Seat, ref: ComponentRef, values: list[str]) -> Action:
    """The action ``seat``'s click on ``ref`` (with a select's ``values``) asks for."""
    verb = ref.verb
    act = ACTIONS.get(verb) if isinstance(verb, HandVerb | MenuVerb) else None
    if act is None:
        raise ValueError(f"{verb} makes no action")
    return act(seat, ref, values)
