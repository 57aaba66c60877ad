"""The fonts pictures are drawn with: DejaVu Sans, which matplotlib (a dependency) ships.

No downloaded assets and no system fonts: the same files on every machine, so a face or a
diagram looks the same everywhere (and the golden-image test holds).  FreeType faces are not
shared between threads: each drawing thread gets its own."""

from __future__ import annotations

import functools
import importlib.util
import threading
from pathlib import Path

from PIL import ImageFont

BOLD = "DejaVuSans-Bold.ttf"
REGULAR = "DejaVuSans.ttf"

_local = threading.local()


@functools.cache
def font_dir() -> Path:
    """matplotlib's font folder, found without importing matplotlib (a slow import)."""
    spec = importlib.util.find_spec("matplotlib")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("matplotlib (a dependency, for its fonts) is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / "mpl-data" / "fonts" / "ttf"


def font(name: str, size: int) -> ImageFont.FreeTypeFont:
    """The font ``name`` at ``size`` pixels, cached per thread."""
    cache: dict[tuple[str, int], ImageFont.FreeTypeFont] | None = getattr(_local, "fonts", None)
    if cache is None:
        cache = _local.fonts = {}
    f = cache.get((name, size))
    if f is None:
        f = cache[(name, size)] = ImageFont.truetype(str(font_dir() / name), size)
    return f
