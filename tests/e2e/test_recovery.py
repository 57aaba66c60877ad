"""Crash safety: the bot is killed with SIGKILL mid-hand, restarted, and the game goes on."""

from __future__ import annotations

import asyncio
import json
import sqlite3

from tests.e2e.conftest import World
from tests.e2e.driver import CARD_RE, Driver, button, eventually, has, plain, table_message
from tests.e2e.flows import answer, four_player_game
from tests.fakediscord import run_bot


def cards_in(text: str) -> list[str]:
    return CARD_RE.findall(text)


async def hands_of(driver: Driver) -> list[str]:
    """Each player's hand text as the bot shows it to them now."""
    out = []
    for p in driver.players:
        r = await driver.open_hand(p)
        out.append(r.embeds[0]["description"])
    return out


async def test_kill9_mid_hand_then_restart_continues_the_same_game(world: World) -> None:
    fake, ch = world.fake, world.channel
    async with run_bot(fake, env=world.env()) as proc:
        driver = await four_player_game(world, preset="standard", target=100)
        for _ in range(4 + 9):  # four bids and a couple of tricks
            assert await driver.step()
        before = await hands_of(driver)
        table_before = table_message(fake, ch)
        old_hand_messages = [p.hand for p in driver.players]
        syncs = fake.sync_count
        proc.kill9()
        await proc.wait()
    async with run_bot(fake, env=world.env(), wait_for="commands"):
        # The command tree did not change, so the restart does not sync again.
        assert fake.sync_count == syncs
        # Buttons on messages sent before the crash still work (same table message).
        assert table_message(fake, ch).id == table_before.id
        after = await hands_of(driver)
        assert after == before, "same cards after the restart"
        # A private hand message from before the restart still answers its Refresh button.
        p0 = driver.players[0]
        old = old_hand_messages[0]
        assert old is not None
        r = await (await fake.click(p0.user, old, button(old, "refresh").custom_id)).response()
        assert r.embeds[0]["description"] == before[0]
        await driver.play_until_over()
        assert "🏆" in table_message(fake, ch).text


async def test_kill9_while_a_click_is_in_flight_loses_nothing(world: World) -> None:
    """Whatever instant the bot dies, the restarted bot's state is consistent: the action
    in flight is either wholly applied (and the card gone from the hand) or not at all."""
    fake = world.fake
    async with run_bot(fake, env=world.env()) as proc:
        driver = await four_player_game(world, preset="standard", target=100)
        for _ in range(4 + 5):
            assert await driver.step()
        # The player on turn clicks a card; the bot is killed right away.
        for p in driver.players:
            r = await driver.refresh(p)
            if has(r, "play"):
                actor, hand_before = p, r
                break
        else:
            raise AssertionError("nobody on turn")
        plays = [c for c in hand_before.all_components if c.custom_id and ":play:" in c.custom_id]
        card = plays[0]
        await fake.click(actor.user, hand_before, card.custom_id)
        await asyncio.sleep(0.005)
        proc.kill9()
        await proc.wait()
    async with run_bot(fake, env=world.env(), wait_for="commands"):
        r = await driver.open_hand(actor)
        held = cards_in(r.embeds[0]["description"])
        assert card.label is not None
        played = card.label not in held
        trick_text = table_message(fake, world.channel).text
        if played:
            # Applied: the table (brought up to date after the restart) shows the card.
            await eventually(lambda: card.label in plain(table_message(fake, world.channel).text))
        else:
            assert len(held) == len(cards_in(hand_before.embeds[0]["description"])), trick_text
        await driver.play_until_over()


async def test_a_table_that_cannot_be_restored_is_closed_unrated_with_a_notice(
    world: World,
) -> None:
    """A record this version cannot replay (here: the first bid turned into a card played
    during the bidding) must not leave the table "playing" for ever, blocking its channel
    and its players: the restarted bot closes it, unrated, and says so in its channel."""
    fake, ch = world.fake, world.channel
    async with run_bot(fake, env=world.env()) as proc:
        driver = await four_player_game(world, preset="standard", target=100)
        for _ in range(4 + 3):
            assert await driver.step()
        old = table_message(fake, ch)
        proc.kill9()
        await proc.wait()
    with sqlite3.connect(world.db_path) as conn:
        table_id, seq, text = conn.execute(
            "SELECT table_id, seq, action FROM actions WHERE action LIKE '%\"bid\"%' "
            "ORDER BY seq LIMIT 1"
        ).fetchone()
        bad = json.dumps({"k": "play", "s": json.loads(text)["s"], "c": "AS"})
        conn.execute(
            "UPDATE actions SET action = ? WHERE table_id = ? AND seq = ?", (bad, table_id, seq)
        )
    async with run_bot(fake, env=world.env(), wait_for="commands") as proc:
        notice = await fake.wait_for_message(ch, lambda m: "could not restore" in m.text, after=old)
        assert "unrated" in notice.text
        assert "/spades new" in notice.text
        await proc.wait_for_line(f"table {table_id} cannot be restored")
        with sqlite3.connect(world.db_path) as conn:
            (status,) = conn.execute(
                "SELECT status FROM tables WHERE id = ?", (table_id,)
            ).fetchone()
            games = conn.execute("SELECT count(*) FROM league_games").fetchone()[0]
        assert status == "abandoned"
        assert games == 0, "unrated: nothing reaches the league"
        # Neither the channel nor its players are blocked: the host opens a new table there.
        r = await answer(world, world.users[0], "spades", "new", preset="standard")
        assert "could not open" not in r.text, r.text
        await eventually(lambda: table_message(fake, ch).id != old.id)
        assert "Waiting for players" in table_message(fake, ch).text
