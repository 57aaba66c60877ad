"""A registry keyed by the game (a :class:`~bot.engine.GameKind`'s value): each game's own
entry, or the generic one for a game that has none — how the computer players
(:mod:`bot.ai.games`) and the games' words (:mod:`bot.ui.text.games`) are looked up."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Generic, TypeVar

T = TypeVar("T")


class PerGame(Generic[T]):
    __slots__ = ("_own", "generic")

    def __init__(self, generic: T, own: Mapping[str, T]) -> None:
        self.generic = generic
        self._own = dict(own)

    def of(self, kind: str) -> T:
        """The entry of the game ``kind`` (the generic one if it has none of its own)."""
        return self._own.get(kind, self.generic)

    def register(self, kind: str, entry: T) -> None:
        """Give a game its own entry (a game added at run time: a test's)."""
        self._own[kind] = entry

    def unregister(self, kind: str) -> None:
        self._own.pop(kind, None)
