"""Play anywhere to the very end: a group-DM game whose every interaction token has expired (on
Discord's clock: nobody clicked for 16 minutes) when its last card is played.  The table message
cannot be edited any more (its token is refused), so the final table is posted again through
the last click's token — a follow-up that must carry no components, which discord.py's
``Webhook.send`` refuses to be told as ``view=None`` — and the game ends on screen."""

from __future__ import annotations

from tests.e2e.driver import TABLE_TITLES, Driver, Seated, eventually, has, live
from tests.e2e.test_anywhere import Group, group  # noqa: F401 - the group DM fixture
from tests.e2e.test_last_card import play_buttons, to_the_last_card
from tests.fakediscord import Message, run_bot


def tables(g: Group) -> list[Message]:
    """Every table message in the group DM, oldest first (a Whist table here)."""
    return [
        m
        for m in g.fake.messages(g.chat)
        if m.embeds and str(m.embeds[0].get("title", "")).startswith(TABLE_TITLES)
    ]


async def open_whist_table(g: Group) -> Driver:
    """Alice opens a Whist table to 1 point (one hand: 52 cards) in the group DM; Bob, Carol and
    Dave sit with its buttons; Alice starts.  Every card is a person's click."""
    fake = g.fake
    await (
        await fake.slash(g.users[0], g.chat, "spades", "new", preset="whist", target=1)
    ).response()
    await eventually(lambda: tables(g))
    for user, seat in zip(g.users[1:], ("E", "S", "W"), strict=True):
        table = tables(g)[-1]
        join = next(c for c in table.all_components if c.custom_id and c.custom_id.endswith(seat))
        answer = await (await fake.click(user, table, join.custom_id)).answer()
        assert "You sit" in answer.text, answer.text
    await eventually(lambda: has(tables(g)[-1], "start"))
    table = tables(g)[-1]
    start = next(c for c in table.all_components if c.custom_id and ":start" in c.custom_id)
    await (await fake.click(g.users[0], table, start.custom_id)).response()
    await eventually(lambda: "Hand 1" in tables(g)[-1].text)
    return Driver(fake, g.chat, [Seated(u) for u in g.users])


async def test_every_token_expired_before_the_last_card_and_the_game_ends_on_screen(
    group: Group,  # noqa: F811 - the fixture imported above
) -> None:
    g = group
    fake = g.fake
    async with run_bot(fake, env=g.env()) as proc:
        driver = await open_whist_table(g)
        player, hand = await to_the_last_card(driver)
        [last] = play_buttons(hand)
        before = tables(g)[-1]
        assert has(before, "hand")
        refused = fake.expired_token_refusals
        fake.clock.advance(16 * 60)  # every token so far has expired: the table's, each hand's
        click = await fake.click(player.user, live(hand) or hand, last)
        answer = await click.answer()
        assert "The game is over." in answer.text, answer.text

        # The final table is shown: posted again through the last click's token, without a
        # button (its old message cannot be changed any more: Discord refuses its token).
        await eventually(lambda: "🏆" in tables(g)[-1].text, timeout=30)
        final = tables(g)[-1]
        assert final.id != before.id
        assert final.interaction_id == click.id
        assert not final.all_components, "a finished table keeps no buttons"
        assert fake.expired_token_refusals > refused, "the bot tried the expired tokens first"
        await fake.wait_for_message(g.chat, lambda m: "Game over" in m.text)
        # The old message's "My hand" is not live: it only says the table has ended.
        old_hand = next(c for c in before.all_components if c.custom_id and ":hand" in c.custom_id)
        pressed = await (await fake.click(g.users[1], before, old_hand.custom_id)).answer()
        assert pressed.ephemeral
        assert "That table has ended." in pressed.text, pressed.text
        assert [m for m in tables(g) if m.id != before.id and m.all_components] == []
        assert "Traceback" not in proc.output, proc.tail()
    assert fake.missing_access == []
    assert fake.unknown_webhook_messages == [], "an edit through a token that does not own it"
