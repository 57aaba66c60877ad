"""A table's own settings beside the game's rules: who may watch it, and whether its players
get hints.  The host sets them in the lobby with ``/spades rule`` like a rule; they are fixed
once the game starts.

* ``spectators``: ``public`` (default: any member not seated may watch), ``hands`` (the same,
  and after each hand the spectators get that finished hand's deal), ``off`` (nobody watches);
* ``hints``: ``off`` (default) or ``on``: each player's hand offers a **Hint** button (the hard
  computer player's choice for that seat).  A table with hints is a practice table and is never
  rated, whatever the server's settings: the host chose hints over a rating.

They are stored with the table's rules (the ``table`` object beside the rules' own options,
in the same column: no migration), together with the hints each seat took, so that a restart
keeps both.  The engine's :class:`~bot.engine.Rules` never sees them: they change nothing in
how the game is played or recorded.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from bot.engine import Seat
from bot.errors import Refusal
from bot.i18n import _

SPECTATOR_MODES: Final = ("public", "hands", "off")
OPTION_NAMES: Final = ("spectators", "hints")
TABLE_KEY: Final = "table"  # the key of these settings in the stored rules object
# What each value means, for `/spades rule`'s autocomplete and the lobby.
VALUE_TEXT: Final[dict[tuple[str, str], str]] = {
    ("spectators", "public"): "anyone not seated may watch the game live",
    ("spectators", "hands"): "as public, and after each hand its deal is shown to spectators",
    ("spectators", "off"): "nobody may watch",
    ("hints", "on"): "a Hint button on each hand (practice: the game is not rated)",
    ("hints", "off"): "no hints",
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

    @property
    def watchable(self) -> bool:
        return self.spectators != "off"

    @property
    def shows_deals(self) -> bool:
        """Spectators get each finished hand's deal (``hands after each hand``)."""
        return self.spectators == "hands"

    def value_text(self, name: str) -> str:
        """The value of option ``name`` as the host types it."""
        if name == "hints":
            return "on" if self.hints else "off"
        return "hands after each hand" if self.spectators == "hands" else self.spectators

    def with_option(self, name: str, text: str) -> TableOptions:
        """A copy with one option changed from user text; a :class:`Refusal` names the option
        and its values when the text is not one of them."""
        t = " ".join(text.strip().lower().split())
        if name == "spectators":
            mode = _SPECTATOR_WORDS.get(t)
            if mode is None:
                raise Refusal(_("spectators must be public, hands after each hand, or off."))
            return TableOptions(mode, self.hints)
        if name == "hints":
            if t in ("on", "yes", "true"):
                return TableOptions(self.spectators, True)
            if t in ("off", "no", "false"):
                return TableOptions(self.spectators, False)
            raise Refusal(_("hints must be on or off."))
        raise Refusal(_("There is no table option {name}.", name=repr(name[:40])))


def suggested_values(name: str) -> tuple[str, ...]:
    if name == "spectators":
        return ("public", "hands after each hand", "off")
    return ("on", "off")


def value_label(name: str, value: str) -> str:
    """``hands after each hand — as public, and after each hand …`` for autocomplete."""
    key = "hands" if value.startswith("hands") else value
    hint = VALUE_TEXT.get((name, key))
    return f"{value} — {hint}"[:100] if hint else value


@dataclass(frozen=True, slots=True)
class TableSettings:
    """What is stored under :data:`TABLE_KEY`: the options and the hints taken per seat."""

    options: TableOptions = TableOptions()
    hints_taken: dict[Seat, int] = field(default_factory=dict)

    def to_doc(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"spectators": self.options.spectators, "hints": self.options.hints}
        taken = {s.name: n for s, n in self.hints_taken.items() if n}
        if taken:
            doc["hints_taken"] = taken
        return doc

    @classmethod
    def from_doc(cls, doc: Any) -> TableSettings:
        """Read what :meth:`to_doc` wrote; anything unreadable is the defaults (a table stored
        before these settings existed has none)."""
        if not isinstance(doc, Mapping):
            return cls()
        mode = doc.get("spectators")
        options = TableOptions(
            mode if mode in SPECTATOR_MODES else "public", doc.get("hints") is True
        )
        taken: dict[Seat, int] = {}
        raw = doc.get("hints_taken")
        if isinstance(raw, Mapping):
            for name, n in raw.items():
                if name in Seat.__members__ and isinstance(n, int) and n > 0:
                    taken[Seat[name]] = n
        return cls(options, taken)


def split_rules_doc(doc: Mapping[str, Any]) -> tuple[dict[str, Any], TableSettings]:
    """A stored rules object → (the rules' own record, the table's settings)."""
    rules = {k: v for k, v in doc.items() if k != TABLE_KEY}
    return rules, TableSettings.from_doc(doc.get(TABLE_KEY))
