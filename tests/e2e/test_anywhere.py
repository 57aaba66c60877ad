"""Play anywhere (issue 27): the app installed to members' accounts, a table in a group DM the
bot is no member of — shown as the public answer to ``/spades new`` and kept current through
the interaction tokens of the players' clicks — and what is said where things differ.

The fake Discord refuses, as Discord does, an edit of a message through a token that did not
create it (404 Unknown Message, 10008): the table message is edited only through its own
token, or a click on it answered with an update (as ``@original``); once that is stale it is
posted again through a fresh click's token (bot/ui/discord/surfaces.py)."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.e2e.conftest import NAMES
from tests.e2e.driver import Driver, Seated, button, eventually, has
from tests.fakediscord import Channel, CommandNotAvailable, FakeDiscord, Message, User, run_bot
from tests.fakediscord.handles import WebhookEdit

ENV = {"SPADES_TEST_SEED": "7", "SPADES_BOT_DELAY": "0", "LOG_LEVEL": "INFO"}


@dataclass
class Group:
    fake: FakeDiscord
    chat: Channel  # the group DM
    users: list[User]
    db_path: Path

    def env(self) -> dict[str, str]:
        return {"DATABASE_PATH": str(self.db_path), **ENV}

    def table(self) -> Message:
        """The table message: the bot's newest message in the group titled like a table."""
        for m in reversed(self.fake.messages(self.chat)):
            if m.embeds and str(m.embeds[0].get("title", "")).startswith("♠ Spades"):
                return m
        raise AssertionError("no table message in the group DM")

    def tables(self) -> list[Message]:
        """Every table message in the group, oldest first."""
        return [
            m
            for m in self.fake.messages(self.chat)
            if m.embeds and str(m.embeds[0].get("title", "")).startswith("♠ Spades")
        ]

    def stored_message_ids(self) -> list[int | None]:
        """The table message ids the bot's database holds."""
        with sqlite3.connect(self.db_path) as conn:
            return [r[0] for r in conn.execute("SELECT message_id FROM tables")]

    def edits_of(self, message: Message) -> list[WebhookEdit]:
        """The edits of ``message``, each checked to have come through a token that owns it:
        the one that created it, or a click on it answered with an update (``@original``)."""
        edits = [e for e in self.fake.webhook_edits if e.message is message]
        for e in edits:
            assert e.interaction.id == message.interaction_id or e.interaction.original is message
        return edits

    def channel_writes(self) -> int:
        """Requests the bot made to the group DM's channel routes (none may be made)."""
        return sum(n for route, n in self.fake.route_counts.items() if "/channels/{" in route)


@pytest.fixture
async def group(tmp_path: Path) -> AsyncIterator[Group]:
    async with FakeDiscord() as fake:
        users = [fake.add_user(n) for n in NAMES]
        fake.install_app(users[0])  # Alice installed the app to her account
        chat = fake.add_group_dm("spades night", *users)
        yield Group(fake, chat, users, tmp_path / "spades.db")


async def open_group_table(g: Group, humans: int = 3) -> Driver:
    """Alice opens a table in the group DM; the next ``humans - 1`` friends sit with the
    table's buttons (they installed nothing); computer players fill the rest; Alice starts."""
    fake, users = g.fake, g.users
    inter = await fake.slash(users[0], g.chat, "spades", "new")
    r = await inter.response()
    assert r.deferred, "the table is the public answer to /spades new"
    assert not r.ephemeral
    await eventually(lambda: g.table())
    assert inter.original is not None
    assert g.table().id == inter.original.id
    opened = await inter.wait_followup(2)  # the first follow-up was the table itself
    assert opened.ephemeral
    assert "this group's league" in opened.text, opened.text
    for user, seat in zip(users[1:humans], ("E", "S", "W"), strict=False):
        join = next(
            c for c in g.table().all_components if c.custom_id and c.custom_id.endswith(seat)
        )
        answer = await (await fake.click(user, g.table(), join.custom_id)).answer()
        assert "You sit" in answer.text, answer.text
    for _ in range(4 - humans):
        await eventually(lambda: has(g.table(), "addbot"))
        r = await (
            await fake.click(users[0], g.table(), button(g.table(), "addbot").custom_id)
        ).answer()
        assert "computer player" in r.text, r.text
    await eventually(lambda: has(g.table(), "start"))
    await (await fake.click(users[0], g.table(), button(g.table(), "start").custom_id)).response()
    await eventually(lambda: "Hand 1" in g.table().text)
    return Driver(fake, g.chat, [Seated(u) for u in users[:humans]])


