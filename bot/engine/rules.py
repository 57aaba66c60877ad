"""Rule options as one frozen dataclass, and the presets of rules.md §7-§8 and games.md G3-G4
as data.

One :class:`Rules` serves every game: ``game`` (fixed by the preset) says which, and each game
takes only its own options (:data:`GAME_OPTIONS`); the others keep their defaults, and a table
or record that changes one is refused with a reason ("nil is a Spades option, not one of
Whist").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from bot.engine.errors import RulesError
from bot.engine.seats import SEATS, Seat

GAMES: Final = ("spades", "whist", "euchre")
GAME_TITLES: Final = {"spades": "Spades", "whist": "Whist", "euchre": "Euchre"}
SPADES_DECKS: Final = ("standard", "jokers", "jjdd")
EUCHRE_DECKS: Final = ("euchre24", "euchre28", "euchre32")
DECK_NAMES: Final = SPADES_DECKS + EUCHRE_DECKS
GAME_DECKS: Final = {"spades": SPADES_DECKS, "whist": ("standard",), "euchre": EUCHRE_DECKS}
# target bounds per game (Whist and Euchre count points, not tens of points)
TARGETS: Final = {"spades": (100, 1000), "whist": (1, 100), "euchre": (1, 100)}
# Options each take one of these kinds of value.  A tuple lists the allowed strings/ints.
CHOICES: Final[dict[str, tuple[Any, ...]]] = {
    "game": GAMES,
    "deck": DECK_NAMES,
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
# int options: (min, max); a game may narrow them (TARGETS)
INTS: Final[dict[str, tuple[int, int]]] = {
    "target": TARGETS["spades"],
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
    game: str = "spades"
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
        if self.preset not in PRESETS_DATA:
            raise RulesError(
                f"Unknown preset {self.preset!r}: choose one of {', '.join(PRESETS_DATA)}",
                "preset",
            )
        check_value("game", self.game)
        for name in option_names():
            check_value(name, getattr(self, name), self.game)
        self._check_game()
        if self.joker_bonus and self.deck == "standard":
            raise RulesError("joker_bonus needs a deck with jokers (jokers or jjdd)", "joker_bonus")
        if self.blind_nil_pass and not self.blind_nil:
            raise RulesError("blind_nil_pass needs blind_nil on", "blind_nil_pass")
        if self.double_blind_nil != "off" and not self.blind_nil:
            raise RulesError("double_blind_nil needs blind_nil on", "double_blind_nil")
        if self.bidding == "new_york" and self.deck != "jjdd":
            raise RulesError("new-york bidding is played with the jjdd deck", "deck")
        if self.lose_at is not None and self.lose_at >= self.target:
            raise RulesError("lose_at must be below the target", "lose_at")
        self._check_variants()

    def _check_variants(self) -> None:
        """games.md G7: which G2 options go together."""
        if self.players == 3:
            if self.partnerships:
                raise RulesError("Three players need partnerships off (everyone alone)", "players")
            if self.deck != "standard":
                raise RulesError("Three players play the standard deck", "deck")
        if self.bidding in RESTRICTED_BIDDING:
            title = self.bidding.capitalize()
            if not self.nil:
                raise RulesError(f"{title} bidding needs nil on", "nil")
            if self.bidding == "suicide" and not self.partnerships:
                raise RulesError("Suicide bidding needs partnerships", "partnerships")

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
        game = self.game
        title = GAME_TITLES[game]
        own = GAME_OPTIONS[game]
        for name in option_names():
            if name in ("game", "deck", "target") or name in own:
                continue
            if getattr(self, name) != _DEFAULTS[name]:
                owners = [GAME_TITLES[g] for g in GAMES if name in GAME_OPTIONS[g]]
                raise RulesError(
                    f"{name} is a {' and '.join(owners)} option, not one of {title}", name
                )

    @property
    def title(self) -> str:
        """The game's name: ``"Spades"``, ``"Whist"``, ``"Euchre"``."""
        return GAME_TITLES[self.game]

    @property
    def new_york(self) -> bool:
        return self.bidding == "new_york"

    @property
    def has_bags(self) -> bool:
        return not self.new_york

    @classmethod
    def from_preset(cls, name: str, **overrides: Any) -> Rules:
        """The preset ``name`` with single options overridden (checked like user input)."""
        if name not in PRESETS_DATA:
            raise RulesError(
                f"Unknown preset {name!r}: choose one of {', '.join(PRESETS_DATA)}", "preset"
            )
        base = dict(PRESETS_DATA[name])
        for key, value in overrides.items():
            if key not in option_names():
                raise RulesError(f"Unknown rule option {key!r}", key)
            was = base.get("bidding", "individual")
            if key == "bidding" and value != was and "new_york" in (value, was):
                raise RulesError("New York bidding is fixed by the new-york preset", key)
            if key == "game" and value != base.get("game", "spades"):
                presets = [p for p, data in PRESETS_DATA.items() if data.get("game") == value]
                choose = f": choose the preset {' or '.join(presets)}" if presets else ""
                raise RulesError(f"game is set by the preset{choose}", key)
            if (
                base.get("bidding") == "new_york"
                and key not in NEW_YORK_OVERRIDABLE
                and value != getattr(_DEFAULT_NY, key)
            ):
                raise RulesError(
                    f"{key} cannot be changed in the new-york preset "
                    "(only target, tie and lose_at can)",
                    key,
                )
            base[key] = value
        return cls(preset=name, **base)

    def with_option(self, name: str, value: Any) -> Rules:
        """A copy with one option changed, validated as if the preset had been overridden."""
        return Rules.from_preset(self.preset, **{**self.overrides(), name: value})

    def options(self) -> dict[str, Any]:
        """The game and its options (not the preset name), in definition order."""
        return {n: getattr(self, n) for n in option_names(self.game)}

    def overrides(self) -> dict[str, Any]:
        """The options that differ from this rule set's preset."""
        base = Rules(preset=self.preset, **PRESETS_DATA[self.preset])
        return {n: getattr(self, n) for n in option_names() if getattr(base, n) != getattr(self, n)}

    def to_record(self) -> dict[str, Any]:
        """The ``rules`` object of a record: the preset name plus overridden options."""
        return {"preset": self.preset, **self.overrides()}

    @classmethod
    def from_record(cls, data: Mapping[str, Any]) -> Rules:
        if not isinstance(data, Mapping):
            raise RulesError("rules must be an object")
        preset = data.get("preset", "standard")
        if not isinstance(preset, str):
            raise RulesError("preset must be a string", "preset")
        overrides = {k: v for k, v in data.items() if k != "preset"}
        return cls.from_preset(preset, **overrides)


