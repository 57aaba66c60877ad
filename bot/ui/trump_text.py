"""What the table and hand messages say of Whist and Euchre: the trump (and Euchre's up-card,
maker and the partner sitting out), what a finished hand's trump was, the calls, the prompts
of the calling rounds and the dealer's discard, and hands sorted trump first with the bowers
on top.

Everything reads a :class:`~bot.engine.SeatView` (public or the seat's own), like the rest of
``bot.ui``; nothing here is needed for Spades but :func:`sorted_hand`, which sorts every game.
"""

from __future__ import annotations

from bot.command_input import excerpt
from bot.engine import Call, Card, HandResult, Phase, Seat, SeatView, cards_of
from bot.engine.cards import SUIT_NAMES, SUIT_SYMBOLS, mask_of
from bot.engine.decks import DECKS, Deck
from bot.errors import Refusal
from bot.i18n import _
from bot.i18n.cards import call_word, call_words, seat_word

DISPLAY_SUITS = ("S", "H", "C", "D")  # alternate colours
_RED = ("H", "D")


def trump_deck(view: SeatView) -> Deck:
    """The deck ranked under the trump in force (Spades: its own deck)."""
    deck = DECKS[view.rules.deck]
    return deck.with_trump(view.trump) if view.rules.game != "spades" else deck


def suit_order(view: SeatView) -> tuple[str, ...]:
    """Trump first, then the other suits alternating colours."""
    trump = view.trump if view.rules.game != "spades" else "S"
    if trump is None:
        return DISPLAY_SUITS
    rest = [s for s in DISPLAY_SUITS if s != trump]
    # Keep colours alternating after the trump: start with a suit of the other colour.
    rest.sort(key=lambda s: (s in _RED) == (trump in _RED))
    out = [trump]
    while rest:
        want_red = out[-1] not in _RED
        pick = next((s for s in rest if (s in _RED) == want_red), rest[0])
        rest.remove(pick)
        out.append(pick)
    return tuple(out)


def sorted_hand(cards: tuple[Card, ...] | list[Card], view: SeatView) -> list[list[Card]]:
    """The cards grouped by effective suit in :func:`suit_order`, highest first (so in Euchre
    the right and left bowers head the trumps)."""
    deck = trump_deck(view)
    mask = mask_of(list(cards))
    groups = []
    for suit in suit_order(view):
        in_suit = cards_of(mask & deck.suit_masks["SHDC".index(suit)])
        if in_suit:
            groups.append(sorted(in_suit, key=lambda c: -deck.power[c.index]))
    return groups


def effective_suit(view: SeatView, card: Card) -> str:
    return trump_deck(view).suit_of(card)


# ---------------------------------------------------------------------- trump and calls
def trump_text(view: SeatView) -> str | None:
    """One line on the trump: Whist's turned card; Euchre's up-card while calling, then the
    trump, the maker and who sits out.  ``None`` in Spades."""
    game = view.rules.game
    if game == "whist" and view.trump_card is not None and view.trump is not None:
        return _(
            "Trump {suit} — {seat} turned up the {card}",
            suit=SUIT_SYMBOLS[view.trump],
            seat=seat_word(view.dealer),
            card=view.trump_card,
        )
    if game != "euchre" or view.up_card is None:
        return None
    up = view.up_card
    if view.phase is Phase.CALL:
        if view.calling_round == 1:
            return _("Up-card {card} — round 1: order it up or pass", card=up)
        if view.rules.stick_the_dealer:
            return _(
                "Up-card {card} turned down — round 2: name another suit or pass "
                "(the dealer must name one)",
                card=up,
            )
        return _("Up-card {card} turned down — round 2: name another suit or pass", card=up)
    if view.maker is None or view.trump is None:
        return _("Up-card {card} — everybody passed", card=up)
    ordered = any(c.call == Call.ORDER for c in view.calls)
    suit, maker = SUIT_SYMBOLS[view.trump], seat_word(view.maker)
    if ordered:
        line = _(
            "Trump {suit} — {seat} ordered it up ({dealer} took the {card})",
            suit=suit,
            seat=maker,
            dealer=seat_word(view.dealer),
            card=up,
        )
    else:
        line = _("Trump {suit} — {seat} named it", suit=suit, seat=maker)
    if view.alone and view.sitting_out is not None:
        line += " · " + _("alone: {seat} sits out", seat=seat_word(view.sitting_out))
    return line


