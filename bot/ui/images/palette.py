"""A fixed palette for a picture drawn in a few known colours: each colour, and the shades
anti-aliasing makes of each colour drawn over another (:func:`fixed_palette`).

Mapping a picture to it costs a sixth of what building a palette for each picture did (an
octree, about 6 ms of CPU for a deal diagram, in a thread that shares the interpreter with the
event loop), and the picture looks the same: every pixel is one of those colours or a blend of
two of them.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from PIL import Image

from bot.ui.images.cards import RGB

SHADES = 15  # blends between two colours, besides the two themselves


def blends(under: RGB, over: RGB, shades: int = SHADES) -> list[RGB]:
    """``over`` drawn on ``under`` at each coverage from none to full."""
    steps = shades + 1
    return [
        (
            round(under[0] + (over[0] - under[0]) * i / steps),
            round(under[1] + (over[1] - under[1]) * i / steps),
            round(under[2] + (over[2] - under[2]) * i / steps),
        )
        for i in range(steps + 1)
    ]


@cache
def fixed_palette(pairs: tuple[tuple[RGB, RGB], ...]) -> Image.Image:
    """A palette image (for ``Image.quantize(palette=…)``) holding both colours of every pair
    and their blends; at most 256 colours."""
    colours = list(dict.fromkeys(_all(pairs)))
    if len(colours) > 256:
        raise ValueError(f"{len(colours)} colours do not fit a palette")
    colours += [colours[0]] * (256 - len(colours))  # unused entries: a colour of the picture
    image = Image.new("P", (1, 1))
    image.putpalette([channel for colour in colours for channel in colour])
    return image


def _all(pairs: Iterable[tuple[RGB, RGB]]) -> Iterable[RGB]:
    for under, over in pairs:
        yield from blends(under, over)
