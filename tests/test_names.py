"""Display names: cleaned where they come in (one line, no bidi or control characters),
escaped where they reach markdown (they read as typed and do nothing else)."""

from __future__ import annotations

import re

import pytest

from bot.names import NAME_MAX, ZWSP, clean_name, md_name

HOSTILE = [
    "[x](https://evil)",
    "# big",
    "## big",
    "-# small",
    "- item",
    "* item",
    "1. first",
    "> quote",
    "**b** _i_ ~~s~~ ||x|| `c`",
    "@everyone",
    "@here",
    "<@123456789012345678>",
    "<#123456789012345678>",
    "<t:0:R>",
    "$\\foo$",
    "back\\slash",
]


def shown(markdown: str) -> str:
    """What a reader sees of an escaped name: the escapes and zero-width spaces gone."""
    return re.sub(r"\\(.)", r"\1", markdown).replace(ZWSP, "")


@pytest.mark.parametrize("name", HOSTILE)
def test_an_escaped_name_reads_exactly_as_typed(name: str) -> None:
    assert shown(md_name(name)) == name


@pytest.mark.parametrize("name", HOSTILE)
def test_an_escaped_name_is_only_text(name: str) -> None:
    text = md_name(name)
    unescaped = re.sub(r"\\.", "", text)  # what markdown could still act on
    assert not re.search(r"[*_~`|\[\]<]", unescaped), text
    assert not re.match(r"[#>+-]|[0-9]+[.)]", text), "no heading, quote or list at its start"
    assert "@everyone" not in text
    assert "@here" not in text


def test_a_masked_link_is_no_link() -> None:
    assert md_name("[x](https://evil)") == "\\[x\\](https://evil)"


def test_a_heading_is_no_heading() -> None:
    assert md_name("# big") == "\\# big"
    assert md_name("-# small") == "\\-# small"
    assert md_name("1. first") == "1\\. first"


def test_bidi_and_control_characters_are_dropped() -> None:
    assert clean_name("\u202eevil\u202c") == "evil"
    assert clean_name("a\u200bb\u2066c\u2069") == "abc"
    assert clean_name("two\nlines\tand  tabs") == "two lines and tabs"
    assert clean_name("\x00\x07bell") == "bell"
    assert md_name("\u202e# big") == "\\# big", "cleaned first, then escaped"


def test_a_name_is_cut_to_discords_length_and_never_empty() -> None:
    assert clean_name("x" * 100) == "x" * NAME_MAX
    assert clean_name("\u202e\u200b", fallback="alice_99") == "alice_99"
    assert clean_name("   ", fallback="\u202e") == "Player"


def test_towers_of_combining_marks_are_cut_down() -> None:
    zalgo = "a" + "\u0301" * 30 + "b"
    assert clean_name(zalgo) == "a" + "\u0301" * 4 + "b"
    assert clean_name("Nguyễn") == "Nguyễn"


def test_ordinary_names_are_unchanged() -> None:
    for name in ("alice", "Zoë", "山田", "Computer (hard)", "Mr. T", "x-y", "a#1"):
        assert md_name(name) == name
