"""The fake Discord works with real discord.py: a bare bot subprocess, plus an in-process bot that
exercises ephemeral/deferred responses, follow-ups, threads, files, components and permissions."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest

from tests.fakediscord import (
    BotExited,
    BucketSpec,
    CommandNotAvailable,
    FakeDiscord,
    NoBotConnected,
    NoResponse,
    Perm,
    RateLimits,
    run_bot,
)
from tests.fakediscord.featurebot import FeatureBot
from tests.fakediscord.fixtures import BAREBOT, World, build_world, inprocess_bot

GUILDS_INTENT = 1 << 0


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as server:
        yield server


@pytest.fixture
def world(fake: FakeDiscord) -> World:
    return build_world(fake)


@pytest.fixture
async def featurebot(fake: FakeDiscord, world: World) -> AsyncIterator[FeatureBot]:
    async with inprocess_bot(fake, FeatureBot()) as client:
        assert isinstance(client, FeatureBot)
        yield client


def assert_no_gaps(fake: FakeDiscord) -> None:
    assert fake.unknown_routes == []
    assert fake.server_errors == []


# ----- the bare bot as a real subprocess -------------------------------------------------------
async def test_barebot_identifies_syncs_and_answers_ping(fake: FakeDiscord, world: World) -> None:
    async with run_bot(fake, module=BAREBOT):
        [identify] = fake.identify_payloads
        assert identify["token"] == fake.token
        assert identify["intents"] == GUILDS_INTENT
        assert [c["name"] for c in fake.commands()] == ["ping"]
        assert fake.sync_count == 1

        inter = await fake.slash(world.alice, world.channel, "ping")
        reply = await inter.response()
        assert reply.type == 4
        assert reply.content == "pong"
        assert not reply.ephemeral
        [row] = reply.components
        assert [(b.custom_id, b.label, b.disabled) for b in row.components] == [
            ("bare:ack", "Ack", False)
        ]
        assert fake.messages(world.channel) == [reply.message]
        assert inter.latency is not None
        assert 0 < inter.latency < 5
    assert_no_gaps(fake)


async def test_barebot_button_is_acknowledged(fake: FakeDiscord, world: World) -> None:
    async with run_bot(fake, module=BAREBOT):
        reply = await (await fake.slash(world.bob, world.channel, "ping")).response()
        click = await fake.click(world.alice, reply, "bare:ack")
        ack = await click.response()
        assert ack.type == 6  # deferred update: acknowledged, message untouched
        assert ack.message is reply.message
        assert reply.message is not None
        assert reply.message.edits == 0
    async with run_bot(fake, module=BAREBOT, env={"BAREBOT_ACK": "edit"}):
        click = await fake.click(world.carol, reply, "bare:ack")
        edited = await click.response()
        assert (edited.type, edited.content) == (7, "ack 1")
        assert [v.content for v in reply.message.versions] == ["pong", "ack 1"]
    assert_no_gaps(fake)


@pytest.mark.parametrize("live", ["webhook", "raw"])
async def test_barebot_floor_with_live_hands_makes_the_live_edit(
    fake: FakeDiscord, world: World, live: str
) -> None:
    """The load benchmark's floors (BAREBOT_LIVE): a click on a hand is answered with the hand,
    then the message is edited once more through the click's token, the request a live hand
    costs; ``raw`` sends both without discord.py's layer, and Discord takes them the same."""
    env = {"BAREBOT_ACK": "hand", "BAREBOT_LIVE": live}
    async with run_bot(fake, module=BAREBOT, env=env):
        hand = await (await fake.slash(world.alice, world.channel, "ping")).response()
        assert hand.ephemeral
        assert hand.message is not None
        click = await fake.click(world.alice, hand, "bare:card:0")
        answer = await click.response()
        assert answer.type == 7
        edited = await click.wait_edit(1)
        assert edited.embeds == hand.message.versions[0].embeds
        assert len(hand.message.versions) == 3  # sent, answered, edited live
    assert_no_gaps(fake)


