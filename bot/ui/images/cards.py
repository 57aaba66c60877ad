"""Card faces: one square PNG per card, drawn by code, for Discord application emojis.

A face is a white card with a dark edge (it stands out on Discord's dark theme and keeps its
outline on the light one), the rank large in the upper half and the suit's pip large in the
lower half, so it stays readable at the ~20-pixel size of a button emoji.  Two colour schemes:

* ``two`` — the usual black spades and clubs, red hearts and diamonds;
* ``four`` — the four-colour deck (black ♠, red ♥, blue ♦, green ♣) for colour-blind players
  and everyone who likes to tell suits apart at a glance; the four colours are chosen to stay
  apart under protanopia, deuteranopia and tritanopia (tests/ui/images/test_card_faces.py
  checks it).

Jokers: the big joker on a gold card with a filled star, the little joker on a white card with
a hollow star, so they differ in shape as well as colour.

Emoji names are ``c_<code>`` (two-colour) and ``c4_<code>`` (four-colour), e.g. ``c_AS``.
"""

from __future__ import annotations

import functools
import io
import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw

from bot.engine import DECKS, Card
from bot.engine.cards import BIG_JOKER, BY_CODE, LITTLE_JOKER, RANK_CHARS
from bot.ui.images.fonts import BOLD, font

FACE_SIZE: Final = 128  # Discord shows emojis at up to 128 px; larger uploads are scaled down
MAX_EMOJI_BYTES: Final = 256 * 1024  # Discord's limit for an emoji image
SCHEMES: Final = ("two", "four")
RGB = tuple[int, int, int]

INK: Final[RGB] = (17, 17, 17)
RED: Final[RGB] = (195, 0, 0)
BLUE: Final[RGB] = (60, 40, 210)
GREEN: Final[RGB] = (0, 130, 100)
SUIT_COLOURS: Final[dict[str, dict[str, RGB]]] = {
    "two": {"S": INK, "H": RED, "D": RED, "C": INK},
    "four": {"S": INK, "H": RED, "D": BLUE, "C": GREEN},
}
CARD_FILL: Final[RGB] = (255, 255, 255)
BIG_JOKER_FILL: Final[RGB] = (255, 224, 130)
EDGE: Final[RGB] = (64, 64, 64)
PIPS: Final = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

# Layout on the 128 × 128 canvas (transparent outside the card).
_CARD_BOX: Final = (12, 2, 116, 126)
_RADIUS: Final = 14
_EDGE_WIDTH: Final = 4
_RANK_BOX: Final = (20, 9, 108, 61)
_PIP_BOX: Final = (20, 65, 108, 121)
_SUPERSAMPLE: Final = 4  # draw shapes four times larger, then scale down (smooth edges)


def face_codes() -> tuple[str, ...]:
    """Every card of every deck in use, in card order."""
    mask = 0
    for deck in DECKS.values():
        mask |= deck.mask
    return tuple(c.code for c in sorted(BY_CODE.values(), key=lambda c: c.index) if c.bit & mask)


def emoji_name(code: str, scheme: str = "two") -> str:
    """The application emoji's name: ``c_AS`` (two-colour), ``c4_AS`` (four-colour)."""
    return ("c_" if scheme == "two" else "c4_") + code


def rank_text(c: Card) -> str:
    if c.is_joker:
        return "JK"
    return "10" if c.rank == 10 else RANK_CHARS[c.rank - 2]


def suit_colour(c: Card, scheme: str) -> RGB:
    if c.index == BIG_JOKER:
        return RED
    if c.is_joker:
        return INK
    assert c.suit is not None
    return SUIT_COLOURS[scheme][c.suit]


def card_fill(c: Card) -> RGB:
    return BIG_JOKER_FILL if c.index == BIG_JOKER else CARD_FILL


