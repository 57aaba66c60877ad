"""rules.md §1: card codes and every accepted input form, display, the three decks, their trump
orders, and jokers / the 2♦ as spades for following, leading and breaking."""

from __future__ import annotations

import pytest

from bot.engine import (
    CARDS,
    DECKS,
    Card,
    CardParseError,
    Play,
    Seat,
    card,
    format_cards,
    parse_card,
)
from bot.engine.errors import MustFollowSuit, SpadesNotBroken
from tests.engine.builders import (
    RANKS,
    TRUMPS_LOW_TO_HIGH,
    deck_codes,
    effective_suit,
    finish_trick,
    game_in_play,
    play,
)

SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
NUMBER_WORDS = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
RANK_WORDS = dict(zip(RANKS, [*NUMBER_WORDS, "jack", "queen", "king", "ace"], strict=True))
ORDINARY = [r + s for s in "SHDC" for r in RANKS]


# ---------------------------------------------------------------- parsing
@pytest.mark.parametrize("code", [*ORDINARY, "BJ", "LJ"])
def test_record_code_parses_to_its_card(code: str) -> None:
    c = parse_card(code)
    assert c.code == code
    assert card(code) is c


@pytest.mark.parametrize("code", ORDINARY)
def test_lower_case_ten_symbol_and_word_forms_name_the_same_card(code: str) -> None:
    rank, suit = code[0], code[1]
    ten_rank = "10" if rank == "T" else rank
    forms = [
        code.lower(),
        ten_rank + suit,
        ten_rank + suit.lower(),
        ten_rank + SYMBOLS[suit],
        f"{RANK_WORDS[rank]} of {WORDS[suit]}",
        f"{RANK_WORDS[rank].upper()} OF {WORDS[suit].upper()}",
        f"  {code}  ",
    ]
    for form in forms:
        assert parse_card(form).code == code, form


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("10♥", "TH"),
        ("A♠", "AS"),
        ("a♠", "AS"),
        ("10 of hearts", "TH"),
        ("queen of hearts", "QH"),
        ("Ace of Spades", "AS"),
        ("t♦", "TD"),
        ("bj", "BJ"),
        ("LJ", "LJ"),
        ("big joker", "BJ"),
        ("Little Joker", "LJ"),
        ("Big🃏", "BJ"),
        ("Little🃏", "LJ"),
    ],
)
def test_documented_input_forms(text: str, code: str) -> None:
    assert parse_card(text).code == code


@pytest.mark.parametrize("c", CARDS, ids=lambda c: c.code)
def test_display_and_words_read_back_as_the_same_card(c: Card) -> None:
    assert parse_card(str(c)) is c
    assert parse_card(c.name) is c


@pytest.mark.parametrize(
    "text",
    ["", "   ", "A", "1S", "11H", "0C", "ZS", "AX", "ASS", "10♥♥", "joker", "ace of swords",
     "of spades", "queen", "1O H", "A S S", "🃏"],
)  # fmt: skip
def test_anything_else_is_refused_with_a_readable_reason(text: str) -> None:
    with pytest.raises(CardParseError) as info:
        parse_card(text)
    assert isinstance(info.value, ValueError)
    assert repr(text.strip()) in info.value.reason
    assert "try a code like AS or 10H" in info.value.reason


@pytest.mark.parametrize("text", ["as", "10S", "A♠", "ace of spades", "XX"])
def test_record_codes_are_exact(text: str) -> None:
    with pytest.raises(CardParseError):
        card(text)


# ---------------------------------------------------------------- display
def test_display_uses_suit_symbols_and_10() -> None:
    cards = [card("AS"), card("TH"), card("QD"), card("3C")]
    assert [str(c) for c in cards] == ["A♠", "10♥", "Q♦", "3♣"]
    assert format_cards(cards) == "A♠ 10♥ Q♦ 3♣"


def test_card_names_are_words() -> None:
    assert card("QH").name == "queen of hearts"
    assert card("TC").name == "10 of clubs"
    assert card("BJ").name == "big joker"
    assert card("LJ").name == "little joker"


# ---------------------------------------------------------------- decks and trump orders
@pytest.mark.parametrize("deck", ["standard", "jokers", "jjdd"])
def test_every_deck_has_52_cards(deck: str) -> None:
    codes = [c.code for c in DECKS[deck].cards]
    assert len(codes) == 52
    assert sorted(codes) == sorted(deck_codes(deck))


def test_joker_decks_replace_two_of_hearts_and_clubs_by_the_jokers() -> None:
    for deck in ("jokers", "jjdd"):
        codes = {c.code for c in DECKS[deck].cards}
        assert {"BJ", "LJ"} <= codes
        assert not {"2H", "2C"} & codes
        assert set(ORDINARY) - codes == {"2H", "2C"}


@pytest.mark.parametrize("deck", ["standard", "jokers", "jjdd"])
def test_trump_order_is_the_one_of_rules_md(deck: str) -> None:
    order = [c.code for c in DECKS[deck].trump_order()]
    assert order == list(reversed(TRUMPS_LOW_TO_HIGH[deck]))


def test_jjdd_trump_order_starts_big_joker_little_joker_two_of_diamonds_two_of_spades() -> None:
    order = [c.code for c in DECKS["jjdd"].trump_order()]
    assert order[:6] == ["BJ", "LJ", "2D", "2S", "AS", "KS"]
    assert order[-1] == "3S"
    assert len(order) == 16


