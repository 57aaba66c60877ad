"""The deal picture goes out in a fixed palette (bot/ui/images/palette.py): every pixel of the
full-colour drawing is one of its colours or close to one, for every record's hands, in both
suit schemes, so the picture looks as drawn."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.engine import SEATS
from bot.engine.record import Replayer
from bot.ui.images.deal import diagram_of, draw_deal, render_deal
from bot.ui.images.palette import blends, fixed_palette

RECORDS = Path(__file__).resolve().parents[1] / "engine" / "records"
NAMES = {s: f"Player {int(s) + 1}" for s in SEATS}
# The most a channel may change: the blends are 1/16 of the way apart, so an anti-aliased
# pixel of two colours lands within half a step of a shade (the widest pair, white on the
# centre's dark felt, has steps of 15 or less); where three meet, a little more.
MOST = 12


@pytest.mark.parametrize("record", ["standard.json", "joker.json", "euchre.json", "whist.json"])
@pytest.mark.parametrize("scheme", ["two", "four"])
def test_the_paletted_picture_is_the_drawing(record: str, scheme: str) -> None:
    replayer = Replayer(json.loads((RECORDS / record).read_text(encoding="utf-8")))
    for _ in replayer.lines():
        pass
    diagram = diagram_of(replayer.game.results[0], replayer.game.rules, NAMES, scheme)
    drawn, _texts = draw_deal(diagram)
    sent = Image.open(io.BytesIO(render_deal(diagram).png))
    assert sent.mode == "P"
    worst = ImageChops.difference(drawn, sent.convert("RGB")).getextrema()
    assert max(hi for _lo, hi in worst) <= MOST, worst


def test_blends_run_from_one_colour_to_the_other() -> None:
    shades = blends((0, 0, 0), (160, 80, 32), shades=15)
    assert shades[0] == (0, 0, 0)
    assert shades[-1] == (160, 80, 32)
    assert len(shades) == 17
    assert shades[8] == (80, 40, 16)


def test_a_palette_holds_at_most_256_colours() -> None:
    many = tuple(((i, 0, 0), (i, 255, 255)) for i in range(20))
    with pytest.raises(ValueError, match="do not fit"):
        fixed_palette(many)
