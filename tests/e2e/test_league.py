"""The server league through the real bot: standings, stats with a chart, history export,
admin settings and seasons, paging, and servers kept apart."""

from __future__ import annotations

import json
import re

import pytest

from bot.engine.record import replay
from tests.e2e.conftest import World
from tests.e2e.driver import eventually, table_message
from tests.e2e.flows import four_player_game
from tests.fakediscord import CommandNotAvailable, run_bot


async def finished_game(world: World) -> tuple[int, int]:
    """Play a whole game; the final (NS, EW) score as the table message shows it."""
    driver = await four_player_game(world, preset="standard", target=100)
    await driver.play_until_over()
    await eventually(lambda: any("Game over" in m.text for m in world.fake.messages(world.channel)))
    over = next(m for m in world.fake.messages(world.channel) if "Game over" in m.text)
    ns, ew = re.search(r"North–South (-?\d+) · East–West (-?\d+)", over.text).groups()  # type: ignore[union-attr]
    return int(ns), int(ew)


async def test_a_finished_game_feeds_standings_stats_and_replayable_history(world: World) -> None:
    fake, ch, users = world.fake, world.channel, world.users
    async with run_bot(fake, env=world.env()):
        ns, ew = await finished_game(world)
        winners = {users[0].name, users[2].name} if ns > ew else {users[1].name, users[3].name}
        # Game over shows each member's rating change, on the scale the leaderboard uses.
        over = next(m for m in fake.messages(ch) if "Game over" in m.text)
        changes = re.findall(r"(\w+): 1,000 → \*\*([\d,]+)\*\* \(([+−]\d+)\)", over.text)
        assert len(changes) == 4, over.text
        for name, _, delta in changes:
            assert (name in winners) == delta.startswith("+"), (name, delta)
        assert "Play again" in over.text
        board = await (await fake.slash(users[0], ch, "leaderboard")).response()
        lines = [ln for ln in board.text.splitlines() if ln.startswith("`")]
        assert len(lines) == 4
        for _, after, _ in changes:
            assert f"— {after} ·" in board.text, (after, board.text)
        top_two = {re.sub(r"[*`#\d ]", "", ln.split("—")[0]) for ln in lines[:2]}
        assert top_two == winners, (top_two, winners)
        # /stats: an embed with the rating chart attached as a PNG.
        stats = await fake.slash(users[0], ch, "stats")
        await stats.response()
        msg = await stats.wait_followup()
        assert "Rating" in msg.text
        (png,) = msg.attachments
        assert png.filename == "rating.png"
        assert png.data.startswith(b"\x89PNG")
        # /history: pick the game and get a record that replays to the same final score.
        hist = await (await fake.slash(users[1], ch, "history")).response()
        pick = next(c for c in hist.all_components if c.custom_id and ":pick:" in c.custom_id)
        got = await (await fake.select(users[1], hist, pick.custom_id, [pick.values[0]])).response()
        assert got.ephemeral
        (record_file,) = got.attachments
        doc = json.loads(record_file.data)
        final = list(replay(doc))[-1]
        assert final["score"] == {"NS": ns, "EW": ew}
        assert final["winner"] == ("NS" if ns > ew else "EW")
        # Only the member who asked can page their leaderboard.
        pairs = next(c for c in board.all_components if c.label == "Partnerships")
        other = await (await fake.click(users[3], board, pairs.custom_id)).response()
        assert other.ephemeral
        assert "Only the member who asked" in other.text
        mine = await (await fake.click(users[0], board, pairs.custom_id)).response()
        assert "Best partnerships" in mine.text
    # After a restart the paging buttons still work.
    async with run_bot(fake, env=world.env(), wait_for="commands"):
        players = next(c for c in mine.all_components if c.label == "Players")
        again = await (await fake.click(users[0], mine, players.custom_id)).response()
        assert "Leaderboard" in again.text


async def test_admin_settings_need_manage_server_and_seasons_reset_standings(world: World) -> None:
    fake, ch, users = world.fake, world.channel, world.users
    admin = fake.add_user("admin")
    world.guild.add_member(admin, manage_guild=True)
    async with run_bot(fake, env=world.env()):
        with pytest.raises(CommandNotAvailable):
            await fake.slash(users[1], ch, "spades-admin", "show")
        r = await (await fake.slash(admin, ch, "spades-admin", "defaults", turn_timer=5)).response()
        assert r.ephemeral
        assert "turn_timer" in r.text or "turn timer" in r.text.lower()
        r = await (
            await fake.slash(admin, ch, "spades-admin", "defaults", preset="short")
        ).response()
        assert "Preset short" in r.text
        await finished_game(world)
        board = await (await fake.slash(users[0], ch, "leaderboard")).response()
        assert "Leaderboard — Spades — Season 1" in board.text
        assert board.text.count(" game") >= 4
        r = await (
            await fake.slash(admin, ch, "spades-admin", "season-new", name="Winter")
        ).response()
        assert "Winter" in r.text
        fresh = await (await fake.slash(users[0], ch, "leaderboard")).response()
        assert "Winter" in fresh.text
        assert "No ranked players yet" in fresh.text
        choices = await fake.autocomplete(users[0], ch, "leaderboard", focused="season", value="")
        assert {c["value"] for c in choices} == {1, 2}
        old = await (await fake.slash(users[0], ch, "leaderboard", season=1)).response()
        assert old.text.count(" game") >= 4
        # A table opened without a preset now uses the server's default one.
        r = await (await fake.slash(users[0], ch, "spades", "new")).response()
        assert r.deferred
        await eventually(lambda: "Short game · to 250" in table_message(fake, ch).text)


async def test_two_servers_never_see_each_others_league(world: World) -> None:
    fake, ch, users = world.fake, world.channel, world.users
    other = fake.add_guild("Other Club")
    other_ch = other.add_text_channel("spades")
    other.add_member(users[0])
    async with run_bot(fake, env=world.env()):
        await finished_game(world)
        here = await (await fake.slash(users[0], ch, "leaderboard")).response()
        there = await (await fake.slash(users[0], other_ch, "leaderboard")).response()
        assert here.text.count(" game") >= 4
        assert "No ranked players yet" in there.text
        hist = await (await fake.slash(users[0], other_ch, "history")).response()
        assert "No games yet" in hist.text


async def test_tables_open_only_in_the_channels_an_admin_allowed(world: World) -> None:
    fake, ch, users = world.fake, world.channel, world.users
    admin = fake.add_user("admin")
    world.guild.add_member(admin, manage_guild=True)
    lounge = world.guild.add_text_channel("lounge")
    async with run_bot(fake, env=world.env()):
        r = await (
            await fake.slash(admin, ch, "spades-admin", "channel-allow", channel=ch)
        ).response()
        assert f"<#{ch.id}>" in r.text
        refused = await (await fake.slash(users[0], lounge, "spades", "new")).response()
        assert refused.ephemeral
        assert f"Tables can only be opened in <#{ch.id}>" in refused.text
        assert not [m for m in fake.messages(lounge) if m.embeds]
        opened = await (await fake.slash(users[0], ch, "spades", "new")).response()
        assert opened.deferred
        await eventually(lambda: table_message(fake, ch))
        r = await (
            await fake.slash(admin, ch, "spades-admin", "channel-remove", channel=ch)
        ).response()
        assert "every channel" in r.text
        again = await (await fake.slash(users[1], lounge, "spades", "new")).response()
        assert again.deferred
        await eventually(lambda: table_message(fake, lounge))
