"""The hard player's budget setting (SPADES_AI_BUDGET_MS) as the bot reads it."""

from __future__ import annotations

import pytest

from bot.config import ConfigError, Settings

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"


def test_default_budget_is_100_ms() -> None:
    assert Settings.from_env({"DISCORD_TOKEN": TOKEN}).ai_budget_ms == 100


def test_budget_is_read() -> None:
    s = Settings.from_env({"DISCORD_TOKEN": TOKEN, "SPADES_AI_BUDGET_MS": " 250 "})
    assert s.ai_budget_ms == 250


@pytest.mark.parametrize("raw", ["301", "9", "0", "-5", "fast", "1.5"])
def test_budget_out_of_range_is_one_clear_line(raw: str) -> None:
    with pytest.raises(ConfigError, match="SPADES_AI_BUDGET_MS") as e:
        Settings.from_env({"DISCORD_TOKEN": TOKEN, "SPADES_AI_BUDGET_MS": raw})
    assert "\n" not in str(e.value)