class GroupDriver(Driver):
    def table(self) -> Message:  # the table lives in the group DM, as an interaction answer
        return Group(self.fake, self.channel, [], Path()).table()

    async def play_until_over(self, max_actions: int = 3000) -> None:
        """Act until the game is over, waiting while the computer player is on turn."""
        deadline = time.monotonic() + 240
        while not self.over():
            assert self.actions < max_actions, "the game did not end"
            assert time.monotonic() < deadline, "the game did not end in time"
            if not await self.step():
                await asyncio.sleep(0.05)

    async def act_times(self, count: int) -> None:
        """Take ``count`` actions (people's), waiting while the computer player is on turn."""
        done = self.actions + count
        deadline = time.monotonic() + 60
        while self.actions < done:
            assert time.monotonic() < deadline, "nobody could act"
            if not await self.step():
                await asyncio.sleep(0.05)


def driver_of(d: Driver) -> GroupDriver:
    return GroupDriver(d.fake, d.channel, d.players)


async def test_three_friends_and_a_computer_play_to_the_end_in_a_group_dm(group: Group) -> None:
    g = group
    async with run_bot(g.fake, env=g.env()) as proc:
        driver = driver_of(await open_group_table(g, humans=3))
        await driver.play_until_over()
        assert "🏆" in g.table().text
        # Game over and the hand summaries came as follow-ups in the group.
        posts = g.fake.messages(g.chat)
        assert any("Hand 1 — scores" in m.text for m in posts)
        assert all(m.webhook_id == g.fake.application_id for m in posts)
        # One table message all game, edited only through tokens that own it: clicks on it
        # answered with an update (joins, Add computer, Start) adopted it as their @original.
        [table] = g.tables()
        edits = g.edits_of(table)
        assert any(e.interaction.id != table.interaction_id for e in edits)
        assert all(e.interaction.original is table for e in edits)
        assert proc.running
    assert g.fake.unknown_webhook_messages == [], "an edit through a token that does not own it"
    # Not one request to the group DM's channel routes: they would have been refused.
    assert g.fake.missing_access == []
    assert g.channel_writes() == 0
    # The game counts in the group's league (keyed by the group DM's channel).
    with sqlite3.connect(g.db_path) as conn:
        keys = {r[0] for r in conn.execute("SELECT guild_id FROM league_games")}
    assert keys == {g.chat.id}


async def test_the_groups_leaderboard_and_stats(group: Group) -> None:
    g = group
    async with run_bot(g.fake, env=g.env()):
        driver = driver_of(await open_group_table(g, humans=3))
        await driver.play_until_over()
        board = await (await g.fake.slash(g.users[0], g.chat, "leaderboard")).answer()
        assert not board.ephemeral
        for name in NAMES[:3]:
            assert name in board.text, board.text
        assert NAMES[3] not in board.text  # Dave sat out
        stats = await (await g.fake.slash(g.users[0], g.chat, "stats")).answer()
        assert "alice" in stats.text, stats.text
        # In a DM with the bot there is no league: said in one line.
        dm = await (await g.fake.slash(g.users[0], None, "leaderboard")).answer()
        assert dm.ephemeral
        assert "no league" in dm.text, dm.text
    assert g.fake.missing_access == []


