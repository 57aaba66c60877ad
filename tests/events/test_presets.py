"""Every preset a table can be opened with runs as a tournament (issue 25, Build 1): in each
format it allows, its settings are accepted, the tables' rules are the preset's, round 1 seats
every entry once at full tables and every seat is taken by one of its members.  Pure: no
Discord, no database (the e2e tests play standard, solo, Euchre and cutthroat-3 nights)."""

from __future__ import annotations

import pytest

from bot.engine import Rules, games
from bot.events.arrangement import seating, tournament_rules
from bot.events.pairing import rounds
from bot.events.pairing.model import (
    Entry,
    EventError,
    Format,
    Member,
    Tournament,
    TournamentSettings,
)

PRESETS = games.preset_names()
ALL_FORMATS: tuple[Format, ...] = ("swiss", "elimination", "duplicate")


def allowed(rules: Rules) -> list[Format]:
    """The formats a preset may be played in (docs/tournaments.md): solo presets as Swiss
    only; duplicate needs four-player partnerships."""
    if rules.solo:
        return ["swiss"]
    return list(ALL_FORMATS) if rules.players == 4 else ["swiss", "elimination"]


def settings_for(preset: str, format: Format) -> TournamentSettings:
    rules = Rules.from_preset(preset)
    return TournamentSettings(
        preset=preset,
        format=format,
        team_mode="solo" if rules.solo else "pairs",
        players=rules.players,
        solo=rules.solo,
    )


def a_tournament(s: TournamentSettings, entries: int) -> Tournament:
    t = Tournament(1, 7, 70, 1, "Every preset", "running", s, 0.0, secret="s" * 64)
    for i in range(1, entries + 1):
        members = tuple(Member(100 * i + k, f"p{i}.{k}") for k in range(s.team_size))
        t.entries[i] = Entry(i, members)
    return t


def test_there_are_presets_of_every_kind() -> None:
    kinds = {(Rules.from_preset(p).solo, Rules.from_preset(p).players) for p in PRESETS}
    assert {(False, 4), (True, 4), (True, 3)} <= kinds, kinds


@pytest.mark.parametrize("preset", PRESETS)
def test_every_preset_seats_round_one_in_every_format_it_allows(preset: str) -> None:
    rules = Rules.from_preset(preset)
    for format in allowed(rules):
        s = settings_for(preset, format)
        played = tournament_rules(s)
        assert (played.game, played.players, played.solo) == (
            rules.game,
            rules.players,
            rules.solo,
        )
        t = a_tournament(s, 4 * s.per_table)  # four full tables
        t.games = rounds.next_round(t)  # as the start pairs it (round 0 → 1)
        t.round = 1
        tables = [g for g in t.games if len(g.entries) > 1]
        assert len(tables) == 4, (preset, format, t.games)
        assert sorted(e for g in tables for e in g.entries) == sorted(t.entries)
        for g in tables:
            seats = seating(t, g)
            assert set(seats) == set(played.seats), (preset, format, seats)
            members = {m.user_id for e in g.entries for m in t.entries[e].members}
            assert {a.user_id for a in seats.values()} == members, (preset, format)


@pytest.mark.parametrize("preset", PRESETS)
def test_a_format_a_preset_cannot_be_played_in_is_refused_with_a_reason(preset: str) -> None:
    rules = Rules.from_preset(preset)
    for format in set(ALL_FORMATS) - set(allowed(rules)):
        with pytest.raises(EventError) as refused:
            settings_for(preset, format)
        assert refused.value.reason.endswith("."), refused.value.reason
