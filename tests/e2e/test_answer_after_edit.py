"""A click on a hand message while the bot's live edit of that message is still on its way.

Discord applies the two writes in the order they arrive: if the answer lands first, the edit —
rendered before the click — shows an older hand over it, with buttons that are gone.  The fake
holds the live edit on its way (tests/fakediscord/holds.py) while Alice presses Refresh; the
hand message must end showing what was written through her click, never the older edit."""

from __future__ import annotations

import asyncio
import json

import pytest

from tests.e2e.conftest import World
from tests.e2e.driver import button, eventually, has, live
from tests.e2e.flows import act_until, solo_game
from tests.e2e.refusals.checks import play_labels
from tests.fakediscord import BotProcess, FakeDiscord, Interaction, Message


def written_by(fake: FakeDiscord, message: Message, click: Interaction) -> bool:
    """Whether the message's last write came through ``click``: its answer, or an edit through
    its token."""
    if click.callback is not None and click.callback.state is message.state:
        return True
    return any(
        e.state is message.state and e.interaction is click for e in reversed(fake.webhook_edits)
    )


@pytest.mark.parametrize("lands", ["while the answer waits", "after the answer"])
async def test_an_answer_to_a_click_is_not_overwritten_by_an_older_live_edit(
    world: World, bot: BotProcess, lands: str
) -> None:
    fake = world.fake
    driver = await solo_game(world, preset="standard", target=500)
    alice = driver.players[0]
    r = await act_until(driver, lambda r: bool(play_labels(r)))  # her turn to play a card
    message = live(alice.hand)
    assert isinstance(message, Message)
    hold = fake.hold_webhook_edits(message.id)
    await driver.act(alice, r)  # answered on the message itself (a callback: never held)
    # The computers play on; the live edit that shows her her next turn is held on its way.
    while True:
        edit = await hold.wait_held(len(hold.held) + 1)
        if ":play:" in json.dumps(edit.body):
            break
        hold.let_through(edit)  # a completed trick, shown before her turn came
    assert not has(message, "play"), "the edit showing her turn has not landed"
    click = await fake.click(alice.user, message, button(message, "refresh").custom_id)
    if lands == "while the answer waits":  # or, on a busy machine, before or after it
        await asyncio.sleep(0.1)
        await hold.release()
        await click.answer()
    else:
        await click.answer()  # the bot waited for the edit in vain, and answered
        await hold.release()  # the older edit lands over the answer
    await eventually(lambda: written_by(fake, message, click))
    assert has(message, "play"), "her turn, with her cards to play"
    assert click.callback is not None
    assert "⚠" not in click.callback.text
