"""The games the engine plays: their names as an enum, and one registry entry per game.

:class:`GameKind` names a game wherever one is meant (``Rules.game``, the league's standings);
it is a :class:`~enum.StrEnum`, so it is stored, serialised and compared as the same strings
records, the database and presets have always held (``"spades"``, ``"whist"``, ``"euchre"``).

A :class:`GameEntry` is everything the rest of the bot may ask about one game without naming
it: its title, its presets, the rule options, decks and targets it takes, the actions of its
own (bids, calls) beyond playing cards, and the type of its part of a seat view.  Each game's
package defines its entry and registers it (``bot.engine.spades``, ``bot.engine.whist``,
``bot.engine.euchre``); its :class:`~bot.engine.game.Game` subclass is registered for the
same kind (``register_game(GameKind.WHIST, WhistGame)``).  Code outside the engine asks an entry
(``entry_of(rules.game).takes(Call)``, ``"lose_at" in entry.options``) instead of comparing
game names; the UI and the computer players keep their own registries keyed by the same enum
(:mod:`bot.ui.text.games`, :mod:`bot.ai.games`).  ``docs/adding-a-game.md`` says what a fourth game
touches.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from bot.engine.actions import Action
from bot.engine.errors import RulesError
from bot.engine.lines import Line

__all__ = [
    "DEFAULT_GAME",
    "GameEntry",
    "GameKind",
    "GamePart",
    "Preset",
    "entries",
    "entry_of",
    "game_of_preset",
    "is_default_game",
    "preset",
    "preset_names",
    "register",
    "same_game",
    "unregister",
]


class GameKind(StrEnum):
    """A game's name.  The built-in games are its members; :meth:`extra` makes the kind of a
    game registered at run time (a test's game), which behaves as a member everywhere but in
    ``list(GameKind)``."""

    SPADES = "spades"
    WHIST = "whist"
    EUCHRE = "euchre"

    @property
    def word(self) -> str:
        """The game's title (its entry's), as the engine's sentences name it in English."""
        return entry_of(self).title

    @classmethod
    def _missing_(cls, value: object) -> GameKind | None:
        return _EXTRA_KINDS.get(value) if isinstance(value, str) else None

    @classmethod
    def extra(cls, name: str) -> GameKind:
        """The kind named ``name`` for a game that is not built in (made once, then reused)."""
        known = _EXTRA_KINDS.get(name)
        if known is not None:
            return known
        if name in cls._value2member_map_:
            return cls(name)
        kind = str.__new__(cls, name)
        kind._name_ = name.upper()
        kind._value_ = name
        _EXTRA_KINDS[name] = kind
        return kind


_EXTRA_KINDS: dict[str, GameKind] = {}

#: The game of a table, a server's settings or a league page that names none.
DEFAULT_GAME = GameKind.SPADES


@dataclass(frozen=True, slots=True)
class Preset:
    """A named rule set of one game: ``options`` are its changes to the :class:`Rules`
    defaults (the game itself aside); ``title`` and ``description`` are how tables say it."""

    name: str
    title: str
    description: str
    options: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))


class GamePart:
    """A game's own part of a seat view (Spades' bidding, the trump of Whist and Euchre):
    what one seat may know of the game's phases beyond trick play.  Subclasses are frozen
    dataclasses, made by :meth:`bot.engine.game.Game.view_part`."""

    __slots__ = ()

    def hides_hand(self) -> bool:
        """Are the seat's cards face down (Spades' blind nil)?  Then its view holds no hand."""
        return False

    def marks(self) -> tuple[object, ...]:
        """What of this part, when it changes, changes the seat's hand message (the rest is
        shown when the seat's turn comes or a trick completes)."""
        return ()


@dataclass(frozen=True, slots=True, kw_only=True)
class GameEntry:
    """One game, as the rest of the bot may know it (see the module text)."""

    kind: GameKind
    title: str
    presets: tuple[Preset, ...]
    #: The rule options the game takes besides ``game`` (the others keep their defaults).
    options: tuple[str, ...]
    decks: tuple[str, ...] = ("standard",)
    #: The bounds of ``target``, and the values autocomplete offers for it.
    targets: tuple[int, int] = (1, 100)
    suggested_targets: tuple[str, ...] = ("3", "5", "7", "9", "10", "11", "15", "21")
    #: The actions of the game's own phases (beyond :class:`~bot.engine.actions.Play`).
    actions: frozenset[type[Action]] = frozenset()
    #: The type of the game's part of a seat view (``None``: trick play only).
    part: type[GamePart] | None = None

    def takes(self, action: type[Action]) -> bool:
        """Does the game have this kind of action (a bid, a call)?"""
        return action in self.actions

    @property
    def preset_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.presets)


_ENTRIES: dict[str, GameEntry] = {}
_PRESETS: dict[str, tuple[Preset, GameKind]] = {}


def register(entry: GameEntry) -> GameEntry:
    """Add a game (or replace its entry): its presets become table presets."""
    for p in entry.presets:
        owner = _PRESETS.get(p.name)
        if owner is not None and owner[1] != entry.kind:
            raise ValueError(f"the preset {p.name!r} is {owner[1]}'s already")
    _ENTRIES[entry.kind] = entry
    _reorder()
    return entry


def unregister(kind: GameKind) -> None:
    """Take a game (and its presets) out again (a test's game, once the test is over)."""
    _ENTRIES.pop(kind, None)
    _reorder()


def _reorder() -> None:
    """The built-in games first, in the enum's order (whichever module is imported first),
    then the others as registered; each game's presets together, in its entry's order."""
    builtin = list(GameKind)
    rank = {kind: i for i, kind in enumerate(builtin)}
    ordered = sorted(_ENTRIES.values(), key=lambda e: rank.get(e.kind, len(builtin)))
    _ENTRIES.clear()
    _ENTRIES.update((e.kind, e) for e in ordered)
    _PRESETS.clear()
    _PRESETS.update((p.name, (p, e.kind)) for e in ordered for p in e.presets)


def entry_of(kind: str) -> GameEntry:
    """The entry of a game (``kind`` may be the plain string a database row holds)."""
    try:
        return _ENTRIES[kind]
    except KeyError:
        raise RulesError(Line("There is no game {name}", name=repr(kind)), "game") from None


def entries() -> tuple[GameEntry, ...]:
    """Every game, in the order they were registered (Spades, Whist, Euchre)."""
    return tuple(_ENTRIES.values())


def preset(name: str) -> Preset:
    """A preset of any game, by name."""
    try:
        return _PRESETS[name][0]
    except KeyError:
        raise RulesError(
            Line(
                "Unknown preset {name}: choose one of {names}",
                name=repr(name),
                names=", ".join(_PRESETS),
            ),
            "preset",
        ) from None


def game_of_preset(name: str) -> GameKind:
    """The game a preset is of."""
    preset(name)
    return _PRESETS[name][1]


def preset_names() -> tuple[str, ...]:
    """Every preset, each game's together, in the order the games were registered."""
    return tuple(_PRESETS)


def is_default_game(kind: str) -> bool:
    """Is ``kind`` the game meant where none is named (a league page's id leaves it out)?"""
    return kind == DEFAULT_GAME


def same_game(a: str, b: str) -> bool:
    """Are two presets presets of one game (``False`` when either is unknown)?"""
    pa, pb = _PRESETS.get(a), _PRESETS.get(b)
    return pa is not None and pb is not None and pa[1] is pb[1]
