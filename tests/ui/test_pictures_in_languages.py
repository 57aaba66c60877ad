"""Pictures in the reader's language: a deal diagram drawn with the French catalog says
everything in French (seats, bids, tricks, the hand, the teams), and the rating chart's labels
come from the catalogs too."""

from __future__ import annotations

import json
from pathlib import Path

from bot.engine import Game, Seat
from bot.engine.record import Replayer
from bot.i18n import use
from bot.league.chart import chart_labels
from bot.ui.images.deal import diagram_of, render_deal

RECORDS = Path(__file__).resolve().parents[1] / "engine" / "records"
NAMES = {Seat.N: "alice", Seat.E: "Computer (hard)", Seat.S: "carol", Seat.W: "dave"}
ENGLISH = ("North", "South", "took", "bid ", "Hand ", "East–West", "North–South")


def replayed(name: str) -> Game:
    replayer = Replayer(json.loads((RECORDS / name).read_text(encoding="utf-8")))
    for _ in replayer.lines():
        pass
    return replayer.game


def drawn_words(language: str, record: str, hand: int) -> list[str]:
    game = replayed(record)
    with use(language):  # as the publisher draws it: in the server's language
        diagram = diagram_of(game.results[hand], game.rules, NAMES)
        return render_deal(diagram).texts


def test_a_deal_diagram_in_french() -> None:
    texts = drawn_words("fr", "standard.json", 2)
    joined = "\n".join(texts)
    assert "Donne 3" in texts, texts  # the hand's number, centred
    assert "Nord · alice" in texts, texts
    assert "Sud · carol" in texts, texts
    assert "Nord–Sud" in texts, texts
    assert "Est–Ouest" in texts, texts
    assert "a fait" in joined, joined
    assert "annonce" in joined, joined
    for word in ENGLISH:
        assert word not in joined, (word, joined)


def test_the_same_diagram_in_english_is_unchanged() -> None:
    texts = drawn_words("en", "standard.json", 2)
    assert "Hand 3" in texts
    assert "North · alice" in texts
    assert "North–South" in texts


def test_the_rating_chart_labels_come_from_the_catalogs() -> None:
    with use("de"):
        assert chart_labels() == ("Noch keine gewerteten Spiele", "gewertete Spiele", "Wertung")
    with use("en"):
        assert chart_labels() == ("No rated games yet", "rated games", "rating")
