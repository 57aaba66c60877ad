"""A duplicate round's shared seed through the real bot and the fake Discord
(docs/verifiable-deals.md, docs/tournaments.md): every table of the round deals from one
seed, so a table that ends while another still plays must not reveal it — not in its
game-over message, not in ``/spades verify``, not in its record from ``/history``, not to a
spectator.  Nor may its boards show another way: no review, shared replay or record of the
game, no deal picture of a finished hand.  Once the round's last table has ended, the round
notice gives the seed, every game of the round verifies, and reviews and replays work."""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import sqlite3
from pathlib import Path

from bot.league.recording import decode_record
from tests.e2e.driver import eventually
from tests.e2e.test_replay import labelled
from tests.e2e.test_review import review_id
from tests.e2e.tournament_flows import new_night, open_night, sign_up_pairs
from tests.fakediscord import Channel, FakeDiscord, Message, run_bot

ENV = {
    "SPADES_TEST_SEED": "11",
    "SPADES_BOT_DELAY": "0",
    "LOG_LEVEL": "INFO",
    "REVIEW_CPU_BUDGET": "6",
}
GAME_OVER_TABLE = re.compile(r"Table (\w+) · \d+ hands")
WITHHELD = "available when the round's last table ends"


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


def payloads(fake: FakeDiscord) -> list[str]:
    """Every payload the fake recorded, one string per version of each message."""
    out: list[str] = []
    for m in fake.visible_messages(None):
        for state in m.versions:
            files = [
                f"{a.filename}\n{a.data.decode('utf-8', 'replace')}" for a in state.attachments
            ]
            out.append("\n".join([state.text, json.dumps(state.embeds), *files]))
    return out


def dealt_hands(tmp_path: Path, table_id: str) -> list[list[str]]:
    """Every seat's hand as dealt in each board of ``table_id``'s recorded game (as shown:
    ``A♠``), read from the database."""
    from bot.engine import card

    [(data, encoding)] = db_rows(
        tmp_path,
        "SELECT r.data, r.encoding FROM league_records r JOIN league_games g "
        f"ON g.game_id = r.game_id WHERE g.table_id = '{table_id}'",
    )
    doc = decode_record(data, encoding)  # type: ignore[arg-type]
    return [[str(card(c)) for c in held] for h in doc["hands"] for held in h["deal"].values()]


def game_over(fake: FakeDiscord, thread: Channel) -> Message | None:
    return next((m for m in fake.messages(thread) if "Game over" in m.text), None)


async def test_a_duplicate_rounds_seed_stays_hidden_until_its_last_table_ends(
    tmp_path: Path,
) -> None:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Spades Club")
        night = new_night(fake, guild, 8)
        env = {**ENV, "DATABASE_PATH": str(tmp_path / "spades.db")}
        async with run_bot(fake, env=env) as proc:
            await open_night(
                night,
                name="Duplicate",
                format="duplicate",
                rounds=1,
                boards=2,
                turn_timer=0,
                spectators=True,  # the organiser (not entered) watches
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
            assert "Watching table" in watched.text, watched.text
            # The first table's members leave: computers play its two boards to the end,
            # while the second table waits for its members (no turn timer).
            await night.leave_table(first)
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
            # Its record lists every board's deal: /history refuses it, like the review
            # (the game-over message's button) and a shared replay of the game.
            hist = await (await fake.slash(player, night.channel, "history")).response()
            pick = next(c for c in hist.all_components if c.custom_id and ":pick:" in c.custom_id)
            chosen = await fake.select(player, hist, pick.custom_id, [pick.values[0]])
            got = await chosen.response()
            assert WITHHELD in got.text, got.text
            assert not got.attachments
            review = await (await fake.click(player, over, review_id(over))).response()
            assert review.ephemeral
            assert WITHHELD in review.text, review.text
            # **Share as replay** is a button of the review only: refused with it, and no
            # replay thread is posted (cogs/replay.py refuses the game's record as well).
            assert not [t for t in fake.threads(night.channel) if "Replay" in t.name]
            # Nowhere: no message, answer, attachment or spectator view, no log line.
            assert seed not in everything_sent(fake)
            assert seed not in proc.output
            # No payload shows a board's hands: no deal picture, no hand as dealt.
            sent = payloads(fake)
            assert not [p for p in sent if f"deal-{first_id}-" in p]
            for held in dealt_hands(tmp_path, first_id):
                assert len(held) == 13
                assert not [p for p in sent if all(c in p for c in held)], held

            # The second table ends too: the round is over and its notice gives the seed.
            await night.leave_table(second)
            await night.play_out(lambda: "final results" in night.title())
            notice = next(m for m in night.messages() if "Round 1 is over" in m.text)
            assert f"`{seed}`" in notice.text, notice.text
            assert commitment in notice.text
            r = await night.ask(night.players[0], "spades", "verify", game=first_id)
            assert "verifies.**" in r.text, r.text
            assert json.loads(r.attachments[0].data)["seed"] == seed
            # Now the game's review, replay and record are anyone's to see.
            got = await (
                await fake.select(player, hist, pick.custom_id, [pick.values[0]])
            ).response()
            (record_file,) = got.attachments
            assert json.loads(record_file.data)["seed"] == seed
            opened = await (await fake.click(player, over, review_id(over))).response()
            reviewed = opened.message
            assert reviewed is not None, opened.text
            await fake.wait_for_edit(reviewed, lambda m: "Page 1 of" in m.text, timeout=240)
            shared = await (
                await fake.click(player, reviewed, labelled(reviewed, "Share as replay"))
            ).answer()
            assert "Your replay is posted" in shared.text, shared.text
            assert "Traceback" not in proc.output
