"""One answer to every interaction whose handler failed: slash commands (the command tree),
buttons and selects (:mod:`bot.ui.discord.clicks`) and the cogs alike.

* a refusal (:class:`bot.errors.Refusal`, an engine error): its reason, to the member alone;
* a card that cannot be read: what was typed and how cards are written;
* a command Discord knows in another shape than the bot (stale), an option that cannot be
  read, a failed check: one line saying so;
* the same interaction delivered again: nothing (it was applied and answered the first time);
* anything else: logged with its traceback, and the member told that it went wrong here.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any, Final

import discord
from discord import app_commands

from bot import command_input, timely
from bot.engine import CardParseError, GameError
from bot.errors import Duplicate, Refusal
from bot.i18n import N_, _
from bot.i18n.lines import line_text

log = logging.getLogger(__name__)

SORRY: Final = N_("Sorry, something went wrong on my side. Please try again.")
KINDS: Final = {  # an option's type (discord.AppCommandOptionType's name), in words
    "string": N_("text"),
    "integer": N_("a whole number"),
    "number": N_("a number"),
    "boolean": N_("true or false"),
    "user": N_("a member"),
    "channel": N_("a channel"),
    "role": N_("a role"),
    "mentionable": N_("a member or a role"),
    "attachment": N_("a file"),
}


async def answer_error(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Answer ``interaction`` (ephemerally, whether or not it was answered or deferred
    already) for the ``error`` its handler raised."""
    original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
    if isinstance(original, Duplicate):
        timely.ignore_repeat(interaction)
        return
    timely.judge(interaction, "refused")  # error_text says "failed" for an error of ours
    text = error_text(interaction, error, original)
    with contextlib.suppress(discord.HTTPException):
        await timely.answer(interaction, text)


def refusal_text(error: BaseException) -> str | None:
    """Why a refusal refused, in the member's words: a :class:`Refusal`'s reason, an engine
    error's sentence, a card that cannot be read; ``None`` for anything that is no refusal.
    The one wording of every refusal, wherever it is shown (alone, or on a live hand)."""
    if isinstance(error, CardParseError):
        return _(
            "I don't know the card {card}: try AS, 10H, A♠ or 'queen of hearts'.",
            card=command_input.excerpt(error.text),
        )
    if isinstance(error, Refusal):
        return error.reason  # written in the member's language where it was raised
    if isinstance(error, GameError):
        return line_text(error.line)  # the engine's Line, in the member's words
    return None


def error_text(
    interaction: discord.Interaction[Any], error: BaseException, original: BaseException
) -> str:
    """What the member reads; unexpected errors are logged here."""
    refused = refusal_text(original)
    if refused is not None:
        return refused
    name = timely.describe(interaction)
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        log.info("stale command %s from %s", name, interaction.user.id)
        return _(command_input.STALE)
    if isinstance(error, app_commands.TransformerError):
        log.info("could not read an option of %s: %s", name, error)
        return _(
            "I could not read {value} as {kind}.",
            value=command_input.excerpt(error.value),
            kind=_(KINDS.get(error.type.name, error.type.name)),
        )
    if isinstance(error, app_commands.NoPrivateMessage):  # discord.py's words are English
        return _("This command works in a server only.")
    if isinstance(error, app_commands.CheckFailure):
        log.info("%s refused by a check: %s", name, error)
        return _("You cannot use this command here.")
    log.error("%s failed", name, exc_info=original)
    timely.judge(interaction, "failed")
    return _(SORRY)
