"""Checking a record against its revealed seed (docs/verifiable-deals.md): the seed matches the
commitment, the draw for first dealer and every deal come from the seed.

:func:`verify` yields one line per thing checked and raises :class:`NotVerified` with one
reason line (naming the hand and the seat or card) at the first thing that does not match.
The record is replayed through the engine as it is checked, so a record whose deals match but
whose play is illegal is refused too.

Every line is a :class:`~bot.engine.lines.Line`: English as a ``str`` (the command line), and
its template and parts for the bot, which writes it in the reader's language
(:func:`bot.i18n.lines.line_text`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Final

from bot.engine.actions import Action, Deal
from bot.engine.cards import Card
from bot.engine.dealer import draw_first_dealer
from bot.engine.errors import NotVerified, RecordError
from bot.engine.game import Game
from bot.engine.lines import Line
from bot.engine.record import Replayer
from bot.engine.seats import Seat
from bot.engine.shuffle import SHORT_COMMITMENT, GameSeed


def record_seed(doc: Any) -> GameSeed:
    """The record's seed, checked against its commitment."""
    if not isinstance(doc, dict) or "seed" not in doc:
        raise NotVerified(
            Line(
                "the record has no seed: its game was played before verifiable deals, "
                "so its deals cannot be checked"
            )
        )
    try:
        seed = GameSeed.from_hex(doc["seed"])
    except ValueError as e:
        raise NotVerified(Line("seed: {error}", error=str(e))) from None
    promised = doc.get("commitment")
    if not isinstance(promised, str):
        raise NotVerified(Line("the record has no commitment to check its seed against"))
    if promised.lower() != seed.commitment:
        raise NotVerified(
            Line(
                "the seed does not match the commitment: SHA-256 of the seed is {ours}…, "
                "the record's commitment is {theirs}…",
                ours=seed.commitment[:SHORT_COMMITMENT],
                theirs=promised[:SHORT_COMMITMENT],
            )
        )
    return seed


def verify(doc: Any) -> Iterator[Line]:
    """Check ``doc`` (a ``spades-record/1`` document with ``seed`` and ``commitment``),
    yielding what was checked; raises :class:`NotVerified` at the first mismatch."""
    seed = record_seed(doc)
    yield Line(
        "commitment: SHA-256 of the seed is {commitment}, as the record says (the table "
        "message showed its first {digits} digits, {short}, from the first deal on)",
        commitment=seed.commitment,
        digits=SHORT_COMMITMENT,
        short=seed.short_commitment,
    )
    checks: list[Line] = []

    def before(game: Game, action: Action | Deal) -> None:
        if isinstance(action, Deal):
            checks.append(_check_deal(game, action, game.seeded_deal(seed.secret)))

    try:
        replayer = Replayer(doc, before)
        yield _check_draw(seed, replayer.game)
        deals = 0
        for _ in replayer.lines():
            deals += len(checks)
            yield from checks
            checks.clear()
    except RecordError as e:
        raise NotVerified(_not_replayed(e)) from None
    yield Line(
        "verified: the seed matches the commitment, and the draw for first dealer and all "
        "{n} deals come from the seed",
        n=deals,
    )


def _check_draw(seed: GameSeed, game: Game) -> Line:
    rounds, dealer = draw_first_dealer(seed.secret, game.rules.seats)
    drawn: Line | None = None
    for i in reversed(range(len(rounds))):  # "round 1: …; round 2: …" (ties draw again)
        cards = ", ".join(f"{s.name} {c.code}" for s, c in rounds[i].items())
        this = Line("round {n}: {cards}", n=i + 1, cards=cards)
        drawn = this if drawn is None else Line("{round}; {then}", round=this, then=drawn)
    assert drawn is not None
    if dealer != game.first_dealer:
        raise NotVerified(
            Line(
                "first dealer: the seed's draw ({drawn}) gives the first deal to {seat}, the "
                "record to {recorded}",
                drawn=drawn,
                seat=dealer,
                recorded=game.first_dealer,
            )
        )
    return Line(
        "first dealer: the seed's draw ({drawn}) gives the first deal to {seat}",
        drawn=drawn,
        seat=dealer,
    )


def _check_deal(game: Game, recorded: Deal, expected: Deal) -> Line:
    """One hand's deal against the seed's (each seat's cards as a set: the order within a
    hand is not part of the game)."""
    n = game.hand_number
    seats = game.seating.seats
    owner = {c: s for s, hand in zip(seats, expected.hands, strict=True) for c in hand}
    for s, got, want in zip(seats, recorded.hands, expected.hands, strict=True):
        extra = [c for c in got if c not in want]
        missing = [c for c in want if c not in got]
        if extra:
            c = extra[0]
            instead = (
                Line(", and deals {seat} {card} instead", seat=s, card=missing[0].code)
                if missing
                else ""
            )
            raise NotVerified(
                Line(
                    "hand {n}, {seat}: the record deals {card} to {seat}, but the seed deals it "
                    "{place}{instead}",
                    n=n,
                    seat=s,
                    card=c.code,
                    place=_place(c, owner, game),
                    instead=instead,
                )
            )
        if missing or len(got) != len(want):
            c = missing[0] if missing else want[0]
            raise NotVerified(
                Line(
                    "hand {n}, {seat}: the seed deals {seat} {card}, which the record does not "
                    "give {seat} (or gives twice)",
                    n=n,
                    seat=s,
                    card=c.code,
                )
            )
    if recorded.turned != expected.turned:
        raise NotVerified(
            Line(
                "hand {n}: the record turns up {got} as the {what}, the seed {want}",
                n=n,
                got=recorded.turned.code if recorded.turned else Line("none"),
                what=game.turned_card_name,
                want=expected.turned.code if expected.turned else Line("none"),
            )
        )
    if expected.turned is not None:
        return Line(
            "hand {n}: {seat} deals; every seat's cards, {card} turned up, come from the seed",
            n=n,
            seat=game.dealer,
            card=expected.turned.code,
        )
    return Line(
        "hand {n}: {seat} deals; every seat's cards come from the seed", n=n, seat=game.dealer
    )


def _place(c: Card, owner: dict[Card, Seat], game: Game) -> Line:
    seat = owner.get(c)
    if seat is not None:
        return Line("to {seat}", seat=seat)
    if game.deck.mask >> c.index & 1:
        return Line("to nobody (it stays in the kitty)")
    return Line("to nobody (it is not in the {deck} deck)", deck=game.deck.name)


def _not_replayed(e: RecordError) -> Line:
    """Why the record cannot be replayed, with where: the hand, and the action in it."""
    hand = e.details.get("hand")
    if hand is None:
        return Line("the record cannot be replayed: {reason}", reason=e.line)
    action = next((_ACTIONS[k](e.details[k]) for k in _ACTIONS if k in e.details), None)
    if action is None:
        return Line("the record cannot be replayed: hand {n}: {reason}", n=hand, reason=e.line)
    return Line(
        "the record cannot be replayed: hand {n}, {action}: {reason}",
        n=hand,
        action=action,
        reason=e.line,
    )


# An action in a hand, by its key in a record error (records.md).
_ACTIONS: Final[dict[str, Callable[[object], Line]]] = {
    "bid": lambda n: Line("bid {n}", n=n),
    "pass": lambda n: Line("pass {n}", n=n),
    "call": lambda n: Line("call {n}", n=n),
    "discard": lambda n: Line("discard {n}", n=n),
    "claim": lambda n: Line("claim {n}", n=n),
    "play": lambda n: Line("play {n}", n=n),
}
