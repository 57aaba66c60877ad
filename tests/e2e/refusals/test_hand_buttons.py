"""Hand-message buttons used by someone else or left over from an earlier hand (Refresh
from an earlier hand is no refusal: it asks for the current hand)."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import World
from tests.e2e.driver import CARD_RE, button, has, plain
from tests.e2e.flows import act_until, answer, solo_game
from tests.e2e.refusals.checks import (
    after_bids,
    cards_of,
    on_turn,
    play_labels,
    refused,
    seat_word,
    state,
    state_after_refusal,
)
from tests.fakediscord.handles import CHANNEL_MESSAGE, UPDATE_MESSAGE

pytestmark = pytest.mark.asyncio(loop_scope="package")


async def test_another_players_hand_buttons_are_refused(world: World) -> None:
    driver = await after_bids(world)
    actor, others = await on_turn(driver)
    before = await state(driver)
    hand = actor.hand
    assert hand is not None
    cards = cards_of(hand)
    card = next(c for c in hand.all_components if c.custom_id and ":play:" in c.custom_id)
    intruder = others[0]
    seen = set(CARD_RE.findall(plain(world.fake.all_visible_text(intruder.user))))
    r = await (await world.fake.click(intruder.user, hand, card.custom_id, force=True)).response()
    refused(r, f"These buttons are {actor.user.name}'s ({seat_word(hand)})", "/hand")
    assert r.type == CHANNEL_MESSAGE, "a new private reply, the owner's message is untouched"
    assert not CARD_RE.search(r.text), "no card is revealed"
    assert not r.embeds
    assert not r.all_components
    now_seen = set(CARD_RE.findall(plain(world.fake.all_visible_text(intruder.user))))
    assert now_seen == seen, "the intruder can read no card they could not read before"
    assert cards_of(hand) == cards, "the owner's hand message is untouched"
    assert await state_after_refusal(driver) == before


async def test_a_button_from_an_earlier_hand_is_refused(world: World) -> None:
    fake = world.fake
    driver = await solo_game(world, preset="standard", target=500)
    alice = driver.players[0]
    await act_until(driver, lambda r: bool(play_labels(r)))
    # A second hand message, opened during hand 1 with its card buttons, left alone; and a third.
    old = await answer(world, alice.user, "hand")
    old_cards = play_labels(old)
    assert old_cards
    assert "Hand 1 ·" in old.text
    older = await answer(world, alice.user, "hand")
    # Play hand 1 out; stop when it is Alice's turn in hand 2 (the table then waits for her).
    r = await act_until(driver, lambda r: "Hand 2 ·" in r.text and driver.can_act(r))
    if has(r, "look"):  # her team trails by 100+: blind nil is offered first; she looks
        r = await (await fake.click(alice.user, r, button(r, "look").custom_id)).response()
        alice.hand = r
        if not has(r, "bid"):  # she looked before her turn to bid came (slow computers)
            r = await act_until(driver, lambda r: has(r, "bid"))
    assert has(r, "bid")
    await fake.wait_for_message(world.channel, lambda m: "Hand 1 — scores" in m.text)
    before = await state(driver)
    stale = next(c for c in old.all_components if c.custom_id and ":play:" in c.custom_id)
    reply = await (await fake.click(alice.user, old, stale.custom_id)).response()
    refused(reply, "earlier hand")
    assert reply.type == UPDATE_MESSAGE, "the old message is replaced by the current hand"
    assert "Hand 2 ·" in reply.text
    assert len(cards_of(reply)) == 13, "no card was played"
    assert not play_labels(reply), "bidding, not playing, in hand 2"
    assert await state_after_refusal(driver) == before
    # Refresh from hand 1 asks for the current hand: shown, and nothing refused.
    refresh = button(older, "refresh").custom_id
    shown = await (await fake.click(alice.user, older, refresh)).response()
    assert shown.type == UPDATE_MESSAGE
    assert "Hand 2 ·" in shown.text
    assert "earlier hand" not in shown.text, shown.text
    assert await state_after_refusal(driver) == before
