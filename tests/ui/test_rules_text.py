"""Rules in plain sentences (issue 8, item 4) and the mercy rule a new table starts with
(item 6), for every preset."""

from __future__ import annotations

import pytest

from bot.engine import Rules, preset_names
from bot.engine.rules import option_names, parse_value, suggested_values
from bot.league.settings import RATED_TIMER_MIN
from bot.tables.defaults import default_rules, mercy_lose_at
from bot.ui.text.rules_text import changed_options, help_embed, rules_brief, rules_embed

PRESET_NAMES = preset_names()
TOPICS = ["Cards and tricks", "Bidding", "Scoring", "Nil", "Bags", "End of the game"]


SPADES_PRESETS = [p for p in PRESET_NAMES if Rules.from_preset(p).game == "spades"]


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_preset_reads_as_sentences_within_discord_limits(preset: str) -> None:
    rules = default_rules(preset)
    embed = rules_embed(rules).to_dict()
    if rules.game == "spades":
        assert [f["name"] for f in embed["fields"]] == TOPICS
    for f in embed["fields"]:
        assert 0 < len(f["value"]) <= 1024
        for line in f["value"].split("\n"):
            assert line.startswith("• ")
            assert line.rstrip(" ✎").endswith("."), line
    text = str(embed)
    assert len(text) < 6000
    assert "`" not in text, "no raw option keys"
    assert "_" not in " ".join(f["value"] for f in embed["fields"]), "no option names"
    assert "✎" not in text, "a new table of the preset changes nothing"


@pytest.mark.parametrize("name", [n for n in option_names() if n not in ("bidding", "deck")])
def test_a_changed_option_marks_the_sentence_that_describes_it(name: str) -> None:
    base = default_rules("standard")
    for text in suggested_values(name):
        try:
            rules = base.with_option(name, parse_value(name, text))
        except Exception:
            continue
        if getattr(rules, name) == getattr(base, name):
            continue
        assert name in changed_options(rules)
        fields = rules_embed(rules).to_dict()["fields"]
        marked = [ln for f in fields for ln in f["value"].split("\n") if ln.endswith("✎")]
        assert marked, (name, text)
        return
    pytest.skip(f"no suggested value changes {name} on its own")


def test_the_mercy_rule_follows_the_preset_target_and_new_york_has_none() -> None:
    assert mercy_lose_at("standard") == -500
    assert mercy_lose_at("short") == -250
    assert mercy_lose_at("house") == -500
    assert mercy_lose_at("new-york") is None
    assert all(mercy_lose_at(p) is None for p in PRESET_NAMES if p not in SPADES_PRESETS)
    assert all(Rules.from_preset(p).lose_at is None for p in PRESET_NAMES), (
        "the presets themselves keep the spec's lose_at off"
    )
    rules = default_rules("standard", target=300)
    assert (rules.target, rules.lose_at) == (300, -500)
    assert rules.to_record() == {"preset": "standard", "target": 300, "lose_at": -500}, (
        "a table's record names the mercy rule, so it replays the same under any later default"
    )
    assert Rules.from_record(rules.to_record()) == rules
    assert default_rules("standard", lose_at=None).lose_at is None


def test_the_footer_summary_is_built_from_the_rules_themselves() -> None:
    assert rules_brief(default_rules("standard")) == (
        "nil ±100 · blind nil ±200 · 10 bags −100 · loses at −500"
    )
    changed = default_rules("standard", nil_value=50, lose_at=None, bag_penalty=0)
    assert rules_brief(changed) == "nil ±50 · blind nil ±200"
    assert "partnership bids" in rules_brief(default_rules("new-york"))


def test_help_is_one_screen() -> None:
    embed = help_embed().to_dict()
    assert len(str(embed)) < 3000
    assert all(len(f["value"]) <= 1024 for f in embed["fields"])


def test_the_rules_and_help_say_a_renege_claim_is_also_a_probe() -> None:
    """Issue 23: a claim's public verdict tells whether an opponent's plays were legal; it is
    allowed, and the rules say so where claims are explained."""
    with_claims = str(rules_embed(default_rules("standard", renege="claim")).to_dict())
    assert "a claim is also a probe" in with_claims
    assert "probe" not in str(rules_embed(default_rules("standard")).to_dict())
    help_text = str(help_embed().to_dict())
    assert "also a probe" in help_text
    assert f"under {RATED_TIMER_MIN} s" in help_text, "help says which timers leave it unrated"
