"""Spades: bidding, blind nil and card passing, spades broken, scoring (rules.md); solo,
three players, renege claims and the Suicide/Whiz/Mirror bid restrictions (games.md G1-G2)."""

from bot.engine.spades.entry import SPADES
from bot.engine.spades.game import SpadesGame
from bot.engine.spades.looking import look_then_bid
from bot.engine.spades.scoring import score_individual, score_new_york
from bot.engine.spades.solo import SoloSpadesGame
from bot.engine.spades.variants import ClaimSoloSpadesGame, ClaimSpadesGame

__all__ = [
    "SPADES",
    "ClaimSoloSpadesGame",
    "ClaimSpadesGame",
    "SoloSpadesGame",
    "SpadesGame",
    "look_then_bid",
    "score_individual",
    "score_new_york",
]
