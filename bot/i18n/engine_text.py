"""The engine's refusals in the reader's language, translated at the edge.

The engine stays pure and English (its reasons also go to records, logs and tools): each
reason a player can meet is one of the templates below, the engine's words with
``{placeholders}``; a reason is matched against them, the template translated from the
catalogs and filled with the parts it matched (a seat word in the reader's language, a card
or suit as its symbol).  A reason that fits none is shown as the engine wrote it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Final

from bot.engine import Seat
from bot.engine.errors import Line
from bot.i18n.cards import seat_word
from bot.i18n.core import N_, _, listed

TEMPLATES: Final = (
    N_("The game is over"),
    N_("The cards have not been dealt yet"),
    N_("Bidding is not over yet"),
    N_("Cards are being passed"),
    N_("Trump has not been chosen yet"),
    N_("The dealer is discarding"),
    N_("Bidding is over"),
    N_("The cards have been dealt"),
    N_("It is {seat}'s turn to play"),
    N_("It is {seat}'s turn to bid"),
    N_("It is {seat}'s turn to call"),
    N_("It is {seat}'s turn to pass cards"),
    N_("You don't hold {card}"),
    N_("You must follow {suit}"),
    N_("You must follow {suit} — the {card} is the left bower, a {trump} now"),
    N_("You must follow {suit} — the left bower is a {trump} now"),
    N_("Spades are not broken yet"),
    N_("You may not lead that suit yet"),
    N_("You sit this hand out: your partner plays alone"),
    N_("A team bid is 4 to 10 tricks"),
    N_("Look at your cards before making a bid that is not blind"),
    N_("Only New York bids are blind; bid blind nil instead"),
    N_("Look at your cards first (or bid blind nil)"),
    N_("Nil is not allowed at this table"),
    N_("A bid is 1 to {n} tricks, or nil"),
    N_("A bid is 1 to {n} tricks"),
    N_("You can already see your cards"),
    N_("You bid blind nil: your cards show when bidding ends"),
    N_("Pass exactly {n} different cards"),
    N_("Pass exactly {n} different card"),
    N_("Blind nil is not allowed at this table"),
    N_("You have looked at your cards, so you cannot bid blind nil"),
    N_("Your partner bid blind nil; double blind nil is not allowed here"),
    N_("Double blind nil needs your team {n} points behind"),
    N_("Blind nil needs your team at least {n} points behind"),
    N_("There is no blind bid in the first hand"),
    N_("A blind bid is made before either partner looks at their cards"),
    N_("A blind bid needs your team {n} points behind"),
    N_("Trump has been chosen"),
    N_("Only the maker goes alone: order up or name a suit to go alone"),
    N_("The dealer must name a suit (stick the dealer)"),
    N_("In the first round you order up {suit} (the up-card's suit) or pass"),
    N_("The up-card was turned down: name a suit other than {suit}, or pass"),
    N_("{suit} was turned down: name another suit, or pass"),
    N_("Only the dealer discards, after taking the up-card"),
    N_("The dealer ({seat}) discards"),
    N_("Reneges are prevented at this table, so there are no claims"),
    N_("Claims are made while the cards are played"),
    N_("Only players at this table can claim or be claimed against"),
    N_("No card has been played yet this hand"),
    N_("You can only claim against an opponent"),
    N_("You made a wrong claim this hand, so cannot claim again"),
    N_("Your team made a wrong claim this hand, so cannot claim again"),
    N_("In Suicide you bid nil or at least {n}"),
    N_("In Suicide your partner bid nil, so you bid {n} or more"),
    N_("In Suicide your partner bid {n}, so you bid nil"),
    N_("There is no blind nil in Mirror: you bid your number of spades"),
    # the parts of a hand's score (bot.engine.spades.scoring), one template per plural form
    N_("Contract {n} made ({k} trick)"),
    N_("Contract {n} made ({k} tricks)"),
    N_("Contract {n} set ({k} trick)"),
    N_("Contract {n} set ({k} tricks)"),
    N_("Contract {n} set ({k} trick): no penalty"),
    N_("Contract {n} set ({k} tricks): no penalty"),
    N_("Bid {n} made ({k} trick)"),
    N_("Bid {n} made ({k} tricks)"),
    N_("Bid {n} set ({k} trick)"),
    N_("Bid {n} set ({k} tricks)"),
    N_("{seat}'s nil made"),
    N_("{seat}'s blind nil made"),
    N_("{seat}'s nil failed ({k} trick)"),
    N_("{seat}'s nil failed ({k} tricks)"),
    N_("{seat}'s blind nil failed ({k} trick)"),
    N_("{seat}'s blind nil failed ({k} tricks)"),
    N_("Nil made"),
    N_("Blind nil made"),
    N_("Nil failed ({k} trick)"),
    N_("Nil failed ({k} tricks)"),
    N_("Blind nil failed ({k} trick)"),
    N_("Blind nil failed ({k} tricks)"),
    N_("Double nil made"),
    N_("Double nil failed ({k} trick)"),
    N_("Double nil failed ({k} tricks)"),
    N_("{k} bag"),
    N_("{k} bags"),
    N_("Bag penalty ({k} bags)"),
    N_("Joker bonus"),
    # renege claims, as judged (bot.engine.actions.ClaimResult.text)
    N_("{seat} reneged in trick {n}"),
    N_("{seat}'s claim is wrong: {against} has not reneged this hand"),
    # Whist and Euchre score lines (bot.engine.whist, bot.engine.euchre)
    N_("More tricks ({k} trick)"),
    N_("More tricks ({k} tricks)"),
    N_("Fewer tricks ({k} trick)"),
    N_("Fewer tricks ({k} tricks)"),
    N_("{n} odd trick ({k} tricks)"),
    N_("{n} odd tricks ({k} tricks)"),
    N_("No odd trick ({k} trick)"),
    N_("No odd trick ({k} tricks)"),
    N_("Everybody passed: no score"),
    N_("{k} trick"),
    N_("{k} tricks"),
    N_("All five tricks"),
    N_("Alone march: all 5 tricks"),
    N_("March: all 5 tricks"),
    N_("Made it: {k} trick"),
    N_("Made it: {k} tricks"),
    N_("Euchred: {k} trick"),
    N_("Euchred: {k} tricks"),
    N_("Euchred the makers ({k} trick)"),
    N_("Euchred the makers ({k} tricks)"),
    N_("Defended: {k} trick"),
    N_("Defended: {k} tricks"),
    # rule options (bot.engine.rules), refused to a host changing one with /spades rule
    N_("Unknown rule option {option}"),
    N_("{option} must be on or off, not {value}"),
    N_("{option} must be on or off (true/false), not {value}"),
    N_("{option} must be a whole number, not {value}"),
    N_("{option} must be between {lo} and {hi}, not {value}"),
    N_("{option} must be between {lo} and {hi} (or off), not {value}"),
    N_("{option} must be one of {values}, not {value}"),
    N_("joker_bonus needs a deck with jokers (jokers or jjdd)"),
    N_("blind_nil_pass needs blind_nil on"),
    N_("double_blind_nil needs blind_nil on"),
    N_("lose_at must be below the target"),
    N_("New York bidding is fixed by the new-york preset"),
    N_("Three players need partnerships off (everyone alone)"),
    N_("Three players play the standard deck"),
    N_("new-york bidding is played with the jjdd deck"),
    N_("{title} bidding needs nil on"),
    N_("Suicide bidding needs partnerships"),
    N_("{option} cannot be changed in the new-york preset (only target, tie and lose_at can)"),
    N_("game is set by the preset"),
    N_("game is set by the preset: choose the preset {presets}"),
    N_("{option} is a {games} option, not one of {game}"),
    N_("There is no game {name}"),
    N_("Unknown preset {name}: choose one of {names}"),
)
# The lines of ``/spades verify`` (bot.engine.verify, each a bot.engine.errors.Line): written
# by template with their parts, not matched (tests/i18n/test_engine_lines.py keeps this list
# and the engine's templates the same).
LINE_TEMPLATES: Final = (
    N_(
        "the record has no seed: its game was played before verifiable deals, "
        "so its deals cannot be checked"
    ),
    N_("seed: {error}"),
    N_("the record has no commitment to check its seed against"),
    N_(
        "the seed does not match the commitment: SHA-256 of the seed is {ours}…, "
        "the record's commitment is {theirs}…"
    ),
    N_(
        "commitment: SHA-256 of the seed is {commitment}, as the record says (the table "
        "message showed its first {digits} digits, {short}, from the first deal on)"
    ),
    N_("the record cannot be replayed: {where}{reason}"),
    N_(
        "verified: the seed matches the commitment, and the draw for first dealer and all "
        "{n} deals come from the seed"
    ),
    N_("round {n}: {cards}"),
    N_(
        "first dealer: the seed's draw ({drawn}) gives the first deal to {seat}, the "
        "record to {recorded}"
    ),
    N_("first dealer: the seed's draw ({drawn}) gives the first deal to {seat}"),
    N_(", and deals {seat} {card} instead"),
    N_(
        "hand {n}, {seat}: the record deals {card} to {seat}, but the seed deals it "
        "{place}{instead}"
    ),
    N_(
        "hand {n}, {seat}: the seed deals {seat} {card}, which the record does not "
        "give {seat} (or gives twice)"
    ),
    N_("hand {n}: the record turns up {got} as the {what}, the seed {want}"),
    N_("none"),
    N_("up-card"),
    N_("trump card"),
    N_("turned card"),
    N_("hand {n}: {seat} deals; every seat's cards, {card} turned up, come from the seed"),
    N_("hand {n}: {seat} deals; every seat's cards come from the seed"),
    N_("to {seat}"),
    N_("to nobody (it stays in the kitty)"),
    N_("to nobody (it is not in the {deck} deck)"),
)
_PART: Final = {
    "seat": r"(?P<seat>North|East|South|West)",
    "against": r"(?P<against>North|East|South|West)",
    "card": r"(?P<card>\S+)",
    "suit": r"(?P<suit>[♠♥♦♣])",
    "trump": r"(?P<trump>[♠♥♦♣])",
    "n": r"(?P<n>\d+)",
    "k": r"(?P<k>\d+)",
    "option": r"(?P<option>'?[a-z_]+'?)",
    "value": r"(?P<value>.+)",
    "values": r"(?P<values>[^,]+(?:, [^,]+)*)",
    "lo": r"(?P<lo>-?\d+)",
    "hi": r"(?P<hi>-?\d+)",
    "title": r"(?P<title>[A-Z][a-z]+)",
    "presets": r"(?P<presets>[a-z0-9_-]+(?: or [a-z0-9_-]+)*)",
    "games": r"(?P<games>[A-Z][a-z]+(?: and [A-Z][a-z]+)*)",
    "game": r"(?P<game>[A-Z][a-z]+)",
    "name": r"(?P<name>'[^']*')",
    "names": r"(?P<names>[a-z0-9_-]+(?:, [a-z0-9_-]+)*)",
}
_FIELD: Final = re.compile(r"\{(\w+)\}")


@functools.cache
def _patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    out = []
    for template in TEMPLATES:
        pieces = _FIELD.split(template)  # text, field, text, field, ...
        regex = "".join(_PART[p] if i % 2 else re.escape(p) for i, p in enumerate(pieces))
        out.append((re.compile(f"^{regex}$"), template))
    return tuple(out)


def reason_text(reason: str, names: Mapping[Seat, str] | None = None) -> str:
    """The engine's ``reason`` in the current language (unchanged when no template fits).
    Two engine refusals joined with ``": "`` are translated part by part.  A seat is named
    by ``names`` (the players' names) where given, else by its word."""
    for pattern, template in _patterns():
        m = pattern.match(reason)
        if m is not None:
            params = m.groupdict()
            for key in ("seat", "against"):
                if key in params:
                    seat = Seat[params[key][0]]
                    params[key] = names[seat] if names and seat in names else seat_word(seat)
            if "game" in params:  # the games' titles, in the catalogs (bot.engine.games)
                params["game"] = _(params["game"])
            if "games" in params:
                params["games"] = listed([_(g) for g in params["games"].split(" and ")])
            return _(template, **params)
    head, sep, tail = reason.partition(": ")
    if sep and tail:
        first, second = reason_text(head), reason_text(tail[:1].upper() + tail[1:])
        if first != head or second != tail:
            return f"{first}: {second[:1].lower()}{second[1:]}"
    return reason


def line_text(line: Line) -> str:
    """A sentence of the engine (:class:`~bot.engine.errors.Line`) in the current language:
    its template from the catalogs, each part written in it too (a seat as its word, a line
    as its own translation, an engine refusal by :func:`reason_text`)."""
    params: dict[str, str] = {}
    for key, value in line.params:
        if isinstance(value, Line):
            params[key] = line_text(value)
        elif isinstance(value, Seat):
            params[key] = seat_word(value)
        elif key == "reason" and isinstance(value, str):
            params[key] = reason_text(value)
        else:
            params[key] = str(value)
    return _(line.template, **params)


class Judged:
    """An engine text (a claim's verdict) translated where it is written (in a ``Text``)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __str__(self) -> str:
        return reason_text(self.text)
