"""Localised command, option and choice names and descriptions (``app_commands.Translator``).

Names come from the catalogs under the context ``"command"`` (they are Discord names: lower
case, at most 32 letters, digits, ``-`` or ``_``), descriptions and choice names as ordinary
messages.  discord.py asks for every string of every command when it syncs the commands; a
string without a translation is left to Discord's English."""

from __future__ import annotations

import re
from typing import Final

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n.core import SOURCE, _, _p, language_of, use

NAME_PLACES: Final = (Where.command_name, Where.group_name, Where.parameter_name)
# Discord's rule for command and option names (CHAT_INPUT), the scripts it names included.
NAME_RULE: Final = re.compile(r"^[-_\w]{1,32}$")
DESCRIPTION_MAX: Final = 100


def is_discord_name(text: str) -> bool:
    """A valid command or option name: 1-32 word characters, ``-`` or ``_``, lower case."""
    return bool(NAME_RULE.match(text)) and text == text.lower()


class CommandTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = language_of(locale)
        if language == SOURCE:
            return None
        message = string.message
        with use(language):
            if context.location in NAME_PLACES:
                text = _p("command", message)
                valid = is_discord_name(text)
            else:
                text = _(message)
                valid = 1 <= len(text) <= DESCRIPTION_MAX
        return text if valid and text != message else None
