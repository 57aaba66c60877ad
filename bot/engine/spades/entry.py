"""Spades' registry entry: its title, presets (rules.md §7-§8, games.md G2), options, decks,
targets and actions."""

from __future__ import annotations

from typing import Final

from bot.engine.actions import Bid, Claim, Look, PassCards
from bot.engine.games import GameEntry, GameKind, Preset, register
from bot.engine.spades.view import SpadesPart

PRESETS: Final = (
    Preset(
        "standard",
        "Standard",
        "Standard: 500 points, nil 100, blind nil 200 when 100 behind, 10 bags = -100",
    ),
    Preset(
        "short",
        "Short game",
        "Short game: 250 points, nil 50, blind nil 100",
        {"target": 250, "nil_value": 50, "blind_nil_value": 100, "double_nil_value": 200},
    ),
    Preset(
        "house",
        "House rules",
        "House rules: blind nil passes 2 cards, double blind nil ±400, ties broken by bags",
        {
            "blind_nil_pass": 2,
            "double_blind_nil": "scored",
            "double_blind_nil_min_deficit": 201,
            "nil_tricks": "none",
            "tie": "bags",
            "renege_penalty": 250,
        },
    ),
    Preset(
        "guide",
        "Guide rules",
        "Guide: double nil ±400 as a team, double blind nil wins or loses the game",
        {"blind_nil_min_deficit": 0, "double_nil": "team", "double_blind_nil": "decides_game"},
    ),
    Preset(
        "tennessee",
        "Tennessee",
        "Tennessee: blind nil always open, no bag penalty",
        {"blind_nil_min_deficit": 0, "nil_tricks": "none", "bag_limit": None, "bag_penalty": 0},
    ),
    Preset(
        "no-set",
        "No-set",
        "No-set: a failed contract scores 0, no blind nil",
        {"blind_nil": False, "nil_tricks": "none", "set_penalty": "zero"},
    ),
    Preset(
        "joker",
        "Joker Spades",
        "Joker Spades: two jokers top the trumps, +2/+1 for capturing them",
        {"deck": "jokers", "joker_bonus": True},
    ),
    Preset(
        "jjdd",
        "Joker-Joker-Deuce-Deuce",
        "Joker-Joker-Deuce-Deuce: BJ > LJ > 2♦ > 2♠ > A♠",
        {"deck": "jjdd"},
    ),
    Preset(
        "new-york",
        "New York",
        "New York: partnership bids 4-10, blind bids, Boston wins, set twice loses",
        {
            "deck": "jjdd",
            "bidding": "new_york",
            "nil": False,
            "blind_nil": False,
            "blind_nil_min_deficit": 100,
            "nil_tricks": "none",
            "bag_value": 0,
            "bag_limit": None,
            "bag_penalty": 0,
        },
    ),
    # games.md G2
    Preset(
        "solo",
        "Solo (cutthroat)",
        "Solo (cutthroat): four players, everyone scores alone",
        {"partnerships": False},
    ),
    Preset(
        "cutthroat-3",
        "Cutthroat for three",
        "Cutthroat for three: 51 cards (no 2♣), 17 tricks, everyone alone",
        {"partnerships": False, "players": 3},
    ),
    Preset(
        "suicide",
        "Suicide",
        "Suicide: in each team one partner bids nil, the other 4 or more",
        {"bidding": "suicide"},
    ),
    Preset("whiz", "Whiz", "Whiz: bid nil or exactly your number of spades", {"bidding": "whiz"}),
    Preset(
        "mirror",
        "Mirror",
        "Mirror: bid exactly your number of spades (none: nil)",
        {"bidding": "mirror"},
    ),
)

SPADES: Final = register(
    GameEntry(
        kind=GameKind.SPADES,
        title="Spades",
        presets=PRESETS,
        options=(
            "target",
            "deck",
            "bidding",
            "nil",
            "nil_value",
            "blind_nil",
            "blind_nil_value",
            "blind_nil_min_deficit",
            "blind_nil_pass",
            "double_nil",
            "double_nil_value",
            "double_blind_nil",
            "double_blind_nil_min_deficit",
            "nil_tricks",
            "set_penalty",
            "bag_value",
            "bag_limit",
            "bag_penalty",
            "tie",
            "joker_bonus",
            "lose_at",
            "renege",
            "renege_penalty",
            "partnerships",
            "players",
        ),
        decks=("standard", "jokers", "jjdd"),
        targets=(100, 1000),
        suggested_targets=("100", "150", "200", "250", "300", "400", "500", "750", "1000"),
        actions=frozenset({Bid, Look, PassCards, Claim}),
        part=SpadesPart,
    )
)
