"""Rule options as one frozen dataclass, checked against the game that takes them.

One :class:`Rules` serves every game: ``game`` (fixed by the preset) says which, and each game
takes only its own options (its registry entry's ``options``, :mod:`bot.engine.games`); the
others keep their defaults, and a table or record that changes one is refused with a reason
("nil is a Spades option, not one of Whist").  The presets are the games' own (each game's
entry lists them: rules.md §7-§8, games.md G2-G4).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

from bot.engine.errors import RulesError
from bot.engine.games import DEFAULT_GAME, GameKind, entries, entry_of, game_of_preset, preset
from bot.engine.lines import Line
from bot.engine.seats import SEATS, Seat

# Options each take one of these kinds of value.  A tuple lists the allowed strings/ints.
# ``game`` and ``deck`` take what the registered games do (their entries say).
CHOICES: Final[dict[str, tuple[Any, ...]]] = {
    "game": (),
    "deck": (),
    "blind_nil_pass": (0, 1, 2),
    "double_nil": ("separate", "team"),
    "double_blind_nil": ("off", "scored", "decides_game"),
    "nil_tricks": ("bags", "none", "contract"),
    "set_penalty": ("bid", "zero"),
    "tie": ("extra_hand", "bags"),
    "bidding": ("individual", "new_york", "suicide", "whiz", "mirror"),
    "whist_points": ("odd_tricks", "one_per_hand"),
    "euchre_points": ("standard", "per_trick"),
    # games.md G1-G2
    "renege": ("prevented", "claim"),
    "renege_penalty": ("round", 250),
    "players": (4, 3),
}
BOOLS: Final = ("nil", "blind_nil", "joker_bonus", "stick_the_dealer", "partnerships")
# Options whose values are numbers among the choices (parsed from text as int).
_INT_CHOICES: Final = ("blind_nil_pass", "renege_penalty", "players")
# The bidding variants of games.md G2 (individual bids, restricted).
RESTRICTED_BIDDING: Final = ("suicide", "whiz", "mirror")
# int options: (min, max); each game sets the bounds of its target (its entry's ``targets``)
INTS: Final[dict[str, tuple[int, int]]] = {
    "target": (1, 1000),
    "nil_value": (0, 1000),
    "blind_nil_value": (0, 1000),
    "blind_nil_min_deficit": (0, 1000),
    "double_nil_value": (0, 2000),
    "double_blind_nil_min_deficit": (0, 1000),
    "bag_value": (0, 10),
    "bag_penalty": (0, 1000),
}
# int-or-None options ("off" = None)
OPTIONAL_INTS: Final[dict[str, tuple[int, int]]] = {
    "bag_limit": (1, 100),
    "lose_at": (-5000, -1),
}
NEW_YORK_OVERRIDABLE: Final = frozenset({"target", "tie", "lose_at"})


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules:
    """Every rule option of rules.md, validated on construction.

    >>> Rules.from_preset("short").nil_value
    50
    >>> Rules.from_preset("standard", target=300).target
    300
    """

    preset: str = "standard"
    game: GameKind = DEFAULT_GAME
    target: int = 500
    deck: str = "standard"
    bidding: str = "individual"
    nil: bool = True
    nil_value: int = 100
    blind_nil: bool = True
    blind_nil_value: int = 200
    blind_nil_min_deficit: int = 100
    blind_nil_pass: int = 0
    double_nil: str = "separate"
    double_nil_value: int = 400
    double_blind_nil: str = "off"
    double_blind_nil_min_deficit: int = 0
    nil_tricks: str = "bags"
    set_penalty: str = "bid"
    bag_value: int = 1
    bag_limit: int | None = 10
    bag_penalty: int = 100
    tie: str = "extra_hand"
    joker_bonus: bool = False
    lose_at: int | None = None
    whist_points: str = "odd_tricks"
    stick_the_dealer: bool = False
    euchre_points: str = "standard"
    # games.md G1-G2 (see bot.engine.spades.variants)
    renege: str = "prevented"
    renege_penalty: str | int = "round"
    partnerships: bool = True
    players: int = 4

    def __post_init__(self) -> None:
        preset(self.preset)  # a known preset, or a RulesError naming them
        check_value("game", self.game)
        object.__setattr__(self, "game", GameKind(self.game))  # "whist" read from a record
        for name in option_names():
            check_value(name, getattr(self, name), self.game)
        self._check_game()
        if self.joker_bonus and self.deck == "standard":
            raise RulesError(
                Line("joker_bonus needs a deck with jokers (jokers or jjdd)"), "joker_bonus"
            )
        if self.blind_nil_pass and not self.blind_nil:
            raise RulesError(Line("blind_nil_pass needs blind_nil on"), "blind_nil_pass")
        if self.double_blind_nil != "off" and not self.blind_nil:
            raise RulesError(Line("double_blind_nil needs blind_nil on"), "double_blind_nil")
        if self.bidding == "new_york" and self.deck != "jjdd":
            raise RulesError(Line("new-york bidding is played with the jjdd deck"), "deck")
        if self.lose_at is not None and self.lose_at >= self.target:
            raise RulesError(Line("lose_at must be below the target"), "lose_at")
        self._check_variants()

    def _check_variants(self) -> None:
        """games.md G7: which G2 options go together."""
        if self.players == 3:
            if self.partnerships:
                raise RulesError(
                    Line("Three players need partnerships off (everyone alone)"), "players"
                )
            if self.deck != "standard":
                raise RulesError(Line("Three players play the standard deck"), "deck")
        if self.bidding in RESTRICTED_BIDDING:
            if not self.nil:
                title = self.bidding.capitalize()
                raise RulesError(Line("{title} bidding needs nil on", title=title), "nil")
            if self.bidding == "suicide" and not self.partnerships:
                raise RulesError(Line("Suicide bidding needs partnerships"), "partnerships")

    @property
    def solo(self) -> bool:
        """Every player scores alone (``partnerships`` off)."""
        return not self.partnerships

    @property
    def seats(self) -> tuple[Seat, ...]:
        """The seats in play, clockwise: N, E, S, W — or N, E, S with three players."""
        return SEATS[: self.players]

    @property
    def claims(self) -> bool:
        """Reneges are possible and may be claimed (``renege = claim``)."""
        return self.renege == "claim"

    def _check_game(self) -> None:
        """The options of other games keep their defaults (the deck and target are checked
        against the game by :func:`check_value`)."""
        own = entry_of(self.game).options
        for name in option_names():
            if name in ("game", "deck", "target") or name in own:
                continue
            if getattr(self, name) != _DEFAULTS[name]:
                owners = tuple(e.kind for e in entries() if name in e.options)
                raise RulesError(
                    Line(
                        "{option} is a {games} option, not one of {game}",
                        option=name,
                        games=owners,
                        game=self.game,
                    ),
                    name,
                )

    @property
    def title(self) -> str:
        """The game's name: ``"Spades"``, ``"Whist"``, ``"Euchre"``."""
        return entry_of(self.game).title

    @property
    def new_york(self) -> bool:
        return self.bidding == "new_york"

    @property
    def has_bags(self) -> bool:
        return not self.new_york

    @classmethod
    def from_preset(cls, name: str, **overrides: Any) -> Rules:
        """The preset ``name`` with single options overridden (checked like user input)."""
        game = game_of_preset(name)
        base = dict(preset(name).options)
        for key, value in overrides.items():
            if key not in option_names():
                raise RulesError(_unknown_option(key), key)
            was = base.get("bidding", "individual")
            if key == "bidding" and value != was and "new_york" in (value, was):
                raise RulesError(Line("New York bidding is fixed by the new-york preset"), key)
            if key == "game":
                if value == game:
                    continue
                presets = [e.preset_names for e in entries() if e.kind == value]
                if presets:
                    choose = " or ".join(presets[0])
                    raise RulesError(
                        Line(
                            "game is set by the preset: choose the preset {presets}", presets=choose
                        ),
                        key,
                    )
                raise RulesError(Line("game is set by the preset"), key)
            if (
                base.get("bidding") == "new_york"
                and key not in NEW_YORK_OVERRIDABLE
                and value != getattr(_default_new_york(), key)
            ):
                raise RulesError(
                    Line(
                        "{option} cannot be changed in the new-york preset "
                        "(only target, tie and lose_at can)",
                        option=key,
                    ),
                    key,
                )
            base[key] = value
        return cls(preset=name, game=game, **base)

    def with_option(self, name: str, value: Any) -> Rules:
        """A copy with one option changed, validated as if the preset had been overridden."""
        return Rules.from_preset(self.preset, **{**self.overrides(), name: value})

    def options(self) -> dict[str, Any]:
        """The game and its options (not the preset name), in definition order."""
        return {n: getattr(self, n) for n in option_names(self.game)}

    def overrides(self) -> dict[str, Any]:
        """The options that differ from this rule set's preset."""
        base = Rules.from_preset(self.preset)
        return {n: getattr(self, n) for n in option_names() if getattr(base, n) != getattr(self, n)}

    def to_record(self) -> dict[str, Any]:
        """The ``rules`` object of a record: the preset name plus overridden options."""
        return {"preset": self.preset, **self.overrides()}

    @classmethod
    def from_record(cls, data: Mapping[str, Any]) -> Rules:
        if not isinstance(data, Mapping):
            raise RulesError(Line("rules must be an object"))
        preset = data.get("preset", "standard")
        if not isinstance(preset, str):
            raise RulesError(Line("preset must be a string"), "preset")
        overrides = {k: v for k, v in data.items() if k != "preset"}
        return cls.from_preset(preset, **overrides)


