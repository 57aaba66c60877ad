"""Bids and plays the rules forbid or the bot cannot read: not following suit, leading a spade
before spades are broken, an unknown card, a bid out of range, blind nil when not trailing."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World
from tests.e2e.driver import has, table_message
from tests.e2e.flows import act_until
from tests.e2e.refusals.checks import (
    after_bids,
    bidding,
    cards_of,
    on_turn,
    play_labels,
    refused_changing_nothing,
    suit_of,
    trick_cards,
)
from tests.fakediscord import Message, Response

pytestmark = pytest.mark.asyncio(loop_scope="package")


async def test_not_following_the_suit_led_is_refused(world: World) -> None:
    driver = await after_bids(world)

    def can_revoke(r: Response | Message) -> bool:
        illegal = set(cards_of(r)) - set(play_labels(r))
        return bool(play_labels(r)) and bool(trick_cards(r)) and bool(illegal)

    r = await act_until(driver, can_revoke, max_steps=400)
    actor = next(p for p in driver.players if p.hand is r)
    led = suit_of(trick_cards(r)[0])
    assert all(suit_of(c) == led for c in play_labels(r)), "only the suit led is offered"
    off_suit = next(c for c in cards_of(r) if c not in play_labels(r))
    await refused_changing_nothing(
        driver, actor.user, "play", f"You must follow {led}", card=off_suit
    )


async def test_leading_a_spade_before_spades_are_broken_is_refused(world: World) -> None:
    driver = await after_bids(world)

    def can_lead_spade(r: Response | Message) -> bool:
        held = [c for c in cards_of(r) if suit_of(c) == "♠"]
        return (
            bool(play_labels(r))
            and not trick_cards(r)
            and bool(held)
            and not any(suit_of(c) == "♠" for c in play_labels(r))
        )

    r = await act_until(driver, can_lead_spade, max_steps=400)
    assert "spades broken" not in table_message(world.fake, world.channel).text
    actor = next(p for p in driver.players if p.hand is r)
    spade = next(c for c in cards_of(r) if suit_of(c) == "♠")
    await refused_changing_nothing(
        driver, actor.user, "play", "Spades are not broken yet", card=spade
    )


async def test_unknown_card_text_is_refused(world: World) -> None:
    driver = await after_bids(world)
    actor, _ = await on_turn(driver)
    await refused_changing_nothing(
        driver, actor.user, "play", "I don't know the card `xyz`", card="xyz"
    )


async def test_bid_out_of_range_is_refused(world: World) -> None:
    driver = await bidding(world)
    actor, _ = await on_turn(driver)
    await refused_changing_nothing(
        driver, actor.user, "bid", "`14` is not a bid", "1 to 13", bid="14"
    )


async def test_blind_nil_when_not_trailing_is_refused(world: World) -> None:
    driver = await bidding(world)
    actor, _ = await on_turn(driver)
    assert actor.hand is not None
    assert not has(actor.hand, "blind")
    await refused_changing_nothing(
        driver,
        actor.user,
        "bid",
        "Blind nil needs your team at least 100 points behind",
        bid="blind nil",
    )
