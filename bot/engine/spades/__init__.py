"""Spades: bidding, blind nil and card passing, spades broken, scoring (rules.md)."""

from bot.engine.spades.game import SpadesGame
from bot.engine.spades.scoring import score_individual, score_new_york

__all__ = ["SpadesGame", "score_individual", "score_new_york"]
