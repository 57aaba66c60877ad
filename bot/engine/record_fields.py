"""What a record states of its game beyond the rules (records.md): the ``game``, the ``deck`` and
the ``seats`` in play at the top, a duplicate round's ``boards``, and each hand's ``hand``
number and ``dealer`` — so that a verifier deals every hand without knowing the presets.

:func:`game_fields` and :func:`hand_fields` write them; the replay checks each one a record
states against its rules and its play (:func:`check_game_fields`, :func:`check_hand_fields`),
so a record cannot state one game and be another.  Records exported before these fields
existed have none of them and are read as before; :func:`with_stated_fields` fills them in,
from the rules and the first dealer, for a stored record the bot hands out.
"""

from __future__ import annotations

from typing import Any, Final

from bot.engine.errors import RecordError, RulesError
from bot.engine.game import Game
from bot.engine.lines import Line
from bot.engine.rules import Rules
from bot.engine.seats import Seat

#: The fields a record states at its top, in the order they are written (after ``format``).
GAME_FIELDS: Final = ("game", "deck", "seats", "boards")


def game_fields(game: Game, boards: int | None = None) -> dict[str, Any]:
    """The game, its deck and its seats in play (their number is the number of players), and
    for a duplicate round's table the number of boards it plays (board *k* is hand *k*)."""
    rules = game.rules
    out: dict[str, Any] = {
        "game": str(rules.game),
        "deck": rules.deck,
        "seats": [s.name for s in game.seating.seats],
    }
    if boards is not None:
        out["boards"] = boards
    return out


def hand_fields(number: int, dealer: Seat) -> dict[str, Any]:
    """A hand's number (its stream ``deal``/*number*: verifiable-deals.md) and its dealer."""
    return {"hand": number, "dealer": dealer.name}


def _malformed(line: Line, **where: Any) -> RecordError:
    return RecordError(line, {"error": "malformed record", **where, "reason": str(line)})


def _mismatch(field: str, stated: Any, actual: Any, **where: Any) -> RecordError:
    line = Line(
        "the record states {field} {stated}, but its rules and play give {actual}",
        field=field,
        stated=repr(stated),
        actual=repr(actual),
    )
    return _malformed(line, **where)


def check_game_fields(doc: dict[str, Any], game: Game) -> int | None:
    """Check the top fields ``doc`` states against the game its rules make; the number of
    boards (``None``: not a duplicate round's table)."""
    stated = game_fields(game)
    for field in GAME_FIELDS[:3]:
        if field in doc and doc[field] != stated[field]:
            raise _mismatch(field, doc[field], stated[field])
    boards = doc.get("boards")
    if boards is not None and (
        not isinstance(boards, int) or isinstance(boards, bool) or boards < 1
    ):
        raise _malformed(Line("boards must be a whole number of hands, at least 1"))
    return boards


def check_hand_fields(hand: dict[str, Any], number: int, game: Game) -> None:
    """Check the number and dealer a hand states against the hand the replay is at."""
    for field, actual in hand_fields(number, game.dealer).items():
        if field in hand and hand[field] != actual:
            raise _mismatch(field, hand[field], actual, hand=number)


def with_stated_fields(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` with every field of this module it lacks filled in from its rules and first
    dealer (a record exported before they existed); ``doc`` itself is left as it is.  A record
    whose rules or first dealer cannot be read is returned unchanged: its replay refuses it."""
    try:
        rules = Rules.from_record(doc.get("rules", {"preset": "standard"}))
        first = Seat[doc.get("first_dealer", "N")]
    except (RulesError, KeyError, TypeError):
        return doc
    game = Game(rules, first)
    seats = game.seating.seats
    if first not in seats:
        return doc
    out: dict[str, Any] = {"format": doc.get("format")}
    out.update(game_fields(game))
    out.update((k, v) for k, v in doc.items() if k != "format")
    hands = doc.get("hands")
    if isinstance(hands, list):
        start = seats.index(first)
        out["hands"] = [
            {**hand_fields(n, seats[(start + n - 1) % len(seats)]), **hand}
            if isinstance(hand, dict)
            else hand
            for n, hand in enumerate(hands, start=1)
        ]
    return out