async def test_second_callback_for_one_interaction_is_refused(
    fake: FakeDiscord, world: World
) -> None:
    async with run_bot(fake, module=BAREBOT) as bot:
        inter = await fake.slash(world.alice, world.channel, "ping")
        await inter.response()
        await fake.redeliver(inter)  # double delivery: the bot answers again
        await bot.wait_for_line("40060", timeout=5)
        assert inter.deliveries == 2
        assert inter.rejected_callbacks == 1
        assert len(fake.messages(world.channel)) == 1

        url = f"{fake.api_base}/interactions/{inter.id}/{inter.token}/callback"
        async with aiohttp.ClientSession() as http, http.post(url, json={"type": 6}) as resp:
            assert resp.status == 400
            assert (await resp.json())["code"] == 40060
        assert inter.rejected_callbacks == 2


async def test_bot_killed_with_sigkill_then_restarted(fake: FakeDiscord, world: World) -> None:
    async with run_bot(fake, module=BAREBOT) as bot:
        first = await (await fake.slash(world.alice, world.channel, "ping")).response()
        bot.kill9()
        assert await bot.wait() == -9
        await fake.wait_until(lambda: not fake.connected, timeout=5)
        lost = await fake.slash(world.alice, world.channel, "ping")  # nobody is listening
        with pytest.raises(NoResponse):
            await lost.response(timeout=0.3)

    async with run_bot(fake, module=BAREBOT):
        assert fake.gateway.identify_count == 2
        assert fake.sync_count == 2
        assert fake.messages(world.channel) == [first.message]  # the world survived
        again = await (await fake.slash(world.bob, world.channel, "ping")).response()
        assert again.content == "pong"
        click = await fake.click(world.bob, first, "bare:ack")  # old message, new process
        assert (await click.response()).type == 6
    assert lost.callback is None


async def test_gateway_disconnect_then_resume_replays_missed_events(
    fake: FakeDiscord, world: World
) -> None:
    async with run_bot(fake, module=BAREBOT):
        generation = fake.ready_generation
        await fake.disconnect_all()
        missed = await fake.slash(world.alice, world.channel, "ping")  # sent while offline
        await fake.wait_for_ready(after=generation)
        assert fake.gateway.resume_count == 1
        assert fake.gateway.identify_count == 1
        assert (await missed.response()).content == "pong"
        assert missed.deliveries == 1


