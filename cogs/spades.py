"""``/spades …``: open, join, fill, configure, start and close tables."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import cooldowns
from bot.command_input import excerpt
from bot.engine import games
from bot.engine.rules import (
    option_names,
    suggested_values,
)
from bot.errors import Refusal
from bot.i18n import N_, SERVER_LANGUAGES, _, use
from bot.i18n.cards import seat_word
from bot.league.settings import RATED_TIMER_MIN, GuildSettings, rates_turn_timer
from bot.tables import options as table_options
from bot.tables.new_table import DEFAULT_PRESET, NewTable
from bot.tables.state import LEVELS, Table
from bot.ui.spectator.spectator import watch_choices
from bot.ui.spectator.watch_access import watchable
from bot.ui.text.anywhere_text import anywhere_help_embed, anywhere_league_note
from bot.ui.text.rules_text import help_embed, rules_embed
from bot.ui.text.words import dealer_draw_text, timer_unrated_reason
from cogs.choices import parse_seat, preset_autocomplete, preset_choices, seat_autocomplete
from cogs.common import (
    ANYWHERE_CONTEXTS,
    ANYWHERE_INSTALLS,
    Interaction,
    channel_id,
    client,
    display_name,
    guild_id,
    is_admin,
    place_of,
    public_thread,
    reply,
    require_channel_permissions,
    take_cooldowns,
)

if TYPE_CHECKING:
    from bot.app import SpadesBot

LEVEL_CHOICES = [app_commands.Choice(name=x, value=x) for x in LEVELS]


async def server_defaults(interaction: Interaction) -> GuildSettings | None:
    """The server's table defaults (a server that added the bot; elsewhere none)."""
    league = client(interaction).league
    if league is None or not interaction.guild_id or not interaction.is_guild_integration():
        return None
    return await league.settings.get(interaction.guild_id)


