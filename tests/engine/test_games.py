"""The game registry: one entry per game, its name an enum stored as the same strings, and
each game's own part of a seat view."""

from __future__ import annotations

import json
import random

import pytest

from bot.engine import (
    SEATS,
    Bid,
    Call,
    Discard,
    Game,
    GameEntry,
    GameKind,
    Look,
    PassCards,
    Phase,
    Preset,
    Rules,
    RulesError,
    SpadesPart,
    TrumpPart,
    entries,
    entry_of,
    game_of_preset,
    preset_names,
    same_game,
    seat_view,
)
from bot.engine.games import register
from bot.engine.record import export_record


def test_the_games_are_registered_in_order_under_their_stored_names() -> None:
    assert [e.kind for e in entries()] == [GameKind.SPADES, GameKind.WHIST, GameKind.EUCHRE]
    assert [str(e.kind) for e in entries()] == ["spades", "whist", "euchre"]
    assert [e.title for e in entries()] == ["Spades", "Whist", "Euchre"]
    assert entry_of("euchre") is entry_of(GameKind.EUCHRE), "a database row's string will do"
    with pytest.raises(RulesError, match="There is no game 'hearts'"):
        entry_of("hearts")


@pytest.mark.parametrize("entry", entries(), ids=lambda e: str(e.kind))
def test_every_preset_makes_rules_of_its_game(entry: GameEntry) -> None:
    for p in entry.presets:
        rules = Rules.from_preset(p.name)
        assert rules.game is entry.kind
        assert rules.title == entry.title
        assert game_of_preset(p.name) is entry.kind
        assert rules.options() == {
            "game": entry.kind,
            **{n: getattr(rules, n) for n in entry.options},
        }
        assert set(p.options) <= set(entry.options), "a preset sets only its game's options"
    assert preset_names() == tuple(p.name for e in entries() for p in e.presets)


def test_a_game_read_from_a_record_is_its_enum_member_and_written_as_its_name() -> None:
    rules = Rules.from_record({"preset": "short-whist", "game": "whist"})
    assert rules.game is GameKind.WHIST
    assert json.loads(json.dumps(rules.options()))["game"] == "whist"
    assert export_record(Game(rules))["rules"] == {"preset": "short-whist"}
    with pytest.raises(RulesError, match="game is set by the preset: choose the preset euchre"):
        Rules.from_preset("standard", game="euchre")


def test_presets_of_one_game_and_of_two() -> None:
    assert same_game("whist", "short-whist")
    assert same_game("standard", "mirror")
    assert not same_game("standard", "whist")
    assert not same_game("standard", "no-such-preset")


def test_a_preset_belongs_to_one_game_only() -> None:
    taken = GameEntry(
        kind=GameKind.extra("imposter"),
        title="Imposter",
        presets=(Preset("standard", "Standard", "Not Spades"),),
        options=("target",),
    )
    with pytest.raises(ValueError, match="the preset 'standard' is spades's already"):
        register(taken)
    assert game_of_preset("standard") is GameKind.SPADES


def test_each_game_has_its_own_actions() -> None:
    spades, whist, euchre = (entry_of(k) for k in GameKind)
    assert [spades.takes(a) for a in (Bid, Look, PassCards, Call)] == [True, True, True, False]
    assert [euchre.takes(a) for a in (Call, Discard, Bid)] == [True, True, False]
    assert not whist.actions, "Whist: trick play only"


@pytest.mark.parametrize("preset", ["standard", "new-york", "solo", "whist", "euchre"])
def test_every_view_carries_its_games_part_and_only_that(preset: str) -> None:
    """Spades' views hold the bidding and no trump part; Whist's and Euchre's the trump part
    and no bidding — at every step of random hands, for every seat and the public."""
    rules = Rules.from_preset(preset)
    part = entry_of(rules.game).part
    game = Game(rules)
    rng = random.Random(preset)
    for _ in range(120):
        if game.phase is Phase.DEAL:
            game.deal(rng)
            continue
        for seat in (None, *game.seating.seats):
            view = seat_view(game, seat)
            assert type(view.part) is part
            assert (view.bidding is not None) is (part is SpadesPart)
            assert (view.trumps is not None) is (part is TrumpPart)
        game.apply(rng.choice(game.legal_actions()))


def test_a_reader_that_knows_the_game_gets_its_part_or_an_error() -> None:
    game = Game(Rules.from_preset("whist"))
    game.deal(random.Random(1))
    view = seat_view(game, SEATS[1])
    assert view.part_as(TrumpPart).trump_card == game.hand_so_far().trump_card
    with pytest.raises(TypeError, match="a Whist view has no SpadesPart"):
        view.part_as(SpadesPart)