def option_names(game: str | None = None) -> tuple[str, ...]:
    """Every option name, or (with ``game``) ``"game"`` and that game's options."""
    if game is None:
        return _OPTION_NAMES
    return ("game", *entry_of(game).options)


def option_kind(name: str) -> str:
    """``"bool"``, ``"int"``, ``"optional_int"`` or ``"choice"``."""
    if name in BOOLS:
        return "bool"
    if name in INTS:
        return "int"
    if name in OPTIONAL_INTS:
        return "optional_int"
    if name in CHOICES:
        return "choice"
    raise RulesError(_unknown_option(name), name)


def _unknown_option(name: str) -> Line:
    return Line("Unknown rule option {option}", option=repr(name))


def check_value(name: str, value: Any, game: str = GameKind.SPADES) -> None:
    """Raise :class:`RulesError` naming the option and value unless ``value`` is allowed in
    ``game`` (which narrows ``deck`` and ``target``)."""
    kind = option_kind(name)
    if kind == "bool":
        if not isinstance(value, bool):
            raise RulesError(
                Line(
                    "{option} must be on or off (true/false), not {value}",
                    option=name,
                    value=repr(value),
                ),
                name,
            )
    elif kind == "choice":
        allowed = _choices(name, game)
        if value not in allowed or isinstance(value, bool):
            raise RulesError(
                Line(
                    "{option} must be one of {values}, not {value}",
                    option=name,
                    values=", ".join(map(str, allowed)),
                    value=repr(value),
                ),
                name,
            )
    else:
        bounds = (
            entry_of(game).targets if name == "target" else INTS.get(name) or OPTIONAL_INTS[name]
        )
        if value is None and kind == "optional_int":
            return
        if not isinstance(value, int) or isinstance(value, bool):
            raise RulesError(_not_whole(name, value), name)
        lo, hi = bounds
        if not lo <= value <= hi:
            raise RulesError(_out_of_bounds(name, kind, bounds, value), name)


