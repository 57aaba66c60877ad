"""Limits through the real bot: reposting a table message, opening tables in new threads,
reviews of finished games (a bounded queue, a player's own games first) and rating charts (kept
per member and season) each have a cooldown per member and per server, and every refusal says
when to try again as a Discord timestamp.  The league is seeded with finished games before the
bot starts; the members who played them have hostile display names, which the leaderboard and
the chart show as plain text.

The bot measures cooldowns on Discord's clock (each interaction's creation time, carried by its
snowflake id), so the tests move that clock ahead (:meth:`Snowflakes.advance`) instead of
waiting for a cooldown to pass, or keep it still where many requests must fall within one
window whatever the machine's speed (:meth:`Snowflakes.held`)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.league.recording import prepare_game
from bot.store.db import Database
from bot.store.league import LeagueStore
from tests.e2e.conftest import World
from tests.e2e.flows import Shared, answer, open_table
from tests.fakediscord import FakeDiscord, Message, Response, User, run_bot
from tests.fakediscord.snowflakes import DISCORD_EPOCH_MS
from tests.league.games import finished_game

pytestmark = pytest.mark.asyncio(loop_scope="module")

# The league's players: the first four played one set of games, the last four another.
PLAYER_NAMES = (
    "$\\foo$",
    "[x](https://evil)",
    "# big",
    "\u202e@everyone",
    "eve",
    "frank",
    "grace",
    "heidi",
)
GAMES_EACH = 4
TIMESTAMP = re.compile(r"<t:(\d+):R>")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Shared]:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Spades Club")
        players = [fake.add_user(f"player{i}") for i in range(len(PLAYER_NAMES))]
        for user, nick in zip(players, PLAYER_NAMES, strict=True):
            guild.add_member(user, nick=nick)
        db = tmp_path_factory.mktemp("limits") / "spades.db"
        await seed_league(db, guild.id, players)
        env = World(fake, guild, guild.add_text_channel("lobby"), players, db).env(
            REVIEW_CPU_BUDGET="6"
        )
        async with run_bot(fake, env=env) as proc:
            yield Shared(fake, guild, db, proc)


async def seed_league(db: Path, guild_id: int, players: list[User]) -> None:
    """Rated games of the two foursomes, recorded as the bot records them."""
    names = {u.id: n for u, n in zip(players, PLAYER_NAMES, strict=True)}
    async with Database.open(str(db)) as database:
        league = LeagueStore(database)
        for n in range(2 * GAMES_EACH):
            four = players[:4] if n % 2 == 0 else players[4:]
            game = finished_game(
                300 + n,
                tuple(u.id for u in four),
                guild_id=guild_id,
                names=names,
                minutes=30 * n,
            )
            async with database.transaction() as tx:
                await league.recorder.record_game(tx, prepare_game(game))


def players(shared: Shared) -> list[User]:
    return [shared.fake.user_named(f"player{i}") for i in range(len(PLAYER_NAMES))]


def world(shared: Shared, *names: str) -> World:
    """A new channel and new members (fresh ids: their cooldowns are their own)."""
    shared.count += 1
    channel = shared.guild.add_text_channel(f"limits-{shared.count}")
    users = [shared.fake.add_user(f"{n}{shared.count}") for n in names]
    for u in users:
        shared.guild.add_member(u)
    return World(shared.fake, shared.guild, channel, users, shared.db_path)


def discord_time(interaction_id: int) -> float:
    """When Discord made an interaction (epoch seconds), as its id carries it."""
    return ((interaction_id >> 22) + DISCORD_EPOCH_MS) / 1000


def refused_until(r: Response | Message, *says: str) -> int:
    """An ephemeral refusal saying ``says`` and when to try again; returns that time."""
    assert r.ephemeral, r
    for part in says:
        assert part in r.text, (part, r.text)
    m = TIMESTAMP.search(r.text)
    assert m, f"no time to try again in {r.text!r}"
    assert "something went wrong" not in r.text
    return int(m.group(1))


def no_errors(shared: Shared) -> None:
    bad = [ln for ln in shared.proc.output.splitlines() if " ERROR " in ln or "Traceback" in ln]
    assert not bad, "\n".join(bad)


# ---------------------------------------------------------------------- names and charts
async def test_the_leaderboard_shows_hostile_names_as_plain_text(shared: Shared) -> None:
    w = world(shared, "viewer")
    board = await answer(w, w.users[0], "leaderboard")
    text = board.text
    assert "\\[x\\](https://evil)" in text, text
    assert "[x](https://evil)" not in text, "no masked link"
    assert "$\\\\foo$" in text, "the backslash is escaped, and shows"
    assert "\\# big" in text
    assert "@\u200beveryone" in text
    assert "@everyone" not in text
    assert "\u202e" not in text
    no_errors(shared)


async def stats(w: World, viewer: User, member: User) -> Response | Message:
    inter = await w.fake.slash(viewer, w.channel, "stats", member=member)
    r = await inter.response()
    if r.deferred:
        return await inter.wait_followup()
    return r


def has_chart(r: Response | Message) -> bool:
    return any(a.filename == "rating.png" and a.data.startswith(b"\x89PNG") for a in r.attachments)


async def test_stats_draws_any_name_keeps_the_chart_and_limits_new_ones(shared: Shared) -> None:
    w = world(shared, "viewer")
    viewer = w.users[0]
    fake = shared.fake
    members = players(shared)
    # $\foo$ is maths to matplotlib: the chart is drawn with the name as plain text.
    first = await stats(w, viewer, members[0])
    assert has_chart(first), first.text
    assert "$\\\\foo$" in str(first.embeds[0]["title"])
    # Asking again draws nothing new: the kept chart is sent, and the limit is not touched.
    for _ in range(5):
        assert has_chart(await stats(w, viewer, members[0]))
    for m in members[1:4]:  # three more new charts: four in the minute, the member's limit
        assert has_chart(await stats(w, viewer, m))
    inter = await fake.slash(viewer, w.channel, "stats", member=members[4])
    refused = await inter.answer()
    until = refused_until(refused, "four new rating charts drawn in the last minute")
    assert not refused.attachments
    assert until > discord_time(inter.id)
    # The kept charts are still there for the asking, limit or not.
    assert has_chart(await stats(w, viewer, members[2]))
    # Another member's own limit is untouched.
    other = world(shared, "other").users[0]
    assert has_chart(await stats(w, other, members[4]))
    # A minute later (on Discord's clock) the viewer may have a new chart drawn again.
    fake.snowflakes.advance(61)
    assert has_chart(await stats(w, viewer, members[5]))
    no_errors(shared)


# ---------------------------------------------------------------------- reposting
async def test_reposting_a_table_message_is_limited_per_member_and_per_server(
    shared: Shared,
) -> None:
    fake = shared.fake
    w = world(shared, "alice", "bob")
    alice, bob = w.users
    await open_table(w, preset="standard")
    first = await fake.slash(alice, w.channel, "spades", "table")
    assert "Here it is" in (await first.answer()).text
    assert "Here it is" in (await answer(w, alice, "spades", "table")).text
    posted = len(fake.messages(w.channel))
    third = await fake.slash(alice, w.channel, "spades", "table")
    until = refused_until(await third.answer(), "twice in the last minute")
    allowed_at = discord_time(first.id) + 60  # the first repost leaves the minute
    assert allowed_at <= until < allowed_at + 1, (until, allowed_at)
    assert len(fake.messages(w.channel)) == posted, "nothing was posted"
    assert "Here it is" in (await answer(w, bob, "spades", "table")).text, "bob's own limit"
    fake.snowflakes.advance(until - discord_time(third.id) + 0.01)
    assert "Here it is" in (await answer(w, alice, "spades", "table")).text

    # The server's limit: 60 reposts a minute, whoever asks and wherever.  Discord lets a bot
    # post five messages in five seconds in one channel, so they are spread over 15 tables.
    tables = [world(shared, "host") for _ in range(15)]
    for t in tables:
        await open_table(t, preset="standard")
    fake.snowflakes.advance(61)
    crowd = world(shared, *(f"m{i}-" for i in range(31))).users
    with fake.snowflakes.held():  # all within the minute on Discord's clock, however slow
        for k in range(60):
            r = await answer(tables[k % 15], crowd[k // 2], "spades", "table")
            assert "Here it is" in r.text, r.text
        r = await answer(tables[0], crowd[30], "spades", "table")
        refused_until(r, "60 times on this server in the last minute")
    no_errors(shared)


# ---------------------------------------------------------------------- new threads
async def test_opening_tables_in_new_threads_is_limited_per_member_and_per_server(
    shared: Shared,
) -> None:
    fake = shared.fake
    w = world(shared, "alice")
    alice = w.users[0]

    async def new_thread(user: User) -> Response | Message:
        return await answer(w, user, "spades", "new", preset="standard", thread=True)

    for _ in range(2):
        r = await new_thread(alice)
        assert "Table opened" in r.text, r.text
        thread = fake.threads(w.channel)[-1]
        closed = await answer(w, alice, "spades", "abandon", channel=thread)
        assert "closed" in closed.text, closed.text
    threads = len(fake.threads(w.channel))
    inter = await fake.slash(alice, w.channel, "spades", "new", preset="standard", thread=True)
    until = refused_until(await inter.answer(), "two tables in new threads")
    assert until > discord_time(inter.id) + 9 * 60, "the first of the two leaves in 10 minutes"
    assert len(fake.threads(w.channel)) == threads, "no thread was opened"
    fake.snowflakes.advance(until - discord_time(inter.id) + 0.01)
    assert "Table opened" in (await new_thread(alice)).text

    # The server's limit: ten threads in ten minutes, whoever opens them.
    fake.snowflakes.advance(601)
    crowd = world(shared, *(f"t{i}-" for i in range(11)))
    for member in crowd.users[:10]:
        r = await new_thread(member)
        assert "Table opened" in r.text, r.text
    refused_until(await new_thread(crowd.users[10]), "Ten tables were opened in new threads")
    no_errors(shared)


# ---------------------------------------------------------------------- reviews
def review_buttons(message: Response | Message) -> dict[int, str]:
    """Game id → the custom id of its Review button on a /history message."""
    out = {}
    for c in message.all_components:
        if c.custom_id and (m := re.fullmatch(r"spades:rv:g:(\d+)", c.custom_id)):
            out[int(m.group(1))] = c.custom_id
    return out


async def test_reviews_queue_own_games_first_and_limit_others_games(shared: Shared) -> None:
    fake = shared.fake
    w = world(shared, "olga", "oscar")
    olga, oscar = w.users  # they played none of the games
    members = players(shared)
    theirs = await answer(w, olga, "history", member=members[0])
    mine = await answer(w, olga, "history", member=members[4])
    first_four = sorted(review_buttons(theirs))
    second_four = sorted(review_buttons(mine))
    assert len(first_four) == len(second_four) == GAMES_EACH

    async def review(user: User, message: Response | Message, game_id: int) -> Response:
        custom_id = review_buttons(message)[game_id]
        return await (await fake.click(user, message, custom_id)).response()

    a1, a2, a3, a4 = first_four
    for game in (a1, a2, a3):  # the first works, two wait
        r = await review(olga, theirs, game)
        assert r.ephemeral
        assert "decisions" in r.text, r.text
    # Olga has asked for three games she did not play this hour: her limit.
    refused_until(await review(olga, theirs, a4), "three games you did not play")
    # Oscar may: a fourth game of others' in the queue (its limit for them) ...
    assert "decisions" in (await review(oscar, theirs, a4)).text
    # ... and a fifth is refused until the running review is done.
    b1, b2 = second_four[:2]
    refused_until(await review(oscar, mine, b1), "Reviews are queued up")
    # A player's own game still has its place, and goes before the games of others.
    player = members[4]
    own = await review(player, mine, b2)
    assert own.ephemeral
    assert "1 review before this one" in own.text, own.text
    await shared.proc.wait_for_line(f"reviewing game {b2} ", timeout=240)
    out = shared.proc.output
    started = [int(g) for g in re.findall(r"reviewing game (\d+) ", out)]
    assert started[:2] == [a1, b2], f"the own game goes right after the one under way: {started}"
    no_errors(shared)