async def test_a_16_minute_gap_and_the_next_click_catches_the_table_up(group: Group) -> None:
    """Nobody clicks for 16 minutes (Discord's clock): every token has expired.  A turn timer
    moves the game meanwhile; the table cannot show it (Discord refuses the old token) until
    the next click, whose token brings the table up to date, with a line saying so."""
    g = group
    fake = g.fake
    async with run_bot(fake, env=g.env()):
        inter = await fake.slash(g.users[0], g.chat, "spades", "new", turn_timer=4)
        await inter.response()
        await eventually(lambda: g.table())
        for user, seat in zip(g.users[1:3], ("E", "S"), strict=True):
            join = next(
                c for c in g.table().all_components if c.custom_id and c.custom_id.endswith(seat)
            )
            await (await fake.click(user, g.table(), join.custom_id)).answer()
        await eventually(lambda: has(g.table(), "addbot"))
        await (
            await fake.click(g.users[0], g.table(), button(g.table(), "addbot").custom_id)
        ).answer()
        await eventually(lambda: has(g.table(), "start"))
        await (
            await fake.click(g.users[0], g.table(), button(g.table(), "start").custom_id)
        ).response()
        await eventually(lambda: "Hand 1" in g.table().text)
        fake.clock.advance(16 * 60)
        refused = fake.expired_token_refusals
        shown = g.table().text
        # The first turn times out (4 s): a computer bids for that player; the table cannot
        # be edited now.
        await eventually(lambda: fake.expired_token_refusals > refused, timeout=20)
        assert g.table().text == shown
        # Dave, who sits nowhere, only looks at the rules: his click's token catches it up.
        old = g.table()
        click = await fake.click(g.users[3], old, button(old, "rules").custom_id)
        await click.answer()
        await eventually(lambda: g.table().text != shown)
        caught = await fake.wait_for_message(g.chat, lambda m: "up to date again" in m.text)
        assert caught.webhook_id == fake.application_id
        # The table's own token has expired and Dave's cannot edit it (Discord: 10008): the
        # table is posted again, a follow-up of Dave's click, whose token now keeps it current.
        new = g.table()
        assert new.id != old.id
        assert new.interaction_id == click.id
        assert old.text == shown  # nothing can change it any more
        driver = GroupDriver(fake, g.chat, [Seated(u) for u in g.users[:3]])
        await driver.act_times(1)
        await eventually(lambda: g.edits_of(new))
        assert {e.interaction.id for e in g.edits_of(new)} == {click.id}
        assert g.tables() == [old, new]
    assert fake.missing_access == []
    assert fake.unknown_webhook_messages == [], "an edit through a token that does not own it"


async def test_kill9_mid_hand_and_the_next_click_restores(group: Group) -> None:
    g = group
    fake = g.fake
    async with run_bot(fake, env=g.env()) as proc:
        driver = driver_of(await open_group_table(g, humans=3))
        await driver.act_times(3 + 5)  # the people's bids and a few cards
        table_id = g.table().id
        proc.kill9()
        await proc.wait()
    with sqlite3.connect(g.db_path) as conn:
        stored = conn.execute(
            "SELECT surface, league, surface_token IS NOT NULL FROM tables"
        ).fetchall()
    assert stored == [("interaction", "group", 1)]
    async with run_bot(fake, env=g.env(), wait_for="commands"):
        # The same table message answers its buttons and follows the game to its end.
        assert g.table().id == table_id
        await driver.play_until_over()
        assert g.table().id == table_id
        assert "🏆" in g.table().text
    assert fake.missing_access == []
    assert fake.unknown_webhook_messages == [], "an edit through a token that does not own it"
    with sqlite3.connect(g.db_path) as conn:
        tokens = conn.execute("SELECT surface_token FROM tables").fetchall()
    assert tokens == [(None,)], "a finished table keeps no token"