def _not_whole(name: str, value: object) -> Line:
    return Line("{option} must be a whole number, not {value}", option=name, value=repr(value))


def _out_of_bounds(name: str, kind: str, bounds: tuple[int, int], value: int) -> Line:
    """A number out of the option's bounds, all written as typed (``-500``, ``1000``)."""
    lo, hi = bounds
    said = {"option": name, "lo": str(lo), "hi": str(hi), "value": str(value)}
    if kind == "optional_int":
        return Line("{option} must be between {lo} and {hi} (or off), not {value}", **said)
    return Line("{option} must be between {lo} and {hi}, not {value}", **said)


def _whole_number(text: str) -> int | None:
    """A whole number in ASCII digits, with an optional minus sign (``-``, or the ``−`` the
    bot writes scores with); ``None`` for anything else.  ``int`` reads more than that: other
    scripts' digits (``"٣"``), spaces, ``"+5"``, ``"1_000"``; ``str.isdigit`` passes ``"²"``,
    which ``int`` then refuses."""
    sign, digits = (-1, text[1:]) if text[:1] in ("-", "−") else (1, text)
    if 0 < len(digits) <= 9 and digits.isascii() and digits.isdigit():
        return sign * int(digits)
    return None


def parse_value(name: str, text: str, game: str = GameKind.SPADES) -> Any:
    """Turn user text (from ``/spades rule``) into a checked option value for ``game``."""
    kind = option_kind(name)
    t = text.strip().lower()
    value: Any
    if kind == "bool":
        if t in ("on", "true", "yes", "1"):
            value = True
        elif t in ("off", "false", "no", "0"):
            value = False
        else:
            raise RulesError(
                Line("{option} must be on or off, not {value}", option=name, value=repr(text)),
                name,
            )
    elif kind == "choice":
        number = _whole_number(t) if name in _INT_CHOICES else None
        value = number if number is not None else t.replace("-", "_")
    elif kind == "optional_int" and t in ("off", "none", "null", ""):
        value = None
    else:
        value = _whole_number(t)
        if value is None:
            raise RulesError(_not_whole(name, text), name)
    check_value(name, value, game)
    return value


