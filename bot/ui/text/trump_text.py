"""How the bot words Whist and Euchre: the trump (Whist's turned card; Euchre's up-card, maker
and the partner sitting out), what a finished hand's trump was, the calls, the prompts of the
calling rounds and the dealer's discard; the makers and defenders on the table, the score
sheet and the deal diagram; and Euchre's calls as buttons and typed words.

Everything reads a :class:`~bot.engine.SeatView` (public or the seat's own) and its
:class:`~bot.engine.TrumpPart`, like the rest of ``bot.ui``.
"""

from __future__ import annotations

import discord

from bot.command_input import excerpt
from bot.engine import Call, HandResult, Phase, Rules, Seat, SeatView, Team, TrumpPart
from bot.engine.cards import SUIT_NAMES, SUIT_SYMBOLS
from bot.errors import Refusal
from bot.i18n import _, _n
from bot.i18n.cards import call_word, call_words, seat_word
from bot.league.models import PlayerStats
from bot.review.decisions import HandPlayed
from bot.ui.images.cards import PIPS
from bot.ui.text.game_text import GameText, per_hand, percent


class TrumpText(GameText):
    """Whist's words; Euchre's add its calling (:class:`EuchreText`).  What differs between
    the two shows in their parts (a turned card, or an up-card and calls)."""

    symbol = "♣"

    # ------------------------------------------------------------------ the table message
    def seat_action(self, view: SeatView, seat: Seat) -> str:
        """``order up · `` (Euchre's calls, once calling began); nothing in Whist."""
        tp = view.part_as(TrumpPart)
        if tp.calls or view.phase is Phase.CALL:
            return f"{call_label(tp, seat)} · "
        return ""

    def team_lines(self, view: SeatView, team: Team) -> list[str]:
        maker = view.part_as(TrumpPart).maker
        if maker is None:
            return []
        return [_("makers") if maker.team == team else _("defenders")]

    def trump_line(self, view: SeatView) -> str | None:
        """Whist's turned card; Euchre's up-card while calling, then the trump, the maker and
        who sits out."""
        tp = view.part_as(TrumpPart)
        if tp.trump_card is not None and view.trump is not None:
            return _(
                "Trump {suit} — {seat} turned up the {card}",
                suit=SUIT_SYMBOLS[view.trump],
                seat=seat_word(view.dealer),
                card=tp.trump_card,
            )
        up = tp.up_card
        if up is None:
            return None
        if view.phase is Phase.CALL:
            if tp.calling_round == 1:
                return _("Up-card {card} — round 1: order it up or pass", card=up)
            if view.rules.stick_the_dealer:
                return _(
                    "Up-card {card} turned down — round 2: name another suit or pass "
                    "(the dealer must name one)",
                    card=up,
                )
            return _("Up-card {card} turned down — round 2: name another suit or pass", card=up)
        if tp.maker is None or view.trump is None:
            return _("Up-card {card} — everybody passed", card=up)
        ordered = any(c.call == Call.ORDER for c in tp.calls)
        suit, maker = SUIT_SYMBOLS[view.trump], seat_word(tp.maker)
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
        if tp.alone and view.sitting_out is not None:
            line += " · " + _("alone: {seat} sits out", seat=seat_word(view.sitting_out))
        return line

    def doing(self, view: SeatView) -> str | None:
        if view.phase is Phase.CALL:
            round_one = view.part_as(TrumpPart).calling_round == 1
            return _("to order up or pass") if round_one else _("to name trump or pass")
        if view.phase is Phase.DISCARD:
            return _("to discard (the dealer took the up-card)")
        return None

    # ------------------------------------------------------------------ the hand message
    def prompt(self, view: SeatView) -> str | None:
        """The player's line in Euchre's calling and discard."""
        up = view.part_as(TrumpPart).up_card
        if not view.my_turn or up is None:
            return None
        if view.phase is Phase.CALL:
            if view.part_as(TrumpPart).calling_round == 1:
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

    def status_lines(self, view: SeatView) -> list[str]:
        tp = view.part_as(TrumpPart)
        lines = []
        if tp.calls and view.my_turn:
            lines.append(_("Calls: {calls}", calls=calls_line(tp)))
        if tp.discarded is not None and view.phase is Phase.PLAY:
            lines.append(_("You discarded the {card}.", card=tp.discarded))
        return lines

    # ------------------------------------------------------------------ score sheets
    def result_line(self, result: HandResult, names: dict[Seat, str]) -> str | None:
        return hand_trump_text(result, names)

    def sheet_head(self, rules: Rules, result: HandResult, team: Team, took: str) -> str:
        if result.maker is not None:
            side = _("Makers") if result.maker.team == team else _("Defenders")
            return f"{side} · {took}"
        return super().sheet_head(rules, result, team, took)

    # ------------------------------------------------------------------ deal diagrams
    def diagram_seat(self, result: HandResult, rules: Rules, seat: Seat) -> tuple[str, str]:
        """A seat's note: the maker (alone), who sat out, the dealer's discard."""
        took = _("took {n}", n=result.tricks[seat])
        parts = []
        if result.maker is not None and result.alone and seat == result.maker.partner:
            parts.append(_("sat out"))
        else:
            if seat == result.maker:
                parts.append(_("maker, alone") if result.alone else _("maker"))
            parts.append(took)
        if seat == result.dealer and result.discard is not None:
            parts.append(_("discarded {card}", card=result.discard))
        return "", " · ".join(parts)

    def diagram_team(self, result: HandResult, rules: Rules, team: Team) -> str:
        if result.maker is None:
            return ""
        return _("makers") if result.maker.team == team else _("defenders")

    def diagram_trump(self, result: HandResult) -> str | None:
        if result.void:
            if result.up_card is None:
                return _("all passed")
            return _("all passed (up-card {card})", card=result.up_card)
        pip = PIPS[result.trump] if result.trump is not None else "?"
        if result.trump_card is not None:
            return _("trump {suit} (turned {card})", suit=pip, card=result.trump_card)
        if result.up_card is not None:
            return _("trump {suit} · up-card {card}", suit=pip, card=result.up_card)
        return _("trump {suit}", suit=pip)

    # ------------------------------------------------------------------ reviews
    def review_lines(self, hand: HandPlayed, names: dict[Seat, str]) -> list[str]:
        """What was trump and how (the calls, in Euchre), instead of bids."""
        result = hand.result
        if result is None:  # the hand the game was abandoned in
            return [_("**Trump**: not known (the game ended during this hand)")]
        out = []
        if result.calls:
            calls = " · ".join(f"{c.seat.name} {call_word(c.call, c.alone)}" for c in result.calls)
            out.append(_("**Calls**: {calls}", calls=calls))
        about = hand_trump_text(result, names)
        if about is not None:
            out.append(about)
        if result.discard is not None:  # public once the hand is over, like the whole deal
            dealer = names[result.dealer]
            out.append(
                _(
                    "{dealer} took the {card} and discarded the {discard}.",
                    dealer=dealer,
                    card=result.up_card,
                    discard=result.discard,
                )
            )
        return out


