"""Pure game logic for Spades and its relatives: no Discord, no I/O, no asyncio.

The public surface: :class:`GameKind` (the games' names) and each game's registry entry
(:func:`entry_of`: title, presets, options, actions), :class:`Rules` (options), :class:`Game`
(``Game(rules)`` is the state machine of the game ``rules.game`` names), actions
(:class:`Bid`, :class:`Look`, :class:`PassCards`, :class:`Play`, :class:`Call`,
:class:`Discard`, :class:`Deal`), :func:`seat_view` (what one seat may know), cards and their
parsing, the typed errors, and :class:`Line`, the one way the engine says something to a
player (a catalog template and its parts; the bot writes it in the reader's language).

Module map: ``games`` (the game names and the registry), ``cards`` (card values, parsing),
``decks`` (decks and trump orders), ``seats`` (seats, sides, turn order), ``actions``,
``errors``, ``lines`` (what the engine says), ``rules`` (options), ``scoring`` (a hand's
itemised score), ``tricks`` (trick play, shared), ``game`` (the game protocol and hand cycle,
shared), ``spades/`` (Spades' bidding, passing and scoring), ``whist`` and ``euchre`` (their
phases and scoring), ``views`` (seat views), ``record`` (records and replay), ``dealer`` (the
first dealer).
"""

# First, before any module it may concern: the compiled build or the sources (bot.engine.build).
from bot.engine.build import COMPILED, build_name

# isort: split
from bot.engine.actions import (
    BLIND_NIL,
    NIL,
    PLAYS,
    Action,
    Bid,
    Call,
    Deal,
    Discard,
    Look,
    PassCards,
    Play,
    bid_record,
    bid_text,
)
from bot.engine.cards import CARDS, Card, card, cards_of, format_cards, parse_card
from bot.engine.choices import bid_choices, check_claimant
from bot.engine.decks import DECKS, Deck
from bot.engine.errors import (
    CardParseError,
    GameError,
    IllegalAction,
    RecordError,
    RulesError,
)
from bot.engine.euchre import EuchreGame
from bot.engine.game import Game, HandResult, Phase, Trick
from bot.engine.games import (
    DEFAULT_GAME,
    GameEntry,
    GameKind,
    GamePart,
    Preset,
    entries,
    entry_of,
    game_of_preset,
    preset,
    preset_names,
    same_game,
)
from bot.engine.lines import Line
from bot.engine.rules import Rules
from bot.engine.scoring import ScorePart, TeamHandScore
from bot.engine.seats import SEATS, TEAMS, Seat, Seating, Team
from bot.engine.spades import SpadesGame, look_then_bid
from bot.engine.spades.view import SpadesPart
from bot.engine.trump_part import TrumpPart
from bot.engine.views import SeatView, claim_targets, public_claims, seat_view
from bot.engine.whist import WhistGame

__all__ = [
    "BLIND_NIL",
    "CARDS",
    "COMPILED",
    "DECKS",
    "DEFAULT_GAME",
    "NIL",
    "PLAYS",
    "SEATS",
    "TEAMS",
    "Action",
    "Bid",
    "Call",
    "Card",
    "CardParseError",
    "Deal",
    "Deck",
    "Discard",
    "EuchreGame",
    "Game",
    "GameEntry",
    "GameError",
    "GameKind",
    "GamePart",
    "HandResult",
    "IllegalAction",
    "Line",
    "Look",
    "PassCards",
    "Phase",
    "Play",
    "Preset",
    "RecordError",
    "Rules",
    "RulesError",
    "ScorePart",
    "Seat",
    "SeatView",
    "Seating",
    "SpadesGame",
    "SpadesPart",
    "Team",
    "TeamHandScore",
    "Trick",
    "TrumpPart",
    "WhistGame",
    "bid_choices",
    "bid_record",
    "bid_text",
    "build_name",
    "card",
    "cards_of",
    "check_claimant",
    "claim_targets",
    "entries",
    "entry_of",
    "format_cards",
    "game_of_preset",
    "look_then_bid",
    "parse_card",
    "preset",
    "preset_names",
    "public_claims",
    "same_game",
    "seat_view",
]
