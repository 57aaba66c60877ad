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
from bot.league.models import PlayerStats
from bot.review.decisions import HandPlayed
from bot.ui.game_text import GameText, per_hand, percent
from bot.ui.images.cards import PIPS
from bot.ui.text import plural


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
        return ["makers" if maker.team == team else "defenders"]

    def trump_line(self, view: SeatView) -> str | None:
        """Whist's turned card; Euchre's up-card while calling, then the trump, the maker and
        who sits out."""
        tp = view.part_as(TrumpPart)
        if tp.trump_card is not None and view.trump is not None:
            return (
                f"Trump {SUIT_SYMBOLS[view.trump]} — {view.dealer.word} turned up the "
                f"{tp.trump_card}"
            )
        up = tp.up_card
        if up is None:
            return None
        if view.phase is Phase.CALL:
            if tp.calling_round == 1:
                return f"Up-card {up} — round 1: order it up or pass"
            stuck = " (the dealer must name one)" if view.rules.stick_the_dealer else ""
            return f"Up-card {up} turned down — round 2: name another suit or pass{stuck}"
        if tp.maker is None or view.trump is None:
            return f"Up-card {up} — everybody passed"
        ordered = any(c.call == Call.ORDER for c in tp.calls)
        how = "ordered it up" if ordered else "named it"
        line = f"Trump {SUIT_SYMBOLS[view.trump]} — {tp.maker.word} {how}"
        if ordered:
            line += f" ({view.dealer.word} took the {up})"
        if tp.alone and view.sitting_out is not None:
            line += f" · alone: {view.sitting_out.word} sits out"
        return line

    def doing(self, view: SeatView) -> str | None:
        if view.phase is Phase.CALL:
            round_one = view.part_as(TrumpPart).calling_round == 1
            return "to order up or pass" if round_one else "to name trump or pass"
        if view.phase is Phase.DISCARD:
            return "to discard (the dealer took the up-card)"
        return None

    # ------------------------------------------------------------------ the hand message
    def prompt(self, view: SeatView) -> str | None:
        """The player's line in Euchre's calling and discard."""
        up = view.part_as(TrumpPart).up_card
        if not view.my_turn or up is None:
            return None
        if view.phase is Phase.CALL:
            if view.part_as(TrumpPart).calling_round == 1:
                taker = (
                    "you take it" if view.seat == view.dealer else f"{view.dealer.word} takes it"
                )
                return f"**Your turn:** order up the {up} ({taker}) or pass."
            assert up.suit is not None
            if not any(isinstance(a, Call) and a.call == Call.PASS for a in view.legal):
                return "**Your turn:** you must name trump (stick the dealer)."
            return f"**Your turn:** name trump (not {SUIT_SYMBOLS[up.suit]}) or pass."
        if view.phase is Phase.DISCARD:
            return f"**Your turn:** you took the {up}: discard one card face down."
        return None

    def status_lines(self, view: SeatView) -> list[str]:
        tp = view.part_as(TrumpPart)
        lines = []
        if tp.calls and view.my_turn:
            lines.append("Calls: " + calls_line(tp))
        if tp.discarded is not None and view.phase is Phase.PLAY:
            lines.append(f"You discarded the {tp.discarded}.")
        return lines

    # ------------------------------------------------------------------ score sheets
    def result_line(self, result: HandResult, names: dict[Seat, str]) -> str | None:
        return hand_trump_text(result, names)

    def sheet_head(self, rules: Rules, result: HandResult, team: Team, took: str) -> str:
        if result.maker is not None:
            side = "Makers" if result.maker.team == team else "Defenders"
            return f"{side} · {took}"
        return super().sheet_head(rules, result, team, took)

    # ------------------------------------------------------------------ deal diagrams
    def diagram_seat(self, result: HandResult, rules: Rules, seat: Seat) -> tuple[str, str]:
        """A seat's note: the maker (alone), who sat out, the dealer's discard."""
        took = f"took {result.tricks[seat]}"
        parts = []
        if result.maker is not None and result.alone and seat == result.maker.partner:
            parts.append("sat out")
        else:
            if seat == result.maker:
                parts.append("maker, alone" if result.alone else "maker")
            parts.append(took)
        if seat == result.dealer and result.discard is not None:
            parts.append(f"discarded {result.discard}")
        return "", " · ".join(parts)

    def diagram_team(self, result: HandResult, rules: Rules, team: Team) -> str:
        if result.maker is None:
            return ""
        return "makers" if result.maker.team == team else "defenders"

    def diagram_trump(self, result: HandResult) -> str | None:
        if result.void:
            up = f" (up-card {result.up_card})" if result.up_card is not None else ""
            return f"all passed{up}"
        pip = PIPS[result.trump] if result.trump is not None else "?"
        if result.trump_card is not None:
            return f"trump {pip} (turned {result.trump_card})"
        if result.up_card is not None:
            return f"trump {pip} · up-card {result.up_card}"
        return f"trump {pip}"

    # ------------------------------------------------------------------ reviews
    def review_lines(self, hand: HandPlayed, names: dict[Seat, str]) -> list[str]:
        """What was trump and how (the calls, in Euchre), instead of bids."""
        result = hand.result
        if result is None:  # the hand the game was abandoned in
            return ["**Trump**: not known (the game ended during this hand)"]
        out = []
        if result.calls:
            calls = " · ".join(f"{c.seat.name} {c.text}" for c in result.calls)
            out.append("**Calls**: " + calls)
        about = hand_trump_text(result, names)
        if about is not None:
            out.append(about)
        if result.discard is not None:  # public once the hand is over, like the whole deal
            dealer = names[result.dealer]
            out.append(f"{dealer} took the {result.up_card} and discarded the {result.discard}.")
        return out