class EuchreText(TrumpText):
    symbol = "♥"

    def stats_fields(self, e: discord.Embed, s: PlayerStats) -> None:
        e.add_field(
            name=_("Calling"),
            value=_(
                "Made trump {made}/{hands} ({rate})\nAlone {alone}/{alone_hands} ({alone_rate})",
                made=s.maker_made,
                hands=s.maker_hands,
                rate=percent(s.maker_rate),
                alone=s.alone_made,
                alone_hands=s.alone_hands,
                alone_rate=percent(s.alone_rate),
            )
            + " · "
            + _n("{n} march", "{n} marches", s.marches),
        )
        e.add_field(
            name=_("Defence"),
            value=_n("Euchred the makers {n} time", "Euchred the makers {n} times", s.euchres)
            + "\n"
            + _("{n} tricks per hand", n=per_hand(s.tricks_per_hand)),
        )


def hand_trump_text(result: HandResult, names: dict[Seat, str]) -> str | None:
    """What was trump and who made it (``None`` for a hand without trump ceremony)."""
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


def call_label(tp: TrumpPart, seat: Seat) -> str:
    """A seat's calls this hand, for the table message (``…`` before its first)."""
    mine = [c for c in tp.calls if c.seat == seat]
    if not mine:
        return "…"
    return ", ".join(call_word(c.call, c.alone) for c in mine)


def calls_line(tp: TrumpPart) -> str:
    calls = [f"{seat_word(c.seat)} {call_word(c.call, c.alone)}" for c in tp.calls]
    return " · ".join(calls) or "—"


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
