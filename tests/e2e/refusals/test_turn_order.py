"""Acting out of turn: a play or bid by someone else, a play while bidding, a card
clicked on a second hand message once the turn moved on."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World
from tests.e2e.driver import has
from tests.e2e.flows import answer
from tests.e2e.refusals.checks import (
    after_bids,
    bidding,
    cards_of,
    next_seat,
    on_turn,
    play_labels,
    refused,
    refused_changing_nothing,
    seat_word,
    state,
    state_after_refusal,
)
from tests.fakediscord.handles import UPDATE_MESSAGE

pytestmark = pytest.mark.asyncio(loop_scope="package")


async def test_play_out_of_turn_is_refused(world: World) -> None:
    driver = await after_bids(world)
    actor, others = await on_turn(driver)
    other = others[0]
    assert other.hand is not None
    assert actor.hand is not None
    turn = f"It is {seat_word(actor.hand)}'s turn to play"
    await refused_changing_nothing(driver, other.user, "play", turn, card=cards_of(other.hand)[0])


async def test_bid_out_of_turn_is_refused(world: World) -> None:
    driver = await bidding(world)
    actor, others = await on_turn(driver)
    assert actor.hand is not None
    assert has(actor.hand, "bid")
    await refused_changing_nothing(
        driver, others[1].user, "bid", f"It is {seat_word(actor.hand)}'s turn to bid", bid="3"
    )


async def test_play_during_bidding_is_refused(world: World) -> None:
    driver = await bidding(world)
    actor, _ = await on_turn(driver)
    assert actor.hand is not None
    await refused_changing_nothing(
        driver, actor.user, "play", "Bidding is not over yet", card=cards_of(actor.hand)[0]
    )


async def test_card_click_out_of_turn_is_refused(world: World) -> None:
    driver = await after_bids(world)
    actor, _ = await on_turn(driver)
    # The player on turn has a second hand message open (``/hand`` again) with its card
    # buttons; they play from the first one, then click a card on the second.
    spare = await answer(world, actor.user, "hand")
    assert len(play_labels(spare)) >= 2
    assert actor.hand is not None
    played = await driver.act(actor, actor.hand)
    assert "You played" in played.text
    assert "Not your turn" in played.text
    after_play = next_seat(seat_word(played))
    before = await state(driver)
    card = next(c for c in spare.all_components if c.custom_id and ":play:" in c.custom_id)
    assert card.label in cards_of(played), "a card the player still holds"
    r = await (await world.fake.click(actor.user, spare, card.custom_id)).response()
    refused(r, "⚠", f"It is {after_play}'s turn to play")
    assert r.type == UPDATE_MESSAGE, "the second hand message is brought up to date"
    assert not play_labels(r), "no card buttons while it is not their turn"
    assert await state_after_refusal(driver) == before