def suggested_values(name: str, game: str = GameKind.SPADES) -> tuple[str, ...]:
    """Values to offer in autocomplete for an option (as text) in ``game``."""
    kind = option_kind(name)
    if kind == "bool":
        return ("on", "off")
    if kind == "choice":
        return tuple(str(v) for v in _choices(name, game))
    if name == "target":
        return entry_of(game).suggested_targets
    common: dict[str, tuple[str, ...]] = {
        "nil_value": ("50", "100", "200"),
        "blind_nil_value": ("100", "200", "400"),
        "blind_nil_min_deficit": ("0", "100", "200", "300"),
        "double_nil_value": ("200", "400", "800"),
        "double_blind_nil_min_deficit": ("0", "100", "201", "300"),
        "bag_value": ("0", "1"),
        "bag_penalty": ("0", "50", "100", "200"),
        "bag_limit": ("off", "5", "10", "15", "20"),
        "lose_at": ("off", "-100", "-200", "-300", "-500"),
    }
    return common[name]


_OPTION_NAMES: tuple[str, ...] = tuple(
    f.name for f in dataclasses.fields(Rules) if f.name != "preset"
)
_DEFAULTS: dict[str, Any] = {f.name: f.default for f in dataclasses.fields(Rules)}


def _choices(name: str, game: str) -> tuple[Any, ...]:
    """The values a choice option takes in ``game`` (its decks; the registered games)."""
    if name == "deck":
        return entry_of(game).decks
    if name == "game":
        return tuple(e.kind for e in entries())
    return CHOICES[name]


@cache
def _default_new_york() -> Rules:
    """The new-york preset as it is (its options but target, tie and lose_at are fixed)."""
    return Rules.from_preset("new-york")