def hand_trump_text(result: HandResult, names: dict[Seat, str]) -> str | None:
    """Whist and Euchre: what was trump and who made it (``None`` in Spades)."""
    if result.trump_card is not None and result.trump is not None:
        return _(
            "Trump {suit} (the {card} turned up).",
            suit=SUIT_SYMBOLS[result.trump],
            card=result.trump_card,
        )
    if result.up_card is None:
        return None
    if result.maker is None or result.trump is None:
        return _(
            "Everybody passed the {card}: the hand is void and the deal moves on.",
            card=result.up_card,
        )
    ordered = any(c.call == Call.ORDER for c in result.calls)
    suit, maker = SUIT_SYMBOLS[result.trump], names[result.maker]
    if ordered:
        text = _(
            "Trump {suit}: {name} ordered up the {card}", suit=suit, name=maker, card=result.up_card
        )
    else:
        text = _("Trump {suit}: {name} named it", suit=suit, name=maker)
    if result.alone:
        text += ", " + _("alone ({name} sat out)", name=names[result.maker.partner])
    return text + "."


def call_label(view: SeatView, seat: Seat) -> str:
    """A seat's calls this hand, for the table message (``…`` before its first)."""
    mine = [c for c in view.calls if c.seat == seat]
    if not mine:
        return "…"
    return ", ".join(call_word(c.call, c.alone) for c in mine)


def calls_line(view: SeatView) -> str:
    return (
        " · ".join(f"{seat_word(c.seat)} {call_word(c.call, c.alone)}" for c in view.calls) or "—"
    )


def prompt(view: SeatView) -> str | None:
    """The hand message's line for the seat on turn in Euchre's calling and discard."""
    if not view.my_turn or view.up_card is None:
        return None
    up = view.up_card
    if view.phase is Phase.CALL:
        if view.calling_round == 1:
            if view.seat == view.dealer:
                return _("**Your turn:** order up the {card} (you take it) or pass.", card=up)
            return _(
                "**Your turn:** order up the {card} ({seat} takes it) or pass.",
                card=up,
                seat=seat_word(view.dealer),
            )
        assert up.suit is not None
        if not any(isinstance(a, Call) and a.call == Call.PASS for a in view.legal):
            return _("**Your turn:** you must name trump (stick the dealer).")
        return _("**Your turn:** name trump (not {suit}) or pass.", suit=SUIT_SYMBOLS[up.suit])
    if view.phase is Phase.DISCARD:
        return _("**Your turn:** you took the {card}: discard one card face down.", card=up)
    return None


def call_button_label(call: Call) -> str:
    text = call_word(call.call, call.alone)
    return text[0].upper() + text[1:]


def call_value(call: Call) -> str:
    """A call as a component value: ``pass``, ``order``, ``H``, with ``+`` when alone."""
    return call.call + ("+" if call.alone else "")


def call_from_value(seat: Seat, value: str) -> Call:
    alone = value.endswith("+")
    return Call(seat, value.removesuffix("+"), alone)


_SUIT_WORDS = {
    **{sym: s for s, sym in SUIT_SYMBOLS.items()},
    **{name: s for s, name in SUIT_NAMES.items()},
    **{name.rstrip("s"): s for s, name in SUIT_NAMES.items()},
    **{s.lower(): s for s in SUIT_SYMBOLS},
}


def parse_call(text: str) -> tuple[str, bool]:
    """``"pass"``, ``"order up"``, ``"order up alone"``, ``"call ♥"``, ``"hearts alone"`` →
    (call, alone)."""
    said = call_words(text.replace("♥️", "♥").replace("♦️", "♦"))  # the player's words
    words = said.lower().split()
    alone = "alone" in words
    words = [w for w in words if w not in ("alone", "call", "name", "up", "to")]
    if words == ["pass"]:
        return Call.PASS, False
    if words in (["order"], ["order", "it"], ["pick"], ["pick", "it"]):
        return Call.ORDER, alone
    if len(words) == 1 and words[0] in _SUIT_WORDS:
        return _SUIT_WORDS[words[0]], alone
    raise Refusal(
        _(
            "{text} is not a call: say pass, order up, a suit (call ♥), and add alone to go alone.",
            text=excerpt(text),
        )
    )
