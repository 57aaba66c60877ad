"""The engine's one way to say something to a player: a :class:`Line`, a template and its parts.

Every sentence the engine gives a player — a refusal, a rule or record that cannot be taken,
an item of a score sheet, why a game ended, a renege claim as judged, a check of
``/spades verify`` — is a ``Line``: its ``template`` is the catalog's message id (the English
with ``{placeholders}``), its ``params`` fill them.  Its English (``str(line)``) is for the
command line, logs, records and tests; the bot writes it in a reader's language at the edge
(:func:`bot.i18n.lines.line_text`), and ``tests/i18n/test_engine_catalog.py`` fails when a
template has no translation.  So a template is always a string literal where the ``Line`` is
made (plural forms as two literals, as English chooses them).

A parameter is one of: a ``str`` (shown as it is: a card code, an option name, a value as
typed), an ``int`` (a number, in the reader's format), a seat or a team (their words; a
player's name where the reader knows one), a game (:class:`~bot.engine.games.GameKind`: its
title), another ``Line``, or a tuple of these (a list: "Spades and Whist").  In English each
is its ``word`` where it has one, else ``str()``.
"""

from __future__ import annotations

from collections import UserString


class Line(UserString):
    """A sentence of the engine kept with its parts: ``template`` and ``params``, and its
    English as a string (``str(line)``; compared, hashed, indexed like one).  The English is
    written only when asked for: the engine makes Lines in every random play-out (each score
    sheet's items) and nobody reads most of them.  Without parameters the English is the
    template as written."""

    __slots__ = ("_english", "params", "template")

    template: str
    params: tuple[tuple[str, object], ...]

    def __init__(self, template: str, /, **params: object) -> None:
        self.template = template
        self.params = tuple(params.items())
        self._english: str | None = None

    @property
    def data(self) -> str:
        """The English (what :class:`~collections.UserString` works on)."""
        english = self._english
        if english is None:
            params = self.params
            english = (
                self.template.format_map({k: english_of(v) for k, v in params})
                if params
                else self.template
            )
            self._english = english
        return english

    @data.setter
    def data(self, english: str) -> None:  # UserString's way to make one of given text
        self.template, self.params, self._english = english, (), english


def plain(text: str) -> Line:
    """Words that are no template, shown as they are: what a game defined outside the engine
    may say (it has no catalog entry, so it stays in its own words)."""
    return Line(text)


def english_of(value: object) -> str:
    """A parameter in the engine's English: its ``word`` (a seat, a team, a game) or ``str``;
    a tuple as ``"A and B"``."""
    if isinstance(value, tuple):
        return " and ".join(map(english_of, value))
    word = getattr(value, "word", None)
    return word if isinstance(word, str) else str(value)
