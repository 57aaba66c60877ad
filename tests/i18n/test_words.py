"""The card table's words in each language: card names that read back as the same card,
bids and cards typed in Spanish and German, the engine's refusals translated at the edge,
numbers and dates in each language's format."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.engine import CARDS, CardParseError, Seat, card
from bot.engine.lines import Line
from bot.i18n import LANGUAGES, date_time, number, signed, use
from bot.i18n.cards import (
    bid_word,
    bid_words,
    card_name,
    cards_matching,
    fold,
    parse_card,
    seat_of_word,
    spellings,
    typed_matches,
)
from bot.i18n.lines import line_text


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_card_name_reads_back_as_that_card(language: str) -> None:
    with use(language):
        for c in CARDS:
            assert parse_card(card_name(c)) == c, (language, card_name(c))


@pytest.mark.parametrize(
    ("language", "typed", "code"),
    [
        ("es", "as de picas", "AS"),
        ("es", "Reina de Corazones", "QH"),
        ("es", "10 de tréboles", "TC"),
        ("es", "jota de diamantes", "JD"),
        ("es", "trebol 7", "7C"),
        ("es", "comodín grande", "BJ"),
        ("de", "Pik Ass", "AS"),
        ("de", "Herz-Dame", "QH"),
        ("de", "Kreuz Bube", "JC"),
        ("de", "karo 10", "TD"),
        ("de", "Großer Joker", "BJ"),
        ("fr", "dame de cœur", "QH"),
        ("fr", "valet de trefle", "JC"),
        ("pt_BR", "ás de espadas", "AS"),
        ("pt_BR", "valete de paus", "JC"),
        # French hearts without the ligature (most keyboards), singular or plural
        ("fr", "9 de coeur", "9H"),
        ("fr", "9 de coeurs", "9H"),
        ("fr", "9 de cœurs", "9H"),
        ("fr", "ROI DE CŒUR", "KH"),
        ("fr", "dix de coeur", None),  # numbers are typed as digits
        # German umlauts with or without their dots, or as e; the other suit names
        ("de", "Herz König", "KH"),
        ("de", "Herz Koenig", "KH"),
        ("de", "herz konig", "KH"),
        ("de", "Treff Ass", "AC"),
        ("de", "Schüppe Dame", "QS"),
        ("de", "Schueppe 7", "7S"),
        ("de", "grosser joker", "BJ"),
        # Spanish and Portuguese accents, typed or not
        ("es", "as de corazon", "AH"),
        ("es", "as de corazón", "AH"),
        ("es", "reina de treboles", "QC"),
        ("es", "comodin pequeño", "LJ"),
        ("pt_BR", "as de copas", "AH"),
        ("pt_BR", "Ás de Ouros", "AD"),
        ("de", "AS", "AS"),  # the English forms work in every language
        ("es", "queen of hearts", "QH"),
    ],
)
def test_cards_typed_in_the_players_words(language: str, typed: str, code: str | None) -> None:
    with use(language):
        if code is None:
            with pytest.raises(CardParseError):
                parse_card(typed)
        else:
            assert parse_card(typed) == card(code)


def test_seats_typed_with_or_without_umlauts() -> None:
    assert seat_of_word("Süd") == seat_of_word("sued") == seat_of_word("Sud") == Seat.S
    assert seat_of_word("Oeste") == Seat.W


def test_ligatures_fold_to_their_letters_and_umlauts_have_two_spellings() -> None:
    assert fold("Cœur") == fold("coeur") == "coeur"
    assert fold("ex æquo") == "ex aequo"
    assert fold("Großer") == "grosser"
    assert spellings("König") == {"konig", "koenig"}
    assert spellings("trèfle") == {"trefle"}


def test_a_card_no_language_knows_is_refused() -> None:
    with use("es"), pytest.raises(CardParseError):
        parse_card("as de copas de oro")


def matches(code: str, typed: str) -> bool:
    return cards_matching([card(code)], typed) == [card(code)]


def test_autocomplete_matches_what_a_player_types_in_their_words() -> None:
    with use("es"):
        assert matches("AS", "picas")
        assert matches("AS", "as de p")
        assert not matches("AH", "picas")
        assert matches("AH", "as de corazon")
    with use("de"):
        assert matches("QH", "herz d")
        assert not matches("QH", "pik")
        assert matches("KH", "Herz Koe")
        assert matches("KH", "herz kon")
    with use("fr"):
        assert matches("9H", "9 de coeur")
        assert matches("9H", "9 de coe")
        assert matches("9H", "9 de cœurs")  # the whole card, as /play reads it
        assert not matches("9D", "9 de coeur")
    hand = [card(c) for c in ("9H", "9D", "KH", "2C")]
    with use("fr"):
        assert cards_matching(hand, "coeur") == [card("9H"), card("KH")]
        assert cards_matching(hand, "") == hand


def test_bid_autocomplete_matches_however_the_accents_are_typed() -> None:
    assert typed_matches("a l aveugle", "nul à l'aveugle")
    assert typed_matches("AS CEGAS", "nulo às cegas")
    assert not typed_matches("cegas", "nulo a ciegas")


@pytest.mark.parametrize(
    ("typed", "english"),
    [
        ("nulo", "nil"),
        ("Nulo a ciegas", "blind nil"),
        ("6 a ciegas", "blind 6"),
        ("Null", "nil"),
        ("Blind-Null", "blind nil"),
        ("blind 5", "blind 5"),
        ("nul à l'aveugle", "blind nil"),
        ("nul a l'aveugle", "blind nil"),
        ("NULO AS CEGAS", "blind nil"),
        ("blind null", "blind nil"),
        ("nulo às cegas", "blind nil"),
        ("ver mis cartas", "look"),
        ("4", "4"),
    ],
)
def test_bids_typed_in_any_shipped_language_read_as_the_english_bid(
    typed: str, english: str
) -> None:
    assert bid_words(typed) == english


def test_bid_words_in_each_language() -> None:
    said = {}
    for language in LANGUAGES:
        with use(language):
            said[language] = (bid_word(0), bid_word(-1), bid_word(6, blind=True))
    assert said["es"] == ("nulo", "nulo a ciegas", "6 a ciegas")
    assert said["de"] == ("Null", "Blind-Null", "blind 6")
    assert said["en"] == ("nil", "blind nil", "blind 6")


BIDDING_OVER = Line("Bidding is over")  # a phase refusal, as the engine gives it


@pytest.mark.parametrize(
    ("language", "line", "reason", "expected"),
    [
        ("es", Line("It is {seat}'s turn to play", seat=Seat.N), "It is North's turn to play",
         "Le toca jugar a Norte"),
        ("de", Line("It is {seat}'s turn to bid", seat=Seat.W), "It is West's turn to bid",
         "West ist mit Ansagen dran"),
        ("fr", Line("You don't hold {card}", card=str(card("QH"))), "You don't hold Q♥",
         "Vous n'avez pas Q♥"),
        ("pt_BR", Line("You must follow {suit}", suit="♥"), "You must follow ♥",
         "Você deve seguir ♥"),
        ("es", Line("A bid is 1 to {n} tricks, or nil", n=13), "A bid is 1 to 13 tricks, or nil",
         "Una apuesta es de 1 a 13 bazas, o nulo"),
        (
            "de",
            Line("{phase}: claims are made while the cards are played", phase=BIDDING_OVER),
            "Bidding is over: claims are made while the cards are played",
            "Das Ansagen ist vorbei: reklamiert wird, während die Karten gespielt werden",
        ),
        ("es", Line("Something the templates do not know"), "Something the templates do not know",
         "Something the templates do not know"),
        ("en", Line("It is {seat}'s turn to play", seat=Seat.N), "It is North's turn to play",
         "It is North's turn to play"),
    ],
)  # fmt: skip
def test_engine_refusals_are_translated_at_the_edge(
    language: str, line: Line, reason: str, expected: str
) -> None:
    assert line == reason  # the engine's English, as a str
    with use(language):
        assert line_text(line) == expected


def test_numbers_and_dates_in_each_languages_format() -> None:
    when = datetime(2026, 3, 14, 15, 9, tzinfo=UTC)
    out = {}
    for language in LANGUAGES:
        with use(language):
            out[language] = (number(-1250), signed(70), date_time(when, "short"))
    assert out["en"][:2] == ("−1,250", "+70")
    assert out["de"][0] == "−1.250"
    assert out["fr"][0] == "−1\u202f250"
    assert out["es"][0] == "−1250" or out["es"][0] == "−1.250"
    assert out["de"][2].startswith("14.03.26")
    assert out["en"][2].startswith("3/14/26")


def test_public_messages_follow_the_server_or_outside_servers_the_chat() -> None:
    from bot.i18n.servers import ServerLanguages

    languages = ServerLanguages()
    assert languages.of(1) == "en", "a server nothing is known of: English"
    languages.seen(1, "es-ES")  # an interaction from the server carried its preferred locale
    assert languages.of(1) == "es"
    languages.choose(1, "fr")  # /spades-admin language
    assert languages.of(1) == "fr"
    assert languages.of_chat(1, 99) == "fr"
    languages.choose(1, None)
    assert languages.of(1) == "es"
    languages.seen_in_chat(77, "de")  # a group DM: no server, the chat's last member
    assert languages.of_chat(0, 77) == "de"
    assert languages.of_chat(0, 78) == "en"
    assert languages.of(None, "pt-BR") == "pt_BR"


def test_a_hint_reads_in_the_players_language_after_the_worker_process() -> None:
    """A hint's reason is worked out in an AI worker process (English there) and read in the
    language of the player who pressed **Hint**: it crosses the process as a pickled Text."""
    import pickle

    from bot.ai.hints import Hint
    from bot.engine import Bid, Play, Seat
    from bot.i18n import later
    from bot.ui.hand.hint_text import hint_line

    reason = later("your hand should take about {n} tricks", n=4)
    hint = pickle.loads(pickle.dumps(Hint(Bid(Seat.N, 4), reason, Play(Seat.N, card("KH")))))
    assert hint.reason == "your hand should take about 4 tricks"  # the English, as a str
    with use("es"):
        line = hint_line(hint, 2)
    assert line.startswith("💡 Pista del jugador difícil: apuesta **4** — ")
    assert "tu mano debería ganar unas 4 bazas." in line
    assert "Segunda opción: juega K" in line
    assert line.endswith("(2 pistas usadas en esta partida.)")
    with use("de"):
        assert "(1 Tipp in diesem Spiel genutzt.)" in hint_line(hint, 1)
