"""Checking a record against its revealed seed (docs/verifiable-deals.md): the seed matches the
commitment, the draw for first dealer and every deal come from the seed.

:func:`verify` yields one line per thing checked and raises :class:`NotVerified` with one
reason line (naming the hand and the seat or card) at the first thing that does not match.
The record is replayed through the engine as it is checked, so a record whose deals match but
whose play is illegal is refused too.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from bot.engine.actions import Action, Deal
from bot.engine.cards import Card
from bot.engine.dealer import draw_first_dealer
from bot.engine.errors import NotVerified, RecordError
from bot.engine.game import Game
from bot.engine.record import Replayer
from bot.engine.seats import Seat
from bot.engine.shuffle import SHORT_COMMITMENT, GameSeed


def record_seed(doc: Any) -> GameSeed:
    """The record's seed, checked against its commitment."""
    if not isinstance(doc, dict) or "seed" not in doc:
        raise NotVerified(
            "the record has no seed: its game was played before verifiable deals, "
            "so its deals cannot be checked"
        )
    try:
        seed = GameSeed.from_hex(doc["seed"])
    except ValueError as e:
        raise NotVerified(f"seed: {e}") from None
    promised = doc.get("commitment")
    if not isinstance(promised, str):
        raise NotVerified("the record has no commitment to check its seed against")
    if promised.lower() != seed.commitment:
        raise NotVerified(
            f"the seed does not match the commitment: SHA-256 of the seed is "
            f"{seed.commitment[:SHORT_COMMITMENT]}…, the record's commitment is "
            f"{promised[:SHORT_COMMITMENT]}…"
        )
    return seed


def verify(doc: Any) -> Iterator[str]:
    """Check ``doc`` (a ``spades-record/1`` document with ``seed`` and ``commitment``),
    yielding what was checked; raises :class:`NotVerified` at the first mismatch."""
    seed = record_seed(doc)
    yield (
        f"commitment: SHA-256 of the seed is {seed.commitment}, as the record says (the "
        f"table message showed its first {SHORT_COMMITMENT} digits, {seed.short_commitment}, "
        "from the first deal on)"
    )
    checks: list[str] = []

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
        raise NotVerified(f"the record cannot be replayed: {_where(e.details)}{e.reason}") from None
    yield (
        f"verified: the seed matches the commitment, and the draw for first dealer and all "
        f"{deals} deals come from the seed"
    )


def _check_draw(seed: GameSeed, game: Game) -> str:
    rounds, dealer = draw_first_dealer(seed.secret, game.rules.seats)
    drawn = "; ".join(
        f"round {i}: " + ", ".join(f"{s.name} {c.code}" for s, c in r.items())
        for i, r in enumerate(rounds, start=1)
    )
    if dealer != game.first_dealer:
        raise NotVerified(
            f"first dealer: the seed's draw ({drawn}) gives the first deal to {dealer.word}, "
            f"the record to {game.first_dealer.word}"
        )
    return f"first dealer: the seed's draw ({drawn}) gives the first deal to {dealer.word}"


def _check_deal(game: Game, recorded: Deal, expected: Deal) -> str:
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
            instead = f", and deals {s.word} {missing[0].code} instead" if missing else ""
            raise NotVerified(
                f"hand {n}, {s.word}: the record deals {c.code} to {s.word}, but the seed "
                f"deals it {_place(c, owner, game)}{instead}"
            )
        if missing or len(got) != len(want):
            c = missing[0] if missing else want[0]
            raise NotVerified(
                f"hand {n}, {s.word}: the seed deals {s.word} {c.code}, which the record does "
                f"not give {s.word} (or gives twice)"
            )
    if recorded.turned != expected.turned:
        what = game.turned_card_name
        got_code = recorded.turned.code if recorded.turned else "none"
        want_code = expected.turned.code if expected.turned else "none"
        raise NotVerified(
            f"hand {n}: the record turns up {got_code} as the {what}, the seed {want_code}"
        )
    turned = f", {expected.turned.code} turned up" if expected.turned is not None else ""
    return f"hand {n}: {game.dealer.word} deals; every seat's cards{turned} come from the seed"


def _place(c: Card, owner: dict[Card, Seat], game: Game) -> str:
    seat = owner.get(c)
    if seat is not None:
        return f"to {seat.word}"
    if game.deck.mask >> c.index & 1:
        return "to nobody (it stays in the kitty)"
    return f"to nobody (it is not in the {game.deck.name} deck)"


def _where(details: dict[str, object]) -> str:
    keys = ("hand", "bid", "pass", "call", "discard", "claim", "play")
    parts = [f"{k} {details[k]}" for k in keys if k in details]
    return ", ".join(parts) + ": " if parts else ""
