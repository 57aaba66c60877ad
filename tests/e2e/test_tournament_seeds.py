"""A duplicate round's shared seed through the real bot and the fake Discord
(docs/verifiable-deals.md, docs/tournaments.md): every table of the round deals from one
seed, so a table that ends while another still plays must not reveal it — not in its
game-over message, not in ``/spades verify``, not in its record from ``/history``, not to a
spectator.  Once the round's last table has ended, the round notice gives the seed and every
game of the round verifies."""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import sqlite3
from pathlib import Path

from tests.e2e.driver import eventually
from tests.e2e.tournament_flows import Night, new_night, open_night, sign_up_pairs
from tests.fakediscord import Channel, FakeDiscord, Message, run_bot

ENV = {"SPADES_TEST_SEED": "11", "SPADES_BOT_DELAY": "0", "LOG_LEVEL": "INFO"}
GAME_OVER_TABLE = re.compile(r"Table (\w+) · \d+ hands")


def db_rows(tmp_path: Path, sql: str) -> list[tuple[object, ...]]:
    with contextlib.closing(sqlite3.connect(tmp_path / "spades.db")) as conn:
        return list(conn.execute(sql))


def everything_sent(fake: FakeDiscord) -> str:
    """Every payload the fake recorded: each version of every message (channel, thread, DM,
    ephemeral answer), its embeds and components, and the bytes of its attachments."""
    parts: list[str] = []
    for m in fake.visible_messages(None):
        for state in m.versions:
            parts.append(state.text)
            parts.append(json.dumps(state.embeds))
            parts.extend(a.data.decode("utf-8", "replace") for a in state.attachments)
    return "\n".join(parts)


def game_over(fake: FakeDiscord, thread: Channel) -> Message | None:
    return next((m for m in fake.messages(thread) if "Game over" in m.text), None)


async def leave_in(night: Night, thread: Channel) -> None:
    """The members seated at ``thread``'s table leave (computers finish their game)."""
    for m in night.fake.messages(thread):
        if "your game is on" not in m.text:
            continue
        for user in night.players:
            if f"<@{user.id}>" in m.text and (m.id, user.id) not in night.left:
                night.left.add((m.id, user.id))
                r = await (await night.fake.slash(user, thread, "spades", "leave")).answer()
                assert "computer player" in r.text, r.text


async def test_a_duplicate_rounds_seed_stays_hidden_until_its_last_table_ends(
    tmp_path: Path,
) -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Spades Club")
        night = new_night(fake, guild, 8)
        env = {**ENV, "DATABASE_PATH": str(tmp_path / "spades.db")}
        async with run_bot(fake, env=env) as proc:
            await open_night(
                night, name="Duplicate", format="duplicate", rounds=1, boards=2, turn_timer=0
            )
            await sign_up_pairs(night)
            r = await night.ask(night.organiser, "tournament", "start")
            assert "has started" in r.text, r.text

            def seated() -> list[Channel]:
                return [
                    t
                    for t in fake.threads(night.channel)
                    if any("your game is on" in m.text for m in fake.messages(t))
                ]

            await eventually(lambda: len(seated()) == 2)
            first, second = seated()
            # Someone not playing watches the first table while it runs.
            watched = await (await fake.slash(night.organiser, first, "spades", "watch")).response()
            assert watched.ephemeral
            # The first table's members leave: computers play its two boards to the end,
            # while the second table waits for its members (no turn timer).
            await leave_in(night, first)
            await eventually(lambda: game_over(fake, first) is not None, timeout=60)
            over = game_over(fake, first)
            assert over is not None
            match = GAME_OVER_TABLE.search(over.text)
            assert match is not None, over.text
            first_id = match.group(1)
            assert game_over(fake, second) is None
            [(seed,)] = db_rows(tmp_path, "SELECT DISTINCT seed FROM tables")
            assert isinstance(seed, str)
            assert len(seed) == 64
            commitment = hashlib.sha256(bytes.fromhex(seed)).hexdigest()
            assert "revealed when the round's last table ends" in over.text, over.text

            # While the second table plays the same boards: /spades verify gives the
            # commitment only, the record from /history has no seed.
            r = await night.ask(night.players[0], "spades", "verify", game=first_id)
            assert "revealed when the round's last table ends" in r.text, r.text
            assert commitment in r.text
            announced = next(m for m in fake.messages(first) if "your game is on" in m.text)
            player = next(u for u in night.players if f"<@{u.id}>" in announced.text)
            hist = await (await fake.slash(player, night.channel, "history")).response()
            pick = next(c for c in hist.all_components if c.custom_id and ":pick:" in c.custom_id)
            chosen = await fake.select(player, hist, pick.custom_id, [pick.values[0]])
            got = await chosen.response()
            (record_file,) = got.attachments
            doc = json.loads(record_file.data)
            assert "seed" not in doc
            assert doc["commitment"] == commitment
            # Nowhere: no message, answer, attachment or spectator view, no log line.
            assert seed not in everything_sent(fake)
            assert seed not in proc.output

            # The second table ends too: the round is over and its notice gives the seed.
            await leave_in(night, second)
            await night.play_out(lambda: "final results" in night.title())
            notice = next(m for m in night.messages() if "Round 1 is over" in m.text)
            assert f"`{seed}`" in notice.text, notice.text
            assert commitment in notice.text
            r = await night.ask(night.players[0], "spades", "verify", game=first_id)
            assert "verifies.**" in r.text, r.text
            assert json.loads(r.attachments[0].data)["seed"] == seed
