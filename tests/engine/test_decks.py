"""Decks and trump orders (rules.md §1, games.md G3 and G4): which cards each deck has, and how
they rank and which suit they belong to under each trump — the bowers above all."""

from __future__ import annotations

import pytest

from bot.engine import DECKS, card
from bot.engine.cards import SUITS

RANKS = "23456789TJQKA"
COLOUR_MATE = {"S": "C", "C": "S", "H": "D", "D": "H"}


@pytest.mark.parametrize(
    ("deck", "lowest"), [("euchre24", "9"), ("euchre28", "8"), ("euchre32", "7")]
)
def test_euchre_decks_hold_their_ranks_of_every_suit(deck: str, lowest: str) -> None:
    ranks = RANKS[RANKS.index(lowest) :]
    assert {c.code for c in DECKS[deck].cards} == {r + s for s in SUITS for r in ranks}
    assert DECKS[deck].size == 4 * len(ranks)


@pytest.mark.parametrize("deck", ["euchre24", "euchre28", "euchre32"])
def test_euchre_decks_have_no_trump_until_one_is_named(deck: str) -> None:
    d = DECKS[deck]
    assert d.trump is None
    assert d.trumps == 0
    assert d.right_bower is None
    assert d.left_bower is None
    for c in d.cards:
        assert d.suit_of(c) == c.suit


@pytest.mark.parametrize("deck", ["euchre24", "euchre28", "euchre32"])
@pytest.mark.parametrize("trump", SUITS)
def test_euchre_trump_order_is_right_bower_left_bower_then_ace_down(deck: str, trump: str) -> None:
    d = DECKS[deck].with_trump(trump)
    low = {"euchre24": "9", "euchre28": "8", "euchre32": "7"}[deck]
    plain = [r + trump for r in "AKQT987"[: "AKQT987".index(low) + 1]]
    expected = ["J" + trump, "J" + COLOUR_MATE[trump], *plain]
    assert [c.code for c in d.trump_order()] == expected
    assert d.right_bower == card("J" + trump)
    assert d.left_bower == card("J" + COLOUR_MATE[trump])


@pytest.mark.parametrize("trump", SUITS)
def test_the_left_bower_belongs_to_the_trump_suit_for_every_purpose(trump: str) -> None:
    d = DECKS["euchre24"].with_trump(trump)
    left = card("J" + COLOUR_MATE[trump])
    assert d.suit_of(left) == trump
    assert d.trumps >> left.index & 1
    own = SUITS.index(COLOUR_MATE[trump])
    assert not d.suit_masks[own] >> left.index & 1, "no longer of its printed suit"
    assert d.suit_masks[own].bit_count() == 5, "its printed suit has five cards left"
    assert d.trumps.bit_count() == 7
    # Every trump outranks every other card.
    lowest_trump = min(d.power[c.index] for c in d.trump_order())
    assert all(d.power[c.index] < lowest_trump for c in d.cards if not d.trumps >> c.index & 1)


def test_the_other_jacks_stay_in_their_suits_between_queen_and_ten() -> None:
    d = DECKS["euchre24"].with_trump("H")
    for code in ("JS", "JC"):
        jack = card(code)
        assert d.suit_of(jack) == jack.suit
        assert d.power[card("T" + code[1]).index] < d.power[jack.index]
        assert d.power[jack.index] < d.power[card("Q" + code[1]).index]


@pytest.mark.parametrize("trump", SUITS)
def test_whist_any_suit_can_be_trump_of_the_standard_deck(trump: str) -> None:
    d = DECKS["standard"].with_trump(trump)
    assert d.trump == trump
    assert [c.code for c in d.trump_order()] == [r + trump for r in reversed(RANKS)]
    for c in d.cards:
        assert d.suit_of(c) == c.suit


def test_the_spades_decks_play_with_spades_only() -> None:
    assert DECKS["standard"].trump == "S"
    assert DECKS["standard"].with_trump("S") is DECKS["standard"]
    with pytest.raises(ValueError, match="jokers"):
        DECKS["jokers"].with_trump("H")


def test_a_deck_without_a_card_keeps_it_out_under_any_trump() -> None:
    d = DECKS["standard"].without("2C")
    assert d.size == 51
    assert card("2C") not in d.cards
    hearts = d.with_trump("H")
    assert hearts.size == 51
    assert not hearts.suit_masks[3] >> card("2C").index & 1
    assert hearts.power[card("2C").index] == 0
