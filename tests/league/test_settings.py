"""Server settings: defaults, validation with readable messages, persistence."""

from __future__ import annotations

import re

import pytest

from bot.league.errors import SettingsError
from bot.league.settings import GuildSettings
from bot.store.league import LeagueStore


async def test_a_server_without_settings_gets_the_defaults(store: LeagueStore) -> None:
    s = await store.settings.get(42)
    assert s == GuildSettings(guild_id=42)
    assert (s.preset, s.target, s.turn_timer, s.min_games) == ("standard", None, 0, 0)
    assert not s.rate_bot_games
    assert s.current_season == 1
    assert s.allows_channel(123)
    assert s.default_rules().target == 500


async def test_settings_are_saved_and_read_back(store: LeagueStore) -> None:
    s = await store.settings.update(
        42, preset="short", target=300, turn_timer=60, min_games=5, rate_bot_games=True
    )
    assert s == await store.settings.get(42)
    assert (s.preset, s.target, s.turn_timer, s.min_games, s.rate_bot_games) == (
        "short",
        300,
        60,
        5,
        True,
    )
    assert s.default_rules().preset == "short"
    assert s.default_rules().target == 300
    s = await store.settings.update(42, target=None)
    assert s.target is None
    assert s.default_rules().target == 250
    assert s.min_games == 5


async def test_allowed_channels_replace_the_list_and_threads_follow_their_channel(
    store: LeagueStore,
) -> None:
    s = await store.settings.update(42, allowed_channels=[100, 200])
    assert s.allowed_channels == {100, 200}
    assert s.allows_channel(100)
    assert not s.allows_channel(300)
    assert s.allows_channel(999, parent_id=200)
    s = await store.settings.update(42, allowed_channels=[])
    assert s.allowed_channels == frozenset()
    assert s.allows_channel(300)


@pytest.mark.parametrize(
    ("changes", "option", "message"),
    [
        ({"preset": "blitz"}, "preset", "Unknown preset 'blitz'"),
        ({"target": 50}, "target", "between 100 and 1000"),
        ({"target": "300"}, "target", "whole number"),
        ({"turn_timer": 5}, "turn_timer", "0 (off) or between 10 and 3600"),
        ({"turn_timer": -1}, "turn_timer", "0 (off)"),
        ({"min_games": -3}, "min_games", "between 0 and 1000"),
        ({"rate_bot_games": 1}, "rate_bot_games", "true or false"),
        ({"allowed_channels": [0]}, "allowed_channels", "not a channel id"),
        ({"allowed_channels": "123"}, "allowed_channels", "list of channel ids"),
        ({"allowed_channels": list(range(1, 60))}, "allowed_channels", "at most 50"),
        ({"current_season": 3}, "current_season", "Unknown setting"),
        ({"organiser_role": 0}, "organiser_role", "a role id"),
        ({"organiser_role": "123"}, "organiser_role", "a role id"),
    ],
)
async def test_bad_values_are_refused_with_a_message_and_change_nothing(
    store: LeagueStore, changes: dict[str, object], option: str, message: str
) -> None:
    await store.settings.update(42, min_games=2)
    with pytest.raises(SettingsError, match=re.escape(message)) as err:
        await store.settings.update(42, **{"turn_timer": 30, **changes})
    assert err.value.option == option
    assert err.value.reason == str(err.value)
    after = await store.settings.get(42)
    assert after.turn_timer == 0
    assert after.min_games == 2


async def test_target_is_checked_against_the_preset_rules(store: LeagueStore) -> None:
    await store.settings.update(42, preset="new-york", target=400)
    s = await store.settings.get(42)
    assert s.default_rules().bidding == "new_york"
    assert s.default_rules().target == 400


async def test_settings_of_one_server_do_not_touch_another(store: LeagueStore) -> None:
    await store.settings.update(1, preset="house", allowed_channels=[5])
    assert await store.settings.get(2) == GuildSettings(guild_id=2)


async def test_the_tournament_organiser_role_is_saved_read_back_and_cleared(
    store: LeagueStore,
) -> None:
    assert (await store.settings.get(42)).organiser_role is None
    s = await store.settings.update(42, organiser_role=987654321012345678)
    assert s.organiser_role == 987654321012345678
    assert await store.settings.get(42) == s
    assert (await store.settings.get(43)).organiser_role is None
    s = await store.settings.update(42, organiser_role=None)
    assert s.organiser_role is None
    assert (await store.settings.get(42)).organiser_role is None
