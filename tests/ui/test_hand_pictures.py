"""Deal pictures are drawn off the event loop: asking for one returns at once, the loop goes
on answering while the drawing threads are busy, and the summary gets the picture when it is
done (or goes without it when drawing fails)."""

from __future__ import annotations

import asyncio
import io
import json
import threading
from pathlib import Path

import discord
from PIL import Image

from bot.engine import SEATS
from bot.engine.record import Replayer
from bot.tables.state import Occupant, Table, TableStatus
from bot.ui.images.deal import HEIGHT, WIDTH
from bot.ui.table.hand_pictures import PICTURE, DealPictures, PendingPicture, with_picture

RECORD = Path(__file__).resolve().parents[1] / "engine" / "records" / "euchre.json"


def finished_table() -> tuple[Table, Replayer]:
    replayer = Replayer(json.loads(RECORD.read_text(encoding="utf-8")))
    for _ in replayer.lines():
        pass
    game = replayer.game
    table = Table("t1", 1, 2, 3, game.rules, status=TableStatus.PLAYING, game=game)
    table.seats = {s: Occupant(100 + s, f"p{s}") for s in SEATS}
    return table, replayer


async def test_the_picture_is_drawn_in_a_worker_thread_while_the_loop_answers() -> None:
    table, replayer = finished_table()
    pictures = DealPictures(threads=2)
    gate = threading.Event()
    try:
        # Both drawing threads busy: a picture asked for now waits for a thread, and the
        # event loop must not wait with it.
        busy = [pictures._pool.submit(gate.wait) for _ in range(2)]
        pending = pictures.start(table, replayer.game.results[0])
        assert not pending.png.done(), "start() returns before any drawing"
        answered = asyncio.Event()
        asyncio.get_running_loop().call_soon(answered.set)
        await answered.wait()  # the loop runs other work while the picture waits
        assert not pending.png.done()
        gate.set()
        post = await with_picture({"embed": discord.Embed(title="Hand 1"), PICTURE: pending})
        assert all(b.done() for b in busy)
        file = post["file"]
        assert isinstance(file, discord.File)
        assert file.filename == pending.filename
        assert post["embed"].image.url == f"attachment://{pending.filename}"
        with Image.open(io.BytesIO(file.fp.read())) as img:
            assert img.size == (WIDTH, HEIGHT)
    finally:
        gate.set()
        pictures.close()


async def test_a_picture_that_fails_leaves_the_summary_without_one() -> None:
    loop = asyncio.get_running_loop()
    failed: asyncio.Future[bytes] = loop.create_future()
    failed.set_exception(RuntimeError("no font"))
    embed = discord.Embed(title="Hand 1")
    post = await with_picture({"embed": embed, PICTURE: PendingPicture(failed, "deal-t1-1.png")})
    assert "file" not in post
    assert post["embed"] is embed
    assert not embed.image
