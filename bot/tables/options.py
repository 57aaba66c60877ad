"""A table's own settings beside the game's rules: who may watch it, and whether its players
get hints.  The host sets them in the lobby with ``/spades rule`` like a rule; they are fixed
once the game starts.

* ``spectators``: ``public`` (default: any member not seated may watch), ``hands`` (the same,
  and after each hand the spectators get that finished hand's deal), ``off`` (nobody watches);
* ``hints``: ``off`` (default) or ``on``: each player's hand offers a **Hint** button (the hard
  computer player's choice for that seat).  A table with hints is a practice table and is never
  rated, whatever the server's settings: the host chose hints over a rating.

A tournament's table (``bot/tables/arranged.py``) is opened with the organiser's choice of
``spectators`` (``public`` or ``off``) and a ``delay``: spectators see its game that many
completed tricks behind (0: live); nobody changes them afterwards.

They are stored with the table's rules (the ``table`` object beside the rules' own options,
in the same column: no migration), together with the hints each seat took and — for a
tournament's table — the terms its organiser opened it with (:class:`ArrangedTerms`), so that
a restart keeps them all, in force before any turn is played.  The engine's
:class:`~bot.engine.Rules` never sees them: they change nothing in how the game is played or
recorded.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from bot.engine import Seat
from bot.errors import Refusal
from bot.i18n import LANGUAGES, N_, _, _p, use

SPECTATOR_MODES: Final = ("public", "hands", "off")
MAX_DELAY: Final = 52  # tricks a spectator's view may be held behind (four Spades hands)
OPTION_NAMES: Final = ("spectators", "hints")
TABLE_KEY: Final = "table"  # the key of these settings in the stored rules object
# What each value means, for `/spades rule`'s autocomplete (translated where it is shown).
VALUE_TEXT: Final[dict[tuple[str, str], str]] = {
    ("spectators", "public"): N_("anyone not seated may watch the game live"),
    ("spectators", "hands"): N_("as public, and after each hand its deal is shown to spectators"),
    ("spectators", "off"): N_("nobody may watch"),
    ("hints", "on"): N_("a Hint button on each hand (practice: the game is not rated)"),
    ("hints", "off"): N_("no hints"),
}

_SPECTATOR_WORDS: Final = {
    "public": "public",
    "on": "public",
    "hands": "hands",
    "hands after each hand": "hands",
    "hands_after_each_hand": "hands",
    "off": "off",
    "none": "off",
}


@dataclass(frozen=True, slots=True)
class TableOptions:
    spectators: str = "public"
    hints: bool = False
    delay: int = 0  # spectators see the game this many completed tricks behind (0: live)

    @property
    def watchable(self) -> bool:
        return self.spectators != "off"

    @property
    def shows_deals(self) -> bool:
        """Spectators get each finished hand's deal (``hands after each hand``)."""
        return self.spectators == "hands"

    def value_text(self, name: str) -> str:
        """The value of option ``name`` as the host types it, in the current language."""
        if name == "hints":
            return value_word(name, "on" if self.hints else "off")
        return value_word(name, self.spectators)

    def with_option(self, name: str, text: str) -> TableOptions:
        """A copy with one option changed from user text; a :class:`Refusal` names the option
        and its values when the text is not one of them."""
        t = _read_value(name, " ".join(text.strip().lower().split()))
        if name == "spectators":
            mode = _SPECTATOR_WORDS.get(t)
            if mode is None:
                raise Refusal(
                    _(
                        "spectators must be {public}, {hands}, or {off}.",
                        public=value_word(name, "public"),
                        hands=value_word(name, "hands"),
                        off=value_word(name, "off"),
                    )
                )
            return dataclasses.replace(self, spectators=mode)
        if name == "hints":
            if t in ("on", "yes", "true"):
                return dataclasses.replace(self, hints=True)
            if t in ("off", "no", "false"):
                return dataclasses.replace(self, hints=False)
            raise Refusal(_("hints must be {on} or {off}.", on=_("on"), off=_("off")))
        raise Refusal(_("There is no table option {name}.", name=repr(name[:40])))