def fit_text(
    text: str, box: tuple[int, int, int, int], colour: RGB, *, squeeze: float = 0.72
) -> Image.Image:
    """``text`` in bold, as large as fits ``box`` (RGBA, the box's size, centred); a text too
    wide for the box is narrowed down to ``squeeze`` of its width before it is shrunk."""
    w, h = box[2] - box[0], box[3] - box[1]
    f = font(BOLD, 4 * h)
    left, top, right, bottom = (int(v) for v in f.getbbox(text))
    mask = Image.new("L", (right - left, bottom - top), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255)
    tw, th = mask.size
    scale = h / th
    sx = sy = scale
    if tw * sx > w:
        sx = max(w / tw, scale * squeeze)
        if tw * sx > w:  # still too wide even narrowed: shrink both ways
            sx = w / tw
            sy = sx / squeeze if sx / squeeze < scale else scale
    size = (max(1, round(tw * sx)), max(1, round(th * sy)))
    mask = mask.resize(size, Image.Resampling.LANCZOS)
    out = Image.new("RGBA", (w, h), (*colour, 0))
    solid = Image.new("RGBA", size, (*colour, 255))
    out.paste(solid, ((w - size[0]) // 2, (h - size[1]) // 2), mask)
    return out


def _star(cx: float, cy: float, r: float, inner: float = 0.42) -> list[tuple[float, float]]:
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * inner
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


def _joker_pip(c: Card, box: tuple[int, int, int, int]) -> Image.Image:
    k = _SUPERSAMPLE
    w, h = box[2] - box[0], box[3] - box[1]
    big = Image.new("RGBA", (w * k, h * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    r = min(w, h) * k / 2
    points = _star(w * k / 2, h * k / 2 + r * 0.08, r)
    colour = suit_colour(c, "two")
    if c.index == BIG_JOKER:
        d.polygon(points, fill=(*colour, 255))
    else:
        d.polygon(points, outline=(*colour, 255), width=int(5 * k))
    return big.resize((w, h), Image.Resampling.LANCZOS)


@functools.cache
def _blank_card(fill: RGB) -> Image.Image:
    k = _SUPERSAMPLE
    base = Image.new("RGBA", (FACE_SIZE * k, FACE_SIZE * k), (0, 0, 0, 0))
    x0, y0, x1, y1 = (v * k for v in _CARD_BOX)
    ImageDraw.Draw(base).rounded_rectangle(
        (x0, y0, x1, y1),
        radius=_RADIUS * k,
        fill=(*fill, 255),
        outline=(*EDGE, 255),
        width=_EDGE_WIDTH * k,
    )
    return base.resize((FACE_SIZE, FACE_SIZE), Image.Resampling.LANCZOS)


def render_face(code: str, scheme: str = "two") -> Image.Image:
    """The face of the card ``code`` (``"AS"``, ``"TD"``, ``"BJ"``) as a 128 × 128 RGBA image."""
    if scheme not in SCHEMES:
        raise ValueError(f"unknown colour scheme {scheme!r}")
    c = BY_CODE[code]
    img = _blank_card(card_fill(c)).copy()
    colour = suit_colour(c, scheme)
    rank = fit_text(rank_text(c), _RANK_BOX, colour)
    img.alpha_composite(rank, _RANK_BOX[:2])
    if c.index in (BIG_JOKER, LITTLE_JOKER):
        pip = _joker_pip(c, _PIP_BOX)
    else:
        assert c.suit is not None
        pip = fit_text(PIPS[c.suit], _PIP_BOX, colour)
    img.alpha_composite(pip, _PIP_BOX[:2])
    return img


def png_bytes(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=6)
    return buf.getvalue()


@dataclass(frozen=True, slots=True)
class Face:
    code: str
    scheme: str
    name: str  # the application emoji's name
    png: bytes


@functools.cache
def face(code: str, scheme: str = "two") -> Face:
    """The rendered face (cached for the life of the process)."""
    return Face(code, scheme, emoji_name(code, scheme), png_bytes(render_face(code, scheme)))


def all_faces(schemes: Iterable[str] = SCHEMES) -> list[Face]:
    """Every face of every deck in use, in every scheme."""
    return [face(code, s) for s in schemes for code in face_codes()]