class EuchreText(TrumpText):
    symbol = "♥"

    def stats_fields(self, e: discord.Embed, s: PlayerStats) -> None:
        e.add_field(
            name="Calling",
            value=f"Made trump {s.maker_made}/{s.maker_hands} ({percent(s.maker_rate)})\n"
            f"Alone {s.alone_made}/{s.alone_hands} ({percent(s.alone_rate)}) · "
            f"{plural(s.marches, 'march', 'marches')}",
        )
        e.add_field(
            name="Defence",
            value=f"Euchred the makers {plural(s.euchres, 'time')}\n"
            f"{per_hand(s.tricks_per_hand)} tricks per hand",
        )


def hand_trump_text(result: HandResult, names: dict[Seat, str]) -> str | None:
    """What was trump and who made it (``None`` for a hand without trump ceremony)."""
    if result.trump_card is not None and result.trump is not None:
        return f"Trump {SUIT_SYMBOLS[result.trump]} (the {result.trump_card} turned up)."
    if result.up_card is None:
        return None
    if result.maker is None or result.trump is None:
        return f"Everybody passed the {result.up_card}: the hand is void and the deal moves on."
    ordered = any(c.call == Call.ORDER for c in result.calls)
    how = f"ordered up the {result.up_card}" if ordered else "named it"
    alone = f", alone ({names[result.maker.partner]} sat out)" if result.alone else ""
    return f"Trump {SUIT_SYMBOLS[result.trump]}: {names[result.maker]} {how}{alone}."


def call_label(tp: TrumpPart, seat: Seat) -> str:
    """A seat's calls this hand, for the table message (``…`` before its first)."""
    mine = [c for c in tp.calls if c.seat == seat]
    if not mine:
        return "…"
    return ", ".join(c.text for c in mine)


def calls_line(tp: TrumpPart) -> str:
    return " · ".join(f"{c.seat.word} {c.text}" for c in tp.calls) or "—"


def call_button_label(call: Call) -> str:
    text = call.text
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
    words = text.lower().replace("♥️", "♥").replace("♦️", "♦").split()
    alone = "alone" in words
    words = [w for w in words if w not in ("alone", "call", "name", "up", "to")]
    if words == ["pass"]:
        return Call.PASS, False
    if words in (["order"], ["order", "it"], ["pick"], ["pick", "it"]):
        return Call.ORDER, alone
    if len(words) == 1 and words[0] in _SUIT_WORDS:
        return _SUIT_WORDS[words[0]], alone
    raise Refusal(
        f"{excerpt(text)} is not a call: say pass, order up, a suit (call ♥), and add alone "
        "to go alone."
    )
