"""Languages: the catalogs, the language a message is written in, numbers and dates.

The catalogs are gettext ``.po`` files (``bot/i18n/locales/<lang>/LC_MESSAGES/messages.po``)
read with Babel and compiled in memory the first time a language is used: nothing is built
at install time, and a clean clone (or the wheel, which ships the ``.po`` files) runs as is.
The English text in the code is the message id (the source language); a language without a
translation for a message shows the English.

The language is a property of the answer being written, like the user it goes to: the edge
(an interaction's handler, the publisher writing a table message, a live hand edit) says which
with :func:`use`, and everything rendered inside it — :func:`_`, :func:`_n`, :func:`number` —
follows.  Private answers go in the clicking user's language, public messages in the
server's (:mod:`bot.i18n.servers`).
"""

from __future__ import annotations

import contextlib
import functools
import gettext
import io
from collections.abc import Iterator
from contextvars import ContextVar
from datetime import datetime
from pathlib import Path
from typing import Any, Final

from babel import Locale as BabelLocale
from babel.dates import format_datetime
from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

SOURCE: Final = "en"
LANGUAGES: Final = ("en", "es", "pt_BR", "fr", "de")  # the source first
LANGUAGE_NAMES: Final = {  # each in its own words (the /spades-admin language choices)
    "en": "English",
    "es": "Español",
    "pt_BR": "Português (Brasil)",
    "fr": "Français",
    "de": "Deutsch",
}
LOCALES_DIR: Final = Path(__file__).resolve().parent / "locales"
DOMAIN: Final = "messages"

# Discord's locales (discord.Locale values) → ours; any other is answered in English.
_DISCORD: Final = {
    "en-US": "en",
    "en-GB": "en",
    "es-ES": "es",
    "es-419": "es",
    "pt-BR": "pt_BR",
    "fr": "fr",
    "de": "de",
}

_current: ContextVar[str] = ContextVar("language", default=SOURCE)


def language_of(discord_locale: object) -> str:
    """Our language for a Discord locale (``discord.Locale`` or its value); English for one
    we do not ship.  Also takes our own codes (``"pt_BR"``)."""
    value = str(getattr(discord_locale, "value", discord_locale) or "")
    if value in LANGUAGES:
        return value
    return _DISCORD.get(value, _DISCORD.get(value.split("-")[0], SOURCE))


def current() -> str:
    """The language being written now."""
    return _current.get()


def set_language(language: object) -> None:
    """Write in ``language`` from now on in this task (the edge of an interaction)."""
    _current.set(language_of(language))


@contextlib.contextmanager
def use(language: object) -> Iterator[None]:
    """Write in ``language`` inside the block."""
    token = _current.set(language_of(language))
    try:
        yield
    finally:
        _current.reset(token)


@functools.cache
def translations(language: str) -> gettext.NullTranslations:
    """The compiled catalog of ``language`` (English: the messages as written)."""
    if language == SOURCE:
        return gettext.NullTranslations()
    path = LOCALES_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as f:
        catalog = read_po(f, locale=language)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return gettext.GNUTranslations(compiled)


class Text(str):
    """A message written later, in the language of wherever it is shown (``str(text)``): a
    notice the table service gives the publisher, which writes it in the server's language.
    As a ``str`` it is the English (logs, and callers that only compare), so it goes wherever
    a ``str`` went before."""

    message: str
    params: tuple[tuple[str, Any], ...]

    def __new__(cls, message: str, params: tuple[tuple[str, Any], ...] = ()) -> Text:
        with use(SOURCE):
            english = _(message, **{k: str(v) for k, v in params})
        text = super().__new__(cls, english)
        text.message, text.params = message, params
        return text

    def __str__(self) -> str:
        return _(self.message, **{k: str(v) for k, v in self.params})


def later(message: str, /, **params: Any) -> Text:
    """:class:`Text` of ``message`` (marked for the catalogs like :func:`_`)."""
    return Text(message, tuple(params.items()))


def _format(text: str, params: dict[str, Any]) -> str:
    return text.format(**params) if params else text


