"""Deal diagrams: the picture of a hand shows exactly its deal, bids, tricks and points; and
one fixed deal looks as it did when the golden image was made (within a tolerance).

Regenerate the golden image after a deliberate change of the drawing with
``UPDATE_GOLDEN=1 python -m pytest tests/ui/images/test_deal_diagram.py`` and look at it."""

from __future__ import annotations

import io
import itertools
import json
import os
import random
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.engine import SEATS, Game, Rules, Seat, bid_text
from bot.engine.record import Replayer
from bot.ui.images.cards import PIPS
from bot.ui.images.deal import HEIGHT, WIDTH, diagram_of, render_deal

RECORDS = Path(__file__).resolve().parents[2] / "engine" / "records"
GOLDEN = Path(__file__).resolve().parent / "golden" / "deal-standard-hand-3.png"
NAMES = {Seat.N: "alice", Seat.E: "Computer (hard)", Seat.S: "carol", Seat.W: "dave"}


def replayed(name: str) -> Game:
    replayer = Replayer(json.loads((RECORDS / name).read_text(encoding="utf-8")))
    for _ in replayer.lines():
        pass
    return replayer.game


@pytest.mark.parametrize("record", sorted(p.name for p in RECORDS.glob("*.json")))
def test_the_picture_shows_exactly_the_deal_of_every_recorded_hand(record: str) -> None:
    game = replayed(record)
    assert game.results
    doc = json.loads((RECORDS / record).read_text(encoding="utf-8"))
    for result, hand_doc in zip(game.results, doc["hands"], strict=False):
        diagram = diagram_of(result, game.rules, NAMES)
        drawn = render_deal(diagram).drawn
        for s in SEATS:
            dealt = hand_doc["deal"][s.name]
            assert sorted(drawn[s]) == sorted(dealt), (record, result.number, s)
            assert len(drawn[s]) == len(set(drawn[s])), "no card drawn twice"
            hand = diagram.hands[s]
            assert sorted(c.code for c in hand.cards) == sorted(dealt)
            assert hand.tricks == result.tricks[s]
            assert hand.name == NAMES[s]
        if not game.rules.new_york:
            for b in result.bids:
                assert diagram.hands[b.seat].bid == bid_text(b.value, b.blind)
        for t, team in enumerate(diagram.teams):
            assert team.points == result.teams[t].points
            assert team.score == result.teams[t].score
            a, b = (Seat(t), Seat(t + 2))
            assert team.tricks == result.tricks[a] + result.tricks[b]
        assert diagram.dealer == result.dealer


def test_each_suit_line_runs_from_the_highest_card_down() -> None:
    game = replayed("joker.json")
    deck_power = game.deck.power
    for result in game.results:
        for hand in diagram_of(result, game.rules, NAMES).hands:
            assert [line.suit for line in hand.lines] == ["S", "H", "C", "D"]
            for line in hand.lines:
                powers = [deck_power[c.index] for c in line.cards]
                assert powers == sorted(powers, reverse=True)


def test_a_fixed_deal_matches_the_golden_image() -> None:
    game = replayed("standard.json")
    png = render_deal(diagram_of(game.results[2], game.rules, NAMES)).png
    if os.environ.get("UPDATE_GOLDEN") == "1":
        GOLDEN.write_bytes(png)
    now = Image.open(io.BytesIO(png)).convert("RGB")
    golden = Image.open(GOLDEN).convert("RGB")
    assert now.size == golden.size == (WIDTH, HEIGHT)
    diff = ImageChops.difference(now, golden).convert("L")
    # Font rasterising may move a few anti-aliased edge pixels between Pillow and FreeType
    # versions; a changed card, bid or score changes far more than this.
    assert ImageStat.Stat(diff).mean[0] < 1.5
    changed = sum(diff.point(lambda v: 255 if v > 64 else 0).histogram()[255:])
    assert changed < 0.01 * WIDTH * HEIGHT, f"{changed} pixels differ"


def test_the_golden_image_tolerance_catches_a_different_card() -> None:
    game = replayed("standard.json")
    result = game.results[2]
    swapped = list(result.deal)
    north, east = list(swapped[0]), list(swapped[1])
    north[0], east[0] = east[0], north[0]
    swapped[0], swapped[1] = tuple(north), tuple(east)
    other = result._replace(deal=tuple(swapped))
    png = render_deal(diagram_of(other, game.rules, NAMES)).png
    now = Image.open(io.BytesIO(png)).convert("RGB")
    golden = Image.open(GOLDEN).convert("RGB")
    diff = ImageChops.difference(now, golden).convert("L")
    changed = sum(diff.point(lambda v: 255 if v > 64 else 0).histogram()[255:])
    assert changed > 200, "swapping one card between two hands shows"


@pytest.mark.parametrize("record", ["whist.json", "euchre.json", "euchre-stick.json"])
def test_trump_games_put_trumps_first_with_the_bowers_and_show_the_trump(record: str) -> None:
    game = replayed(record)
    for result in game.results:
        diagram = diagram_of(result, game.rules, NAMES)
        assert all(team.bags is None for team in diagram.teams), "no bags outside Spades"
        assert diagram.trump is not None
        if result.void:
            assert diagram.trump.startswith("all passed")
            continue
        assert result.trump is not None
        deck = game.deck.with_trump(result.trump)
        assert f"trump {PIPS[result.trump]}" in diagram.trump
        for hand in diagram.hands:
            assert hand.lines[0].suit == result.trump, "trumps first"
            trumps = {c.code for c in hand.cards if deck.trumps >> c.index & 1}
            assert {c.code for c in hand.lines[0].cards} == trumps, "the bowers are trumps"
            colours = [line.suit in "HD" for line in hand.lines]
            assert all(a != b for a, b in itertools.pairwise(colours)), "colours alternate"
        if result.trump_card is not None:
            assert f"turned {result.trump_card}" in diagram.trump
        if result.up_card is not None:
            assert f"up-card {result.up_card}" in diagram.trump


def test_euchre_panels_name_the_maker_who_sat_out_and_the_discard() -> None:
    game = replayed("euchre-stick.json")
    for result in game.results:
        if result.maker is None:
            continue
        notes = {h.seat: h.note for h in diagram_of(result, game.rules, NAMES).hands}
        assert notes[result.maker].startswith("maker, alone" if result.alone else "maker")
        if result.alone:
            assert notes[result.maker.partner] == "sat out"
        if result.discard is not None:
            assert notes[result.dealer].endswith(f"discarded {result.discard}")
    assert any(r.alone for r in game.results), "the record has a lone hand"


@pytest.mark.parametrize(("preset", "seats"), [("cutthroat-3", 3), ("solo", 4)])
def test_a_solo_hand_shows_its_players_and_a_line_each(preset: str, seats: int) -> None:
    """games.md G2: three players have no West panel; every player has a line in the middle."""
    game = Game(Rules.from_preset(preset), Seat.N)
    rng = random.Random(4)
    game.deal(rng)
    while not game.results:
        game.apply(rng.choice(game.legal_actions()))
    result = game.results[0]
    diagram = diagram_of(result, game.rules, NAMES)
    assert [h.seat for h in diagram.hands] == list(SEATS[:seats])
    drawn = render_deal(diagram).drawn
    for s in SEATS[:seats]:
        assert sorted(drawn[s]) == sorted(c.code for c in result.deal[s])
    assert [t.name for t in diagram.teams] == [s.word for s in SEATS[:seats]]
    for s, line in zip(SEATS, diagram.teams, strict=False):
        assert line.points == result.teams[s].points
        assert line.tricks == result.tricks[s]