def option_names(game: str | None = None) -> tuple[str, ...]:
    """Every option name, or (with ``game``) ``"game"`` and that game's options."""
    if game is None:
        return _OPTION_NAMES
    return ("game", *GAME_OPTIONS[game])


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
    raise RulesError(f"Unknown rule option {name!r}", name)


def check_value(name: str, value: Any, game: str = "spades") -> None:
    """Raise :class:`RulesError` naming the option and value unless ``value`` is allowed in
    ``game`` (which narrows ``deck`` and ``target``)."""
    kind = option_kind(name)
    if kind == "bool":
        if not isinstance(value, bool):
            raise RulesError(f"{name} must be on or off (true/false), not {value!r}", name)
    elif kind == "choice":
        allowed = GAME_DECKS[game] if name == "deck" else CHOICES[name]
        if value not in allowed or isinstance(value, bool):
            raise RulesError(
                f"{name} must be one of {', '.join(map(str, allowed))}, not {value!r}", name
            )
    else:
        bounds = TARGETS[game] if name == "target" else INTS.get(name) or OPTIONAL_INTS[name]
        if value is None and kind == "optional_int":
            return
        if not isinstance(value, int) or isinstance(value, bool):
            raise RulesError(f"{name} must be a whole number, not {value!r}", name)
        lo, hi = bounds
        if not lo <= value <= hi:
            off = " (or off)" if kind == "optional_int" else ""
            raise RulesError(f"{name} must be between {lo} and {hi}{off}, not {value}", name)


def _whole_number(text: str) -> int | None:
    """A whole number in ASCII digits, with an optional minus sign (``-``, or the ``−`` the
    bot writes scores with); ``None`` for anything else.  ``int`` reads more than that: other
    scripts' digits (``"٣"``), spaces, ``"+5"``, ``"1_000"``; ``str.isdigit`` passes ``"²"``,
    which ``int`` then refuses."""
    sign, digits = (-1, text[1:]) if text[:1] in ("-", "−") else (1, text)
    if 0 < len(digits) <= 9 and digits.isascii() and digits.isdigit():
        return sign * int(digits)
    return None


def parse_value(name: str, text: str, game: str = "spades") -> Any:
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
            raise RulesError(f"{name} must be on or off, not {text!r}", name)
    elif kind == "choice":
        number = _whole_number(t) if name in _INT_CHOICES else None
        value = number if number is not None else t.replace("-", "_")
    elif kind == "optional_int" and t in ("off", "none", "null", ""):
        value = None
    else:
        value = _whole_number(t)
        if value is None:
            raise RulesError(f"{name} must be a whole number, not {text!r}", name)
    check_value(name, value, game)
    return value


