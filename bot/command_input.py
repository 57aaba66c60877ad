"""Checking a slash command's options against the command as the bot defines it now.

Discord checks option types, choices, lengths and ranges in its clients, but an interaction
can still carry anything: a forged payload (``card: 5``, ``seat: Q``, ``target: 0``, 6,000
characters), or a client holding a command definition from before a deploy (options or
subcommands the bot no longer has).  discord.py passes such values on unchecked, so every
interaction is checked here first and refused with a reason the user reads; no command
callback ever sees a value its declaration does not allow.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any, Final

import discord
from discord import AppCommandOptionType as Opt
from discord import app_commands

from bot.errors import Refusal
from bot.i18n import N_, _

STALE: Final = N_(
    "This command has changed since your Discord app loaded it: reload Discord "
    "(Ctrl+R, or restart the app) and try again."
)
EXCERPT: Final = 24  # characters of user input a reply may quote
AUTOCOMPLETE_MAX: Final = 100  # Discord sends at most 100 characters while typing
_SNOWFLAKE_TYPES: Final = (Opt.user, Opt.channel, Opt.role, Opt.mentionable, Opt.attachment)


class BadInput(Refusal):
    """The options do not fit the command; ``reason`` is for the user."""


def whole_number(text: str, max_digits: int = 18) -> int | None:
    """``text`` as a whole number when it is 1 to ``max_digits`` ASCII digits (``"07"`` → 7),
    else ``None``.  ``str.isdigit`` and ``int`` take more than people type: ``"²"`` is a digit
    ``int`` refuses, ``"٣"`` (Arabic-Indic) one it reads as 3, and ``int`` also reads
    ``" 5"``, ``"+5"`` and ``"1_000"``; none of them is a number here."""
    if 0 < len(text) <= max_digits and text.isascii() and text.isdigit():
        return int(text)
    return None


def is_snowflake(text: str) -> bool:
    """A Discord id as text: ASCII digits, below 2**63 (Discord's ids are signed 64-bit)."""
    value = whole_number(text, 20)
    return value is not None and 0 < value < 2**63


def excerpt(value: object, limit: int = EXCERPT) -> str:
    """A short, harmless quotation of user input: one line in a code span (where Discord
    renders no markdown, mention or link), without backticks, control or format characters
    (bidi overrides among them), at most ``limit`` characters (``…`` marks a cut)."""
    text = value if isinstance(value, str) else repr(value)
    cleaned = "".join(" " if unicodedata.category(c)[0] in "CZ" else c for c in text if c != "`")
    cleaned = " ".join(cleaned.split())
    if len(cleaned) > limit:
        cleaned = cleaned[: limit - 1] + "…"
    return f"`{cleaned}`" if cleaned else "that"


def leaf_options(data: Mapping[str, Any]) -> tuple[list[str], list[Mapping[str, Any]]]:
    """The subcommand path under the command name, and the options of the leaf command."""
    path: list[str] = []
    options: Sequence[Any] = data.get("options") or []
    while (
        len(options) == 1 and isinstance(options[0], Mapping) and options[0].get("type") in (1, 2)
    ):
        path.append(str(options[0].get("name")))
        options = options[0].get("options") or []
    return path, [o for o in options if isinstance(o, Mapping)]


def find_command(
    tree: app_commands.CommandTree[Any], data: Mapping[str, Any], guild_id: int | None
) -> app_commands.Command[Any, ..., Any] | None:
    """The command the interaction names, as the bot has it now (``None``: no such command)."""
    name = data.get("name")
    if not isinstance(name, str) or data.get("type", 1) != 1:
        return None
    found: Any = None
    if guild_id is not None:
        found = tree.get_command(name, guild=discord.Object(guild_id))
    if found is None:
        found = tree.get_command(name)
    path, _ = leaf_options(data)
    for part in path:
        if not isinstance(found, app_commands.Group):
            return None
        found = found.get_command(part)
    return found if isinstance(found, app_commands.Command) else None


def check(
    command: app_commands.Command[Any, ..., Any] | None,
    data: Mapping[str, Any],
    *,
    autocomplete: bool = False,
) -> None:
    """Raise :class:`BadInput` unless ``data``'s options fit ``command``."""
    if command is None:
        raise BadInput(_(STALE))
    _path, options = leaf_options(data)
    params = {p.display_name: p for p in command.parameters}
    given: set[str] = set()
    for option in options:
        name = option.get("name")
        param = params.get(name) if isinstance(name, str) else None
        if param is None or name in given or option.get("type") != param.type.value:
            raise BadInput(_(STALE))
        given.add(param.display_name)
        value = option.get("value")
        if autocomplete and option.get("focused"):
            if not isinstance(value, str | int | float) or len(str(value)) > AUTOCOMPLETE_MAX:
                raise BadInput(_("That is too long to look up."))
            continue
        _check_value(param, value)
    if not autocomplete and any(
        p.required and p.display_name not in given for p in params.values()
    ):
        raise BadInput(_(STALE))


def _check_value(param: app_commands.Parameter, value: Any) -> None:
    name = f"`{param.display_name}`"
    kind = param.type
    if kind is Opt.string:
        if not isinstance(value, str):
            raise BadInput(_("{name} must be text, not {value}.", name=name, value=excerpt(value)))
        lo, hi = param.min_value, param.max_value
        if hi is not None and len(value) > hi:
            raise BadInput(
                _(
                    "{name} is too long: at most {hi} characters, not {n}.",
                    name=name,
                    hi=f"{hi:g}",
                    n=len(value),
                )
            )
        if lo is not None and len(value) < lo:
            raise BadInput(
                _("{name} is too short: at least {lo} characters.", name=name, lo=f"{lo:g}")
            )
    elif kind in (Opt.integer, Opt.number):
        whole = kind is Opt.integer
        if whole and isinstance(value, float) and value.is_integer():
            # a whole number past 64 bits, as the gateway's JSON decoder (orjson) gives it
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int if whole else int | float):
            raise BadInput(
                _("{name} must be a whole number.", name=name)
                if whole
                else _("{name} must be a number.", name=name)
            )
        lo, hi = param.min_value, param.max_value
        got = f"{value:g}"
        if lo is not None and hi is not None and not lo <= value <= hi:
            raise BadInput(
                _(
                    "{name} must be between {lo} and {hi}, not {value}.",
                    name=name,
                    lo=f"{lo:g}",
                    hi=f"{hi:g}",
                    value=got,
                )
            )
        if lo is not None and value < lo:
            raise BadInput(
                _("{name} must be at least {lo}, not {value}.", name=name, lo=f"{lo:g}", value=got)
            )
        if hi is not None and value > hi:
            raise BadInput(
                _("{name} must be at most {hi}, not {value}.", name=name, hi=f"{hi:g}", value=got)
            )
    elif kind is Opt.boolean:
        if not isinstance(value, bool):
            raise BadInput(_("{name} must be true or false.", name=name))
    elif kind in _SNOWFLAKE_TYPES and not (isinstance(value, str) and is_snowflake(value)):
        raise BadInput(_("{name} is not something I can look up.", name=name))
    if param.choices and value not in [c.value for c in param.choices]:
        names = ", ".join(c.name.split(" — ")[0] for c in param.choices[:12])
        raise BadInput(
            _(
                "{name} must be one of {names}; not {value}.",
                name=name,
                names=names,
                value=excerpt(value),
            )
        )
