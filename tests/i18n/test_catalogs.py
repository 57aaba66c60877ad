"""The catalogs: each language has every message of the source, no other, with the same
placeholders (plural forms included); the template is what the code marks now; command names
pass Discord's rules; every character shipped can be drawn by the pictures' font."""

from __future__ import annotations

import string
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from bot.i18n import LANGUAGES, SOURCE
from bot.i18n.commands import DESCRIPTION_MAX, is_discord_name
from bot.i18n.core import LOCALES_DIR
from bot.ui.images.fonts import BOLD, REGULAR, font_dir
from tools.catalogs import TEMPLATE, command_messages, template

TRANSLATED = [x for x in LANGUAGES if x != SOURCE]


def load(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=locale)


def catalog(language: str) -> Catalog:
    return load(LOCALES_DIR / language / "LC_MESSAGES" / "messages.po", language)


def keys(cat: Catalog) -> set[tuple[Any, Any]]:
    return {(m.context, m.id) for m in cat if m.id}


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def missing_or_extra(source: Catalog, translated: Catalog) -> tuple[set[Any], set[Any]]:
    return keys(source) - keys(translated), keys(translated) - keys(source)


def placeholder_mismatches(translated: Catalog) -> list[tuple[Any, str]]:
    """Messages whose translation (any plural form) has other placeholders than the source,
    or no translation at all."""
    bad = []
    for m in translated:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        wanted = set().union(*map(placeholders, ids))
        for form in forms:
            if not form:
                bad.append((m.id, "untranslated"))
            elif placeholders(form) - {"n"} != wanted - {"n"} or (
                isinstance(m.id, str) and placeholders(form) != wanted
            ):
                bad.append((m.id, form))
    return bad


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_catalog_has_every_source_message_and_no_other(language: str) -> None:
    missing, extra = missing_or_extra(load(TEMPLATE), catalog(language))
    assert not missing, f"{language} lacks {sorted(map(str, missing))[:5]}"
    assert not extra, f"{language} has messages the source has not: {sorted(map(str, extra))}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_translation_has_the_source_placeholders(language: str) -> None:
    cat = catalog(language)
    assert not [m for m in cat if m.id and m.fuzzy], "no fuzzy (unchecked) translation ships"
    assert placeholder_mismatches(cat) == []


def test_the_checks_fail_on_a_missing_an_extra_or_a_changed_placeholder() -> None:
    source = Catalog(locale="en")
    source.add("Hand {number}")
    source.add("Trick")
    broken = Catalog(locale="es")
    broken.add("Hand {number}", "Mano {numero}")  # a renamed placeholder
    broken.add("Extra", "Extra")  # a message the source has not; "Trick" is missing
    missing, extra = missing_or_extra(source, broken)
    assert missing == {(None, "Trick")}
    assert extra == {(None, "Extra")}
    assert placeholder_mismatches(broken) == [("Hand {number}", "Mano {numero}")]


def test_the_template_holds_what_the_code_marks_now() -> None:
    """``python -m tools.catalogs`` was run after the last change of a message."""
    assert keys(load(TEMPLATE)) == keys(template())


@pytest.mark.parametrize("language", TRANSLATED)
def test_command_names_and_descriptions_keep_discords_rules(language: str) -> None:
    for m in catalog(language):
        if not m.id or not m.string:
            continue
        if m.context == "command":
            assert is_discord_name(m.string), (m.id, m.string)
        elif isinstance(m.string, str):
            assert len(m.string) >= 1


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_command_text_fits_discords_limits_in_every_language(language: str) -> None:
    """Names, descriptions and choices of the commands as translated: a description or choice
    is 1-100 characters (a longer one would not be sent, and the command would show English)."""
    texts = {(context, message) for context, message in command_messages()}
    cat = catalog(language)
    for context, message in texts:
        found = cat.get(message, context)
        assert found is not None, (language, message)
        assert found.string, (language, message)
        if context == "command":
            assert is_discord_name(found.string), (language, message, found.string)
        else:
            assert 1 <= len(found.string) <= DESCRIPTION_MAX, (language, found.string)


def test_a_description_over_100_characters_is_not_sent() -> None:
    assert DESCRIPTION_MAX == 100
    assert not is_discord_name("Tiempo Turno")  # upper case and a space
    assert not is_discord_name("x" * 33)
    assert is_discord_name("clasificación")


def glyphs(name: str) -> set[int]:
    """The code points the font ``name`` can draw."""
    from matplotlib.ft2font import FT2Font

    face = FT2Font(str(font_dir() / name))
    return {code for code, _ in face.get_charmap().items()}


@pytest.mark.parametrize("face", [REGULAR, BOLD])
def test_the_pictures_font_draws_every_letter_of_every_language(face: str) -> None:
    drawable = glyphs(face)
    needed = {"é", "ç", "ã", "ß", "œ", "ü", "ñ", "à", "õ", "è", "ê", "ö", "ä", "í", "ó", "ú"}
    for language in TRANSLATED:
        for m in catalog(language):
            forms = m.string if isinstance(m.string, tuple) else (m.string,)
            needed |= {c for form in forms for c in form or "" if c.isalpha()}
    missing = sorted(c for c in needed if ord(c) not in drawable)
    assert not missing, [f"{c} U+{ord(c):04X} {unicodedata.name(c, '?')}" for c in missing]


def test_the_wheel_ships_every_catalog() -> None:
    """pyproject's package data for ``bot.i18n`` takes every catalog and the template: a clean
    install (CI's ``pip install -e .``, or the wheel) finds each language (no build step)."""
    import fnmatch
    import tomllib

    root = Path(__file__).resolve().parents[2]
    data = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
    patterns = data["package-data"]["bot.i18n"]
    files = [p.relative_to(root / "bot" / "i18n").as_posix() for p in LOCALES_DIR.rglob("*.po*")]
    assert len(files) == len(TRANSLATED) + 1, files
    for f in files:
        assert any(fnmatch.fnmatch(f, pattern) for pattern in patterns), f
    assert "babel" in " ".join(
        tomllib.loads((root / "pyproject.toml").read_text())["project"]["dependencies"]
    )