def suggested_values(name: str, game: str = "spades") -> tuple[str, ...]:
    """Values to offer in autocomplete for an option (as text) in ``game``."""
    kind = option_kind(name)
    if kind == "bool":
        return ("on", "off")
    if name == "deck":
        return GAME_DECKS[game]
    if kind == "choice":
        return tuple(str(v) for v in CHOICES[name])
    if name == "target" and game != "spades":
        return ("3", "5", "7", "9", "10", "11", "15", "21")
    common: dict[str, tuple[str, ...]] = {
        "target": ("100", "150", "200", "250", "300", "400", "500", "750", "1000"),
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
_OTHER_GAMES_OPTIONS = ("whist_points", "stick_the_dealer", "euchre_points")
GAME_OPTIONS: Final[dict[str, tuple[str, ...]]] = {
    "spades": tuple(n for n in _OPTION_NAMES if n != "game" and n not in _OTHER_GAMES_OPTIONS),
    "whist": ("target", "whist_points"),
    "euchre": ("target", "deck", "stick_the_dealer", "euchre_points"),
}

_STANDARD: dict[str, Any] = {}
PRESETS_DATA: Final[dict[str, dict[str, Any]]] = {
    "standard": _STANDARD,
    "short": {"target": 250, "nil_value": 50, "blind_nil_value": 100, "double_nil_value": 200},
    "house": {
        "blind_nil_pass": 2,
        "double_blind_nil": "scored",
        "double_blind_nil_min_deficit": 201,
        "nil_tricks": "none",
        "tie": "bags",
        "renege_penalty": 250,
    },
    "guide": {"blind_nil_min_deficit": 0, "double_nil": "team", "double_blind_nil": "decides_game"},
    "tennessee": {
        "blind_nil_min_deficit": 0,
        "nil_tricks": "none",
        "bag_limit": None,
        "bag_penalty": 0,
    },
    "no-set": {"blind_nil": False, "nil_tricks": "none", "set_penalty": "zero"},
    "joker": {"deck": "jokers", "joker_bonus": True},
    "jjdd": {"deck": "jjdd"},
    "new-york": {
        "deck": "jjdd",
        "bidding": "new_york",
        "nil": False,
        "blind_nil": False,
        "blind_nil_min_deficit": 100,
        "nil_tricks": "none",
        "bag_value": 0,
        "bag_limit": None,
        "bag_penalty": 0,
    },
    # games.md G3, G4
    "whist": {"game": "whist", "target": 7},
    "short-whist": {"game": "whist", "target": 5},
    "euchre": {"game": "euchre", "target": 10, "deck": "euchre24"},
    # games.md G2
    "solo": {"partnerships": False},
    "cutthroat-3": {"partnerships": False, "players": 3},
    "suicide": {"bidding": "suicide"},
    "whiz": {"bidding": "whiz"},
    "mirror": {"bidding": "mirror"},
}
PRESET_NAMES: Final = tuple(PRESETS_DATA)
PRESET_GAMES: Final[dict[str, str]] = {p: d.get("game", "spades") for p, d in PRESETS_DATA.items()}


def presets_of(game: str) -> tuple[str, ...]:
    """The presets of one game (``"spades"``, ``"whist"``, ``"euchre"``), in table order."""
    return tuple(p for p in PRESET_NAMES if PRESET_GAMES[p] == game)


PRESET_DESCRIPTIONS: Final[dict[str, str]] = {
    "standard": "Standard: 500 points, nil 100, blind nil 200 when 100 behind, 10 bags = -100",
    "short": "Short game: 250 points, nil 50, blind nil 100",
    "house": "House rules: blind nil passes 2 cards, double blind nil ±400, ties broken by bags",
    "guide": "Guide: double nil ±400 as a team, double blind nil wins or loses the game",
    "tennessee": "Tennessee: blind nil always open, no bag penalty",
    "no-set": "No-set: a failed contract scores 0, no blind nil",
    "joker": "Joker Spades: two jokers top the trumps, +2/+1 for capturing them",
    "jjdd": "Joker-Joker-Deuce-Deuce: BJ > LJ > 2♦ > 2♠ > A♠",
    "new-york": "New York: partnership bids 4-10, blind bids, Boston wins, set twice loses",
    "whist": "Whist: the dealer's last card names trump, odd tricks score, to 7",
    "short-whist": "Short whist: the dealer's last card names trump, odd tricks score, to 5",
    "euchre": "Euchre: 24 cards, bowers, to 10",
    "solo": "Solo (cutthroat): four players, everyone scores alone",
    "cutthroat-3": "Cutthroat for three: 51 cards (no 2♣), 17 tricks, everyone alone",
    "suicide": "Suicide: in each team one partner bids nil, the other 4 or more",
    "whiz": "Whiz: bid nil or exactly your number of spades",
    "mirror": "Mirror: bid exactly your number of spades (none: nil)",
}
_DEFAULT_NY = Rules(preset="new-york", **PRESETS_DATA["new-york"])
