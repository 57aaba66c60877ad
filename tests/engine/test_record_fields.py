"""What a record states of its game (records.md, ``bot/engine/record_fields.py``): every record
states its game, deck and seats, each hand its number and dealer, a duplicate round's table
its boards — for every preset, checked against the replay and the seed; a record stating
another game, deck, seat list, hand number or dealer is refused; an old record without them
still replays and verifies, and gets them back from its rules."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from bot.engine import Call, Game, Phase, RecordError, Rules, Seat, entry_of, preset_names
from bot.engine.dealer import draw_first_dealer
from bot.engine.errors import NotVerified
from bot.engine.record import export_record, replay
from bot.engine.record_fields import GAME_FIELDS, with_stated_fields
from bot.engine.shuffle import GameSeed
from bot.engine.verify import verify
from tests.engine.seeded import seeded_game as dealt_from_seed

Doc = dict[str, Any]


def seeded_game(preset: str, k: int, hands: int = 3) -> tuple[Game, GameSeed]:
    """A game of ``preset`` dealt from the seed ``k`` as the table service deals it, played at
    random until ``hands`` hands are finished (or the game is over)."""
    seed = GameSeed(bytes([k]) * 32)
    return dealt_from_seed(Rules.from_preset(preset), seed, hands, choices=k), seed


def without_stated_fields(doc: Doc) -> Doc:
    """``doc`` as the bot exported it before records stated their game."""
    old = {k: v for k, v in doc.items() if k not in GAME_FIELDS}
    old["hands"] = [
        {k: v for k, v in h.items() if k not in ("hand", "dealer")} for h in doc["hands"]
    ]
    return old


@pytest.mark.parametrize(
    ("preset", "game", "deck", "seats"),
    [
        ("standard", "spades", "standard", "NESW"),
        ("joker", "spades", "jokers", "NESW"),
        ("jjdd", "spades", "jjdd", "NESW"),
        ("new-york", "spades", "jjdd", "NESW"),
        ("solo", "spades", "standard", "NESW"),
        ("cutthroat-3", "spades", "standard", "NES"),
        ("whist", "whist", "standard", "NESW"),
        ("euchre", "euchre", "euchre24", "NESW"),
    ],
)
def test_a_record_states_what_its_preset_alone_used_to_say(
    preset: str, game: str, deck: str, seats: str
) -> None:
    doc = export_record(seeded_game(preset, 1)[0])
    assert list(doc)[:5] == ["format", "game", "deck", "seats", "rules"]
    assert (doc["game"], doc["deck"], "".join(doc["seats"])) == (game, deck, seats)
    assert "boards" not in doc


@pytest.mark.parametrize("preset", preset_names())
def test_every_record_states_its_game_and_each_hand_its_number_dealer_and_own_fields(
    preset: str,
) -> None:
    game, seed = seeded_game(preset, 7)
    doc = export_record(game, None, seed)
    rules = game.rules
    assert doc["game"] == rules.game
    assert doc["deck"] == rules.deck
    assert doc["seats"] == [s.name for s in rules.seats]
    seats = doc["seats"]
    dealer = seats.index(doc["first_dealer"])
    for n, hand in enumerate(doc["hands"], start=1):
        assert (hand["hand"], hand["dealer"]) == (n, seats[dealer]), (preset, n)
        assert list(hand)[:3] == ["hand", "dealer", "deal"]
        assert list(hand["deal"]) == seats
        dealer = (dealer + 1) % len(seats)
        own = entry_of(rules.game)
        if own.takes(Call):  # Euchre
            assert {"up_card", "calls"} <= hand.keys()
            ordered = any(c["call"] == "order" for c in hand["calls"])
            assert ("discard" in hand) == ordered, "the dealer discards when ordered up"
        elif rules.game == "whist":
            assert "trump_card" in hand
        else:
            assert "bids" in hand
    assert list(verify(doc))[-1].startswith("verified")


@pytest.mark.parametrize("preset", preset_names())
def test_an_old_record_still_replays_and_verifies_and_gets_its_fields_back(preset: str) -> None:
    game, seed = seeded_game(preset, 11)
    doc = export_record(game, None, seed)
    old = without_stated_fields(doc)
    assert "game" not in old
    assert all("hand" not in h for h in old["hands"])
    assert list(replay(old)) == list(replay(doc))
    assert list(verify(old))[-1] == list(verify(doc))[-1]
    restored = with_stated_fields(old)
    assert restored == doc
    assert list(restored) == list(doc)
    assert [list(h) for h in restored["hands"]] == [list(h) for h in doc["hands"]]
    assert "game" not in old, "the old record itself is left as it was"


def test_a_record_whose_rules_cannot_be_read_gets_nothing_filled_in() -> None:
    odd = {"format": "spades-record/1", "rules": {"preset": "no-such-preset"}, "hands": []}
    assert with_stated_fields(odd) == odd
    with pytest.raises(RecordError):
        list(replay(odd))


def thrown_in_euchre() -> tuple[Game, GameSeed]:
    """A Euchre game whose first hand everybody passes twice (thrown in), then one more hand."""
    seed = GameSeed(bytes([3]) * 32)
    rules = Rules.from_preset("euchre")
    _, first = draw_first_dealer(seed.secret, rules.seats)
    game = Game(rules, first)
    game.apply(game.seeded_deal(seed.secret))
    for _ in range(8):
        seat = game.to_act
        assert seat is not None
        game.apply(Call(seat, Call.PASS))
    assert game.phase is Phase.DEAL
    game.apply(game.seeded_deal(seed.secret))
    return game, seed


def test_a_thrown_in_euchre_hand_has_its_own_number_and_the_next_deal_the_next() -> None:
    game, seed = thrown_in_euchre()
    doc = export_record(game, None, seed)
    first, second = doc["hands"]
    assert (first["hand"], len(first["calls"]), first["plays"]) == (1, 8, [])
    assert "discard" not in first
    seats = doc["seats"]
    assert second["hand"] == 2
    assert second["dealer"] == seats[(seats.index(first["dealer"]) + 1) % 4]
    # hand 2 is dealt from the stream deal/2: the seed verifies it
    assert list(verify(doc))[-1].endswith("all 2 deals come from the seed")


def test_a_duplicate_boards_record_states_them_and_ends_after_them() -> None:
    game, seed = seeded_game("standard", 5, hands=2)
    doc = export_record(game, None, seed, boards=2)
    assert list(doc)[:5] == ["format", "game", "deck", "seats", "boards"]
    assert doc["boards"] == 2
    assert [h["hand"] for h in doc["hands"]] == [1, 2]
    assert list(verify(doc))[-1].startswith("verified")
    more = copy.deepcopy(doc)
    more["hands"].append(copy.deepcopy(more["hands"][-1]))
    with pytest.raises(RecordError) as error:
        list(replay(more))
    assert error.value.details["error"] == "hand after game over"
    assert error.value.details["hand"] == 3
    for wrong in (0, "2", True, -1):
        with pytest.raises(RecordError, match="boards must be a whole number"):
            list(replay({**doc, "boards": wrong}))


def stated(field: str, value: Any) -> Any:
    def change(doc: Doc) -> Doc:
        doc[field] = value
        return doc

    return change


def hand_stated(field: str, value: Any) -> Any:
    def change(doc: Doc) -> Doc:
        doc["hands"][1][field] = value
        return doc

    return change


@pytest.mark.parametrize(
    ("preset", "change", "reason", "where"),
    [
        ("standard", stated("game", "whist"), "the record states game 'whist'", {}),
        ("joker", stated("deck", "standard"), "states deck 'standard'", {}),
        ("cutthroat-3", stated("seats", ["N", "E", "S", "W"]), "states seats", {}),
        ("euchre", stated("deck", "euchre32"), "states deck 'euchre32'", {}),
        (
            "standard",
            hand_stated("hand", 3),
            "states hand 3, but its rules and play give 2",
            {"hand": 2},
        ),
        ("whist", hand_stated("dealer", "X"), "states dealer 'X'", {"hand": 2}),
    ],
)
def test_a_record_stating_another_game_or_hand_is_refused(
    preset: str, change: Any, reason: str, where: dict[str, int]
) -> None:
    game, seed = seeded_game(preset, 2)
    doc = change(export_record(game, None, seed))
    with pytest.raises(RecordError, match=reason) as error:
        list(replay(doc))
    assert error.value.details["error"] == "malformed record"
    assert {k: error.value.details[k] for k in where} == where
    with pytest.raises(NotVerified, match="cannot be replayed"):
        list(verify(doc))


def test_the_dealer_stated_is_the_one_the_seat_order_gives() -> None:
    game, _ = seeded_game("cutthroat-3", 4, hands=4)
    doc = export_record(game)
    dealers = [h["dealer"] for h in doc["hands"]]
    order = "NES"
    start = order.index(doc["first_dealer"])
    assert dealers == [order[(start + i) % 3] for i in range(len(dealers))]
    assert Seat.W.name not in dealers