class SpadesCog(commands.Cog):
    spades = app_commands.Group(
        name="spades",
        description="Play Spades at a table in this channel",
        allowed_contexts=ANYWHERE_CONTEXTS,  # servers, DMs and group DMs (docs/user-installs.md)
        allowed_installs=ANYWHERE_INSTALLS,
    )

    def __init__(self, bot: SpadesBot) -> None:
        self.bot = bot

    @spades.command(name="new")
    @app_commands.describe(
        preset="The rules to play (default: this server's)",
        target="Points to win (Spades 100-1000, Whist and Euchre 1-100)",
        turn_timer=f"Seconds each player has to act; 0 = none; 1-{RATED_TIMER_MIN - 1}: unrated",
        thread="Open the table in a new thread",
    )
    @app_commands.autocomplete(preset=preset_autocomplete)
    async def new(
        self,
        interaction: Interaction,
        preset: str | None = None,
        target: app_commands.Range[int, 1, 1000] | None = None,
        turn_timer: app_commands.Range[int, 0, 3600] | None = None,
        thread: bool = False,
    ) -> None:
        """Open a table in this channel; you sit North and host it."""
        bot = client(interaction)
        place = place_of(interaction)  # outside a server that added the bot: the answer
        ask = NewTable(
            guild_id=guild_id(interaction),
            channel_id=channel_id(interaction),
            host_id=interaction.user.id,
            host_name=display_name(interaction),
            place=place,
            preset=preset,
            target=target,
            turn_timer=turn_timer,
            thread=thread,
            in_thread=isinstance(interaction.channel, discord.Thread),
            parent_id=getattr(interaction.channel, "parent_id", None),
        )
        ask = bot.tables.lobby.check_new(ask, await server_defaults(interaction))
        if not place.by_interaction:
            require_channel_permissions(interaction, thread=thread)
        if thread:  # a new thread each time: counted per member and server (bot.cooldowns)
            take_cooldowns(interaction, cooldowns.thread(ask.guild_id, interaction.user.id))
        # Outside servers the table is this command's public answer (docs/user-installs.md).
        await interaction.response.defer(ephemeral=not place.by_interaction, thinking=True)
        where = await _new_thread(interaction, ask) if thread else ask.channel_id
        table = await bot.tables.lobby.open_new(ask, where)
        await interaction.followup.send(await _post_new(interaction, table), ephemeral=True)

    @spades.command(name="join")
    @app_commands.describe(seat="Which seat (default: the first free one)")
    @app_commands.autocomplete(seat=seat_autocomplete)
    async def join(
        self, interaction: Interaction, seat: app_commands.Range[str, 1, 10] | None = None
    ) -> None:
        """Sit at this channel's table (or take back your seat)."""
        guild_id(interaction)
        wanted = parse_seat(seat)
        bot = client(interaction)
        table = bot.tables.registry.in_channel(channel_id(interaction))
        taken = await bot.tables.lobby.join(
            table, interaction.user.id, display_name(interaction), wanted
        )
        await reply(interaction, _("You sit {seat}.", seat=seat_word(taken)))

    @spades.command(name="leave")
    async def leave(self, interaction: Interaction) -> None:
        """Leave the lobby; during a game a computer player takes your seat."""
        gid = guild_id(interaction)
        bot = client(interaction)
        table = bot.tables.registry.find_in_channel(channel_id(interaction))
        if table is None or table.seat_of(interaction.user.id) is None:
            table = bot.tables.registry.of_user(gid, interaction.user.id)
        text = await bot.tables.lobby.leave(table, interaction.user.id)
        await reply(interaction, text)

    @spades.command(name="bot")
    @app_commands.describe(seat="Which seat (default: the first free one)", level="How strong")
    @app_commands.choices(level=LEVEL_CHOICES)
    @app_commands.autocomplete(seat=seat_autocomplete)
    async def add_bot(
        self,
        interaction: Interaction,
        seat: app_commands.Range[str, 1, 10] | None = None,
        level: str = "normal",
    ) -> None:
        """Host: fill a seat with a computer player."""
        guild_id(interaction)
        wanted = parse_seat(seat)
        bot = client(interaction)
        table = bot.tables.registry.in_channel(channel_id(interaction))
        taken = await bot.tables.lobby.add_bot(table, interaction.user.id, wanted, level)
        await reply(
            interaction,
            _(
                "A computer player ({level}) plays {seat}.",
                level=_(level),
                seat=seat_word(taken),
            ),
        )

    @spades.command(name="rule")
    @app_commands.describe(name="The rule option", value="Its new value")
    async def rule(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 40],
        value: app_commands.Range[str, 1, 40],
    ) -> None:
        """Host: change one rule before the game starts."""
        guild_id(interaction)
        bot = client(interaction)
        table = bot.tables.registry.in_channel(channel_id(interaction))
        if name in table_options.OPTION_NAMES:  # the table's own settings (spectators, hints)
            options = await bot.tables.lobby.set_option(table, interaction.user.id, name, value)
            shown_option = options.value_text(name)
            await reply(
                interaction, _("`{name}` is now **{value}**.", name=name, value=shown_option)
            )
            return
        rules = await bot.tables.lobby.set_rule(table, interaction.user.id, name, value)
        shown = getattr(rules, name) if name != "preset" else rules.preset
        await reply(interaction, _("`{name}` is now **{value}**.", name=name, value=_shown(shown)))

    @rule.autocomplete("name")
    async def rule_name_auto(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        names = (
            "preset",
            *option_names(self._game_here(interaction))[1:],
            *table_options.OPTION_NAMES,
        )
        cur = current.lower().strip()
        return [app_commands.Choice(name=n, value=n) for n in names if cur in n][:25]

    @rule.autocomplete("value")
    async def rule_value_auto(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        name = getattr(interaction.namespace, "name", None)
        game = self._game_here(interaction)
        if name == "preset":
            return preset_choices(current)
        if name in table_options.OPTION_NAMES:
            cur = current.lower().strip()
            labels = {
                v: table_options.value_label(name, v) for v in table_options.suggested_values(name)
            }
            return [
                app_commands.Choice(name=label, value=v)
                for v, label in labels.items()
                if cur in v or cur in label.lower()
            ]
        if name in option_names(game):
            values = suggested_values(name, game)
        else:
            return []
        cur = current.lower().strip()
        out = [
            app_commands.Choice(name=_value_label(name, v), value=v)
            for v in values
            if cur in v.lower()
        ]
        if cur and not any(c.value == cur for c in out):
            out.append(app_commands.Choice(name=current[:100], value=current[:100]))
        return out[:25]

    def _game_here(self, interaction: Interaction) -> str:
        """The game of this channel's table (Spades when there is none)."""
        cid = interaction.channel_id
        table = client(interaction).tables.registry.find_in_channel(cid) if cid else None
        return table.rules.game if table is not None else games.DEFAULT_GAME

    @spades.command(name="start")
    async def start(self, interaction: Interaction) -> None:
        """Host: start the game when four seats are filled."""
        guild_id(interaction)
        bot = client(interaction)
        table = bot.tables.registry.in_channel(channel_id(interaction))
        await bot.tables.lobby.start(table, interaction.user.id)
        await reply(interaction, _started_text(table))

    @spades.command(name="table")
    async def table(self, interaction: Interaction) -> None:
        """Post this channel's table message again at the bottom."""
        gid = guild_id(interaction)
        bot = client(interaction)
        table = bot.tables.registry.in_channel(channel_id(interaction))
        if table.place.by_interaction:  # the table is this command's public answer
            # counted per chat: every DM and group DM shares the "server" NO_SERVER
            take_cooldowns(interaction, cooldowns.repost(table.channel_id, interaction.user.id))
            await interaction.response.defer(thinking=True)
            await bot.publisher.post_table_message(table, via=interaction)
            return
        require_channel_permissions(interaction)
        take_cooldowns(interaction, cooldowns.repost(gid, interaction.user.id))
        await interaction.response.defer(ephemeral=True)
        try:
            message = await bot.publisher.post_table_message(table)
        except discord.Forbidden:
            raise Refusal(_("I cannot post in this channel: check my permissions.")) from None
        await interaction.followup.send(
            _("Here it is: {link}", link=message.jump_url), ephemeral=True
        )

    @spades.command(name="watch")
    @app_commands.describe(
        table="Another table of this server whose channel you can read (default: this one's)"
    )
    async def watch(
        self, interaction: Interaction, table: app_commands.Range[str, 1, 20] | None = None
    ) -> None:
        """Watch a game you do not play in: a private view that follows it (only you see it)."""
        guild_id(interaction)
        bot = client(interaction)
        take_cooldowns(interaction, cooldowns.watch(interaction.user.id))
        if table is None:
            chosen = bot.tables.registry.in_channel(channel_id(interaction))
        else:
            mine = watchable(interaction, bot.tables.registry)
            found = [t for t in mine if t.id == table.strip()]
            if not found:
                raise Refusal(
                    _(
                        "There is no table {table} in this server that you can watch: pick "
                        "one from the list.",
                        table=excerpt(table),
                    )
                    if interaction.guild_id is not None
                    else _(
                        "Outside a server you can watch only this chat's table: leave out `table`."
                    )
                )
            chosen = found[0]
        await bot.spectator_views.answer(interaction, bot.tables.spectators, chosen, edit=False)

    @watch.autocomplete("table")
    async def watch_table_auto(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        service = client(interaction).tables
        tables = service.spectators.watchable_by(
            watchable(interaction, service.registry), interaction.user.id
        )
        return [app_commands.Choice(name=n, value=v) for n, v in watch_choices(tables, current)]

    @spades.command(name="rules")
    async def rules(self, interaction: Interaction) -> None:
        """Show this table's rules (only to you)."""
        guild_id(interaction)
        bot = client(interaction)
        table = bot.tables.registry.in_channel(channel_id(interaction))
        await interaction.response.send_message(embed=rules_embed(table.rules), ephemeral=True)

    @spades.command(name="help")
    async def help_command(self, interaction: Interaction) -> None:
        """How to play Spades with this bot (only you see it)."""
        embeds = [help_embed()]
        place = place_of(interaction)
        if place.by_interaction:  # what differs where the bot is no member (issue 27)
            embeds.append(anywhere_help_embed(place, interaction.guild_id is not None))
        await interaction.response.send_message(embeds=embeds, ephemeral=True)

    @spades.command(name="abandon")
    async def abandon(self, interaction: Interaction) -> None:
        """End this table (unrated): the host (others playing must agree), or Manage Server."""
        guild_id(interaction)
        bot = client(interaction)
        table = bot.tables.registry.in_channel(channel_id(interaction))
        text = await bot.tables.endings.abandon(
            table, interaction.user.id, is_admin(interaction), display_name(interaction)
        )
        await reply(interaction, text)


async def _new_thread(interaction: Interaction, ask: NewTable) -> int:
    """The thread of this text channel a new table opens in (``/spades new thread:``), named
    in the server's language for its game and host."""
    channel = interaction.channel
    if not isinstance(channel, discord.TextChannel):
        raise Refusal(_("Threads can be opened from a text channel only."))
    title = games.entry_of(games.game_of_preset(ask.preset or DEFAULT_PRESET)).title
    with use(SERVER_LANGUAGES.of(interaction.guild_id, interaction.guild_locale)):
        name = _("{game} with {name}", game=_(title), name=ask.host_name)
    return (await public_thread(channel, name)).id


async def _post_new(interaction: Interaction, table: Table) -> str:
    """Post a new table's message (in its channel, or as this command's answer outside a
    server that added the bot) and say so to its host; a table whose message cannot be
    posted is closed again."""
    bot, place = client(interaction), table.place
    via = interaction if place.by_interaction else None
    refused = discord.HTTPException if place.by_interaction else discord.Forbidden
    try:
        message = await bot.publisher.post_table_message(table, via=via)
    except refused:
        await bot.tables.endings.close_orphan(table, "its table message could not be posted")
        if place.by_interaction:
            raise Refusal(_("I could not show the table here; please try again.")) from None
        raise Refusal(_("I cannot post in this channel: check my permissions.")) from None
    notes = []
    if place.by_interaction:
        opened = _(
            "Table opened: you sit North. Friends join with the buttons; fill seats with "
            "**Add computer** or `/spades bot`."
        )
        notes.append(anywhere_league_note(place, interaction.guild_id is not None))
    else:
        opened = _(
            "Table opened: {link}\nYou sit North. Friends join with the buttons "
            "or `/spades join`; fill seats with `/spades bot`.",
            link=message.jump_url,
        )
    if not rates_turn_timer(table.turn_timer):
        why = timer_unrated_reason(table.turn_timer)
        notes.append(_("This table is **unrated**: {why}.", why=why))
    return "\n".join([opened, *(n for n in notes if n)])


# What the values of the games.md G1-G2 options mean, shown beside them in `/spades rule`.
VALUE_HINTS: dict[tuple[str, str], str] = {
    ("renege", "prevented"): N_("a card that does not follow suit is refused"),
    ("renege", "claim"): N_("any card may be played; opponents claim reneges"),
    ("renege_penalty", "round"): N_("a caught team keeps at most 0; its points go across"),
    ("renege_penalty", "250"): N_("a caught team scores -250"),
    ("partnerships", "on"): N_("two teams of partners"),
    ("partnerships", "off"): N_("solo: everyone scores alone"),
    ("players", "4"): N_("North, East, South, West"),
    ("players", "3"): N_("North, East, South; no 2♣, 17 tricks (partnerships off)"),
    ("bidding", "individual"): N_("everyone bids freely"),
    ("bidding", "suicide"): N_("one partner bids nil, the other 4 or more"),
    ("bidding", "whiz"): N_("bid nil or your number of spades"),
    ("bidding", "mirror"): N_("bid your number of spades (none: nil)"),
}


def _value_label(name: str, value: str) -> str:
    hint = VALUE_HINTS.get((name, value))
    return f"{value} — {_(hint)}"[:100] if hint else value


def _shown(value: object) -> str:
    if value is None:
        return _("off")
    if isinstance(value, bool):
        return _("on") if value else _("off")
    return str(value)


def _started_text(table: Table) -> str:
    draw = table.dealer_draw or []
    if not draw or table.game is None:
        return _("The game has started.")
    draw_text = dealer_draw_text(draw, table.game.first_dealer)
    return _("Draw for dealer: {draw}. Good luck!", draw=draw_text)


async def setup(bot: SpadesBot) -> None:
    await bot.add_cog(SpadesCog(bot))