# Each language's translations as they are looked up, remembered: a hand message asks for
# some twenty, every click renders two, and gettext's lookup through the compiled catalog
# costs several times a dictionary's (the catalogs do not change while the bot runs).
# Bounded all the same, against a caller translating text that is not a constant.
_TEXTS: Final[dict[str, dict[str, str]]] = {}
_MAX_TEXTS: Final = 20_000


def _translated(language: str, message: str) -> str:
    """``message`` in ``language``, remembered (a ``str``; a :class:`Text` is looked up as
    gettext answers it, not remembered)."""
    texts = _TEXTS.get(language)
    if texts is None:
        texts = _TEXTS.setdefault(language, {})
    text = texts.get(message)
    if text is None:
        text = translations(language).gettext(message)
        if type(message) is str and len(texts) < _MAX_TEXTS:
            texts[message] = text
    return text


def _(message: str, /, **params: Any) -> str:
    """``message`` in the current language, its ``{placeholders}`` filled from ``params``."""
    language = _current.get()
    texts = _TEXTS.get(language)
    text = texts.get(message) if texts is not None and type(message) is str else None
    if text is None:
        text = _translated(language, message)
    return text.format(**params) if params else text


def _p(context: str, message: str, /, **params: Any) -> str:
    """Like :func:`_`, for a message whose English is also used elsewhere with another
    meaning (``context`` tells them apart: ``"command"`` for command and option names)."""
    return _format(translations(_current.get()).pgettext(context, message), params)


def _n(singular: str, plural: str, n: int, /, **params: Any) -> str:
    """The form of ``singular``/``plural`` for ``n`` in the current language (``{n}`` is
    the number, in the language's format)."""
    language = _current.get()
    text = _plural(language, singular, plural, n)
    return text.format(n=_number(language, isinstance(n, int), n), **params)


@functools.lru_cache(maxsize=4096, typed=True)
def _plural(language: str, singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n`` in ``language``, remembered (like
    :func:`_translated`: trick counts and the like, over and over)."""
    return translations(language).ngettext(singular, plural, n)


def N_(message: str) -> str:  # noqa: N802 (gettext's name for a marked, untranslated message)
    """Mark ``message`` for the catalogs where it is written; translate it where it is used."""
    return message


def babel_locale(language: str | None = None) -> BabelLocale:
    return _babel_locale(language or current())


@functools.cache
def _babel_locale(language: str) -> BabelLocale:
    """Babel's locale of one of our languages (parsed once: a parse looks its data up anew)."""
    return BabelLocale.parse(language)


def number(n: float) -> str:
    """``1,250`` / ``1.250`` / ``1 250`` in the current language, with a real minus sign."""
    return _number(_current.get(), isinstance(n, int), n)


@functools.lru_cache(maxsize=4096)
def _number(language: str, whole: bool, n: float) -> str:
    """:func:`number` in ``language``, remembered: the scores, bids and trick counts every
    message shows are few numbers written over and over, and Babel formats one in tens of
    microseconds (``whole`` keeps ``1`` and ``1.0`` apart)."""
    text = format_decimal(abs(n), locale=_babel_locale(language))
    return f"−{text}" if n < 0 else text


def signed(n: int) -> str:
    """``+70``, ``−50`` (a real minus sign), ``0``."""
    return f"+{number(n)}" if n > 0 else number(n)


def listed(items: list[str], *, either: bool = False) -> str:
    """``A, B and C`` (or with ``either``, ``A, B or C``) in the current language."""
    return format_list(items, style="or" if either else "standard", locale=babel_locale())


def date_time(when: datetime, form: str = "medium") -> str:
    """A date and time in the current language's format."""
    return format_datetime(when, form, locale=babel_locale())


def ordinal(n: int) -> str:
    """``1st`` / ``1.º`` / ``1º`` / ``1er`` / ``1.`` in the current language."""
    language = current()
    if language == "es":
        return f"{n}.º"
    if language == "pt_BR":
        return f"{n}º"
    if language == "fr":
        return "1er" if n == 1 else f"{n}e"
    if language == "de":
        return f"{n}."
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def preload() -> None:
    """Compile every catalog now (about 25 ms each), at start-up rather than in the first
    interaction that needs one."""
    for language in LANGUAGES:
        translations(language)
