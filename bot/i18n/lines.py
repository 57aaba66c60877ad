"""The engine's sentences in the reader's language: the one way a :class:`~bot.engine.lines.Line`
becomes text.

The engine says everything to a player as a ``Line`` (a catalog template and its parts) and
stays English and pure; here, at the edge, :func:`line_text` looks the template up in the
catalogs and writes each part in the reader's language too: a seat as its word (or the
player's name, where the reader knows the players), a team as its name, a game as its title,
a number in the language's format, a list as the language lists, a nested ``Line`` the same
way.  ``tests/i18n/test_engine_catalog.py`` keeps every template the engine can say translated.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.engine import Seat, Team
from bot.engine.games import GameKind
from bot.engine.lines import Line
from bot.i18n.cards import seat_word, team_word
from bot.i18n.core import _, listed, number


def line_text(line: Line | str, names: Mapping[Seat, str] | None = None) -> str:
    """``line`` in the current language.  A seat is named by ``names`` (the players' names)
    where given, else by its word.  A plain ``str`` (words of a game defined outside the
    engine, which has no catalog entry) is shown as it is."""
    if not isinstance(line, Line):
        return line
    return _(line.template, **{key: _part(value, names) for key, value in line.params})


def _part(value: object, names: Mapping[Seat, str] | None) -> str:
    if isinstance(value, Line):
        return line_text(value, names)
    if isinstance(value, Seat):
        return names[value] if names and value in names else seat_word(value)
    if isinstance(value, Team):
        return team_word(value)
    if isinstance(value, GameKind):
        return _(value.word)
    if isinstance(value, tuple):
        return listed([_part(v, names) for v in value])
    if isinstance(value, int) and not isinstance(value, bool):
        return number(value)
    return str(value)


@dataclass(frozen=True, slots=True)
class LineWord:
    """A ``Line`` written in the language of wherever it is shown (a part of a
    :class:`~bot.i18n.core.Text`, which the publisher writes in the server's language)."""

    line: Line

    def __str__(self) -> str:
        return line_text(self.line)
