"""Card faces through the real bot: uploaded as application emojis at start-up (once, also
across restarts), shown on the hand's card buttons and in the table message's trick, and text
when Discord has no face for a card."""

from __future__ import annotations

import re

from bot.engine import DECKS
from tests.e2e.conftest import World
from tests.e2e.driver import Driver, Seated, eventually, has, table_message
from tests.e2e.flows import act_until, four_player_game, quick_game, quiet_table
from tests.fakediscord import Component, Message, Response, User, run_bot

FACES = 108  # 54 cards, two colour schemes
EMOJI = re.compile(r"<:(c4?_[2-9TJQKA][SHDC]|c4?_[BL]J):(\d+)>")


def trick_field(message: Message) -> str:
    fields = message.embeds[0].get("fields", [])
    # No trick field yet while a table message from before the play (Euchre's calls) shows.
    return next((f["value"] for f in fields if f["name"] in ("Trick", "Last trick")), "")


async def play_and_see_its_face(
    world: World, user: User, hand: Message | Response, button: Component, ids: dict[int, str]
) -> None:
    """Play ``button``'s card and wait until its own face shows in the table message's trick."""
    fake = world.fake
    assert button.custom_id
    code = button.custom_id.rsplit(":", 1)[1]
    r = await (await fake.click(user, hand, button.custom_id)).response()
    assert "You played" in r.text

    def face_in_trick() -> bool:
        return any(
            name == f"c_{code}" and ids[int(i)] == name
            for name, i in EMOJI.findall(trick_field(table_message(fake, world.channel)))
        )

    await eventually(face_in_trick)


async def on_turn_to_play(driver: Driver) -> tuple[Seated, Message | Response]:
    for _ in range(200):
        for p in driver.players:
            r = await driver.refresh(p)
            if has(r, "play"):
                return p, r
            if driver.can_act(r):
                await driver.act(p, r)
                break
    raise AssertionError("nobody came to play a card")


async def test_faces_are_uploaded_once_and_shown_on_buttons_and_in_the_trick(
    world: World,
) -> None:
    fake = world.fake
    async with run_bot(fake, env=world.env()) as proc:
        await proc.wait_for_line("card emojis:")
        assert fake.app_emojis.creates == FACES
        ids = {e.id: e.name for e in fake.app_emojis.by_id.values()}
        driver = await four_player_game(world, preset="standard", target=100)
        player, hand = await on_turn_to_play(driver)
        plays = [c for c in hand.all_components if c.custom_id and ":play:" in c.custom_id]
        assert plays
        for b in plays:
            code = b.custom_id.rsplit(":", 1)[1]  # type: ignore[union-attr]
            assert b.raw.get("emoji"), f"the {code} button has no face"
            assert ids[int(b.raw["emoji"]["id"])] == f"c_{code}", "the face is the card's own"
            assert b.label, "the label stays, for screen readers"
        await play_and_see_its_face(world, player.user, hand, plays[0], ids)
    async with run_bot(fake, env=world.env(), wait_for="commands") as again:
        line = await again.wait_for_line("card emojis:")
        assert f"{FACES} kept, 0 uploaded" in line
        assert fake.app_emojis.creates == FACES, "a restart uploads nothing"
        assert fake.app_emojis.lists == 2, "one look at the application's emojis per start"


async def test_a_restart_keeps_the_faces_on_the_table_message(world: World) -> None:
    """The restarted bot brings each restored table message up to date at once: it must look
    exactly as before the restart, card faces included (not ``8♦`` until the next move)."""
    fake, ch = world.fake, world.channel
    async with run_bot(fake, env=world.env()) as proc:
        await proc.wait_for_line("card emojis:")
        ids = {e.id: e.name for e in fake.app_emojis.by_id.values()}
        driver = await four_player_game(world, preset="standard", target=100)
        player, hand = await on_turn_to_play(driver)
        plays = [c for c in hand.all_components if c.custom_id and ":play:" in c.custom_id]
        await play_and_see_its_face(world, player.user, hand, plays[0], ids)
        before = await quiet_table(fake, ch)
        embeds, components = before.embeds, [c.raw for c in before.all_components]
        edits = before.edits
        proc.kill9()
        await proc.wait()
    async with run_bot(fake, env=world.env(), wait_for="commands"):
        await eventually(lambda: table_message(fake, ch).edits > edits)
        after = table_message(fake, ch)
        assert after.id == before.id
        assert EMOJI.search(trick_field(after)), trick_field(after)
        assert after.embeds == embeds
        assert [c.raw for c in after.all_components] == components


