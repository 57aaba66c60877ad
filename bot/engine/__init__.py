"""Pure Spades game logic: no Discord, no I/O, no asyncio.

The public surface: :class:`Rules` (options and presets), :class:`Game` (the state machine),
actions (:class:`Bid`, :class:`Look`, :class:`PassCards`, :class:`Play`, :class:`Deal`),
:func:`seat_view` (what one seat may know), cards and their parsing, and the typed errors.
"""

from bot.engine.actions import (
    PLAYS,
    SEATS,
    TEAMS,
    Action,
    Bid,
    Deal,
    Look,
    PassCards,
    Play,
    Seat,
    Team,
    bid_record,
    bid_text,
)
from bot.engine.cards import CARDS, DECKS, Card, Deck, card, cards_of, format_cards, parse_card
from bot.engine.errors import (
    CardParseError,
    IllegalAction,
    RecordError,
    RulesError,
    SpadesError,
)
from bot.engine.game import Game, HandResult, Phase, Trick
from bot.engine.rules import PRESET_NAMES, Rules
from bot.engine.scoring import BLIND_NIL, NIL, TeamHandScore
from bot.engine.views import SeatView, seat_view

__all__ = [
    "BLIND_NIL",
    "CARDS",
    "DECKS",
    "NIL",
    "PLAYS",
    "PRESET_NAMES",
    "SEATS",
    "TEAMS",
    "Action",
    "Bid",
    "Card",
    "CardParseError",
    "Deal",
    "Deck",
    "Game",
    "HandResult",
    "IllegalAction",
    "Look",
    "PassCards",
    "Phase",
    "Play",
    "RecordError",
    "Rules",
    "RulesError",
    "Seat",
    "SeatView",
    "SpadesError",
    "Team",
    "TeamHandScore",
    "Trick",
    "bid_record",
    "bid_text",
    "card",
    "cards_of",
    "format_cards",
    "parse_card",
    "seat_view",
]