async def test_kill9_then_16_minutes_and_the_next_click_posts_the_table_again(
    group: Group,
) -> None:
    """The bot dies mid-hand and is down for 16 minutes: the stored token of the table message
    has expired.  The next click (a player's hand) re-arms the table: posted again through that
    click's token, which is stored in its place, and the game goes on there to its end."""
    g = group
    fake = g.fake
    async with run_bot(fake, env=g.env()) as proc:
        driver = driver_of(await open_group_table(g, humans=3))
        await driver.act_times(3 + 5)
        old = g.table()
        proc.kill9()
        await proc.wait()
    fake.clock.advance(16 * 60)
    shown = old.text
    async with run_bot(fake, env=g.env(), wait_for="commands"):
        await driver.act_times(1)  # through a hand message: its click brings a fresh token
        await eventually(lambda: g.table().id != old.id)
        new = g.table()
        clicked = fake.interactions[new.interaction_id]
        assert clicked.type == 3  # a component interaction: a button of a private hand
        assert clicked.original is not new  # the table is a follow-up of it
        await driver.play_until_over()
        assert g.table() is new
        assert "🏆" in new.text
        assert old.text == shown
        assert g.edits_of(new)
    assert fake.missing_access == []
    assert fake.unknown_webhook_messages == [], "an edit through a token that does not own it"


async def test_a_table_token_running_out_moves_the_table_and_the_old_message_says_so(
    group: Group,
) -> None:
    """The table message's own token runs out while the players click only their private
    hands (whose tokens cannot edit it): the next change posts the table again through a hand
    click's token, and the old message — its own token still valid — says the table moved,
    without buttons.  (The stored token is made to run out 10 s after the restart, so the bot
    starts no write with it — 20 s before its end it is stale — however long the restart takes;
    Discord's clock, the fake's, still takes it for the notice on the old message.)"""
    g = group
    fake = g.fake
    async with run_bot(fake, env=g.env()) as proc:
        driver = driver_of(await open_group_table(g, humans=3))
        await driver.act_times(3 + 5)
        old = g.table()
        proc.kill9()
        await proc.wait()
    with sqlite3.connect(g.db_path) as conn:
        conn.execute("UPDATE tables SET surface_token_expires = ?", (time.time() + 10,))
    async with run_bot(fake, env=g.env(), wait_for="commands"):
        deadline = time.monotonic() + 60
        while g.table() is old:  # the people play on from their private hands
            assert not driver.over(), "the game ended before the table's token ran out"
            assert time.monotonic() < deadline, "the table was not posted again"
            if not await driver.step():
                await asyncio.sleep(0.05)
        new = g.table()
        clicked = fake.interactions[new.interaction_id]
        assert clicked.type == 3  # a component interaction: a button of a private hand
        await eventually(lambda: "moved to a new message below" in old.text)
        assert not old.embeds
        assert not old.all_components
        await driver.play_until_over()
        assert g.table() is new
        assert "🏆" in new.text
        assert g.edits_of(new)
    assert fake.missing_access == []
    assert fake.unknown_webhook_messages == [], "an edit through a token that does not own it"


async def test_after_a_restart_a_click_on_the_table_adopts_it(group: Group) -> None:
    """The bot restarts 16 minutes after ``/spades new``: the stored token has expired.  A join
    on the table message is answered with an update (6), so its token edits the same message
    as ``@original`` — no second table message."""
    g = group
    fake = g.fake
    async with run_bot(fake, env=g.env()) as proc:
        inter = await fake.slash(g.users[0], g.chat, "spades", "new")
        await inter.response()
        await eventually(lambda: g.table())
        table = g.table()
        # The table message's id is stored once Discord has said it (it is the answer itself):
        # killed before that, the bot could not know the old message when it is clicked.
        await eventually(lambda: g.stored_message_ids() == [table.id])
        proc.kill9()
        await proc.wait()
    fake.clock.advance(16 * 60)
    async with run_bot(fake, env=g.env(), wait_for="commands"):
        join = next(c for c in table.all_components if c.custom_id and c.custom_id.endswith("E"))
        click = await fake.click(g.users[1], table, join.custom_id)
        assert (await click.response()).type == 6  # an update of the table message
        assert "You sit" in (await click.answer()).text
        await eventually(lambda: any(e.interaction is click for e in g.edits_of(table)))
        assert g.tables() == [table]
        assert g.users[1].name in table.text
    assert fake.unknown_webhook_messages == [], "an edit through a token that does not own it"


