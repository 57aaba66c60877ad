"""The options and presets of games.md G3/G4 and the G7 rulings on which options each game
takes: ``game`` is fixed by the preset, each game refuses the others' options, Euchre decks are
valid only in Euchre, and every G-option is refused in ``new-york``."""

from __future__ import annotations

from typing import Any

import pytest

from bot.engine import Game, GameKind, Rules, RulesError, entry_of
from bot.engine.euchre import EuchreGame
from bot.engine.rules import option_names, parse_value, suggested_values
from bot.engine.whist import WhistGame

PRESETS = {
    "whist": {"game": "whist", "target": 7, "whist_points": "odd_tricks"},
    "short-whist": {"game": "whist", "target": 5, "whist_points": "odd_tricks"},
    "euchre": {
        "game": "euchre",
        "target": 10,
        "deck": "euchre24",
        "stick_the_dealer": False,
        "euchre_points": "standard",
    },
}


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_preset_options_are_those_of_games_md(preset: str) -> None:
    assert Rules.from_preset(preset).options() == PRESETS[preset]


def test_presets_by_game() -> None:
    assert entry_of(GameKind.WHIST).preset_names == ("whist", "short-whist")
    assert entry_of(GameKind.EUCHRE).preset_names == ("euchre",)
    assert "standard" in entry_of(GameKind.SPADES).preset_names


@pytest.mark.parametrize(("preset", "cls"), [("whist", WhistGame), ("euchre", EuchreGame)])
def test_the_game_of_a_preset(preset: str, cls: type[Game]) -> None:
    assert type(Game(Rules.from_preset(preset))) is cls


@pytest.mark.parametrize(
    ("preset", "overrides"),
    [
        ("whist", {"whist_points": "one_per_hand", "target": 3}),
        ("short-whist", {"target": 1}),
        ("euchre", {"deck": "euchre28", "stick_the_dealer": True}),
        ("euchre", {"deck": "euchre32", "euchre_points": "per_trick", "target": 21}),
    ],
)
def test_a_game_takes_its_own_options(preset: str, overrides: dict[str, Any]) -> None:
    rules = Rules.from_preset(preset, **overrides)
    assert rules.overrides() == overrides
    assert Rules.from_record(rules.to_record()) == rules


@pytest.mark.parametrize(
    ("preset", "overrides", "option", "message"),
    [
        ("standard", {"game": "euchre"}, "game",
         "game is set by the preset: choose the preset euchre"),
        ("euchre", {"game": "whist"}, "game",
         "game is set by the preset: choose the preset whist or short-whist"),
        ("whist", {"nil": False}, "nil", "nil is a Spades option, not one of Whist"),
        ("euchre", {"bag_penalty": 50}, "bag_penalty",
         "bag_penalty is a Spades option, not one of Euchre"),
        ("euchre", {"lose_at": -5}, "lose_at", "lose_at is a Spades option, not one of Euchre"),
        ("standard", {"whist_points": "one_per_hand"}, "whist_points",
         "whist_points is a Whist option, not one of Spades"),
        ("standard", {"stick_the_dealer": True}, "stick_the_dealer",
         "stick_the_dealer is a Euchre option, not one of Spades"),
        ("whist", {"euchre_points": "per_trick"}, "euchre_points",
         "euchre_points is a Euchre option, not one of Whist"),
        ("standard", {"deck": "euchre24"}, "deck",
         "deck must be one of standard, jokers, jjdd, not 'euchre24'"),
        ("whist", {"deck": "jokers"}, "deck", "deck must be one of standard, not 'jokers'"),
        ("euchre", {"deck": "standard"}, "deck",
         "deck must be one of euchre24, euchre28, euchre32, not 'standard'"),
        ("whist", {"target": 500}, "target", "target must be between 1 and 100, not 500"),
        ("euchre", {"target": 0}, "target", "target must be between 1 and 100, not 0"),
        ("whist", {"whist_points": "rubbers"}, "whist_points",
         "whist_points must be one of odd_tricks, one_per_hand, not 'rubbers'"),
        ("euchre", {"stick_the_dealer": "yes"}, "stick_the_dealer",
         "stick_the_dealer must be on or off (true/false), not 'yes'"),
        ("new-york", {"stick_the_dealer": True}, "stick_the_dealer",
         "stick_the_dealer cannot be changed in the new-york preset "
         "(only target, tie and lose_at can)"),
        ("new-york", {"whist_points": "one_per_hand"}, "whist_points",
         "whist_points cannot be changed in the new-york preset "
         "(only target, tie and lose_at can)"),
    ],
)  # fmt: skip
def test_options_of_another_game_are_refused(
    preset: str, overrides: dict[str, Any], option: str, message: str
) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_preset(preset, **overrides)
    assert info.value.reason == message
    assert info.value.option == option


def test_option_names_of_each_game() -> None:
    assert option_names("whist") == ("game", "target", "whist_points")
    assert option_names("euchre") == ("game", "target", "deck", "stick_the_dealer", "euchre_points")
    spades = option_names("spades")
    assert "nil" in spades
    assert not {"whist_points", "stick_the_dealer", "euchre_points"} & set(spades)
    assert set(option_names()) >= set(spades) | set(option_names("euchre"))


def test_option_text_is_checked_for_the_tables_game() -> None:
    assert parse_value("target", "7", "whist") == 7
    assert parse_value("deck", "euchre32", "euchre") == "euchre32"
    assert parse_value("stick_the_dealer", "on", "euchre") is True
    with pytest.raises(RulesError, match="between 100 and 1000"):
        parse_value("target", "7")


def test_suggestions_suit_the_game() -> None:
    assert suggested_values("deck", "euchre") == ("euchre24", "euchre28", "euchre32")
    assert suggested_values("deck", "spades") == ("standard", "jokers", "jjdd")
    assert "10" in suggested_values("target", "euchre")
    assert suggested_values("euchre_points", "euchre") == ("standard", "per_trick")
