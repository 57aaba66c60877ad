"""What a seat may choose now, for the commands that offer it: the bids or calls of ``/bid``,
and whether the **Claim** button opens (games.md G1).  Pure: asked of the game, never decided
beside it."""

from __future__ import annotations

from bot.engine.actions import Action, Bid, Call, Claim, Look, Seat
from bot.engine.game import Game
from bot.engine.spades.view import SpadesPart


def bid_choices(game: Game, seat: Seat) -> tuple[Action, ...]:
    """What ``seat`` may bid (or call) now, in order: the legal calls (Euchre); or the legal
    bids, then — while its cards are face down — looking at them, and the bids it may make by
    looking first whatever its cards are (the game decides them without reading the cards)."""
    legal = game.legal_actions(seat)
    calls = tuple(a for a in legal if isinstance(a, Call))
    if calls:
        return calls
    bids = tuple(a for a in legal if isinstance(a, Bid))
    if not any(isinstance(a, Look) for a in legal):
        return bids
    part = game.view_part(seat)
    unseen = part.unseen_bids if isinstance(part, SpadesPart) else ()
    return (*bids, Look(seat), *unseen)


def check_claimant(game: Game, seat: Seat) -> None:
    """G1: raise the engine's refusal (an :class:`~bot.engine.errors.IllegalAction` saying
    why) unless ``seat`` may claim a renege now — the reason a claim against any opponent
    would be refused with; :func:`bot.engine.views.claim_targets` then names the opponents."""
    seating = game.seating
    side = seating.side_of(seat)
    opponent = next(s for s in seating.seats if seating.side_of(s) != side)
    game.check(Claim(seat, opponent))