def test_jokers_trump_order_puts_the_jokers_over_the_ace() -> None:
    order = [c.code for c in DECKS["jokers"].trump_order()]
    assert order[:4] == ["BJ", "LJ", "AS", "KS"]
    assert order[-1] == "2S"


@pytest.mark.parametrize("deck", ["standard", "jokers", "jjdd"])
def test_effective_suit_of_every_card(deck: str) -> None:
    d = DECKS[deck]
    for c in d.cards:
        assert d.suit_of(c) == effective_suit(c.code, deck), c.code
    if deck == "jjdd":
        assert d.suit_of(card("2D")) == "S"
    if deck == "jokers":
        assert d.suit_of(card("2D")) == "D"


# ---------------------------------------------------------------- jokers and 2♦ in play
def test_jjdd_two_of_diamonds_does_not_follow_diamonds() -> None:
    # E leads a diamond; S holds the 2♦ and no other diamond, so S may discard a heart.
    game = game_in_play("jjdd", {"E": ["5D"], "S": ["2D", "4H"]}, void={"S": "D"})
    play(game, "5D")
    legal = {a.card.code for a in game.legal_actions() if isinstance(a, Play)}
    assert "4H" in legal
    assert "2D" in legal
    play(game, "4H")  # a discard, no spade: not broken
    assert not game.spades_broken


def test_jjdd_two_of_diamonds_on_a_diamond_lead_trumps_and_breaks_spades() -> None:
    game = game_in_play("jjdd", {"E": ["5D"], "S": ["2D"], "W": ["AD"]}, void={"S": "D"})
    play(game, "5D", "2D")
    assert game.spades_broken
    play(game, "AD")
    finish_trick(game)
    assert game.completed_tricks[0].winner == Seat.S


@pytest.mark.parametrize(("preset", "code"), [("jjdd", "2D"), ("jjdd", "BJ"), ("joker", "LJ")])
def test_a_joker_or_the_jjdd_two_of_diamonds_must_follow_a_spade_lead(
    preset: str, code: str
) -> None:
    # E holds only spades (so may lead one); S's only spade is ``code``.
    deck = "jjdd" if preset == "jjdd" else "jokers"
    spades = [c for c in TRUMPS_LOW_TO_HIGH[deck] if c != code][-13:]
    game = game_in_play(preset, {"E": spades, "S": [code, "4H"]}, void={"S": "S"})
    play(game, spades[-1])
    legal = [a.card.code for a in game.legal_actions() if isinstance(a, Play)]
    assert legal == [code]
    with pytest.raises(MustFollowSuit) as info:
        game.apply(Play(Seat.S, card("4H")))
    assert info.value.reason == "You must follow ♠"
    assert info.value.suit == "S"


@pytest.mark.parametrize(("preset", "code"), [("jjdd", "2D"), ("jjdd", "LJ"), ("joker", "BJ")])
def test_a_joker_or_the_jjdd_two_of_diamonds_cannot_be_led_before_spades_are_broken(
    preset: str, code: str
) -> None:
    game = game_in_play(preset, {"E": [code, "5H"]})
    with pytest.raises(SpadesNotBroken) as info:
        game.apply(Play(Seat.E, card(code)))
    assert info.value.reason == "Spades are not broken yet"
    assert Play(Seat.E, card(code)) not in game.legal_actions()


def test_a_leader_with_only_spades_and_jokers_may_lead_a_joker() -> None:
    spades = [r + "S" for r in RANKS[:11]]  # 2♠..Q♠, and both jokers: 13 spades
    game = game_in_play("joker", {"E": [*spades, "LJ", "BJ"]})
    play(game, "LJ")
    assert game.spades_broken


def test_a_joker_played_on_a_suit_lead_breaks_spades_and_wins() -> None:
    game = game_in_play("joker", {"E": ["AH"], "S": ["BJ"]}, void={"S": "H"})
    play(game, "AH", "BJ")
    assert game.spades_broken
    finish_trick(game)
    assert game.completed_tricks[0].winner == Seat.S


@pytest.mark.parametrize(
    ("lead", "specials", "winner"),
    [
        ("AS", {"S": "2S", "W": "2D", "N": "LJ"}, Seat.N),  # LJ > 2♦ > 2♠ > A♠
        ("AS", {"S": "2S", "W": "2D"}, Seat.W),  # 2♦ > 2♠ > A♠
        ("AS", {"S": "2S"}, Seat.S),  # 2♠ > A♠
        ("BJ", {"S": "2S", "W": "2D", "N": "LJ"}, Seat.E),  # BJ > LJ
    ],
)
def test_jjdd_trick_is_won_by_the_highest_in_the_trump_order(
    lead: str, specials: dict[str, str], winner: Seat
) -> None:
    # S, W and N hold one spade each (the special named, else a low spade); East holds the
    # other 13 spades, so may lead one.  Everybody follows with their only spade.
    low = [c for c in TRUMPS_LOW_TO_HIGH["jjdd"] if c not in specials.values()]
    one = {s: specials.get(s) or low.pop(0) for s in "SWN"}
    game = game_in_play(
        "jjdd", {"E": low, **{s: [c] for s, c in one.items()}}, dict.fromkeys(one, "S")
    )
    play(game, lead, one["S"], one["W"], one["N"])
    assert game.completed_tricks[0].winner == winner
