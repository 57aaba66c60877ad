"""A bid made by looking at the cards first (``/bid look 4``), as one step."""

from __future__ import annotations

from bot.engine.actions import Action, Bid, Look
from bot.engine.game import Game
from bot.engine.spades.game import SpadesGame


def look_then_bid(game: Game, bid: Bid) -> tuple[Action, ...]:
    """The actions of ``bid`` made by looking first: the :class:`Look` while the bidder's
    cards are face down, then the bid.  A bid whose legality depends on the unseen cards
    (Whiz: a number of spades) is refused here, naming no card, before anything is applied —
    a refusal must not show unseen cards (nor keep blind nil open after it did).  Blind bids,
    and a game with no face-down cards, take the bid alone."""
    if bid.blind or bid.value < 0 or not isinstance(game, SpadesGame):
        return (bid,)
    if not game.blind_open(bid.seat):
        return (bid,)
    game.check_unseen_bid(bid)
    return (Look(bid.seat), bid)