async def test_spades_table_moves_the_table_and_the_old_message_says_so(group: Group) -> None:
    g = group
    fake = g.fake
    async with run_bot(fake, env=g.env()):
        await (await fake.slash(g.users[0], g.chat, "spades", "new")).response()
        await eventually(lambda: g.table())
        old = g.table()
        again = await fake.slash(g.users[0], g.chat, "spades", "table")
        await again.response()
        await eventually(lambda: g.table().id != old.id)
        new = g.table()
        assert new.interaction_id == again.id
        await eventually(lambda: "moved to a new message below" in old.text)
        assert not old.embeds
        assert not old.all_components
        # The new message takes the joins; the old one's token edits it no more.
        join = next(c for c in new.all_components if c.custom_id and c.custom_id.endswith("E"))
        await (await fake.click(g.users[2], new, join.custom_id)).answer()
        await eventually(lambda: g.users[2].name in new.text)
        assert g.edits_of(new)
    assert fake.unknown_webhook_messages == [], "an edit through a token that does not own it"


async def test_admin_commands_are_refused_outside_servers(group: Group) -> None:
    g = group
    fake = g.fake
    async with run_bot(fake, env=g.env()):
        admin = fake.command("spades-admin")
        assert admin is not None
        assert admin["integration_types"] == [0]
        assert admin["contexts"] == [0]
        # Discord offers it nowhere but in a server that added the bot...
        with pytest.raises(CommandNotAvailable, match=r"not installed|not available"):
            await fake.slash(g.users[0], g.chat, "spades-admin", "show")
        # ... and a request that comes anyway (a stale client) is refused in one line.
        forged = await fake.slash_raw(
            g.users[0],
            g.chat,
            {"name": "spades-admin", "options": [{"name": "show", "type": 1, "options": []}]},
        )
        answer = await forged.answer()
        assert answer.ephemeral
        assert "server that has added the bot" in answer.text, answer.text


async def test_synced_commands_carry_their_installs_and_contexts(group: Group) -> None:
    async with run_bot(group.fake, env=group.env()):
        commands = {c["name"]: c for c in group.fake.commands()}
    for name in ("spades", "hand", "bid", "play", "claim", "discard", "leaderboard", "stats"):
        assert commands[name]["integration_types"] == [0, 1], name
        assert commands[name]["contexts"] == [0, 1, 2], name
    assert commands["spades-admin"]["integration_types"] == [0]
    assert commands["spades-admin"]["contexts"] == [0]


async def test_help_and_threads_where_the_bot_is_no_member(group: Group) -> None:
    g = group
    async with run_bot(g.fake, env=g.env()):
        help_answer = await (await g.fake.slash(g.users[0], g.chat, "spades", "help")).answer()
        assert "what is different" in help_answer.text
        assert "this group's league" in help_answer.text
        thread = await (
            await g.fake.slash(g.users[0], g.chat, "spades", "new", thread=True)
        ).answer()
        assert thread.ephemeral
        assert "Threads need the bot" in thread.text, thread.text


async def test_a_server_that_has_not_added_the_bot_counts_in_no_league(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Elsewhere", bot=False)
        channel = guild.add_text_channel("games")
        alice = fake.add_user("alice")
        guild.add_member(alice)
        fake.install_app(alice)
        env = {"DATABASE_PATH": str(tmp_path / "spades.db"), **ENV}
        async with run_bot(fake, env=env):
            inter = await fake.slash(alice, channel, "spades", "new")
            opened = await inter.wait_followup(2)
            assert "no league" in opened.text, opened.text
            assert inter.original is not None
            assert inter.original.embeds
        assert fake.missing_access == []
