"""Members' display names: cleaned where they come in, escaped where they reach markdown.

A display name is whatever its member typed: ``[free nitro](https://evil)``, ``# HUGE``,
``1. first``, ``@everyone``, a right-to-left override (U+202E, which turns the rest of a line
around), ``$\\alpha$``.  The bot keeps a *clean* name (:func:`clean_name`: one line, no control,
format — bidi and zero-width among them — or private-use characters, at most
:data:`NAME_MAX` characters), and every message that puts a name into markdown writes
:func:`md_name`: the name reads exactly as typed, and is nothing but text — no masked link,
heading, list, quote, emphasis, spoiler, code span, mention, channel or timestamp.

The same holds for other names members type (a tournament's, :func:`clean_text` with its own
length).  Plain-text places (button labels, thread names, pictures, the rating chart) take the
clean name as it is; the chart also turns off matplotlib's ``$…$`` maths (:mod:`bot.league.chart`).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Final

NAME_MAX: Final = 32  # characters of a display name kept (Discord allows 32)
_DROP: Final = frozenset(("Cc", "Cf", "Co", "Cs"))  # control, format (bidi), private, surrogate
_MARKS: Final = frozenset(("Mn", "Me"))
MAX_MARKS: Final = 4  # combining marks kept on one character (no towers of "Zalgo" text)
# Inline markdown, everywhere in a name: escape, emphasis, strike, code, spoiler, the brackets
# of a masked link, and the ``<`` of a mention, channel, emoji or timestamp.
_INLINE: Final = re.compile(r"([\\*_~`|\[\]<])")
# Markdown that starts a line (a name may begin one): heading, quote, list item, subtext.
_LINE_START: Final = re.compile(r"^([#>+-])")
_NUMBERED: Final = re.compile(r"^([0-9]+)([.)])")
ZWSP: Final = "\u200b"


def clean_name(raw: str, fallback: str = "Player", *, limit: int = NAME_MAX) -> str:
    """``raw`` on one line: line breaks and tabs become spaces, runs of spaces one, control,
    format (bidi overrides, zero-width characters) and private-use characters go, at most
    :data:`MAX_MARKS` combining marks stay on a character, and at most ``limit`` (a display
    name's :data:`NAME_MAX`) characters remain.  ``fallback`` (cleaned the same way) when
    nothing is left."""
    return clean_text(raw, limit) or clean_text(fallback, limit) or "Player"


def clean_text(raw: str, limit: int) -> str:
    """``raw`` cleaned as :func:`clean_name` cleans a name, at most ``limit`` characters; an
    empty string when nothing is left (a name a member typed for something: a tournament's)."""
    out: list[str] = []
    marks = 0
    for c in raw:
        category = unicodedata.category(c)
        if category in ("Zl", "Zp") or c in "\t\n\r\v\f":
            c, category = " ", "Zs"
        elif category in _DROP:
            continue
        if category in _MARKS:
            marks += 1
            if marks > MAX_MARKS:
                continue
        else:
            marks = 0
        out.append(c)
    return " ".join("".join(out).split())[:limit].strip()


def md_name(name: str, *, limit: int = NAME_MAX) -> str:
    """``name`` (cleaned) for a markdown message: it reads as typed and does nothing else.

    Inline markdown characters are escaped with a backslash (Discord shows ``\\*`` as ``*``);
    a heading, quote, list or subtext marker at its start is escaped too (a name may begin a
    line); ``@`` is followed by a zero-width space, so ``@everyone`` and ``@here`` neither
    ping nor look like a mention whatever a message's allowed mentions."""
    return _md_name(name, limit)


@functools.lru_cache(maxsize=4096)
def _md_name(name: str, limit: int) -> str:
    """:func:`md_name`, remembered: the table message writes every seated name at each
    change, and cleaning and escaping one costs as much as the rest of a seat's lines."""
    text = clean_name(name, "?", limit=limit)
    text = _INLINE.sub(r"\\\1", text)
    text = _NUMBERED.sub(r"\1\\\2", text)
    text = _LINE_START.sub(r"\\\1", text)
    return text.replace("@", "@" + ZWSP)
