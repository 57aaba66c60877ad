"""Server settings of the league, their defaults and their validation.

Defaults (a server that never changed anything): preset ``standard``, target ``None`` (the
preset's own), no turn timer (0), tables allowed in every channel (an empty set), every
player ranked from the first game (``min_games`` 0), games with computer players unrated,
season 1, no tournament organiser role (only Manage Server opens and runs tournaments).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from bot.engine.games import entry_of, game_of_preset, preset_names
from bot.engine.rules import Rules
from bot.i18n import _
from bot.league.errors import SettingsError

TURN_TIMER_RANGE: Final = (10, 3600)  # seconds, or 0 = off
RATED_TIMER_MIN: Final = TURN_TIMER_RANGE[0]  # a shorter timer (but on) leaves a game unrated
MIN_GAMES_RANGE: Final = (0, 1000)
MAX_ALLOWED_CHANNELS: Final = 50
SETTING_NAMES: Final = (
    "preset",
    "target",
    "turn_timer",
    "allowed_channels",
    "min_games",
    "rate_bot_games",
    "organiser_role",
)


@dataclass(frozen=True, slots=True, kw_only=True)
class GuildSettings:
    guild_id: int
    preset: str = "standard"
    target: int | None = None  # None: the preset's target
    turn_timer: int = 0  # seconds; 0 = off
    allowed_channels: frozenset[int] = frozenset()  # empty: every channel
    min_games: int = 0
    rate_bot_games: bool = False
    current_season: int = 1
    organiser_role: int | None = None  # a role that may run tournaments besides Manage Server

    def default_rules(self) -> Rules:
        """The rules a new table starts with on this server."""
        if self.target is None:
            return Rules.from_preset(self.preset)
        return Rules.from_preset(self.preset, target=self.target)

    def allows_channel(self, channel_id: int, parent_id: int | None = None) -> bool:
        """May a table be opened in this channel (or in a thread of ``parent_id``)?"""
        if not self.allowed_channels:
            return True
        return channel_id in self.allowed_channels or parent_id in self.allowed_channels


def rates_turn_timer(seconds: int) -> bool:
    """May a table with this turn timer be rated: no timer (0), or at least the shortest a
    server may set (:data:`RATED_TIMER_MIN`).  A shorter one is allowed at a table, unrated:
    it would let a host have every absent-minded opponent's seat played by a computer."""
    return seconds == 0 or seconds >= RATED_TIMER_MIN


def validate_changes(current: GuildSettings, changes: dict[str, Any]) -> dict[str, Any]:
    """Check ``changes`` against ``current``; the normalised changes, or :class:`SettingsError`
    with a message naming the setting and the value, in the current language (the admin's:
    the interaction's handler chose it)."""
    out: dict[str, Any] = {}
    for name, value in changes.items():
        if name not in SETTING_NAMES:
            raise SettingsError(
                _(
                    "Unknown setting {name}: choose one of {names}",
                    name=repr(name),
                    names=", ".join(SETTING_NAMES),
                ),
                name,
            )
        out[name] = _CHECKS[name](value)
    preset = out.get("preset", current.preset)
    target = out.get("target", current.target)
    lo, hi = entry_of(game_of_preset(preset)).targets  # the preset's game narrows the target
    if target is not None and not lo <= target <= hi:
        raise SettingsError(
            _(
                "{option} must be between {lo} and {hi}, not {value}",
                option="target",
                lo=lo,
                hi=hi,
                value=target,
            ),
            "target" if "target" in out else "preset",
        )
    return out


def _int(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SettingsError(
            _("{option} must be a whole number, not {value}", option=name, value=repr(value)),
            name,
        )
    return value


def _preset(value: Any) -> str:
    if value not in preset_names():
        names = ", ".join(preset_names())
        raise SettingsError(
            _("Unknown preset {name}: choose one of {names}", name=repr(value), names=names),
            "preset",
        )
    return str(value)


def _target(value: Any) -> int | None:
    if value is None:
        return None
    v = _int("target", value)
    if not 1 <= v <= 1000:  # the preset's game narrows it (Spades 100-1000, Whist/Euchre 1-100)
        raise SettingsError(
            _("target must be between 1 and 1000 points, not {value}", value=v), "target"
        )
    return v


def _turn_timer(value: Any) -> int:
    v = _int("turn_timer", value)
    lo, hi = TURN_TIMER_RANGE
    if v != 0 and not lo <= v <= hi:
        raise SettingsError(
            _(
                "turn_timer must be 0 (off) or between {lo} and {hi} seconds, not {value}",
                lo=lo,
                hi=hi,
                value=v,
            ),
            "turn_timer",
        )
    return v


def _min_games(value: Any) -> int:
    v = _int("min_games", value)
    lo, hi = MIN_GAMES_RANGE
    if not lo <= v <= hi:
        raise SettingsError(
            _("min_games must be between {lo} and {hi}, not {value}", lo=lo, hi=hi, value=v),
            "min_games",
        )
    return v


def _rate_bot_games(value: Any) -> bool:
    if not isinstance(value, bool):
        raise SettingsError(
            _("rate_bot_games must be true or false, not {value}", value=repr(value)),
            "rate_bot_games",
        )
    return value


def _channels(value: Any) -> frozenset[int]:
    if isinstance(value, str | bytes) or not isinstance(value, Iterable):
        raise SettingsError(_("allowed_channels must be a list of channel ids"), "allowed_channels")
    ids = frozenset(value)
    for c in ids:
        if isinstance(c, bool) or not isinstance(c, int) or c <= 0:
            raise SettingsError(_("{value} is not a channel id", value=repr(c)), "allowed_channels")
    if len(ids) > MAX_ALLOWED_CHANNELS:
        raise SettingsError(
            _(
                "at most {n} channels can be allowed, not {value}",
                n=MAX_ALLOWED_CHANNELS,
                value=len(ids),
            ),
            "allowed_channels",
        )
    return ids


def _role(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise SettingsError(
            _("organiser_role must be a role id, not {value}", value=repr(value)),
            "organiser_role",
        )
    return value


_CHECKS: Final[dict[str, Any]] = {
    "preset": _preset,
    "target": _target,
    "turn_timer": _turn_timer,
    "allowed_channels": _channels,
    "min_games": _min_games,
    "rate_bot_games": _rate_bot_games,
    "organiser_role": _role,
}