def suggested_values(name: str) -> tuple[str, ...]:
    if name == "spectators":
        return ("public", "hands after each hand", "off")
    return ("on", "off")


def value_word(name: str, value: str) -> str:
    """A value of option ``name`` (``public``, ``hands``/``hands after each hand``, ``off``;
    ``on``, ``off``) in the current language: ``manos tras cada mano``, ``sí``."""
    if name == "hints":
        return _("on") if value == "on" else _("off")
    if value.startswith("hands"):
        return _p("spectators", "hands after each hand")
    return _p("spectators", "public") if value == "public" else _p("spectators", "off")


def _read_value(name: str, text: str) -> str:
    """``text`` (lower case, single spaces) as the English value when it is a value's word in
    any language (a host types in theirs); else unchanged."""
    for language in LANGUAGES:
        with use(language):
            for english in suggested_values(name):
                if text == value_word(name, english).lower():
                    return english
    return text


def value_label(name: str, value: str) -> str:
    """``hands after each hand — as public, and after each hand …`` for autocomplete, in
    the current language."""
    key = "hands" if value.startswith("hands") else value
    hint = VALUE_TEXT.get((name, key))
    word = value_word(name, value)
    return f"{word} — {_(hint)}"[:100] if hint else word


@dataclass(frozen=True, slots=True)
class ArrangedTerms:
    """What an organiser opened a tournament's table with: whether the league rates it, the
    hands it ends after (a duplicate round's boards), and whether its seed is a shared deal
    key (the round's, stored as the table's seed from its creation)."""

    rated: bool = True
    hand_limit: int | None = None
    shared_seed: bool = False

    def to_doc(self) -> dict[str, Any]:
        return {"rated": self.rated, "hand_limit": self.hand_limit, "shared_seed": self.shared_seed}

    @classmethod
    def from_doc(cls, doc: Any) -> ArrangedTerms | None:
        if not isinstance(doc, Mapping):
            return None
        limit = doc.get("hand_limit")
        return cls(
            doc.get("rated") is not False,
            limit if isinstance(limit, int) and not isinstance(limit, bool) and limit > 0 else None,
            doc.get("shared_seed") is True,
        )


@dataclass(frozen=True, slots=True)
class TableSettings:
    """What is stored under :data:`TABLE_KEY`: the options, the hints taken per seat, and a
    tournament table's terms (``None``: not a tournament's table)."""

    options: TableOptions = TableOptions()
    hints_taken: dict[Seat, int] = field(default_factory=dict)
    arranged: ArrangedTerms | None = None

    def to_doc(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"spectators": self.options.spectators, "hints": self.options.hints}
        if self.options.delay:
            doc["delay"] = self.options.delay
        taken = {s.name: n for s, n in self.hints_taken.items() if n}
        if taken:
            doc["hints_taken"] = taken
        if self.arranged is not None:
            doc["arranged"] = self.arranged.to_doc()
        return doc

    @classmethod
    def from_doc(cls, doc: Any) -> TableSettings:
        """Read what :meth:`to_doc` wrote; anything unreadable is the defaults (a table stored
        before these settings existed has none)."""
        if not isinstance(doc, Mapping):
            return cls()
        mode = doc.get("spectators")
        delay = doc.get("delay")
        options = TableOptions(
            mode if mode in SPECTATOR_MODES else "public",
            doc.get("hints") is True,
            delay if isinstance(delay, int) and 0 < delay <= MAX_DELAY else 0,
        )
        taken: dict[Seat, int] = {}
        raw = doc.get("hints_taken")
        if isinstance(raw, Mapping):
            for name, n in raw.items():
                if name in Seat.__members__ and isinstance(n, int) and n > 0:
                    taken[Seat[name]] = n
        return cls(options, taken, ArrangedTerms.from_doc(doc.get("arranged")))


def split_rules_doc(doc: Mapping[str, Any]) -> tuple[dict[str, Any], TableSettings]:
    """A stored rules object → (the rules' own record, the table's settings)."""
    rules = {k: v for k, v in doc.items() if k != TABLE_KEY}
    return rules, TableSettings.from_doc(doc.get(TABLE_KEY))