async def test_without_faces_cards_are_shown_as_text(world: World) -> None:
    fake, ch = world.fake, world.channel
    fake.app_emojis.limit = 0  # Discord refuses every upload
    async with run_bot(fake, env=world.env()) as proc:
        await proc.wait_for_line("card emojis:")
        assert len(fake.app_emojis) == 0
        driver = await four_player_game(world, preset="standard", target=100)
        player, hand = await on_turn_to_play(driver)
        plays = [c for c in hand.all_components if c.custom_id and ":play:" in c.custom_id]
        assert plays
        assert all(not b.raw.get("emoji") and b.label for b in plays)
        chosen = plays[0]
        r = await (await fake.click(player.user, hand, chosen.custom_id)).response()
        assert "You played" in r.text
        await eventually(lambda: chosen.label in trick_field(table_message(fake, ch)))
        assert not EMOJI.search(trick_field(table_message(fake, ch)))


async def test_a_server_can_choose_the_four_colour_deck(world: World) -> None:
    fake = world.fake
    admin = fake.add_user("admin")
    world.guild.add_member(admin, manage_guild=True)
    async with run_bot(fake, env=world.env()) as proc:
        await proc.wait_for_line("card emojis:")
        ids = {e.id: e.name for e in fake.app_emojis.by_id.values()}
        r = await (
            await fake.slash(admin, world.channel, "spades-admin", "cards", colours="four")
        ).response()
        assert r.ephemeral
        assert "four colours" in r.text
        driver = await four_player_game(world, preset="standard", target=100)
        _, hand = await on_turn_to_play(driver)
        plays = [c for c in hand.all_components if c.custom_id and ":play:" in c.custom_id]
        assert plays
        for b in plays:
            code = b.custom_id.rsplit(":", 1)[1]  # type: ignore[union-attr]
            assert ids[int(b.raw["emoji"]["id"])] == f"c4_{code}"
    async with run_bot(fake, env=world.env(), wait_for="commands") as again:
        await again.wait_for_line("card emojis:")
        _, hand = await on_turn_to_play(driver)
        faces = [c.raw["emoji"] for c in hand.all_components if ":play:" in (c.custom_id or "")]
        assert faces
        assert all(f["name"].startswith("c4_") for f in faces), "the choice outlives a restart"


async def test_euchre_cards_have_faces_and_each_hand_its_picture(world: World) -> None:
    """The 24-card Euchre deck: every card a face of its own on the hand's buttons and in the
    trick, and the hand summary carries the picture of the deal."""
    fake, ch = world.fake, world.channel
    euchre = {c.code for c in DECKS["euchre24"].cards}
    async with run_bot(fake, env=world.env()) as proc:
        await proc.wait_for_line("card emojis:")
        ids = {e.id: e.name for e in fake.app_emojis.by_id.values()}
        driver = await quick_game(world, humans=1, preset="euchre", target=10)
        hand = await act_until(driver, lambda h: has(h, "play"))
        plays = [c for c in hand.all_components if c.custom_id and ":play:" in c.custom_id]
        assert plays
        for b in plays:
            code = b.custom_id.rsplit(":", 1)[1]  # type: ignore[union-attr]
            assert code in euchre
            assert ids[int(b.raw["emoji"]["id"])] == f"c_{code}", "the face is the card's own"
        await play_and_see_its_face(world, driver.players[0].user, hand, plays[0], ids)
        await act_until(
            driver, lambda _: any("Hand 1 — scores" in m.text for m in fake.messages(ch))
        )
        summary = await fake.wait_for_message(ch, lambda m: "Hand 1 — scores" in m.text)
        [attachment] = summary.attachments
        assert attachment.filename.endswith("-1.png")