class QuickReidentifyBot(FeatureBot):
    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py sleeps 5 s before every non-initial IDENTIFY; skip that here."""


async def test_invalidated_session_forces_a_fresh_identify(fake: FakeDiscord, world: World) -> None:
    async with inprocess_bot(fake, QuickReidentifyBot()):
        generation = fake.ready_generation
        await fake.disconnect_all(resumable=False)
        await fake.wait_for_ready(after=generation)
        assert fake.gateway.identify_count == 2
        assert fake.gateway.resume_count == 0
        assert fake.identify_payloads[0]["intents"] == fake.identify_payloads[1]["intents"]
        echo = await fake.slash(world.alice, world.channel, "echo", text="back")
        assert (await echo.response()).content == "back"


async def test_wrong_token_makes_the_bot_fail(fake: FakeDiscord, world: World) -> None:
    env = {"DISCORD_TOKEN": fake.token[:-3] + "xyz"}
    async with run_bot(fake, module=BAREBOT, env=env, wait_for="none") as bot:
        assert await bot.wait(timeout=15) == 3
    assert "Improper token" in bot.stderr
    assert fake.auth_failures >= 1
    assert fake.identify_payloads == []
    with pytest.raises(BotExited, match="exited"):
        async with run_bot(fake, module=BAREBOT, env=env):
            pass


# ----- fidelity checks with an in-process discord.py client ------------------------------------
async def test_ephemeral_deferred_followups_and_privacy(
    fake: FakeDiscord, world: World, featurebot: FeatureBot
) -> None:
    secret = await (
        await fake.slash(world.alice, world.channel, "echo", text="AS KH", ephemeral=True)
    ).response()
    assert secret.ephemeral
    assert secret.message not in fake.messages(world.channel)

    slow = await fake.slash(world.bob, world.channel, "slow")
    deferred = await slow.response()
    assert deferred.type == 5
    assert deferred.loading
    done = await slow.wait_edit()
    assert done.content == "done"
    assert not done.loading
    extra = await slow.wait_followup(2)
    assert slow.followups[0] is slow.original  # first follow-up replaced "thinking..."
    assert extra.content == "extra"

    assert "AS KH" in fake.all_visible_text(world.alice)
    assert "AS KH" not in fake.all_visible_text(world.bob)
    assert "AS KH" in fake.all_visible_text()
    assert "extra" in fake.all_visible_text(world.carol)
    assert_no_gaps(fake)


async def test_edit_history_and_rate_limit_headers() -> None:
    limits = RateLimits()
    limits.specs["webhook"] = BucketSpec(limit=2, window=0.5)
    async with FakeDiscord(rate_limits=limits) as fake:
        world = build_world(fake)
        async with inprocess_bot(fake, FeatureBot()):
            inter = await fake.slash(world.alice, world.channel, "edits", times=4)
            final = await inter.wait_edit(4)
            message = inter.final_message()
            assert message is not None
            assert final.content == "v4"
            assert [v.content for v in message.versions] == ["v0", "v1", "v2", "v3", "v4"]
            assert message.max_edits_per(0.45) <= 2  # discord.py obeyed X-RateLimit headers
            assert fake.ratelimiter.hits_429 == 0
            assert fake.max_writes_per(world.channel, 0.45) <= 3


async def test_threads_files_and_embeds(
    fake: FakeDiscord, world: World, featurebot: FeatureBot
) -> None:
    inter = await fake.slash(world.bob, world.channel, "table", "new", preset="jokers", thread=True)
    table = await inter.response()
    [thread] = await fake.wait_until(lambda: fake.threads(world.channel))
    assert table.message is not None
    assert table.message.thread is thread
    assert thread.id == table.message.id  # Discord: a message's thread shares its id
    assert (await fake.wait_for_message(thread)).content == "welcome to table-jokers"
    with pytest.raises(CommandNotAvailable, match="not a choice"):
        await fake.slash(world.bob, world.channel, "table", "new", preset="bogus")

    private = await (await fake.slash(world.bob, world.channel, "table", "private")).response()
    assert private.ephemeral
    assert {t.type.name for t in fake.threads(world.channel)} == {"PUBLIC_THREAD", "PRIVATE_THREAD"}

    card = await (await fake.slash(world.carol, world.channel, "card")).response()
    assert card.embeds[0]["title"] == "Scores"
    [attachment] = card.attachments
    assert (attachment.filename, attachment.data) == ("score.txt", b"hello")
    async with aiohttp.ClientSession() as http, http.get(attachment.url) as resp:
        assert await resp.read() == b"hello"
    assert_no_gaps(fake)


async def test_autocomplete_select_modal_and_options(
    fake: FakeDiscord, world: World, featurebot: FeatureBot
) -> None:
    choices = await fake.autocomplete(world.alice, world.channel, "bid", focused="bid", value="1")
    assert [c["value"] for c in choices] == ["1", "10", "11", "12", "13"]

    hand = await (await fake.slash(world.alice, world.channel, "hand")).response()
    assert hand.ephemeral
    assert hand.find("hand:card") is not None
    with pytest.raises(CommandNotAvailable):
        await fake.click(world.bob, hand, "hand:team")  # bob cannot see alice's hand
    played = await (await fake.select(world.alice, hand, "hand:card", ["KH"])).response()
    assert (played.type, played.content, played.ephemeral) == (7, "played KH", True)
    modal = await (await fake.click(world.alice, hand, "hand:team")).response()
    assert modal.type == 9
    assert modal.modal is not None
    submitted = await fake.submit_modal(world.alice, modal, {"team": "Spades"})
    assert (await submitted.response()).content == "team=Spades"

    who = await (await fake.slash(world.alice, world.channel, "who", user=world.admin)).response()
    assert who.content == "admin manage=True"
    with pytest.raises(CommandNotAvailable, match="lacks permissions"):
        await fake.slash(world.alice, world.channel, "admin")
    assert (await (await fake.slash(world.admin, world.channel, "admin")).response()).ephemeral
    dm = await (await fake.slash(world.dave, None, "stats")).response()
    assert dm.content == "dm stats for dave"
    assert dm.message is not None
    assert dm.message.channel is fake.dm_channel(world.dave)
    assert_no_gaps(fake)


async def test_missing_permissions_and_injected_429(
    fake: FakeDiscord, world: World, featurebot: FeatureBot
) -> None:
    world.channel.deny_bot(Perm.EMBED_LINKS)
    inter = await fake.slash(world.alice, world.channel, "post")
    assert (await inter.wait_edit()).content == "forbidden 50013 embed_links=False"
    world.channel.allow_bot(Perm.EMBED_LINKS)
    inter = await fake.slash(world.alice, world.channel, "post")
    assert (await inter.wait_edit()).content == "posted"
    board = fake.last_message(world.channel)
    assert board is not None
    assert board.embeds[0]["title"] == "board"

    fake.inject_429(retry_after=0.2, path_contains="/callback")
    retried = await fake.slash(world.alice, world.channel, "echo", text="patience")
    assert (await retried.response()).content == "patience"
    assert fake.ratelimiter.hits_429 == 1

    async with aiohttp.ClientSession() as http:
        async with http.get(fake.api_base + "/users/@me", headers={"Authorization": "Bot x"}) as r:
            assert r.status == 401
        headers = {"Authorization": f"Bot {fake.token}"}
        async with http.get(fake.api_base + "/stickers/1", headers=headers) as r:
            assert r.status == 404
    assert fake.unknown_routes == [("GET", "/api/v10/stickers/1")]


async def test_interaction_needs_a_connected_bot(fake: FakeDiscord, world: World) -> None:
    fake._upsert_commands(None, [{"name": "ping", "description": "x"}], bulk=True)
    with pytest.raises(NoBotConnected):
        await fake.slash(world.alice, world.channel, "ping")


async def test_interaction_tokens_expire_after_15_minutes_on_every_webhook_route(
    fake: FakeDiscord, world: World, featurebot: FeatureBot
) -> None:
    inter = await fake.slash(world.alice, world.channel, "echo", text="hand", ephemeral=True)
    shown = await inter.response()
    assert shown.message is not None
    url = f"{fake.api_base}/webhooks/{fake.application_id}/{inter.token}"
    async with aiohttp.ClientSession() as http:
        fresh = {"content": "live edit"}
        async with http.patch(url + "/messages/@original", json=fresh) as r:
            assert r.status == 200
        assert shown.message.content == "live edit"
        [edit] = fake.webhook_edits
        assert (edit.interaction, edit.message) == (inter, shown.message)

        inter.age(14 * 60)  # 14 minutes old: still valid
        async with http.patch(url + "/messages/@original", json={"content": "v2"}) as r:
            assert r.status == 200
        inter.age(61)  # now 15 minutes and a second
        for method, path, body in (
            ("PATCH", "/messages/@original", {"content": "too late"}),
            ("GET", "/messages/@original", None),
            ("POST", "", {"content": "follow-up"}),
        ):
            async with http.request(method, url + path, json=body) as r:
                assert r.status == 401, (method, path)
                assert (await r.json())["code"] == 50027
    assert shown.message.content == "v2"
    assert fake.expired_token_refusals == 3
    assert len(fake.webhook_edits) == 2
    assert fake.age_tokens(world.alice, 1) >= 1


async def test_a_webhook_message_takes_requests_only_through_the_token_that_owns_it(
    fake: FakeDiscord, world: World, featurebot: FeatureBot
) -> None:
    """Discord: "Edits a previously-sent webhook message from the same token".  A public answer
    is its own interaction's, by id and as ``@original``; another interaction's token is told
    Unknown Message (10008) on GET, PATCH and DELETE alike.  A component click answered with
    UPDATE_MESSAGE (7) has the clicked message as ``@original`` — and only so."""
    mine = await fake.slash(world.alice, world.channel, "edits", times=0)
    table = (await mine.response()).message
    other = await fake.slash(world.bob, world.channel, "echo", text="hello")
    await other.response()
    assert table is not None
    base = f"{fake.api_base}/webhooks/{fake.application_id}"
    async with aiohttp.ClientSession() as http:
        for method, body in (("GET", None), ("PATCH", {"content": "hijacked"}), ("DELETE", None)):
            url = f"{base}/{other.token}/messages/{table.id}"
            async with http.request(method, url, json=body) as r:
                assert r.status == 404, method
                assert (await r.json())["code"] == 10008, method
        assert table.content == "v0"
        assert not table.deleted
        async with http.patch(
            f"{base}/{mine.token}/messages/{table.id}", json={"content": "by id"}
        ) as r:
            assert r.status == 200
        assert table.content == "by id"

        hand = await (await fake.slash(world.alice, world.channel, "hand")).response()
        assert hand.message is not None
        select = await fake.select(world.alice, hand, "hand:card", ["AS"])
        assert (await select.response()).type == 7
        async with http.patch(
            f"{base}/{select.token}/messages/{hand.message.id}", json={"content": "no"}
        ) as r:
            assert (r.status, (await r.json())["code"]) == (404, 10008)
        async with http.patch(
            f"{base}/{select.token}/messages/@original", json={"content": "adopted"}
        ) as r:
            assert r.status == 200
        assert hand.message.content == "adopted"
    assert len(fake.unknown_webhook_messages) == 4
    assert fake.api_violations == []


async def test_a_private_thread_is_seen_and_changed_as_discord_does(
    fake: FakeDiscord, world: World, featurebot: FeatureBot
) -> None:
    """Only its members (and the server's moderators: Manage Threads) see a private thread or
    use a command there; the bot adds members only while it is open — to one nobody may
    invite to (``invitable: false``) only with Manage Threads — and removes them from one it
    made."""
    await (await fake.slash(world.bob, world.channel, "table", "private")).response()
    [thread] = [t for t in fake.threads(world.channel) if t.type.name == "PRIVATE_THREAD"]
    with pytest.raises(CommandNotAvailable, match="cannot see"):
        await fake.slash(world.carol, thread, "card")
    moderator = fake.add_user("moderator")
    world.guild.add_member(moderator, int(Perm.MANAGE_THREADS))
    assert (await (await fake.slash(moderator, thread, "card")).response()).embeds

    members = f"{fake.api_base}/channels/{thread.id}/thread-members"
    headers = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession(headers=headers) as http:
        thread.archived = True
        async with http.put(f"{members}/{world.carol.id}") as r:
            assert (r.status, (await r.json())["code"]) == (400, 50083)
        thread.archived = False
        thread.invitable = False
        world.channel.deny_bot(Perm.MANAGE_THREADS)
        async with http.put(f"{members}/{world.carol.id}") as r:
            assert r.status == 403
        world.channel.allow_bot(Perm.MANAGE_THREADS)
        async with http.put(f"{members}/{world.carol.id}") as r:
            assert r.status == 204
        assert (await (await fake.slash(world.carol, thread, "card")).response()).embeds
        world.channel.deny_bot(Perm.MANAGE_THREADS)  # the thread's maker removes without it
        async with http.delete(f"{members}/{world.carol.id}") as r:
            assert r.status == 204
    with pytest.raises(CommandNotAvailable, match="cannot see"):
        await fake.slash(world.carol, thread, "card")
    assert_no_gaps(fake)
