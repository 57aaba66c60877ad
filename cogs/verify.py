"""``/spades verify``: check that a finished game's deals all came from its revealed seed
(docs/verifiable-deals.md).  A subcommand of ``/spades``, added to that group at load time so
that the ``/spades`` cog stays as it is (this extension loads after ``cogs.spades``)."""

from __future__ import annotations

import io
import json
import re

import discord
from discord import app_commands
from discord.ext import commands

from bot.command_input import excerpt, whole_number
from bot.errors import Refusal
from bot.i18n import N_, _
from bot.store.league_history import boards_withheld
from bot.ui.text.seed_text import commitment_only, verify_answer, withheld_answer
from cogs.common import Interaction, client, find_league_scope, guild_id

TABLE_ID = re.compile(r"[a-z0-9]{1,16}")  # as a table's custom ids carry it
NOT_FOUND = N_(
    "No recorded game {what} here: give the table id (in the footer of the table "
    "and game-over messages) or the game number from `/history`."
)


@app_commands.command(name="verify")
@app_commands.describe(game="The table id (from the game-over message) or the game number")
async def verify_command(interaction: Interaction, game: app_commands.Range[str, 1, 20]) -> None:
    """Check that a finished game's deals came from its revealed seed."""
    gid = guild_id(interaction)
    bot = client(interaction)
    key = game.strip().removeprefix("#")
    running = next((t for t in bot.tables.registry.in_guild(gid) if t.id == key), None)
    if running is not None:
        raise Refusal(commitment_only(running))
    scope = find_league_scope(interaction)  # recorded games are a league's
    if scope is None:
        raise Refusal(_(NOT_FOUND, what=excerpt(game)))
    league = scope.key
    # A game number as every command reads one (ASCII digits a database id holds), else a
    # table id; anything else ("²", 20 digits) is no game.
    game_id = whole_number(key)
    if game_id is None and TABLE_ID.fullmatch(key):
        game_id = await bot.review_store.game_of_table(league, key)
    doc = None if game_id is None else await bot.league.history.game_record(league, game_id)
    if game_id is None or doc is None:
        raise Refusal(_(NOT_FOUND, what=excerpt(game)))
    if boards_withheld(doc):  # its round's other tables still play
        raise Refusal(withheld_answer(game_id, doc))
    data = json.dumps(doc, indent=1, ensure_ascii=False).encode()
    await interaction.response.send_message(
        verify_answer(game_id, doc),
        file=discord.File(io.BytesIO(data), filename=f"spades-game-{game_id}.json"),
        ephemeral=True,
    )


async def setup(bot: commands.Bot) -> None:
    group = bot.tree.get_command("spades")
    if not isinstance(group, app_commands.Group):
        raise RuntimeError("cogs.verify adds to /spades: load it after cogs.spades")
    group.add_command(verify_command)
