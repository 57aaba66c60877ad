"""Card faces: every card of every deck drawn, distinct, of the size Discord takes, readable
at emoji size on both Discord themes, and telling the four suits apart with any colour vision."""

from __future__ import annotations

import io
import itertools
import re

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.engine import DECKS
from bot.engine.cards import BY_CODE
from bot.ui.images.cards import (
    CARD_FILL,
    EDGE,
    FACE_SIZE,
    MAX_EMOJI_BYTES,
    SCHEMES,
    SUIT_COLOURS,
    all_faces,
    card_fill,
    emoji_name,
    face,
    face_codes,
    suit_colour,
)
from tests.ui.images.colour import CVD, DISCORD_DARK, DISCORD_LIGHT, contrast, seen_distance

EMOJI_NAME = re.compile(r"^[A-Za-z0-9_]{2,32}$")  # Discord's rule for emoji names
BUTTON_EMOJI_PX = 22  # about the size Discord shows an emoji on a button or inline


def decoded(png: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


def test_every_card_of_every_deck_has_a_face_in_every_scheme() -> None:
    in_use = {c.code for deck in DECKS.values() for c in deck.cards}
    assert set(face_codes()) == in_use
    faces = all_faces()
    assert {(f.code, f.scheme) for f in faces} == {(c, s) for c in in_use for s in SCHEMES}


@pytest.mark.parametrize("scheme", SCHEMES)
def test_faces_are_square_png_emojis_within_discords_limits(scheme: str) -> None:
    for code in face_codes():
        f = face(code, scheme)
        assert f.png.startswith(b"\x89PNG\r\n\x1a\n")
        assert len(f.png) <= MAX_EMOJI_BYTES
        img = decoded(f.png)
        assert img.size == (FACE_SIZE, FACE_SIZE) == (128, 128)
        assert img.mode == "RGBA"
        assert EMOJI_NAME.match(f.name), f.name


def test_emoji_names_are_unique_and_name_the_card() -> None:
    names = [f.name for f in all_faces()]
    assert len(set(names)) == len(names)
    assert emoji_name("AS") == "c_AS"
    assert emoji_name("TD", "four") == "c4_TD"
    assert emoji_name("BJ") == "c_BJ"


@pytest.mark.parametrize("scheme", SCHEMES)
def test_every_face_is_distinct_even_at_button_size(scheme: str) -> None:
    small = {
        code: decoded(face(code, scheme).png)
        .convert("RGB")
        .resize((BUTTON_EMOJI_PX, BUTTON_EMOJI_PX), Image.Resampling.LANCZOS)
        for code in face_codes()
    }
    for (a, ia), (b, ib) in itertools.combinations(small.items(), 2):
        diff = ImageStat.Stat(ImageChops.difference(ia, ib)).mean
        # Two faces differ by at least a glyph's worth of pixels, not by noise.
        assert sum(diff) / 3 > 2.0, f"{a} and {b} look alike at {BUTTON_EMOJI_PX} px"


def test_four_colour_suits_stay_apart_for_every_kind_of_colour_vision() -> None:
    colours = SUIT_COLOURS["four"]
    assert len(set(colours.values())) == 4
    for kind in CVD:
        for a, b in itertools.combinations("SHDC", 2):
            distance = seen_distance(colours[a], colours[b], kind)
            # ΔE ≈ 2 is just noticeable; 30 is "clearly another colour".
            assert distance > 30, f"{a} and {b} are too close ({distance:.1f}) with {kind}"


@pytest.mark.parametrize("scheme", SCHEMES)
def test_ink_is_legible_on_the_card(scheme: str) -> None:
    for code in face_codes():
        c = BY_CODE[code]
        # WCAG AA for text: 4.5:1.
        assert contrast(suit_colour(c, scheme), card_fill(c)) >= 4.5, code


@pytest.mark.parametrize(
    ("background", "theme"), [(DISCORD_DARK, "dark"), (DISCORD_LIGHT, "light")]
)
def test_the_card_stands_out_on_both_discord_themes(
    background: tuple[int, int, int], theme: str
) -> None:
    # A card is seen where its fill or its edge contrasts with the chat (WCAG: 3:1 for shapes).
    assert max(contrast(CARD_FILL, background), contrast(EDGE, background)) >= 3, theme
    img = decoded(face("7H").png)
    shown = Image.new("RGBA", img.size, (*background, 255))
    shown.alpha_composite(img)
    assert shown.getpixel((1, 1))[:3] == background, "outside the card the chat shows through"
    # Going down from the top: the chat, the card's edge, the card's fill.
    column = [shown.getpixel((FACE_SIZE // 2, y))[:3] for y in range(10)]
    best = max(contrast((c[0], c[1], c[2]), background) for c in column)
    assert best >= 3, f"the card's outline is lost on the {theme} theme"


def test_jokers_differ_in_shape_not_only_colour() -> None:
    big = decoded(face("BJ").png).convert("L")
    little = decoded(face("LJ").png).convert("L")
    diff = ImageStat.Stat(ImageChops.difference(big, little)).mean[0]
    assert diff > 10
