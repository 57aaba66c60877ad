"""Rule options and presets (rules.md §7, §8, §10): the preset table, validation with readable
messages, and which options New York lets a table change."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bot.engine import Rules, RulesError, preset_names
from bot.engine.rules import option_names, parse_value
from tests.engine.reference import PRESET_CHANGES, SECTION_8, preset_options


@pytest.mark.parametrize("preset", sorted(PRESET_CHANGES))
def test_preset_options_are_the_rules_md_table(preset: str) -> None:
    """Every value the §7 table (and §8 for new-york) states for the preset; the options the
    table leaves unstated (e.g. a double nil value where double nil is scored separately)
    exist but the spec makes no claim about them."""
    rules = Rules.from_preset(preset)
    assert rules.preset == preset
    options = rules.options()
    expected = preset_options(preset)
    assert set(options) == set(expected)
    stated = {**PRESET_CHANGES["standard"], **PRESET_CHANGES[preset]}
    if preset == "new-york":
        stated.update(SECTION_8)
    assert {k: options[k] for k in stated} == stated


def test_the_presets_are_exactly_those_of_rules_md_and_games_md() -> None:
    assert set(preset_names()) == set(PRESET_CHANGES) | {"whist", "short-whist", "euchre"}


def test_rules_are_frozen() -> None:
    rules = Rules.from_preset("standard")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.target = 300  # type: ignore[misc]


def test_an_override_changes_one_option_and_is_recorded() -> None:
    rules = Rules.from_preset("standard", target=300, lose_at=-200)
    assert (rules.target, rules.lose_at) == (300, -200)
    assert rules.overrides() == {"target": 300, "lose_at": -200}
    assert rules.to_record() == {"preset": "standard", "target": 300, "lose_at": -200}
    assert Rules.from_record(rules.to_record()) == rules
    assert rules.with_option("target", 250).target == 250
    assert rules.with_option("target", 250).lose_at == -200


def test_setting_an_option_to_the_preset_value_is_no_override() -> None:
    assert Rules.from_preset("short", target=250).overrides() == {}


@pytest.mark.parametrize(
    ("preset", "overrides", "option", "message"),
    [
        ("standard", {"colour": "red"}, "colour", "Unknown rule option 'colour'"),
        ("standard", {"target": 50}, "target", "target must be between 100 and 1000, not 50"),
        ("standard", {"target": "500"}, "target", "target must be a whole number, not '500'"),
        ("standard", {"target": True}, "target", "target must be a whole number, not True"),
        ("standard", {"nil": "yes"}, "nil", "nil must be on or off (true/false), not 'yes'"),
        ("standard", {"nil": 1}, "nil", "nil must be on or off (true/false), not 1"),
        ("standard", {"tie": "coin"}, "tie", "tie must be one of extra_hand, bags, not 'coin'"),
        ("standard", {"deck": "tarot"}, "deck",
         "deck must be one of standard, jokers, jjdd, not 'tarot'"),
        ("standard", {"blind_nil_pass": 3}, "blind_nil_pass",
         "blind_nil_pass must be one of 0, 1, 2, not 3"),
        ("standard", {"lose_at": 0}, "lose_at",
         "lose_at must be between -5000 and -1 (or off), not 0"),
        ("standard", {"bag_limit": 0}, "bag_limit",
         "bag_limit must be between 1 and 100 (or off), not 0"),
        ("standard", {"nil_value": None}, "nil_value",
         "nil_value must be a whole number, not None"),
        ("standard", {"joker_bonus": True}, "joker_bonus",
         "joker_bonus needs a deck with jokers (jokers or jjdd)"),
        ("no-set", {"blind_nil_pass": 2}, "blind_nil_pass", "blind_nil_pass needs blind_nil on"),
        ("no-set", {"double_blind_nil": "scored"}, "double_blind_nil",
         "double_blind_nil needs blind_nil on"),
        ("standard", {"bidding": "new_york"}, "bidding",
         "New York bidding is fixed by the new-york preset"),
        ("standard", {"players": 3}, "players",
         "Three players need partnerships off (everyone alone)"),
        ("solo", {"players": 3, "deck": "jokers"}, "deck", "Three players play the standard deck"),
        ("whiz", {"nil": False}, "nil", "Whiz bidding needs nil on"),
        ("solo", {"bidding": "suicide"}, "partnerships", "Suicide bidding needs partnerships"),
        ("standard", {"renege": "sometimes"}, "renege",
         "renege must be one of prevented, claim, not 'sometimes'"),
        ("standard", {"renege_penalty": 300}, "renege_penalty",
         "renege_penalty must be one of round, 250, not 300"),
        ("new-york", {"renege": "claim"}, "renege",
         "renege cannot be changed in the new-york preset (only target, tie and lose_at can)"),
        ("whist", {"renege": "claim"}, "renege", "renege is a Spades option, not one of Whist"),
        ("euchre", {"players": 3}, "players", "players is a Spades option, not one of Euchre"),
    ],
)  # fmt: skip
def test_bad_options_are_refused_with_a_message_naming_option_and_value(
    preset: str, overrides: dict[str, Any], option: str, message: str
) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_preset(preset, **overrides)
    assert info.value.reason == message
    assert info.value.option == option


def test_unknown_preset_lists_the_presets() -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_preset("canasta")
    assert info.value.reason.startswith("Unknown preset 'canasta': choose one of standard, ")
    assert all(name in info.value.reason for name in preset_names())


@pytest.mark.parametrize(("option", "value"), [("target", 300), ("tie", "bags"), ("lose_at", -300)])
def test_new_york_lets_a_table_change_target_tie_and_lose_at(option: str, value: Any) -> None:
    assert getattr(Rules.from_preset("new-york", **{option: value}), option) == value


@pytest.mark.parametrize(
    ("option", "value"),
    [("nil", True), ("deck", "standard"), ("bag_limit", 10), ("set_penalty", "zero"),
     ("blind_nil", True), ("joker_bonus", True)],
)  # fmt: skip
def test_new_york_refuses_every_other_option(option: str, value: Any) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_preset("new-york", **{option: value})
    assert info.value.reason == (
        f"{option} cannot be changed in the new-york preset (only target, tie and lose_at can)"
    )


def test_new_york_accepts_an_option_restated_at_its_preset_value() -> None:
    assert Rules.from_preset("new-york", deck="jjdd") == Rules.from_preset("new-york")


def test_new_york_has_no_nil_and_no_bags() -> None:
    rules = Rules.from_preset("new-york")
    assert rules.new_york
    assert not rules.nil
    assert not rules.blind_nil
    assert not rules.has_bags


@pytest.mark.parametrize(
    ("option", "text", "value"),
    [("nil", "off", False), ("joker_bonus", "on", True), ("target", " 300 ", 300),
     ("lose_at", "off", None), ("lose_at", "-200", -200), ("tie", "extra-hand", "extra_hand"),
     ("blind_nil_pass", "2", 2), ("bag_limit", "none", None)],
)  # fmt: skip
def test_option_text_from_users_is_parsed_and_checked(option: str, text: str, value: Any) -> None:
    assert parse_value(option, text) == value


@pytest.mark.parametrize(
    ("option", "text", "message"),
    [("nil", "maybe", "nil must be on or off, not 'maybe'"),
     ("target", "lots", "target must be a whole number, not 'lots'"),
     ("target", "5", "target must be between 100 and 1000, not 5"),
     ("shoe", "on", "Unknown rule option 'shoe'")],
)  # fmt: skip
def test_bad_option_text_is_refused_readably(option: str, text: str, message: str) -> None:
    with pytest.raises(RulesError) as info:
        parse_value(option, text)
    assert info.value.reason == message


def test_every_option_of_rules_md_exists() -> None:
    assert set(option_names("spades")) == set(preset_options("standard"))
